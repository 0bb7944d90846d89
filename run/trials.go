package run

import (
	"math"
	"sort"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/stats"
)

// MaxTrials bounds repeated trials of one config: they exist to measure consistency, and beyond
// a few dozen a mistyped count would only spend the user's money.
const MaxTrials = 100

// TrialStats sums up repeated trials of one run config for one level, as tau-bench reports them:
// pass^k is the chance that k trials of a task, drawn from the n made, all succeed (averaged over
// tasks), so pass^1 is the mean accuracy and pass^n the share of tasks solved every time. It says
// how reliably a model solves a task, which a single run's accuracy cannot.
//
// A task is a call sample of levels 1-2 (judged correct or not; special cases and replies are
// reported apart, as in a run's report) or a level-3 episode (a success: the gold final world and
// every gold call recalled). A task that a failed request left unjudged in some trial is left out
// of pass^k (LeftOut counts them) but still counts in the accuracy of the trials that judged it.
type TrialStats struct {
	Level string `json:"level"`
	// Trials is how many runs were made; Tasks how many tasks were judged in every one of them.
	Trials  int `json:"trials"`
	Tasks   int `json:"tasks"`
	LeftOut int `json:"left_out"`
	// PassK[k-1] is pass^k, for k = 1..Trials.
	PassK []float64 `json:"pass_k"`
	// Accuracy is each trial's accuracy over the tasks it judged, in run order.
	Accuracy []float64 `json:"accuracy"`
	// Mean, Min, Max and StdDev (the sample standard deviation; 0 for one trial) are the spread
	// of Accuracy.
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	StdDev float64 `json:"stddev"`
	// FlipRate is the chance that two of the trials judge a task differently, averaged over the
	// Tasks (stats.FlipRate): the noise floor a comparison of two settings has to rise above.
	FlipRate float64 `json:"flip_rate"`
}

// Trials sums up results of the same config run several times, one TrialStats per level, in the
// order levels first appear. Nil results (a trial that never started) are skipped.
func Trials(results []*Result) []TrialStats {
	var order []string
	seen := map[string]bool{}
	var trials []map[task]bool // per trial: task → success
	for _, r := range results {
		if r == nil {
			continue
		}
		keys, got := judged(r)
		for _, t := range keys {
			if !seen[t.level] {
				seen[t.level] = true
				order = append(order, t.level)
			}
		}
		trials = append(trials, got)
	}
	n := len(trials)
	out := make([]TrialStats, 0, len(order))
	for _, level := range order {
		st := TrialStats{Level: level, Trials: n, PassK: make([]float64, n), Accuracy: make([]float64, n)}
		// Successes per task over the trials, for the tasks every trial judged.
		all := map[task]int{}
		counted := map[task]int{}
		for i, got := range trials {
			right, total := 0, 0
			for t, ok := range got {
				if t.level != level {
					continue
				}
				total++
				counted[t]++
				if ok {
					right++
					all[t]++
				}
			}
			if total > 0 {
				st.Accuracy[i] = float64(right) / float64(total)
			}
		}
		// In a fixed order, so that the sums come out bit for bit the same in every host.
		keys := make([]task, 0, len(counted))
		for t := range counted {
			keys = append(keys, t)
		}
		sort.Slice(keys, func(i, j int) bool {
			a, b := keys[i], keys[j]
			if a.file != b.file {
				return a.file < b.file
			}
			return a.id < b.id
		})
		var successes []int
		for _, t := range keys {
			if counted[t] < n {
				st.LeftOut++
				continue
			}
			st.Tasks++
			successes = append(successes, all[t])
			for k := 1; k <= n; k++ {
				st.PassK[k-1] += choose(all[t], k) / choose(n, k)
			}
		}
		if st.Tasks > 0 {
			for k := range st.PassK {
				st.PassK[k] /= float64(st.Tasks)
			}
		}
		st.FlipRate = stats.FlipRate(successes, n)
		st.Mean, st.Min, st.Max, st.StdDev = spread(st.Accuracy)
		out = append(out, st)
	}
	return out
}

// task names one judged task of a run: a call sample, or a level-3 episode (id -1).
type task struct {
	level, file string
	id          int
}

// judged lists a run's judged tasks in the order they first appear, with each one's outcome: the
// call samples (right or not; special cases and replies are reported apart, as in a run's report)
// and the level-3 episodes played to a judgement (a success: the gold final world and every gold
// call recalled). A sample judged twice counts by its last verdict.
func judged(r *Result) ([]task, map[task]bool) {
	var order []task
	got := map[task]bool{}
	note := func(t task, ok bool) {
		if _, dup := got[t]; !dup {
			order = append(order, t)
		}
		got[t] = ok
	}
	if r.Batch != nil {
		for _, v := range r.Batch.Results {
			if v.Kind != protocol.KindCall || v.CallVerdict == nil {
				continue
			}
			note(task{v.Level, v.File, v.ID}, v.Correct)
		}
	}
	for _, ep := range r.Episodes {
		if ep.Outcome != nil {
			note(task{ep.Level, ep.File, -1}, ep.Outcome.Success)
		}
	}
	return order, got
}

// choose is the binomial coefficient C(n, k) as a float (0 when k > n).
func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}

// spread is the mean, minimum, maximum and sample standard deviation of xs.
func spread(xs []float64) (mean, lo, hi, sd float64) {
	if len(xs) == 0 {
		return 0, 0, 0, 0
	}
	lo, hi = xs[0], xs[0]
	for _, x := range xs {
		mean += x
		lo, hi = min(lo, x), max(hi, x)
	}
	mean /= float64(len(xs))
	if len(xs) > 1 {
		for _, x := range xs {
			sd += (x - mean) * (x - mean)
		}
		sd = math.Sqrt(sd / float64(len(xs)-1))
	}
	return mean, lo, hi, sd
}
