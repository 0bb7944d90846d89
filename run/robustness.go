package run

import (
	"sort"

	"github.com/apibank-playground/apibank/protocol"
)

// MaxVariants bounds the variants a robustness run asks: each is a whole run of the model.
const MaxVariants = 20

// VariantSeeds are the seeds of a robustness run's n variants: 1 to n, the same for every model,
// so two models' robustness runs meet the same variants and compare.
func VariantSeeds(n int) []int64 {
	seeds := make([]int64, n)
	for i := range seeds {
		seeds[i] = int64(i + 1)
	}
	return seeds
}

// Robustness sums up, for one level, a run that asked every sample in its original form, in
// variants (the same request with other names, numbers and texts: see package variant) and in its
// original form again. A model that understood a request gets its variants right as well; one that
// remembered it, or was lucky with these values, does not. The second ask of the unchanged original
// is the baseline: how much verdicts change with no change to the sample at all, which a drop over
// the variants has to rise above before it means anything.
//
// Tasks are those of TrialStats (call samples of levels 1-2, level-3 episodes), counted when every
// pass that ran judged them; LeftOut counts the others: a task asked in some pass (judged, or its
// request failed) that some pass left unjudged, the original's included.
type Robustness struct {
	Level   string `json:"level"`
	Tasks   int    `json:"tasks"`
	LeftOut int    `json:"left_out"`
	// Original is the accuracy on the original samples.
	Original float64 `json:"original"`
	// Seeds names the variants; Variants is the accuracy on each, in the same order.
	Seeds    []int64   `json:"seeds"`
	Variants []float64 `json:"variants"`
	// Mean, StdDev (the sample standard deviation), Min and Max are the spread of Variants.
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	// EveryVariant is the share of tasks right in every variant.
	EveryVariant float64 `json:"every_variant"`
	// Rerun is the accuracy when the original is asked again unchanged: null when that pass never
	// ran (a run cancelled before it), which no number may stand for.
	Rerun *float64 `json:"rerun"`
	// RerunFlips is the share of tasks the original's two asks judge differently (the noise; null
	// when the rerun never ran); VariantFlips is the share a variant judges differently from the
	// original, averaged over the variants (the noise and the change of values together; 0 when no
	// variant ran, which Seeds says).
	RerunFlips   *float64 `json:"rerun_flips"`
	VariantFlips float64  `json:"variant_flips"`
}

// Robust sums up a robustness run, one Robustness per level in the order levels first appear in its
// passes: original is the run on the original data, variants the runs on the variants that seeds
// name (in that order) and rerun the original asked again. Nil results are a pass that never
// started; a level is then summed up over the tasks the passes that ran judged. With no original
// there is nothing to compare: no rows.
func Robust(original *Result, seeds []int64, variants []*Result, rerun *Result) []Robustness {
	if original == nil {
		return nil
	}
	_, orig := judged(original)
	var vars []map[task]bool
	var ran []int64
	for i, r := range variants {
		if r == nil {
			continue
		}
		_, got := judged(r)
		vars = append(vars, got)
		ran = append(ran, seeds[i])
	}
	_, again := judgedOrNone(rerun)
	order := askedTasks(append(append([]*Result{original}, variants...), rerun))
	var levels []string
	seen := map[string]bool{}
	for _, t := range order {
		if !seen[t.level] {
			seen[t.level] = true
			levels = append(levels, t.level)
		}
	}
	var out []Robustness
	for _, level := range levels {
		rb := Robustness{Level: level, Seeds: ran, Variants: make([]float64, len(vars))}
		var tasks []task
		for _, t := range order {
			if t.level != level {
				continue
			}
			if !has(orig, t) || !judgedInAll(t, vars) || (rerun != nil && !has(again, t)) {
				rb.LeftOut++
				continue
			}
			tasks = append(tasks, t)
		}
		// In a fixed order, so that the sums come out bit for bit the same in every host.
		sort.Slice(tasks, func(i, j int) bool {
			if tasks[i].file != tasks[j].file {
				return tasks[i].file < tasks[j].file
			}
			return tasks[i].id < tasks[j].id
		})
		rb.Tasks = len(tasks)
		if rb.Tasks == 0 {
			out = append(out, rb)
			continue
		}
		n := float64(rb.Tasks)
		var origRight, rerunRight, rerunFlips, every int
		variantFlips := 0.0
		for _, t := range tasks {
			o := orig[t]
			if o {
				origRight++
			}
			if rerun != nil {
				if again[t] {
					rerunRight++
				}
				if again[t] != o {
					rerunFlips++
				}
			}
			all := true
			for i, v := range vars {
				if v[t] {
					rb.Variants[i]++
				} else {
					all = false
				}
				if v[t] != o {
					variantFlips++
				}
			}
			if all && len(vars) > 0 {
				every++
			}
		}
		rb.Original = float64(origRight) / n
		for i := range rb.Variants {
			rb.Variants[i] /= n
		}
		rb.Mean, rb.Min, rb.Max, rb.StdDev = spread(rb.Variants)
		rb.EveryVariant = float64(every) / n
		if rerun != nil {
			rb.Rerun, rb.RerunFlips = share(rerunRight, n), share(rerunFlips, n)
		}
		if len(vars) > 0 {
			rb.VariantFlips = variantFlips / (n * float64(len(vars)))
		}
		out = append(out, rb)
	}
	return out
}

// share is k of n, as a value a Robustness may leave null.
func share(k int, n float64) *float64 {
	x := float64(k) / n
	return &x
}

// askedTasks lists the tasks of results (nil ones skipped) in the order they first appear: those each
// judged, then those whose request failed (a call sample or a level-3 episode, the tasks judged
// lists), so a task no pass judged still counts as left out.
func askedTasks(results []*Result) []task {
	var order []task
	seen := map[task]bool{}
	add := func(t task) {
		if !seen[t] {
			seen[t] = true
			order = append(order, t)
		}
	}
	for _, r := range results {
		if r == nil {
			continue
		}
		list, _ := judged(r)
		for _, t := range list {
			add(t)
		}
		for _, f := range r.Failures {
			switch {
			case f.Kind == protocol.KindCall:
				add(task{f.Level, f.File, f.ID})
			case f.Level == Level3:
				add(task{f.Level, f.File, -1})
			}
		}
	}
	return order
}

// judgedOrNone is judged for a pass that may not have run.
func judgedOrNone(r *Result) ([]task, map[task]bool) {
	if r == nil {
		return nil, map[task]bool{}
	}
	return judged(r)
}

// has says whether the pass judged t.
func has(got map[task]bool, t task) bool {
	_, ok := got[t]
	return ok
}

// judgedInAll says whether every variant judged t.
func judgedInAll(t task, vars []map[task]bool) bool {
	for _, v := range vars {
		if !has(v, t) {
			return false
		}
	}
	return true
}
