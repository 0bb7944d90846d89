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

// TestTrialsOf: a run compared is its side's first result, then the other trials of its group that
// ran to their end; a single run is alone. The Runs page's comparison takes the flip rate from it.
func TestTrialsOf(t *testing.T) {
	t1, t2, t3 := trialRun("g", 1, 3, runDone, true), trialRun("g", 2, 3, runDone, false), trialRun("g", 3, 3, runCancelled, true)
	other := trialRun("h", 1, 2, runDone, true)
	single := trialRun("", 0, 0, runDone, true)
	single.Group = ""
	runs := []*SavedRun{t3, t2, other, t1, single}
	got := trialsOf(t2, runs)
	if len(got) != 2 || got[0].Batch != t2.Batch || got[1].Batch != t1.Batch {
		t.Fatalf("trials of trial 2: %d results, want trial 2 then trial 1 (trial 3 was cancelled)", len(got))
	}
	if got := trialsOf(single, runs); len(got) != 1 || got[0].Batch != single.Batch {
		t.Fatalf("a single run: %d results", len(got))
	}
	c := run.Compare(trialsOf(t2, runs), trialsOf(single, runs))
	if f := c.Overall.FlipA; f == nil || f.Trials != 2 || f.Tasks != 1 || f.Rate != 1 {
		t.Errorf("flip rate of a task right in one of two trials: %+v, want 1", f)
	}
	if c.Overall.FlipB != nil || c.Overall.Fixed != 1 {
		t.Errorf("B alone: %+v", c.Overall)
	}
}
