package run

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/protocol"
)

// TestScoreInStepsGivesTheScoreOpsAnswer checks that scoring in steps gives, verdict for verdict and
// line error for line error, the batch and report one score request gives, for batches shorter and
// longer than a step, with bad lines among good ones.
func TestScoreInStepsGivesTheScoreOpsAnswer(t *testing.T) {
	es := engine.New()
	do := func(_ context.Context, req []byte) ([]byte, error) { return es.Handle(req), nil }
	samples, err := protocol.Call[[]protocol.SampleView](context.Background(), do, protocol.Request{Op: protocol.OpSamples, Level: "level-1-given-desc"})
	if err != nil || len(samples) == 0 {
		t.Fatalf("samples: %v (%d)", err, len(samples))
	}
	lines := func(count int, badEvery int) []byte {
		var b strings.Builder
		for i := 0; i < count; i++ {
			s := samples[i%len(samples)]
			if badEvery > 0 && i%badEvery == badEvery-1 {
				b.WriteString("{not json\n")
				continue
			}
			line, _ := json.Marshal(map[string]any{"level": s.Level, "file": s.File, "id": s.ID, "pred": fmt.Sprintf("[%s(x='%d')]", s.Tool, i)})
			b.Write(line)
			b.WriteByte('\n')
		}
		return []byte(b.String())
	}
	var long []byte // 9 lines of 300 kB: 3 steps by their bytes, where their count makes one
	for i := 0; i < 9; i++ {
		s := samples[i%len(samples)]
		line, _ := json.Marshal(map[string]any{"level": s.Level, "file": s.File, "id": s.ID, "pred": strings.Repeat("x", 300<<10)})
		long = append(append(long, line...), '\n')
	}
	cases := []struct {
		name  string
		preds []byte
		state string
	}{
		{"one line", lines(1, 0), ""},
		{"exactly one step", lines(ScoreStep, 0), "fresh"},
		{"several steps and a partial one", lines(2*ScoreStep+37, 0), "replay"},
		{"bad lines among good ones", lines(ScoreStep+10, 7), ""},
		{"no final line end", []byte(strings.TrimSuffix(string(lines(3, 0)), "\n")), ""},
		{"long lines, a megabyte a step", long, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := protocol.Call[protocol.Batch](context.Background(), do, protocol.Request{Op: protocol.OpScore, Preds: string(c.preds), State: c.state, Name: "run"})
			if err != nil {
				t.Fatal(err)
			}
			steps := 0
			got, err := ScoreInSteps(context.Background(), do, c.preds, c.state, "run", func() { steps++ })
			if err != nil {
				t.Fatal(err)
			}
			wantSteps := max((bytes.Count(c.preds, []byte("\n"))+ScoreStep)/ScoreStep, len(c.preds)/ScoreStepBytes+1)
			if steps < wantSteps {
				t.Errorf("yielded %d times, want at least %d (one a step)", steps, wantSteps)
			}
			if len(got.Results) == 0 && len(want.Results) > 0 {
				t.Fatal("no verdicts")
			}
			w, _ := json.Marshal(want)
			g, _ := json.Marshal(got)
			if string(w) != string(g) {
				t.Errorf("in steps:\n%.600s\none request:\n%.600s", g, w)
			}
		})
	}
}
