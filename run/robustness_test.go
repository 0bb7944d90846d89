package run

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

func TestVariantSeeds(t *testing.T) {
	if got := VariantSeeds(3); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("VariantSeeds(3) = %v, want [1 2 3]", got)
	}
}

func TestRobust(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	tests := []struct {
		name            string
		original, rerun *Result
		variants        []*Result
		tasks, leftOut  int
		orig, mean      float64
		every, rerunAcc float64
		rerunFlips      float64
		variantFlips    float64
		variantAccuracy []float64
		episodeIncluded bool
	}{
		{
			name:     "a model that remembered: right on the originals and their rerun, wrong on the variants",
			original: trial(map[int]bool{0: true, 2: true}, nil),
			variants: []*Result{trial(map[int]bool{0: false, 2: false}, nil), trial(map[int]bool{0: false, 2: true}, nil)},
			rerun:    trial(map[int]bool{0: true, 2: true}, nil),
			tasks:    2, orig: 1, mean: 0.25, every: 0, rerunAcc: 1, rerunFlips: 0,
			variantFlips: 3.0 / 4, variantAccuracy: []float64{0, 0.5},
		},
		{
			name:     "a noisy model: the rerun flips as often as the variants do",
			original: trial(map[int]bool{0: true, 2: false}, nil),
			variants: []*Result{trial(map[int]bool{0: false, 2: true}, nil)},
			rerun:    trial(map[int]bool{0: false, 2: true}, nil),
			tasks:    2, orig: 0.5, mean: 0.5, every: 0.5, rerunAcc: 0.5, rerunFlips: 1,
			variantFlips: 1, variantAccuracy: []float64{0.5},
		},
		{
			name:     "a task whose request failed in the original pass is left out, and counted",
			original: failed(trial(map[int]bool{0: true}, nil), 2),
			variants: []*Result{trial(map[int]bool{0: true, 2: true}, nil)},
			rerun:    trial(map[int]bool{0: true, 2: true}, nil),
			tasks:    1, leftOut: 1, orig: 1, mean: 1, every: 1, rerunAcc: 1,
			variantAccuracy: []float64{1},
		},
		{
			name:     "a task whose request failed in every pass is left out, and counted",
			original: failed(trial(map[int]bool{0: false}, nil), 2),
			variants: []*Result{failed(trial(map[int]bool{0: true}, nil), 2)},
			rerun:    failed(trial(map[int]bool{0: false}, nil), 2),
			tasks:    1, leftOut: 1, orig: 0, mean: 1, every: 1, rerunAcc: 0,
			variantFlips: 1, variantAccuracy: []float64{1},
		},
		{
			name:     "a task a pass did not judge is left out; episodes are tasks",
			original: trial(map[int]bool{0: true, 2: true}, map[string]bool{"scene.json": true}),
			variants: []*Result{trial(map[int]bool{0: true}, map[string]bool{"scene.json": true})},
			rerun:    trial(map[int]bool{0: true, 2: true}, map[string]bool{"scene.json": true}),
			tasks:    1, leftOut: 1, orig: 1, mean: 1, every: 1, rerunAcc: 1,
			variantAccuracy: []float64{1}, episodeIncluded: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seeds := VariantSeeds(len(tt.variants))
			got := Robust(tt.original, seeds, tt.variants, tt.rerun)
			if len(got) == 0 {
				t.Fatal("no level summed up")
			}
			rb := got[0]
			if rb.Level != "level-1-given-desc" || rb.Tasks != tt.tasks || rb.LeftOut != tt.leftOut {
				t.Errorf("level %s tasks %d left out %d, want level-1-given-desc %d %d", rb.Level, rb.Tasks, rb.LeftOut, tt.tasks, tt.leftOut)
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"original", rb.Original, tt.orig}, {"mean", rb.Mean, tt.mean}, {"every variant", rb.EveryVariant, tt.every},
				{"rerun", *rb.Rerun, tt.rerunAcc}, {"rerun flips", *rb.RerunFlips, tt.rerunFlips}, {"variant flips", rb.VariantFlips, tt.variantFlips}} {
				if !near(c.got, c.want) {
					t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
				}
			}
			if !slices.EqualFunc(rb.Variants, tt.variantAccuracy, near) || !slices.Equal(rb.Seeds, seeds) {
				t.Errorf("variants %v (seeds %v), want %v (seeds %v)", rb.Variants, rb.Seeds, tt.variantAccuracy, seeds)
			}
			if tt.episodeIncluded && (len(got) != 2 || got[1].Level != Level3 || got[1].Tasks != 1) {
				t.Errorf("level 3's episode is not summed up: %+v", got)
			}
		})
	}
}

// failed adds to r a failed request of the level-1 call sample id, and of a reply (not a task).
func failed(r *Result, id int) *Result {
	r.Failures = append(r.Failures, Failure{Task: Task{Level: "level-1-given-desc", File: "f.jsonl", ID: id, Kind: protocol.KindCall}, Status: 400},
		Failure{Task: Task{Level: "level-1-given-desc", File: "f.jsonl", ID: id + 1, Kind: protocol.KindReply}, Status: 400})
	return r
}

// TestRobustPassesNotRun: a pass that never ran is said so, not given a number: no variant ran
// (no seeds), no rerun (null, in JSON too); with no original there is nothing to sum up.
func TestRobustPassesNotRun(t *testing.T) {
	got := Robust(trial(map[int]bool{0: true}, nil), []int64{7}, []*Result{nil}, nil)
	if len(got) != 1 || got[0].Tasks != 1 || len(got[0].Seeds) != 0 || got[0].Rerun != nil || got[0].RerunFlips != nil {
		t.Fatalf("a robustness run whose variants and rerun never started: %+v", got)
	}
	b, err := json.Marshal(got[0])
	if err != nil || !bytes.Contains(b, []byte(`"rerun":null`)) || !bytes.Contains(b, []byte(`"rerun_flips":null`)) {
		t.Errorf("a rerun that never ran is written %s, want null", b)
	}
	if got := Robust(nil, []int64{1}, []*Result{trial(map[int]bool{0: true}, nil)}, nil); got != nil {
		t.Errorf("no original, yet summed up: %+v", got)
	}
}
