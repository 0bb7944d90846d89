package app

import (
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// trialRun is a saved trial whose one call sample is judged right or wrong.
func trialRun(group string, trial, of int, status string, right bool) *SavedRun {
	s := DefaultRunSettings()
	s.Trials = of
	return &SavedRun{ID: group + "-" + string(rune('0'+trial)), Group: group, Trial: trial, Settings: s, Status: status,
		Batch: &protocol.Batch{Results: []protocol.Verdict{{Level: Levels[0], File: "f.jsonl", ID: 0, Kind: protocol.KindCall, CallVerdict: &protocol.CallVerdict{Correct: right}}}}}
}

func TestTrialGroups(t *testing.T) {
	single := trialRun("", 0, 0, runDone, true)
	single.Group = ""
	runs := []*SavedRun{
		trialRun("g1", 3, 3, runCancelled, false), // newest first, as the Runs page lists them
		trialRun("g1", 2, 3, runDone, false),
		trialRun("g1", 1, 3, runDone, true),
		single,
		trialRun("g2", 1, 2, runRunning, true),
	}
	groups := TrialGroups(runs)
	if len(groups) != 2 {
		t.Fatalf("%d groups, want 2 (a single run is no group)", len(groups))
	}
	g := groups[0]
	if g.First.Trial != 1 || g.Done != 2 || g.Planned != 3 {
		t.Errorf("group g1: first trial %d, %d of %d done; want 1, 2 of 3", g.First.Trial, g.Done, g.Planned)
	}
	if len(g.Stats) != 1 || g.Stats[0].Trials != 2 || g.Stats[0].PassK[0] != 0.5 || g.Stats[0].PassK[1] != 0 {
		t.Errorf("group g1 stats %+v, want 2 trials (the cancelled one left out), pass^1 0.5, pass^2 0", g.Stats)
	}
	if h := groups[1]; h.Done != 0 || len(h.Stats) != 0 {
		t.Errorf("group g2 (still running): %d done, stats %+v; want none", h.Done, h.Stats)
	}
}

func TestNextTrial(t *testing.T) {
	first := NewSavedRun(RunSettings{Model: "m", Form: run.Text, Trials: 3}, "builtin", "h")
	if first.Group != first.ID || first.Trial != 1 {
		t.Fatalf("the first of 3 trials: group %q trial %d, want its own ID and 1", first.Group, first.Trial)
	}
	if n := nextTrial(first); n != nil {
		t.Errorf("a trial still running starts no next one: %+v", n)
	}
	first.Status = runDone
	second := nextTrial(first)
	if second == nil || second.Group != first.Group || second.Trial != 2 || second.ID <= first.ID || second.Status != runRunning {
		t.Fatalf("after trial 1: %+v", second)
	}
	second.Status = runCancelled
	if n := nextTrial(second); n != nil {
		t.Error("a cancelled trial stops the trials still to come")
	}
	second.Status, second.Trial = runDone, 3
	if n := nextTrial(second); n != nil {
		t.Error("the last trial starts no next one")
	}
	if s := NewSavedRun(RunSettings{Model: "m", Form: run.Text}, "builtin", "h"); s.Group != "" || s.Trial != 0 || nextTrial(s) != nil {
		t.Errorf("a single run is no trial: %+v", s)
	}
}
