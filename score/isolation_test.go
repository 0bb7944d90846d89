package score

import (
	"errors"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/rouge"
)

// TestIsolated: a panic of any kind inside f becomes an error naming it; no panic, no error.
func TestIsolated(t *testing.T) {
	var nilMap map[string]int
	tests := []struct {
		name string
		f    func()
		want string // in the error; "" for none
	}{
		{"no panic", func() {}, ""},
		{"text", func() { panic("boom") }, "boom"},
		{"error", func() { panic(errors.New("bad state")) }, "bad state"},
		{"runtime error", func() { nilMap["x"] = 1 }, "assignment to entry in nil map"},
		{"index out of range", func() { _ = []int{}[len(nilMap)] }, "index out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := isolated(tt.f)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "internal error") {
				t.Fatalf("error = %v, want an internal error naming %q", err, tt.want)
			}
		})
	}
}

// TestScoreIsolatesLines scores a batch in which one line makes judging panic (its dialogue is
// damaged after indexing, so its gold turn is out of range): that line gets a line error naming its
// line and sample, every other line its usual verdict. Oversized predictions get INPUT_TOO_LARGE
// (calls) or the ROUGE limit error (replies), and the lines after them are judged too.
func TestScoreIsolatesLines(t *testing.T) {
	good := dialogue(t, dataset.Level1, "good.jsonl", strings.Join([]string{user, api, ai}, "\n"))
	damaged := dialogue(t, dataset.Level1, "damaged.jsonl", strings.Join([]string{user, api, ai}, "\n"))
	base, _ := builtin(t)
	data := dataset.NewData("test", []*dataset.Dialogue{good, damaged})
	data.Base = base.Base
	ix := NewIndex(data)
	if _, err := ix.Find(dataset.Level1, "damaged.jsonl", 0); err != nil { // its samples built
		t.Fatal(err)
	}
	damaged.Turns = damaged.Turns[:1]

	hugeCall := "[GetToday()]" + strings.Repeat(" ", MaxCallPrediction)
	hugeReply := strings.Repeat("ok ", rouge.MaxTokens+1)
	preds := []Prediction{
		{File: "good.jsonl", ID: 0, Pred: "[GetToday()]", Line: 1},
		{File: "damaged.jsonl", ID: 0, Pred: "[GetToday()]", Line: 2},
		{File: "good.jsonl", ID: 1, Pred: "ok", Line: 3},
		{File: "damaged.jsonl", ID: 1, Pred: "ok", Line: 4},
		{File: "good.jsonl", ID: 0, Pred: hugeCall, Line: 5},
		{File: "good.jsonl", ID: 1, Pred: hugeReply, Line: 6},
		{File: "good.jsonl", ID: 0, Pred: "[GetToday()]", Line: 7},
	}
	b := Score(data, ix, preds, Fresh, "preds.jsonl")

	wantResults := []struct {
		line     int
		category string // call verdicts
		rouge    float64
		errText  string // in the verdict's error
	}{
		{1, Correct, 0, ""},
		{3, "", 0.999999995, ""},
		{5, InputTooLarge, 0, "more than the 4194304 a call prediction may have"},
		{6, "", 0, "more than 262144 tokens"},
		{7, Correct, 0, ""},
	}
	if len(b.Results) != len(wantResults) {
		t.Fatalf("%d results, want %d: %+v", len(b.Results), len(wantResults), b.Results)
	}
	for i, w := range wantResults {
		r := b.Results[i]
		if r.Line != w.line {
			t.Errorf("result %d is line %d, want %d", i, r.Line, w.line)
			continue
		}
		switch {
		case r.CallVerdict != nil:
			if r.Category != w.category || !strings.Contains(r.CallVerdict.Error, w.errText) {
				t.Errorf("line %d: %s %q, want %s with %q", w.line, r.Category, r.CallVerdict.Error, w.category, w.errText)
			}
		case r.ReplyVerdict != nil:
			if w.category != "" || Round4(w.rouge) != r.RougeL || !strings.Contains(r.ReplyVerdict.Error, w.errText) {
				t.Errorf("line %d: rouge %v %q, want %v with %q", w.line, r.RougeL, r.ReplyVerdict.Error, Round4(w.rouge), w.errText)
			}
		default:
			t.Errorf("line %d: no verdict", w.line)
		}
	}
	if len(b.Errors) != 2 {
		t.Fatalf("line errors %+v, want lines 2 and 4", b.Errors)
	}
	for i, line := range []int{2, 4} {
		e := b.Errors[i]
		if e.Line != line || e.File != "preds.jsonl" || !strings.Contains(e.Message, "damaged.jsonl") ||
			!strings.Contains(e.Message, "internal error") || !strings.Contains(e.Message, "index out of range") {
			t.Errorf("line error %d = %+v, want line %d naming damaged.jsonl and the panic", i, e, line)
		}
	}
	if b.Report == nil {
		t.Fatal("no report")
	}
}
