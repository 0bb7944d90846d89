package app

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// TestRobustnessPasses: a robustness run of N variants is N+2 runs of one group, in the CLI's
// order (the original, the variants of seeds 1..N, the rerun), each pass naming its data afresh; a
// cancel stops the passes still to come.
func TestRobustnessPasses(t *testing.T) {
	s := RunSettings{Model: "m", Form: run.Text, Variants: 2}
	first := NewSavedRun(s, "", "")
	if first.Group != first.ID || first.Trial != 1 || first.Seed != 0 || plannedRuns(s) != 4 {
		t.Fatalf("the original: group %q trial %d seed %d, %d passes planned", first.Group, first.Trial, first.Seed, plannedRuns(s))
	}
	var seeds []int64
	var names []string
	cur := first
	for cur != nil {
		seeds = append(seeds, cur.Seed)
		names = append(names, passName(cur))
		cur.Status, cur.Data, cur.DataHash = runDone, "data", "hash"
		next := nextTrial(cur)
		if next != nil && (next.Group != first.Group || next.Trial != cur.Trial+1 || next.ID <= cur.ID || next.DataHash != "" || next.Data != "") {
			t.Fatalf("after pass %d: %+v", cur.Trial, next)
		}
		cur = next
	}
	if want := []int64{0, 1, 2, 0}; !reflect.DeepEqual(seeds, want) {
		t.Errorf("seeds of the passes %v, want %v", seeds, want)
	}
	if want := []string{"original (pass 1 of 4)", "variant seed 1 (pass 2 of 4)", "variant seed 2 (pass 3 of 4)", "rerun (pass 4 of 4)"}; !reflect.DeepEqual(names, want) {
		t.Errorf("pass names %q", names)
	}
	first.Status = runCancelled
	if n := nextTrial(first); n != nil {
		t.Error("a cancelled pass stops the passes still to come")
	}
	if !strings.Contains(first.Label(), "robustness: original") || strings.Contains(first.Label(), "trial") {
		t.Errorf("label %q", first.Label())
	}
	v := NewSavedRun(RunSettings{Model: "m", Form: run.Text, Seed: 7}, "", "")
	if v.Seed != 7 || v.Group != "" || !wantsData(v) || !strings.Contains(v.Label(), "variant seed 7") {
		t.Errorf("a run on variant 7: %+v, label %q", v, v.Label())
	}
	tr := NewSavedRun(RunSettings{Model: "m", Form: run.Text, Seed: 7, Trials: 2}, "d", "h")
	tr.Status = runDone
	if n := nextTrial(tr); n == nil || n.Seed != 7 || n.DataHash != "h" {
		t.Errorf("the second trial on variant 7: %+v", n)
	}
	if wantsData(NewSavedRun(RunSettings{Model: "m", Form: run.Text}, "d", "h")) {
		t.Error("a run on the loaded data loads nothing")
	}
}

func TestCheckRunSettings(t *testing.T) {
	for _, c := range []struct {
		s  RunSettings
		ok bool
	}{
		{RunSettings{}, true},
		{RunSettings{Seed: 3}, true},
		{RunSettings{Seed: protocol.MaxSeed}, true},
		{RunSettings{Seed: protocol.MaxSeed + 1}, false},
		{RunSettings{Seed: -1}, false},
		{RunSettings{Variants: run.MaxVariants}, true},
		{RunSettings{Variants: run.MaxVariants + 1}, false},
		{RunSettings{Variants: 2, Trials: 2}, false},
		{RunSettings{Variants: 2, Seed: 1}, false},
	} {
		if err := CheckRunSettings(c.s); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.s, err)
		}
	}
}

// TestNumberRange: a number field takes a whole number in its range, written as a number field
// writes it (1e3 is 1000), and refuses anything else in words; nothing is quietly taken as another
// number.
func TestNumberRange(t *testing.T) {
	seed := numberRange{1, protocol.MaxSeed, false}
	limit := numberRange{0, 100, true}
	for _, c := range []struct {
		nr       numberRange
		typed    string
		badInput bool
		want     int64
		err      string
	}{
		{seed, "3", false, 3, ""},
		{seed, " 42 ", false, 42, ""},
		{seed, "1e3", false, 1000, ""},
		{seed, "9007199254740991", false, protocol.MaxSeed, ""},
		{seed, "9007199254740992", false, 0, "must be a whole number from 1 to 9007199254740991, not 9007199254740992"},
		{seed, "99999999999999999999", false, 0, "must be a whole number from 1 to 9007199254740991, not 99999999999999999999"},
		{seed, "0", false, 0, "must be a whole number from 1 to 9007199254740991, not 0"},
		{seed, "-5", false, 0, "not -5"},
		{seed, "1.5", false, 0, "not 1.5"},
		{seed, "", false, 0, "is empty"},
		{seed, "", true, 0, "is not a number"},
		{limit, "", false, 0, ""},
		{limit, "100", false, 100, ""},
		{limit, "101", false, 0, "from 0 to 100, not 101"},
	} {
		got, err := c.nr.read(c.typed, c.badInput)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%+v reads %q as %d, %v; want %d", c.nr, c.typed, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%+v reads %q as %d, %v; want an error saying %q", c.nr, c.typed, got, err, c.err)
		}
	}
}

// passRun is a pass of a robustness run of n variants whose call samples are judged as right says.
func passRun(group string, trial, n int, status string, right ...bool) *SavedRun {
	s := DefaultRunSettings()
	s.Variants = n
	r := &SavedRun{ID: group + "-" + string(rune('0'+trial)), Group: group, Trial: trial, Seed: passSeed(s, trial), Settings: s, Status: status, Batch: &protocol.Batch{}}
	for i, ok := range right {
		r.Batch.Results = append(r.Batch.Results, protocol.Verdict{Level: Levels[0], File: "f.jsonl", ID: 2 * i, Kind: protocol.KindCall, CallVerdict: &protocol.CallVerdict{Correct: ok}})
	}
	return r
}

// TestRobustGroups: a robustness run is summed up as run.Robust sums up the passes the CLI ran,
// the passes that ended counted (a cancelled one with what it judged), and it is no trial group.
func TestRobustGroups(t *testing.T) {
	orig := passRun("g", 1, 2, runDone, true, true, false, true)
	v1 := passRun("g", 2, 2, runDone, true, false, false, true)
	v2 := passRun("g", 3, 2, runDone, false, true, false, true)
	again := passRun("g", 4, 2, runDone, true, true, true, true)
	runs := []*SavedRun{again, v2, v1, orig} // newest first
	groups := RobustGroups(runs)
	if len(groups) != 1 {
		t.Fatalf("%d groups", len(groups))
	}
	g := groups[0]
	want := run.Robust(&run.Result{Batch: orig.Batch}, []int64{1, 2}, []*run.Result{{Batch: v1.Batch}, {Batch: v2.Batch}}, &run.Result{Batch: again.Batch})
	if g.First != orig || g.Ran != 4 || g.Planned != 4 || g.Cut || !reflect.DeepEqual(g.Stats, want) {
		t.Errorf("group: first %s, %d of %d passes, cut %v, stats %+v; want %+v", g.First.ID, g.Ran, g.Planned, g.Cut, g.Stats, want)
	}
	if rb := g.Stats[0]; rb.Original != 0.75 || rb.Mean != 0.5 || rb.EveryVariant != 0.25 || rb.Rerun == nil || *rb.Rerun != 1 || rb.RerunFlips == nil || *rb.RerunFlips != 0.25 || rb.VariantFlips != 0.25 {
		t.Errorf("figures %+v", rb)
	}
	if len(TrialGroups(runs)) != 0 {
		t.Error("the passes of a robustness run are listed as repeated trials")
	}

	// Cancelled in the second variant: the passes that ran are counted, the cancelled one with
	// what it judged; the rerun never ran.
	cut := passRun("h", 3, 2, runCancelled, false)
	runs = []*SavedRun{cut, passRun("h", 2, 2, runDone, true, false), passRun("h", 1, 2, runDone, true, true)}
	g = RobustGroups(runs)[0]
	want = run.Robust(&run.Result{Batch: runs[2].Batch}, []int64{1, 2}, []*run.Result{{Batch: runs[1].Batch}, {Batch: cut.Batch}}, nil)
	if g.Ran != 3 || !g.Cut || !reflect.DeepEqual(g.Stats, want) {
		t.Errorf("cancelled: %d passes, cut %v, stats %+v; want %+v", g.Ran, g.Cut, g.Stats, want)
	}
	// A pass still running counts as not run.
	runs[0].Status = runRunning
	g = RobustGroups(runs)[0]
	if g.Ran != 2 || !g.Cut || len(g.Stats[0].Seeds) != 1 {
		t.Errorf("running: %d passes, stats %+v", g.Ran, g.Stats)
	}
	if robustOf(runs[1], runs) == nil || robustOf(trialRun("x", 1, 2, runDone, true), runs) != nil {
		t.Error("robustOf finds a pass's run, and none for a trial")
	}
	// The original and its rerun are each other's trials in a comparison; the variants are not.
	if got := trialsOf(orig, []*SavedRun{again, v2, v1, orig}); len(got) != 2 || got[1].Batch != again.Batch {
		t.Errorf("trials of the original: %d", len(got))
	}
}

// waitRunner waits for the tab's runner to end every run it was given.
func waitRunner(t *testing.T) RunState {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for runner.State().Running {
		if time.Now().After(deadline) {
			t.Fatal("the run did not end in 120 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return runner.State()
}

// TestRobustnessRunInTheTab runs a robustness run of one variant and a run on a variant with the
// engine in-process, as the Run page starts them: each pass asks its data (its hash is the hash of
// that data), the runner sums the passes up as run.Robust does, the Runs page shows it and
// compares two, and the data loaded before comes back.
func TestRobustnessRunInTheTab(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a variant of the builtin data")
	}
	useNative(t)
	UseRuns(NewMemoryRunStore(), NewKeyVault())
	srv := startFake(t)
	s := RunSettings{Preset: "custom", BaseURL: srv.URL(), Model: "fake-model", Form: run.Text, Levels: []string{Levels[0]}, Concurrency: 2, Limit: 3, Retries: 1, Variants: 1}
	if err := runner.Start(NewSavedRun(s, "", ""), testKey); err != nil {
		t.Fatal(err)
	}
	st := waitRunner(t)
	if st.Err != "" {
		t.Fatal(st.Err)
	}
	runs, err := runStore.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs kept, want 3 passes", len(runs))
	}
	hashOf := func(seed int64) string {
		if _, err := tab.LoadVariant(seed); err != nil {
			t.Fatal(err)
		}
		h, err := run.DataHash(context.Background(), tab.Engine.Do, s.Levels, nil)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	var results []*run.Result
	for i, r := range runs { // in ID order: the passes in order
		if r.Trial != i+1 || r.Status != runDone || r.Seed != []int64{0, 1, 0}[i] || len(r.Failures) != 0 {
			t.Fatalf("pass %d: trial %d, status %s, seed %d, %d failures", i+1, r.Trial, r.Status, r.Seed, len(r.Failures))
		}
		results = append(results, &run.Result{Batch: r.Batch})
	}
	if d := currentData(); d == nil || !d.is(0) {
		t.Errorf("after the run the engine holds %+v, want the builtin data again", d)
	}
	if runs[0].DataHash != runs[2].DataHash || runs[1].DataHash == runs[0].DataHash || runs[1].DataHash != hashOf(1) || runs[0].DataHash != hashOf(0) {
		t.Errorf("data hashes %s %s %s: each pass's is its data's", runs[0].DataHash, runs[1].DataHash, runs[2].DataHash)
	}
	want := run.Robust(results[0], []int64{1}, results[1:2], results[2])
	if st.Robust == nil || !reflect.DeepEqual(st.Robust.Stats, want) || st.Robust.Ran != 3 || st.Robust.Cut {
		t.Fatalf("the runner's robustness %+v, want %+v", st.Robust, want)
	}
	if want[0].Tasks == 0 {
		t.Fatal("nothing judged: the check is vacuous")
	}

	// A run on variant 1: its hash is the variant's, and its answers the same requests'.
	v := s
	v.Variants, v.Seed = 0, 1
	saved := NewSavedRun(v, "", "")
	if err := runner.Start(saved, testKey); err != nil {
		t.Fatal(err)
	}
	if st := waitRunner(t); st.Err != "" {
		t.Fatal(st.Err)
	}
	if saved.Seed != 1 || saved.DataHash != runs[1].DataHash || saved.Status != runDone {
		t.Errorf("the run on variant 1: seed %d, hash %s (want %s), %s", saved.Seed, saved.DataHash, runs[1].DataHash, saved.Status)
	}
	w, err := runStore.Whole(saved.ID)
	if err != nil {
		t.Fatal(err)
	}
	wv, err := runStore.Whole(runs[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if string(w.PredictionsJSONL()) != string(wv.PredictionsJSONL()) {
		t.Error("the run on variant 1 and the robustness run's pass on it wrote different predictions for the same answers")
	}

	// An exported run on a variant carries its seed, and re-scores on its variant.
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseSavedRun(b)
	if err != nil || back.Seed != 1 || back.Settings.Seed != 1 {
		t.Fatalf("read back: %v, seed %d", err, back.Seed)
	}
	frag, err := ShareFragment(back)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := ParseShareFragment(frag)
	if err != nil || shared.Seed != 1 {
		t.Fatalf("shared: %v, seed %+v", err, shared)
	}
	if err := loadData(shared.Seed); err != nil {
		t.Fatal(err)
	}
	ag, err := rescoreHere(back)
	if err != nil || ag.Compared == 0 || ag.Agree != ag.Compared {
		t.Errorf("re-scored on its variant: %+v, %v", ag, err)
	}

	// Two robustness runs compare side by side on the Runs page.
	if err := runner.Start(NewSavedRun(s, "", ""), testKey); err != nil {
		t.Fatal(err)
	}
	if st := waitRunner(t); st.Err != "" {
		t.Fatal(st.Err)
	}
	all, err := runStore.Runs()
	if err != nil {
		t.Fatal(err)
	}
	sortRuns(all)
	groups := RobustGroups(all)
	if len(groups) != 2 {
		t.Fatalf("%d robustness runs", len(groups))
	}
	html := mount(t, &RunsPage{a: groups[1].First.ID, b: groups[0].First.ID})
	if !strings.Contains(html, `data-testid="robust-row"`) || !strings.Contains(html, `data-testid="compare-robust-row"`) {
		t.Fatalf("the Runs page shows no robustness table or comparison:\n%s", html)
	}
	rb, _ := json.Marshal(groups[0].Stats[0])
	if !strings.Contains(html, "data-robustness=\""+strings.ReplaceAll(string(rb), `"`, `\"`)+"\"") {
		t.Errorf("the robustness row does not carry %s", rb)
	}
}

// TestRobustGroupsCountAPassOnce: a pass opened from a file beside the same pass kept in this
// browser counts once.
func TestRobustGroupsCountAPassOnce(t *testing.T) {
	orig := passRun("g", 1, 1, runDone, true, false)
	opened := passRun("g", 1, 1, runDone, true, false)
	runs := []*SavedRun{opened, passRun("g", 3, 1, runDone, true, true), passRun("g", 2, 1, runDone, false, false), orig}
	g := RobustGroups(runs)[0]
	if g.Ran != 3 || g.Cut || g.Stats[0].Original != 0.5 || g.Stats[0].Rerun == nil || *g.Stats[0].Rerun != 1 {
		t.Errorf("%d of %d passes, cut %v, %+v", g.Ran, g.Planned, g.Cut, g.Stats)
	}
}

// TestDataBefore: a run ends on the tab's own data; a variant the engine holds (after a reload in
// the middle of a run on it) is not the tab's data, the builtin data is.
func TestDataBefore(t *testing.T) {
	useNative(t)
	if _, err := tab.LoadVariant(3); err != nil {
		t.Fatal(err)
	}
	if now := currentData(); now == nil || now.seed != 3 {
		t.Fatalf("the engine holds %+v, want variant 3", now)
	}
	if before := dataBefore(); before == nil || before.seed != 0 || before.name != builtinData {
		t.Errorf("the data a run ends on: %+v, want the builtin data", before)
	}
	if err := dataBefore().restore(); err != nil {
		t.Fatal(err)
	}
	if now := currentData(); now == nil || now.seed != 0 || now.name != builtinData {
		t.Errorf("after the restore the engine holds %+v", now)
	}
}

// TestRobustWords: a pass that never ran is said so, never given as 0%; one variant's accuracy is
// given without a spread, and more with theirs; a level none of whose tasks was judged in every pass
// says so, as `apibank run --variants N` does, with "—" where a pass ran but there is nothing to
// measure, and the rerun's state as it is.
func TestRobustWords(t *testing.T) {
	one, half := 1.0, 0.5
	tests := []struct {
		name     string
		rb       run.Robustness
		rerunRan bool
		want     robustFigures
	}{
		{"every pass ran", run.Robustness{Tasks: 4, Original: 0.75, Seeds: []int64{1, 2}, Variants: []float64{1, 0.5}, Mean: 0.75, StdDev: 0.35355, Min: 0.5, Max: 1, EveryVariant: 0.5, Rerun: &one, RerunFlips: &half, VariantFlips: 0.25}, true,
			robustFigures{"4", "75.0%", "75.0% ± 35.4% (50.0%–100.0%) over 2 variants", "50.0%", "100.0%", "50.0%", "25.0%"}},
		{"one variant, a task left out", run.Robustness{Tasks: 3, LeftOut: 1, Original: 1, Seeds: []int64{1}, Variants: []float64{1}, Mean: 1, Min: 1, Max: 1, EveryVariant: 1, Rerun: &one, RerunFlips: &half}, true,
			robustFigures{"3 (1 left out: a request failed in some pass)", "100.0%", "100.0% on 1 variant (no spread from one)", "100.0%", "100.0%", "50.0%", "0.0%"}},
		{"cancelled in the original pass", run.Robustness{Tasks: 2, Seeds: []int64{}}, false,
			robustFigures{"2", "0.0%", noVariant, noVariant, notAsked, notAsked, noVariant}},
		{"cancelled in a variant", run.Robustness{Tasks: 1, Seeds: []int64{1}, Variants: []float64{0}, EveryVariant: 0, VariantFlips: 1}, false,
			robustFigures{"1", "0.0%", "0.0% on 1 variant (no spread from one)", "0.0%", notAsked, notAsked, "100.0%"}},
		{"a variant's requests all failed", run.Robustness{Tasks: 0, LeftOut: 4, Seeds: []int64{1}, Variants: []float64{0}}, true,
			robustFigures{"0: none was judged in every pass (4 left out: a request failed in some pass)", noFigure, noFigure, noFigure, noFigure, noFigure, noFigure}},
		{"a variant's requests all failed, then cancelled before the rerun", run.Robustness{Tasks: 0, LeftOut: 4, Seeds: []int64{1}, Variants: []float64{0}}, false,
			robustFigures{"0: none was judged in every pass (4 left out: a request failed in some pass)", noFigure, noFigure, noFigure, notAsked, notAsked, noFigure}},
		{"the original's requests all failed, cancelled there", run.Robustness{Tasks: 0, LeftOut: 2, Seeds: []int64{}}, false,
			robustFigures{"0: none was judged in every pass (2 left out: a request failed in some pass)", noFigure, noVariant, noVariant, notAsked, notAsked, noVariant}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := robustWords(tt.rb, tt.rerunRan); got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestRobustViewNothingJudgedInEveryPass: a robustness run whose variant pass failed every request
// (the original and the rerun right on every task) shows, on the Run and Runs pages' table and in a
// comparison, that no task was judged in every pass, no figure of 0%, and the rerun as asked.
func TestRobustViewNothingJudgedInEveryPass(t *testing.T) {
	failed := func(r *SavedRun) *SavedRun {
		for _, v := range r.Batch.Results {
			r.Failures = append(r.Failures, run.Failure{Task: run.Task{Level: v.Level, File: v.File, ID: v.ID, Kind: protocol.KindCall}, Message: "no answer"})
		}
		r.Batch = &protocol.Batch{}
		return r
	}
	groups := RobustGroups([]*SavedRun{
		passRun("g", 3, 1, runDone, true, true, true, true),
		failed(passRun("g", 2, 1, runDone, true, true, true, true)),
		passRun("g", 1, 1, runDone, true, true, true, true),
	})
	if len(groups) != 1 || len(groups[0].Stats) != 1 {
		t.Fatalf("groups %+v", groups)
	}
	g := groups[0]
	if rb := g.Stats[0]; rb.Tasks != 0 || rb.LeftOut != 4 || rb.Rerun != nil || !g.rerunRan() {
		t.Fatalf("stats %+v, rerun ran %v: want no task, 4 left out, no rerun figure, the rerun ran", rb, g.rerunRan())
	}
	other := passRun("h", 1, 1, runCancelled, true, false) // cancelled in its original: neither a variant nor the rerun ran
	oh := RobustGroups([]*SavedRun{other})[0]
	if oh.rerunRan() {
		t.Error("a run cancelled in its original pass asked no rerun")
	}
	tests := []struct {
		name      string
		ui        func() string
		want, not []string
	}{
		{"robustness table", func() string { return app.HTMLString(robustView(groups)) },
			[]string{"0: none was judged in every pass (4 left out: a request failed in some pass)", "<td>" + noFigure + "</td>", noFigure + " · " + noFigure},
			[]string{"%", notAsked}},
		{"comparison", func() string { return app.HTMLString(compareRobust(&g, &oh)) },
			[]string{"tasks 0: none was judged in every pass (4 left out: a request failed in some pass), rerun " + noFigure, "original " + noFigure, "tasks 2, rerun " + notAsked, "original 50.0%"},
			[]string{"original 0.0%", "variants 0.0%"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html := tt.ui()
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("shows no %q:\n%s", w, html)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(html, n) {
					t.Errorf("shows %q:\n%s", n, html)
				}
			}
		})
	}
}
