package protocol

import (
	"errors"
	"strings"
	"testing"
)

func TestEachLine(t *testing.T) {
	call := func(line int) Verdict {
		return Verdict{Level: "level-1-given-desc", File: "a.jsonl", ID: 0, Line: line, Kind: KindCall, CallVerdict: &CallVerdict{Category: "CORRECT", Correct: true, Tool: "T"}}
	}
	tests := []struct {
		name  string
		batch Batch
		want  []string
	}{
		{"empty", Batch{}, nil},
		{"errors between verdicts", Batch{Results: []Verdict{call(1), call(4)}, Errors: []LineError{{File: "p", Line: 2, Message: "bad <json>"}, {File: "p", Line: 3, Message: "no sample"}}},
			[]string{`"line":1`, `{"error":"bad \u003cjson\u003e","line":2}`, `{"error":"no sample","line":3}`, `"line":4`}},
		{"a verdict before an error of the same line", Batch{Results: []Verdict{call(2)}, Errors: []LineError{{Line: 2, Message: "x"}, {Line: 1, Message: "y"}}},
			[]string{`{"error":"y","line":1}`, `"line":2`, `{"error":"x","line":2}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			if err := tt.batch.EachLine(func(l []byte) error { got = append(got, string(l)); return nil }); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("lines %q, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) || strings.Contains(got[i], "\n") {
					t.Errorf("line %d = %s, want it to contain %s", i+1, got[i], w)
				}
			}
		})
	}
	stop := errors.New("stop")
	n := 0
	b := Batch{Results: []Verdict{call(1), call(2)}}
	if err := b.EachLine(func([]byte) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("EachLine went on after an error: %v, %d calls", err, n)
	}
}
