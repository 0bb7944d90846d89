package run

import (
	"math"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// trial builds a run's result from call verdicts ("file#id" → correct) and episodes (file → success).
func trial(calls map[int]bool, episodes map[string]bool, extra ...protocol.Verdict) *Result {
	r := &Result{Batch: &protocol.Batch{}}
	for id, ok := range calls {
		r.Batch.Results = append(r.Batch.Results, protocol.Verdict{Level: "level-1-given-desc", File: "f.jsonl", ID: id, Kind: protocol.KindCall, CallVerdict: &protocol.CallVerdict{Correct: ok}})
	}
	r.Batch.Results = append(r.Batch.Results, extra...)
	for file, ok := range episodes {
		r.Episodes = append(r.Episodes, Episode{Level: Level3, File: file, Outcome: &protocol.Outcome{Success: ok}})
	}
	return r
}

func TestTrials(t *testing.T) {
	special := protocol.Verdict{Level: "level-1-given-desc", File: "s.jsonl", ID: 0, Kind: protocol.KindSpecial, CallVerdict: &protocol.CallVerdict{Correct: true}}
	reply := protocol.Verdict{Level: "level-1-given-desc", File: "f.jsonl", ID: 99, Kind: protocol.KindReply, ReplyVerdict: &protocol.ReplyVerdict{}}
	tests := []struct {
		name    string
		results []*Result
		level   string
		tasks   int
		leftOut int
		passK   []float64
		acc     []float64
		sd      float64
		// flip is the flip rate: per task k(n−k)/C(n,2) for k successes of n trials, averaged.
		flip float64
	}{
		{
			name:    "one trial: pass^1 is the accuracy; special cases and replies are not tasks",
			results: []*Result{trial(map[int]bool{0: true, 2: true, 4: true, 6: false}, nil, special, reply)},
			level:   "level-1-given-desc", tasks: 4,
			passK: []float64{0.75}, acc: []float64{0.75},
		},
		{
			name: "three trials: a task right 3, 2 and 0 times",
			results: []*Result{
				trial(map[int]bool{0: true, 2: true, 4: false}, nil),
				trial(map[int]bool{0: true, 2: true, 4: false}, nil),
				trial(map[int]bool{0: true, 2: false, 4: false}, nil),
			},
			level: "level-1-given-desc", tasks: 3,
			// pass^1 = (3+2+0)/9; pass^2 = (1 + C(2,2)/C(3,2) + 0)/3; pass^3 = (1+0+0)/3
			passK: []float64{5.0 / 9, 4.0 / 9, 1.0 / 3},
			acc:   []float64{2.0 / 3, 2.0 / 3, 1.0 / 3},
			sd:    math.Sqrt((2*math.Pow(2.0/3-5.0/9, 2) + math.Pow(1.0/3-5.0/9, 2)) / 2),
			flip:  (0 + 2.0/3 + 0) / 3,
		},
		{
			name: "a task a failed request left unjudged in one trial is left out of pass^k",
			results: []*Result{
				trial(map[int]bool{0: true, 2: true}, nil),
				trial(map[int]bool{0: true}, nil),
			},
			level: "level-1-given-desc", tasks: 1, leftOut: 1,
			passK: []float64{1, 1}, acc: []float64{1, 1},
		},
		{
			name: "level-3 episodes are tasks; a trial that never started is skipped",
			results: []*Result{
				trial(nil, map[string]bool{"a.jsonl": true, "b.jsonl": false}),
				nil,
				trial(nil, map[string]bool{"a.jsonl": true, "b.jsonl": true}),
			},
			level: Level3, tasks: 2,
			passK: []float64{0.75, 0.5}, acc: []float64{0.5, 1},
			sd:   math.Sqrt((0.0625 + 0.0625) / 1),
			flip: 0.5, // b flipped, a did not
		},
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stats := Trials(tt.results)
			var st *TrialStats
			for i := range stats {
				if stats[i].Level == tt.level {
					st = &stats[i]
				}
			}
			if st == nil {
				t.Fatalf("no stats for %s in %+v", tt.level, stats)
			}
			if st.Tasks != tt.tasks || st.LeftOut != tt.leftOut {
				t.Errorf("tasks %d left out %d, want %d and %d", st.Tasks, st.LeftOut, tt.tasks, tt.leftOut)
			}
			if len(st.PassK) != len(tt.passK) || len(st.Accuracy) != len(tt.acc) {
				t.Fatalf("pass^k %v accuracy %v, want %v and %v", st.PassK, st.Accuracy, tt.passK, tt.acc)
			}
			for k := range tt.passK {
				if !near(st.PassK[k], tt.passK[k]) {
					t.Errorf("pass^%d = %v, want %v", k+1, st.PassK[k], tt.passK[k])
				}
			}
			for i := range tt.acc {
				if !near(st.Accuracy[i], tt.acc[i]) {
					t.Errorf("trial %d accuracy %v, want %v", i+1, st.Accuracy[i], tt.acc[i])
				}
			}
			if !near(st.FlipRate, tt.flip) {
				t.Errorf("flip rate %v, want %v", st.FlipRate, tt.flip)
			}
			if !near(st.StdDev, tt.sd) {
				t.Errorf("stddev %v, want %v", st.StdDev, tt.sd)
			}
			lo, hi := tt.acc[0], tt.acc[0]
			for _, a := range tt.acc {
				lo, hi = min(lo, a), max(hi, a)
			}
			if !near(st.Min, lo) || !near(st.Max, hi) {
				t.Errorf("min %v max %v, want %v and %v", st.Min, st.Max, lo, hi)
			}
		})
	}
}

func TestChoose(t *testing.T) {
	for _, tt := range []struct {
		n, k int
		want float64
	}{{5, 0, 1}, {5, 1, 5}, {5, 2, 10}, {5, 5, 1}, {3, 4, 0}, {10, 3, 120}} {
		if got := choose(tt.n, tt.k); got != tt.want {
			t.Errorf("choose(%d, %d) = %v, want %v", tt.n, tt.k, got, tt.want)
		}
	}
}
