package app

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/run"
)

// boardRun is a saved run of two levels with a prediction, an episode and a failure of its own.
func boardRun(id, group string, trial, of int, status string) *SavedRun {
	s := DefaultRunSettings()
	s.Model, s.BaseURL, s.Form, s.Stream, s.Temperature = "m-1", "http://localhost:9/v1", run.Native, true, 0.5
	s.Levels, s.Limit, s.State, s.Steps, s.Trials = []string{Levels[0], run.Level3}, 7, "seed", 9, of
	return &SavedRun{Format: runFormat, ID: id, Host: "localhost:9", Settings: s, Status: status, Group: group, Trial: trial,
		Started: "2026-01-0" + string(rune('0'+max(1, trial))) + "T10:00:00Z", Ended: "2026-01-0" + string(rune('0'+max(1, trial))) + "T11:00:00Z",
		Engine: "engine-abc.wasm", DataHash: "d1", Encoder: run.EncoderVersion, TokensIn: 10 * max(1, trial), TokensOut: max(1, trial),
		Predictions: []run.Prediction{{Level: Levels[0], File: "f.jsonl", ID: trial, Pred: "[A(x='" + id + "')]"}},
		Episodes:    []run.Episode{{Level: run.Level3, File: "scene-" + id + ".jsonl", Stopped: "reply"}},
		Failures:    []run.Failure{{Task: run.Task{Level: Levels[0], File: "f.jsonl", ID: 40 + trial}, Status: 500, Message: "down"}},
	}
}

func TestBoardSubmission(t *testing.T) {
	single := boardRun("r1", "", 0, 0, runDone)
	t1, t2 := boardRun("g-1", "g", 1, 2, runDone), boardRun("g-2", "g", 2, 2, runDone)
	cancelled := boardRun("c", "", 0, 0, runCancelled)
	running := boardRun("x", "", 0, 0, runRunning)
	batch := boardRun("b", "", 0, 0, runDone)
	batch.Source = runSourceBatch
	lone := boardRun("h-1", "h", 1, 3, runDone)
	gap1, gap3 := boardRun("k-1", "k", 1, 3, runDone), boardRun("k-3", "k", 3, 3, runDone)
	gap2 := boardRun("k-2", "k", 2, 3, runRunning)
	all := []*SavedRun{t2, single, t1, cancelled, running, batch, lone, gap1, gap2, gap3}

	for _, c := range []struct {
		name   string
		pick   *SavedRun
		trials []*SavedRun // nil: refused
		refuse string
	}{
		{"a single run", single, []*SavedRun{single}, ""},
		{"a group from its first trial, in trial order", t1, []*SavedRun{t1, t2}, ""},
		{"a group from its last trial", t2, []*SavedRun{t1, t2}, ""},
		{"a cancelled run is sent as it is (the board judges it partial)", cancelled, []*SavedRun{cancelled}, ""},
		{"a running run", running, nil, "still running"},
		{"a batch run", batch, nil, "batch run"},
		{"a group missing trials", lone, nil, "1 of its 3 trials"},
		{"a group with a trial still running", gap1, nil, "trial 2 is still running"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sub, err := BoardSubmission(c.pick, all)
			if c.trials == nil {
				if err == nil || !strings.Contains(err.Error(), c.refuse) {
					t.Fatalf("error %v, want one saying %q", err, c.refuse)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			first, last := c.trials[0], c.trials[len(c.trials)-1]
			want := board.RunInfo{Model: "m-1", Host: "localhost:9", Form: run.Native, Stream: true, Temperature: 0.5,
				Levels: []string{Levels[0], run.Level3}, Limit: 7, State: "seed", Steps: 9, Trials: len(c.trials),
				Started: first.Started, Ended: last.Ended, Encoder: run.EncoderVersion, DataHash: "d1", Engine: "engine-abc.wasm", Source: "tab"}
			for _, r := range c.trials {
				want.TokensIn += r.TokensIn
				want.TokensOut += r.TokensOut
			}
			if sub.Format != board.Format || !reflect.DeepEqual(sub.Run, want) {
				t.Errorf("format %q, run\n%+v\nwant\n%+v", sub.Format, sub.Run, want)
			}
			if len(sub.Trials) != len(c.trials) {
				t.Fatalf("%d trials, want %d", len(sub.Trials), len(c.trials))
			}
			for i, r := range c.trials {
				if got, want := sub.Trials[i].Predictions, string(run.OutJSONL(r.Predictions, r.Episodes)); got != want {
					t.Errorf("trial %d predictions\n%s\nwant (the run's own file)\n%s", i+1, got, want)
				}
				if !reflect.DeepEqual(sub.Trials[i].Failures, r.Failures) {
					t.Errorf("trial %d failures %+v, want %+v", i+1, sub.Trials[i].Failures, r.Failures)
				}
			}
		})
	}
}

func TestBoardErrorWords(t *testing.T) {
	for _, c := range []struct {
		err  error
		want []string
	}{
		{&classError{Status: 400, Message: "trial 1, line 3: not a prediction", Line: 3}, []string{"refused the run: trial 1, line 3: not a prediction", "export its predictions"}},
		{&classError{Status: 400, Message: "bad JSON", Line: 2}, []string{"(line 2)", "bad JSON"}},
		{&classError{Status: 413, Message: "over 16 MiB"}, []string{"larger than the board takes (over 16 MiB)", "fewer trials"}},
		{&classError{Status: 429, Message: "20 submissions today", RetryAfter: 90 * time.Second}, []string{"20 submissions today; try again in 1m30s", "stays in this browser"}},
		{&classError{Status: 404, Message: "no endpoint"}, []string{"no board server"}},
		{errors.New("connection refused"), []string{"could not be reached (connection refused)"}},
	} {
		got := boardErrorWords(c.err)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: %q does not say %q", c.err, got, w)
			}
		}
	}
}

func TestRankWords(t *testing.T) {
	ranked := func(rank int, tied bool, p float64) board.Row {
		return board.Row{Section: board.SectionRanked, Rank: rank, Tied: tied, P: p}
	}
	rows := []board.Row{ranked(1, false, 0), ranked(1, true, 0.42), ranked(3, false, 0.001), ranked(4, false, 0.01), ranked(4, true, 1), ranked(4, true, 0.5),
		{Section: board.SectionUnranked}}
	want := []struct{ rank, words string }{
		{"=1", ""}, {"=1", "tied with the entry above (paired McNemar p = 0.42)"}, {"3", ""},
		{"=4", ""}, {"=4", "tied with the entry above (paired McNemar p = 1.00)"}, {"=4", "tied with the entry above (paired McNemar p = 0.50)"},
	}
	for i, w := range want {
		rank, words := RankWords(rows, i)
		if rank != w.rank || words != w.words {
			t.Errorf("row %d: %q %q, want %q %q", i, rank, words, w.rank, w.words)
		}
	}
}

func TestFilterVerdicts(t *testing.T) {
	half := 0.5
	vs := []board.SampleVerdict{
		{Trial: 1, Level: Levels[0], ID: 0, Kind: "call", Status: board.StatusAnswered, Correct: true},
		{Trial: 1, Level: Levels[0], ID: 1, Kind: "call", Status: board.StatusAnswered},
		{Trial: 1, Level: Levels[1], ID: 0, Kind: "reply", Status: board.StatusAnswered, RougeL: &half},
		{Trial: 2, Level: Levels[0], ID: 0, Kind: "call", Status: board.StatusFailed},
		{Trial: 2, Level: run.Level3, ID: -1, Kind: "episode", Status: board.StatusMissing},
	}
	for _, c := range []struct {
		level, outcome string
		trial          int
		want           []int
	}{
		{"", "", 0, []int{0, 1, 2, 3, 4}},
		{Levels[0], "", 0, []int{0, 1, 3}},
		{"", "right", 0, []int{0}},
		{"", "wrong", 0, []int{1}}, // a reply is scored, not right or wrong
		{"", board.StatusFailed, 0, []int{3}},
		{"", board.StatusMissing, 0, []int{4}},
		{Levels[0], "", 2, []int{3}},
	} {
		got := FilterVerdicts(vs, c.level, c.outcome, c.trial)
		var idx []int
		for _, g := range got {
			for i := range vs {
				if reflect.DeepEqual(g, vs[i]) {
					idx = append(idx, i)
				}
			}
		}
		if !reflect.DeepEqual(idx, c.want) {
			t.Errorf("level %q outcome %q trial %d: %v, want %v", c.level, c.outcome, c.trial, idx, c.want)
		}
	}
}
