package run

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

func native() protocol.Transport {
	s := engine.New()
	return func(_ context.Context, req []byte) ([]byte, error) { return s.Handle(req), nil }
}

// goldScript answers the first call sample of level 1 with its gold call (both forms) and every
// other request with a reply; for episodes it calls Calculator once, then replies.
func goldScript(t *testing.T) (fakemodel.Script, Task) {
	t.Helper()
	do := native()
	ts, err := Tasks(context.Background(), do, Config{Levels: []string{"level-1-given-desc"}, Limit: 4})
	if err != nil || len(ts) < 2 {
		t.Fatalf("tasks: %v %v", ts, err)
	}
	first := ts[0]
	id := first.ID
	p, err := protocol.Call[protocol.Prompt](context.Background(), do, protocol.Request{Op: protocol.OpPrompt, Level: first.Level, File: first.File, Sample: &id})
	if err != nil {
		t.Fatal(err)
	}
	var gold struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(p.GoldNative), &gold); err != nil {
		t.Fatal(err)
	}
	// The last user message of the first sample is its planted key.
	var msgs []struct{ Role, Content string }
	_ = json.Unmarshal(p.Messages, &msgs)
	key := msgs[len(msgs)-1].Content
	yes, no := true, false
	return fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Last: key, Tools: &no}, Reply: fakemodel.Reply{Content: p.Gold}},
		{Match: fakemodel.Match{Last: key, Tools: &yes}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{{Name: gold.Name, Arguments: gold.Arguments}}}},
		{Match: fakemodel.Match{Role: "tool"}, Reply: fakemodel.Reply{Content: "Done: the result is above."}},
		{Match: fakemodel.Match{Last: "Response:"}, Reply: fakemodel.Reply{Content: "Done: the result is above."}},
		{Match: fakemodel.Match{Tools: &yes, Any: "Scene"}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{{Name: "Calculator", Arguments: json.RawMessage(`{"formula":"2+2"}`)}}}},
		{Match: fakemodel.Match{Tools: &yes}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{{Name: "Calculator", Arguments: json.RawMessage(`{"formula":"2+2"}`)}}}},
		{Reply: fakemodel.Reply{Content: "[Calculator(formula='2+2')]"}},
	}}, first
}

func TestRunBothFormsEveryLevel(t *testing.T) {
	script, first := goldScript(t)
	srv, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, form := range []string{Text, Native} {
		for _, stream := range []bool{false, true} {
			t.Run(form+map[bool]string{true: "-stream", false: ""}[stream], func(t *testing.T) {
				chat := model.New(model.Settings{BaseURL: srv.URL(), Model: "fake-model", Stream: stream})
				cfg := Config{Form: form, Levels: []string{"level-1-given-desc", Level3}, Limit: 4, Concurrency: 3, Steps: 3}
				var last Progress
				res, err := Run(context.Background(), native(), chat, cfg, Options{Progress: func(p Progress) { last = p }})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Predictions) != 4 || len(res.Episodes) != 4 || len(res.Failures) != 0 {
					t.Fatalf("%d predictions, %d episodes, %d failures", len(res.Predictions), len(res.Episodes), len(res.Failures))
				}
				if last.Done != 8 || last.Total != 8 {
					t.Fatalf("progress %+v, want 8 of 8", last)
				}
				p0 := res.Predictions[0]
				if p0.File != first.File || p0.ID != first.ID {
					t.Fatalf("predictions out of the run's order: %+v first, want %+v", p0, first)
				}
				v := res.Batch.Results[0]
				if !v.Call().Correct || v.Call().Form != form {
					t.Fatalf("the gold answer is judged %s in form %q (want CORRECT, %s); pred %s", v.Call().Category, v.Call().Form, form, p0.Pred)
				}
				for _, ep := range res.Episodes {
					if ep.Outcome == nil || len(ep.Calls) == 0 || ep.Stopped != "reply" || len(ep.Transcript) < 3 {
						t.Fatalf("episode %s: outcome %v, %d calls, stopped %q, %d messages", ep.File, ep.Outcome, len(ep.Calls), ep.Stopped, len(ep.Transcript))
					}
				}
				// The same answers give the same bytes: a second run equals the first.
				again, err := Run(context.Background(), native(), chat, cfg, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(PredictionsJSONL(res.Predictions), PredictionsJSONL(again.Predictions)) {
					t.Fatal("two runs of the same answers differ")
				}
			})
		}
	}
}

func TestRunCountsFailedRequestsApart(t *testing.T) {
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{{Fault: &fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 503, Message: "overloaded"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	chat := model.New(model.Settings{BaseURL: srv.URL(), Model: "m", APIKey: "sk-secret-123", Retries: -1})
	res, err := Run(context.Background(), native(), chat, Config{Levels: []string{"level-1-given-desc"}, Limit: 3}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) != 3 || len(res.Predictions) != 0 || res.Batch != nil {
		t.Fatalf("%d failures, %d predictions", len(res.Failures), len(res.Predictions))
	}
	for _, f := range res.Failures {
		if f.Status != 503 || !strings.Contains(f.Message, "overloaded") || strings.Contains(f.Message, "sk-secret-123") {
			t.Fatalf("failure %+v", f)
		}
	}
}

func TestCancelKeepsWhatFinished(t *testing.T) {
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{{Reply: fakemodel.Reply{Content: "[Calculator(formula='1+1')]"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	chat := model.New(model.Settings{BaseURL: srv.URL(), Model: "m"})
	res, err := Run(ctx, native(), chat, Config{Levels: []string{"level-1-given-desc"}, Limit: 50, Concurrency: 1}, Options{Progress: func(p Progress) {
		if p.Done == 5 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Cancelled || len(res.Failures) != 0 || len(res.Predictions) < 5 || len(res.Predictions) >= 50 || res.Batch == nil || len(res.Batch.Results) != len(res.Predictions) {
		t.Fatalf("cancelled %v with %d predictions", res.Cancelled, len(res.Predictions))
	}
}

func TestPred(t *testing.T) {
	tests := []struct {
		name string
		r    model.Response
		want string
	}{
		{"text", model.Response{Content: "[A(x='1')]"}, "[A(x='1')]"},
		{"a tool call", model.Response{ToolCalls: []model.ToolCall{{Name: "A", Arguments: `{ "x": "1" }`}}}, `{"name":"A","arguments":{"x":"1"}}`},
		{"invalid arguments stay as written", model.Response{ToolCalls: []model.ToolCall{{Name: "A", Arguments: `{"x": "1`}}}, `{"name":"A","arguments":"{\"x\": \"1"}`},
		{"several calls: a list, in order", model.Response{ToolCalls: []model.ToolCall{{Name: "A", Arguments: `{}`}, {Name: "B", Arguments: `{"y": 2}`}}}, `[{"name":"A","arguments":{}},{"name":"B","arguments":{"y":2}}]`},
	}
	for _, tt := range tests {
		if got := Pred(tt.r); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestResumeKeepsFinishedEpisodes: the episodes of a run are told to EpisodeLanded as they end,
// and a resumed run that has them (DoneEpisode) plays none of them again: no model request, the
// same episodes in the result.
func TestResumeKeepsFinishedEpisodes(t *testing.T) {
	script, _ := goldScript(t)
	srv, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	chat := model.New(model.Settings{BaseURL: srv.URL(), Model: "fake-model"})
	cfg := Config{Levels: []string{Level3}, Limit: 3, Steps: 3}
	kept := map[string]Episode{}
	first, err := Run(context.Background(), native(), chat, cfg, Options{EpisodeLanded: func(k string, ep Episode) { kept[k] = ep }})
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 3 || len(first.Episodes) != 3 {
		t.Fatalf("%d episodes landed of %d played, want 3 of 3", len(kept), len(first.Episodes))
	}
	srv.Reset()
	// Resume with two of the three kept: only the third is played again.
	var skipped string
	for k := range kept {
		skipped = k
		break
	}
	resumed, err := Run(context.Background(), native(), chat, cfg, Options{DoneEpisode: func(k string) (Episode, bool) {
		ep, ok := kept[k]
		return ep, ok && k != skipped
	}})
	if err != nil {
		t.Fatal(err)
	}
	played := map[string]bool{}
	for _, r := range srv.Requests() {
		if r.Chat == nil || len(r.Chat.Messages) == 0 || r.Chat.Messages[0].Content == nil {
			continue
		}
		for _, ep := range first.Episodes {
			if *r.Chat.Messages[0].Content == ep.Transcript[0].Content {
				played[ep.File] = true
			}
		}
	}
	if len(played) != 1 {
		t.Fatalf("the resumed run asked the model for %d scenes (%v), want only the one not kept", len(played), played)
	}
	a, _ := json.Marshal(first.Episodes)
	b, _ := json.Marshal(resumed.Episodes)
	if !bytes.Equal(a, b) {
		t.Fatalf("the resumed run's episodes differ from the first run's:\n%s\n%s", a, b)
	}
}

// TestSamplesInSteps checks that listing a level's samples with a yield gives the same list as
// without, and gives the page a turn after the answer, after its envelope and every samplesStep
// samples.
func TestSamplesInSteps(t *testing.T) {
	e := &serial{do: native()}
	for _, level := range []string{"level-1-given-desc", "level-2-toolsearcher"} {
		t.Run(level, func(t *testing.T) {
			whole, err := samplesOf(context.Background(), e, level, nil)
			if err != nil || len(whole) == 0 {
				t.Fatalf("samples: %d, %v", len(whole), err)
			}
			yields := 0
			stepped, err := samplesOf(context.Background(), e, level, func() { yields++ })
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(whole)
			b, _ := json.Marshal(stepped)
			if !bytes.Equal(a, b) {
				t.Fatal("the list decoded in steps differs from the list decoded at once")
			}
			if want := 2 + (len(whole)-1)/samplesStep; yields != want {
				t.Errorf("%d samples: %d yields, want %d", len(whole), yields, want)
			}
		})
	}
}

// TestLiveAccuracyIsTheReports: the live accuracy counts what the report's call accuracy counts
// (not the special cases, which the report counts apart, nor level-3 episodes), so the reading
// when the last task lands already equals the report's, and the last reading is the report's.
func TestLiveAccuracyIsTheReports(t *testing.T) {
	script, _ := goldScript(t)
	srv, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	chat := model.New(model.Settings{BaseURL: srv.URL(), Model: "fake-model"})
	var atTotal, last Progress
	cfg := Config{Levels: []string{"level-1-given-desc", Level3}, Limit: 12, Steps: 2}
	res, err := Run(context.Background(), native(), chat, cfg, Options{Progress: func(p Progress) {
		if p.Done == p.Total && !p.Scored && atTotal.Total == 0 {
			atTotal = p
		}
		last = p
	}})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Batch.Report.Overall
	if o.Special == 0 || o.Correct == 0 || len(res.Episodes) == 0 {
		t.Fatalf("the run should hold special cases (%d), right calls (%d) and episodes (%d)", o.Special, o.Correct, len(res.Episodes))
	}
	for name, p := range map[string]Progress{"when the last task landed": atTotal, "at the end": last} {
		if p.Correct != o.Correct || p.Judged != o.Calls {
			t.Errorf("%s the live count is %d of %d, the report's %d of %d", name, p.Correct, p.Judged, o.Correct, o.Calls)
		}
	}
	if !last.Scored || atTotal.Scored {
		t.Errorf("Scored: %v at the end, %v when the last task landed", last.Scored, atTotal.Scored)
	}
}

func TestLevelNamed(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"level-1-given-desc", "level-1-given-desc", true},
		{"1", "level-1-given-desc", true},
		{"level-1", "level-1-given-desc", true},
		{"2", "level-2-toolsearcher", true},
		{"level-2", "level-2-toolsearcher", true},
		{"level-3", "level-3", true},
		{"3", "level-3", true},
		{"4", "", false},
		{"level-2-given-desc", "", false},
		{"Level-1", "", false},
		{" 1", "", false},
		{"", "", false},
	} {
		if got, ok := LevelNamed(c.in); got != c.want || ok != c.ok {
			t.Errorf("LevelNamed(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestValidateLevels: a config that names a level no data has cannot run: it would ask nothing.
func TestValidateLevels(t *testing.T) {
	if err := (Config{Levels: []string{"level-1-given-desc", Level3}}).Validate(); err != nil {
		t.Errorf("the levels' folder names: %v", err)
	}
	err := (Config{Levels: []string{"level-1-given-desc", "1"}}).Validate()
	if err == nil || !strings.Contains(err.Error(), `no level "1"`) || !strings.Contains(err.Error(), "level-3 (3)") {
		t.Errorf("a level's number in a config (the config holds folder names): %v; want the levels listed", err)
	}
}
