package run

import (
	"sort"
	"strings"

	"github.com/apibank-playground/apibank/stats"
)

// Comparison is two runs, A and B, compared as paired samples: each task both judged is a pair of
// verdicts, and the test (package stats: the exact McNemar test) asks whether the tasks B fixed
// and those it broke differ by more than chance. It is what `apibank compare` prints and what the
// Runs page shows beside its side-by-side.
type Comparison struct {
	// Levels has one row per level (level-3 episodes apart from level-3 step samples), in level
	// order.
	Levels []Compared `json:"levels"`
	// Overall pools the tasks of every row.
	Overall Compared `json:"overall"`
}

// Compared is the comparison of one level's tasks (or of all, in Comparison.Overall).
type Compared struct {
	// Level is the level's folder name ("" overall); Unit what its tasks are: "sample" (a call
	// sample), "episode" (a level-3 episode) or "task" (overall).
	Level string `json:"level"`
	Unit  string `json:"unit"`
	// Scope names the level in the sentence: "level 1", "all levels".
	Scope string `json:"scope"`
	// Paired is how many tasks both runs judged; OnlyA and OnlyB those only one did (left out).
	Paired int `json:"paired"`
	OnlyA  int `json:"only_a"`
	OnlyB  int `json:"only_b"`
	// The 2×2 table of the paired tasks: Fixed is wrong in A and right in B, Broken the reverse.
	BothRight int `json:"both_right"`
	BothWrong int `json:"both_wrong"`
	Fixed     int `json:"fixed"`
	Broken    int `json:"broken"`
	// AccuracyA and AccuracyB are the runs' accuracies on the paired tasks; Discordance the share
	// of them the runs judge differently.
	AccuracyA   float64 `json:"accuracy_a"`
	AccuracyB   float64 `json:"accuracy_b"`
	Discordance float64 `json:"discordance"`
	// P is the exact McNemar test's two-sided p-value.
	P float64 `json:"p"`
	// MinDetectable is the smallest difference in accuracy (a fraction) these paired tasks would
	// show at the 5% level with 80% power (stats.MinDetectable).
	MinDetectable float64 `json:"min_detectable"`
	// Finding is stats.Better, stats.Worse, stats.NotDistinguishable or stats.Unpaired (B against
	// A), and Sentence says it in plain words.
	Finding  string `json:"finding"`
	Sentence string `json:"sentence"`
	// FlipA and FlipB are the flip rates between the repeated trials of A's and B's settings, when
	// they have several.
	FlipA *Flip `json:"flip_a,omitempty"`
	FlipB *Flip `json:"flip_b,omitempty"`
}

// Flip is the flip rate between the repeated trials of one setting, over the tasks every trial
// judged (stats.FlipRate).
type Flip struct {
	Trials int     `json:"trials"`
	Tasks  int     `json:"tasks"`
	Rate   float64 `json:"rate"`
}

// row is where a task is counted: its level, and whether it is an episode.
type row struct {
	level   string
	episode bool
}

func rowOf(t task) row { return row{t.level, t.id < 0} }

// Compare compares run A with run B. a and b are each the trials of one setting, the run compared
// first: with two or more trials (nil ones skipped) a side also gets its flip rate. A task counts
// by its verdict in the compared run (see judged: call samples and level-3 episodes).
func Compare(a, b []*Result) Comparison {
	a, b = nonNil(a), nonNil(b)
	var ka, kb []task
	var ja, jb map[task]bool
	if len(a) > 0 {
		ka, ja = judged(a[0])
	}
	if len(b) > 0 {
		kb, jb = judged(b[0])
	}
	cells := map[row]*stats.Paired{}
	only := map[row]*[2]int{}
	rows := map[row]bool{}
	var all stats.Paired
	var allOnly [2]int
	for _, t := range ka {
		r := rowOf(t)
		rows[r] = true
		okB, inB := jb[t]
		if !inB {
			cnt(only, r)[0]++
			allOnly[0]++
			continue
		}
		if cells[r] == nil {
			cells[r] = &stats.Paired{}
		}
		tally(cells[r], ja[t], okB)
		tally(&all, ja[t], okB)
	}
	for _, t := range kb {
		if _, inA := ja[t]; !inA {
			r := rowOf(t)
			rows[r] = true
			cnt(only, r)[1]++
			allOnly[1]++
		}
	}
	order := make([]row, 0, len(rows))
	for r := range rows {
		order = append(order, r)
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].level != order[j].level {
			return order[i].level < order[j].level
		}
		return !order[i].episode && order[j].episode
	})
	flipA, allA := flips(a)
	flipB, allB := flips(b)
	var c Comparison
	for _, r := range order {
		p := stats.Paired{}
		if cells[r] != nil {
			p = *cells[r]
		}
		var o [2]int
		if only[r] != nil {
			o = *only[r]
		}
		unit := "sample"
		if r.episode {
			unit = "episode"
		}
		c.Levels = append(c.Levels, compared(p, o, r.level, unit, levelWords(r.level), flipA[r], flipB[r]))
	}
	c.Overall = compared(all, allOnly, "", "task", "all levels", allA, allB)
	return c
}

func nonNil(rs []*Result) []*Result {
	var out []*Result
	for _, r := range rs {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

func cnt(m map[row]*[2]int, r row) *[2]int {
	if m[r] == nil {
		m[r] = &[2]int{}
	}
	return m[r]
}

// tally counts one pair of verdicts in p.
func tally(p *stats.Paired, a, b bool) {
	switch {
	case a && b:
		p.BothRight++
	case !a && !b:
		p.BothWrong++
	case b:
		p.Fixed++
	default:
		p.Broken++
	}
}

// compared fills a row from its 2×2 table.
func compared(p stats.Paired, only [2]int, level, unit, scope string, fa, fb *Flip) Compared {
	return Compared{
		Level: level, Unit: unit, Scope: scope,
		Paired: p.N(), OnlyA: only[0], OnlyB: only[1],
		BothRight: p.BothRight, BothWrong: p.BothWrong, Fixed: p.Fixed, Broken: p.Broken,
		AccuracyA: p.AccuracyA(), AccuracyB: p.AccuracyB(), Discordance: p.Discordance(),
		P: p.P(), MinDetectable: p.MinDetectable(),
		Finding: p.Finding(), Sentence: p.Sentence(scope, unit),
		FlipA: fa, FlipB: fb,
	}
}

// flips is the flip rate of each row, and of all rows together, between the trials of one
// setting, over the tasks every trial judged; none for fewer than two trials.
func flips(trials []*Result) (map[row]*Flip, *Flip) {
	out := map[row]*Flip{}
	if len(trials) < 2 {
		return out, nil
	}
	rights := map[task]int{}
	seen := map[task]int{}
	for _, r := range trials {
		_, got := judged(r)
		for t, ok := range got {
			seen[t]++
			if ok {
				rights[t]++
			}
		}
	}
	succ := map[row][]int{}
	var all []int
	for t, n := range seen {
		if n < len(trials) {
			continue
		}
		succ[rowOf(t)] = append(succ[rowOf(t)], rights[t])
		all = append(all, rights[t])
	}
	flip := func(s []int) *Flip {
		sort.Ints(s) // a fixed order, so the sum is the same bit for bit in every host
		return &Flip{Trials: len(trials), Tasks: len(s), Rate: stats.FlipRate(s, len(trials))}
	}
	for r, s := range succ {
		out[r] = flip(s)
	}
	if len(all) == 0 {
		return out, nil
	}
	return out, flip(all)
}

// levelWords names a level in a sentence: "level-1-given-desc" is "level 1".
func levelWords(level string) string {
	if rest, ok := strings.CutPrefix(level, "level-"); ok && rest != "" {
		n, _, _ := strings.Cut(rest, "-")
		return "level " + n
	}
	return level
}
