package engine

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/tools"
)

func ask[T any](t *testing.T, s *Session, req protocol.Request) T {
	t.Helper()
	got, err := protocol.Call[T](context.Background(), func(_ context.Context, b []byte) ([]byte, error) { return s.Handle(b), nil }, req)
	if err != nil {
		t.Fatalf("%s: %v", req.Op, err)
	}
	return got
}

// TestRestartForgetsEverything changes every kind of session state (loaded data, sandbox calls,
// a live episode), restarts, and finds a session equal to a new one.
func TestRestartForgetsEverything(t *testing.T) {
	s := New()
	fresh := New()
	wantHello := ask[protocol.Hello](t, fresh, protocol.Request{Op: protocol.OpHello})
	wantWorld := ask[protocol.World](t, fresh, protocol.Request{Op: protocol.OpWorld})
	scenes := ask[[]protocol.DialogueSummary](t, s, protocol.Request{Op: protocol.OpDialogues, Level: "level-3"})
	ep := ask[protocol.EpisodeStarted](t, s, protocol.Request{Op: protocol.OpEpisodeStart, File: scenes[0].File})
	ask[protocol.CallResult](t, s, protocol.Request{Op: protocol.OpCall, Call: json.RawMessage(`"[AddAlarm(token='x', time='2023-03-05 07:00:00')]"`)})
	ask[protocol.CallResult](t, s, protocol.Request{Op: protocol.OpCall, Call: json.RawMessage(`"[Calculator(formula='1+1')]"`)})
	tiny := `{"role":"User","text":"2+2?"}
{"role":"API","api_name":"Calculator","param_dict":{"formula":"2+2"},"result":{"api_name":"Calculator","input":{"formula":"2+2"},"output":4.0,"exception":null}}
{"role":"AI","text":"4."}`
	ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Name: "tiny", Files: map[string]string{"level-1-given-desc/calc.jsonl": tiny}})

	got := ask[protocol.Hello](t, s, protocol.Request{Op: protocol.OpRestart})
	if got.Data != wantHello.Data || got.Data != "builtin" {
		t.Errorf("after restart the data is %q, want %q", got.Data, wantHello.Data)
	}
	w := ask[protocol.World](t, s, protocol.Request{Op: protocol.OpWorld})
	if len(w.History) != 0 || len(w.Changed) != 0 || string(w.Databases) != string(wantWorld.Databases) {
		t.Errorf("after restart the sandbox has %d calls, changed %v, same databases %v", len(w.History), w.Changed, string(w.Databases) == string(wantWorld.Databases))
	}
	if _, err := protocol.Call[protocol.Outcome](context.Background(), func(_ context.Context, b []byte) ([]byte, error) { return s.Handle(b), nil },
		protocol.Request{Op: protocol.OpEpisodeFinish, Episode: ep.Episode}); err == nil || !strings.Contains(err.Error(), "not_found") {
		t.Errorf("the episode started before restart is still there: %v", err)
	}
}

// TestCatalogSchemas: a native catalog request answers exactly the schemas prompts offer; the text
// form answers none; another form is refused.
func TestCatalogSchemas(t *testing.T) {
	s := New()
	for _, cat := range []*tools.Catalog{tools.APIs, tools.LV3} {
		got := ask[protocol.Catalog](t, s, protocol.Request{Op: protocol.OpCatalog, Catalog: cat.Name, Form: "native"})
		if string(got.Schemas) != string(score.Schemas(cat.Tools())) {
			t.Errorf("%s: schemas differ from score.Schemas", cat.Name)
		}
		var list []map[string]any
		if err := json.Unmarshal(got.Schemas, &list); err != nil || len(list) != len(cat.Tools()) || list[0]["type"] != "function" {
			t.Errorf("%s: %d schemas for %d tools (%v)", cat.Name, len(list), len(cat.Tools()), err)
		}
		text := ask[protocol.Catalog](t, s, protocol.Request{Op: protocol.OpCatalog, Catalog: cat.Name})
		if text.Schemas != nil || len(text.Tools) != len(cat.Tools()) {
			t.Errorf("%s text form: schemas %q, %d tools", cat.Name, text.Schemas, len(text.Tools))
		}
	}
	resp := string(s.Handle([]byte(`{"v":1,"op":"catalog","catalog":"apis","form":"yaml"}`)))
	if !strings.Contains(resp, `"bad_request"`) || !strings.Contains(resp, "yaml") {
		t.Errorf("a bad form: %s", resp)
	}
}

// TestSessionsShareTheBuiltinIndex: sessions of the builtin data, made concurrently, share one
// index, and judge concurrently exactly as one session alone does (go test -race checks the cache).
func TestSessionsShareTheBuiltinIndex(t *testing.T) {
	samples := ask[[]protocol.SampleView](t, New(), protocol.Request{Op: protocol.OpSamples, Level: "level-1-given-desc"})
	var preds strings.Builder
	for _, sm := range samples[:40] {
		line, _ := json.Marshal(map[string]any{"file": sm.File, "id": sm.ID, "pred": "[Calculator(formula='1+1')]"})
		preds.Write(line)
		preds.WriteByte('\n')
	}
	req, _ := protocol.Encode(protocol.Request{Op: protocol.OpScore, Preds: preds.String(), State: "fresh"})
	want := string(New().Handle(req))
	var wg sync.WaitGroup
	got := make([]string, 4)
	sessions := make([]*Session, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sessions[i] = New()
			got[i] = string(sessions[i].Handle(req))
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("session %d judged differently", i)
		}
		if sessions[i].index != sessions[0].index {
			t.Errorf("session %d has an index of its own", i)
		}
	}
}
