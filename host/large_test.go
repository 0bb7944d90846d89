package host

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/score"
)

// TestLargeLinesInBatch scores a batch in which a Calculator prediction of 200 KB and a reply of
// 40 MB sit between good lines: under wazero the answer is byte for byte the native one, every line
// has its verdict, and the good lines are judged as when scored alone.
func TestLargeLinesInBatch(t *testing.T) {
	data, err := dataset.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ix := score.NewIndex(data)
	var calc, reply *score.Sample
	for _, sm := range ix.All() {
		switch {
		case calc == nil && sm.Kind == score.KindCall && sm.GoldTurn().Tool == "Calculator":
			calc = &sm
		case reply == nil && sm.Kind == score.KindReply:
			reply = &sm
		}
	}
	if calc == nil || reply == nil {
		t.Fatal("the builtin data has no Calculator call or no reply sample")
	}
	line := func(sm *score.Sample, pred string) string {
		b, _ := json.Marshal(map[string]any{"level": sm.Dialogue.Level, "file": sm.Dialogue.File, "id": sm.ID, "pred": pred})
		return string(b)
	}
	good := []string{line(calc, score.GoldPrediction(calc.Dialogue, calc.GoldTurn())), line(reply, reply.GoldTurn().Text)}
	huge := []string{
		line(calc, "[Calculator(formula='"+strings.Repeat("9", 200_000)+"+1')]"),
		line(reply, strings.Repeat("ok ", 40<<20/3)),
	}
	request := func(lines ...string) []byte {
		b, _ := json.Marshal(map[string]any{"v": 1, "op": "score", "preds": strings.Join(lines, "\n")})
		return b
	}
	batch := request(good[0], huge[0], good[1], huge[1], good[0])
	native := engine.New().Handle(batch)

	rt := newRuntime(t)
	ctx := context.Background()
	s, err := rt.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	wasm, err := s.Handle(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(native, wasm) {
		t.Fatalf("wazero and native differ:\n%.2000s\n%.2000s", wasm, native)
	}
	var resp struct {
		Result struct {
			Results []json.RawMessage   `json:"results"`
			Errors  []dataset.LineError `json:"errors"`
		} `json:"result"`
	}
	if err := json.Unmarshal(wasm, &resp); err != nil {
		t.Fatal(err)
	}
	r := resp.Result
	if len(r.Results) != 5 || len(r.Errors) != 0 {
		t.Fatalf("%d results, errors %v; want 5 verdicts", len(r.Results), r.Errors)
	}
	if !strings.Contains(string(r.Results[1]), `"output":"Infinity"`) {
		t.Errorf("the 200 KB Calculator line: %.300s, want its result, the output Infinity", r.Results[1])
	}
	if !strings.Contains(string(r.Results[3]), "input too large") {
		t.Errorf("the 40 MB reply: %.300s, want the ROUGE limit error", r.Results[3])
	}
	// The good lines as when alone (their line numbers aside).
	var alone struct {
		Result struct {
			Results []map[string]any `json:"results"`
		} `json:"result"`
	}
	if err := json.Unmarshal(engine.New().Handle(request(good[0], good[1])), &alone); err != nil {
		t.Fatal(err)
	}
	for i, at := range []int{0, 2, 4} {
		var got map[string]any
		if err := json.Unmarshal(r.Results[at], &got); err != nil {
			t.Fatal(err)
		}
		want := alone.Result.Results[i%2]
		delete(got, "line")
		delete(want, "line")
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			t.Errorf("line %d: %s\nalone: %s", at+1, g, w)
		}
	}
}
