package board_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/boardtest"
)

// lines splits a run file into its lines (no trailing empty one).
func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

func join(ls []string) string { return strings.Join(ls, "\n") + "\n" }

// TestRescorePerfectRun: the perfect model's whole run, in both forms, is complete and right
// everywhere: every call and special case, ROUGE-L 1, every level-3 episode a success.
func TestRescorePerfectRun(t *testing.T) {
	for _, form := range []string{run.Text, run.Native} {
		t.Run(form, func(t *testing.T) {
			sub := boardtest.Run(t, form)
			j, err := board.Rescore(context.Background(), boardtest.Engine(), sub)
			if err != nil {
				t.Fatal(err)
			}
			s := j.Score
			if !s.Complete || s.Missing != 0 || s.Failed != 0 || s.Answered != s.Expected {
				t.Fatalf("complete %v, missing %d, failed %d, answered %d of %d", s.Complete, s.Missing, s.Failed, s.Answered, s.Expected)
			}
			if len(s.Levels) != 3 {
				t.Fatalf("%d levels scored, want 3", len(s.Levels))
			}
			for _, l := range append(s.Levels, s.Overall) {
				if l.Judged == 0 || l.Right != l.Judged || l.Accuracy != 1 || l.SpecialRight != l.Special || l.Successes != l.Episodes {
					t.Errorf("%s: %+v, want every task right", l.Level, l)
				}
				if l.Replies > 0 && l.RougeL != 1 {
					t.Errorf("%s: ROUGE-L %v over %d replies, want 1", l.Level, l.RougeL, l.Replies)
				}
			}
			if l3 := s.Levels[2]; l3.Episodes == 0 || l3.Episodes != l3.Tasks {
				t.Errorf("level 3: %d episodes of %d tasks", l3.Episodes, l3.Tasks)
			}
			if len(j.Verdicts) != s.Expected {
				t.Errorf("%d verdicts, want one per task (%d)", len(j.Verdicts), s.Expected)
			}
			for l, m := range s.Marks {
				if strings.ContainsAny(m, "0-") {
					t.Errorf("marks of %s hold a wrong or missing task: %q", l, m)
				}
			}
		})
	}
}

// TestRescoreBelievesNothingClaimed: a forged report, forged episode outcomes and forged verdict
// fields on the lines change nothing: the engine's judgement of a worse model stands.
func TestRescoreBelievesNothingClaimed(t *testing.T) {
	sub := boardtest.Worse(t, boardtest.Run(t, run.Native), 4)
	honest, err := board.Rescore(context.Background(), boardtest.Engine(), sub)
	if err != nil {
		t.Fatal(err)
	}
	if honest.Score.Overall.Accuracy >= 1 {
		t.Fatalf("the worse model scored %v: the test needs a model that is wrong somewhere", honest.Score.Overall.Accuracy)
	}
	forged := sub
	forged.Report = map[string]any{"overall": map[string]any{"accuracy": 1, "calls": 721, "correct": 721}}
	var ls []string
	for _, l := range lines(sub.Trials[0].Predictions) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if run.IsEpisodeLine([]byte(l)) {
			m["outcome"] = map[string]any{"success": true, "recall": 1, "state_match": true}
		} else {
			m["correct"], m["category"] = true, "CORRECT"
		}
		b, _ := json.Marshal(m)
		ls = append(ls, string(b))
	}
	forged.Trials = []board.Trial{{Predictions: join(ls)}}
	got, err := board.Rescore(context.Background(), boardtest.Engine(), forged)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := got.Score.Overall, honest.Score.Overall; g.Right != w.Right || g.Judged != w.Judged || g.Successes != w.Successes {
		t.Errorf("forged claims moved the score: %+v, the engine's own %+v", g, w)
	}
}

// TestRescoreCompleteness: a missing task makes the entry partial; a failed request is complete
// and wrong; trials count apart.
func TestRescoreCompleteness(t *testing.T) {
	sub := boardtest.Run(t, run.Text)
	ls := lines(sub.Trials[0].Predictions)
	var first run.Prediction
	if err := json.Unmarshal([]byte(ls[0]), &first); err != nil {
		t.Fatal(err)
	}
	rest := join(ls[1:])
	perfect, err := board.Rescore(context.Background(), boardtest.Engine(), sub)
	if err != nil {
		t.Fatal(err)
	}

	missing := sub
	missing.Trials = []board.Trial{{Predictions: rest}}
	j, err := board.Rescore(context.Background(), boardtest.Engine(), missing)
	if err != nil {
		t.Fatal(err)
	}
	if j.Score.Complete || j.Score.Missing != 1 {
		t.Errorf("one line left out: complete %v, missing %d, want partial with 1 missing", j.Score.Complete, j.Score.Missing)
	}

	failed := sub
	failed.Trials = []board.Trial{{Predictions: rest, Failures: []run.Failure{{Task: run.Task{Level: first.Level, File: first.File, ID: first.ID}, Status: 500, Message: "boom"}}}}
	j, err = board.Rescore(context.Background(), boardtest.Engine(), failed)
	if err != nil {
		t.Fatal(err)
	}
	if !j.Score.Complete || j.Score.Failed != 1 {
		t.Errorf("one request failed: complete %v, failed %d, want complete with 1 failed", j.Score.Complete, j.Score.Failed)
	}
	if w := perfect.Score.Overall; j.Score.Overall.Judged != w.Judged || j.Score.Overall.Right != w.Right-1 {
		t.Errorf("the failed request should count as one wrong task: %+v against %+v", j.Score.Overall, w)
	}

	two := sub
	two.Run.Trials = 2
	two.Trials = []board.Trial{sub.Trials[0], {Predictions: rest}}
	j, err = board.Rescore(context.Background(), boardtest.Engine(), two)
	if err != nil {
		t.Fatal(err)
	}
	if j.Score.Complete || j.Score.Missing != 1 || j.Score.Answered != 2*j.Score.Expected-1 {
		t.Errorf("two trials, the second missing a line: complete %v, missing %d, answered %d of 2×%d", j.Score.Complete, j.Score.Missing, j.Score.Answered, j.Score.Expected)
	}
}

// TestRescoreRefuses: what the board refuses, and the trial and line it names.
func TestRescoreRefuses(t *testing.T) {
	sub := boardtest.Run(t, run.Text, "level-1-given-desc")
	ls := lines(sub.Trials[0].Predictions)
	with := func(f func(s *board.Submission)) board.Submission {
		s := sub
		s.Run.Levels = append([]string(nil), sub.Run.Levels...)
		s.Trials = append([]board.Trial(nil), sub.Trials...)
		f(&s)
		return s
	}
	tests := []struct {
		name  string
		sub   board.Submission
		line  int
		holds string
	}{
		{"garbled line", with(func(s *board.Submission) {
			s.Trials = []board.Trial{{Predictions: join(append([]string{ls[0], `{"file": oops`}, ls[2:]...))}}
		}), 2, ""},
		{"a line answered twice", with(func(s *board.Submission) {
			s.Trials = []board.Trial{{Predictions: join(append(append([]string(nil), ls...), ls[3]))}}
		}), len(ls) + 1, "twice"},
		{"a sample of another level", with(func(s *board.Submission) {
			s.Trials = []board.Trial{{Predictions: join(append(append([]string(nil), ls...), `{"level":"level-2-toolsearcher","file":"`+firstFile(t, ls)+`","id":0,"pred":"x"}`))}}
		}), len(ls) + 1, ""},
		{"wrong format", with(func(s *board.Submission) { s.Format = "other" }), 0, "format"},
		{"no trials", with(func(s *board.Submission) { s.Trials = nil }), 0, "no trials"},
		{"trials disagree", with(func(s *board.Submission) { s.Run.Trials = 3 }), 0, "3 trials"},
		{"unknown level", with(func(s *board.Submission) { s.Run.Levels = []string{"level-9"} }), 0, "level-9"},
		{"unknown form", with(func(s *board.Submission) { s.Run.Form = "smoke" }), 0, "smoke"},
		{"a negative seed", with(func(s *board.Submission) { s.Run.Seed = -1 }), 0, "seed -1"},
		{"a seed past the largest", with(func(s *board.Submission) { s.Run.Seed = 1 << 53 }), 0, "seed 9007199254740992"},
		{"a robustness run", with(func(s *board.Submission) { s.Run.Variants = 3 }), 0, "robustness run"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := board.Rescore(context.Background(), boardtest.Engine(), tc.sub)
			var in *board.InputError
			if !errors.As(err, &in) {
				t.Fatalf("got %v, want an InputError", err)
			}
			if in.Line != tc.line || !strings.Contains(in.Error(), tc.holds) {
				t.Errorf("refused at line %d with %q, want line %d and %q", in.Line, in.Error(), tc.line, tc.holds)
			}
		})
	}
}

func firstFile(t *testing.T, ls []string) string {
	var p run.Prediction
	if err := json.Unmarshal([]byte(ls[0]), &p); err != nil {
		t.Fatal(err)
	}
	return p.File
}

// TestRescoreOnTheRunsData: a run made on a variant is judged right on that variant (the data it
// was made on, loaded with board.Load) and not on the original data, whose values it does not
// hold: which is why the board judges every run on its recorded seed.
func TestRescoreOnTheRunsData(t *testing.T) {
	ctx := context.Background()
	sub := boardtest.RunOn(t, 7, run.Text, "level-1-given-desc")
	if sub.Run.Seed != 7 {
		t.Fatalf("the run recorded seed %d", sub.Run.Seed)
	}
	do := boardtest.Engine()
	if err := board.Load(ctx, do, 7); err != nil {
		t.Fatal(err)
	}
	on, err := board.Rescore(ctx, do, sub)
	if err != nil {
		t.Fatal(err)
	}
	if o := on.Score.Overall; !on.Score.Complete || o.Judged == 0 || o.Accuracy != 1 {
		t.Errorf("on its variant: complete %v, %d/%d right", on.Score.Complete, o.Right, o.Judged)
	}
	off, err := board.Rescore(ctx, boardtest.Engine(), sub)
	if err != nil {
		t.Fatal(err)
	}
	if o := off.Score.Overall; o.Accuracy >= 1 {
		t.Errorf("on the original data the variant's answers are %d/%d right: the variant moved nothing a call names", o.Right, o.Judged)
	}
	if err := board.Load(ctx, boardtest.Engine(), 0); err != nil {
		t.Errorf("Load of seed 0 (nothing to send): %v", err)
	}
}
