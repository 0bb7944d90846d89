package app

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/apibank-playground/apibank/protocol"
)

// curriculumJSON is the teaching order: units and the rules that pick their exercises from the data.
// It is data, not page code, so a unit is changed or added without touching the Classroom.
//
//go:embed curriculum.json
var curriculumJSON []byte

// Unit is one step of the curriculum: a skill, its explanation and the rule choosing its exercises.
type Unit struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Text  string `json:"text"`
	Rule  Rule   `json:"rule"`
}

// Rule says which samples of the loaded data make a unit's exercises, and in what order.
type Rule struct {
	// Level and Kind (call or special) a sample must have.
	Level string `json:"level"`
	Kind  string `json:"kind"`
	// MinSteps and MaxSteps bound the gold steps earlier in the same dialogue (MaxSteps nil: no bound).
	MinSteps int  `json:"min_steps"`
	MaxSteps *int `json:"max_steps"`
	// Parallel keeps only steps whose gold answer is several calls in one turn.
	Parallel bool `json:"parallel"`
	// Specials, when set, are the special cases kept (and the set is taken round-robin over them).
	Specials []string `json:"specials"`
	// OneFile takes the example and every exercise from one dialogue, in its order: the first that
	// has Count+1 steps.
	OneFile bool `json:"one_file"`
	// Count is how many exercises the unit has.
	Count int `json:"count"`
	// Order is the difficulty measure, easiest first: "turns" (dialogue length) or "steps" (steps
	// before this one, then dialogue length).
	Order string `json:"order"`
}

// Curriculum reads the embedded units.
func Curriculum() ([]Unit, error) {
	var c struct {
		Units []Unit `json:"units"`
	}
	if err := json.Unmarshal(curriculumJSON, &c); err != nil {
		return nil, fmt.Errorf("curriculum.json: %v", err)
	}
	return c.Units, nil
}

// Candidate is a sample with the measures a rule reads.
type Candidate struct {
	protocol.SampleView
	// Steps is the number of gold steps (call sets or special cases) before this one in its dialogue.
	Steps int
	// Turns is the dialogue's length.
	Turns int
	// Special is the dialogue's special case ("" for none).
	Special string
	// Parallel is true when the gold answer is several calls in one turn.
	Parallel bool
}

// Candidates measures a level's samples; parallel says whether a sample's gold step is several
// calls (it is asked only for dialogues with more gold calls than steps).
func Candidates(samples []protocol.SampleView, summaries []protocol.DialogueSummary, parallel func(protocol.SampleView) bool) []Candidate {
	sum := map[string]protocol.DialogueSummary{}
	for _, d := range summaries {
		sum[d.Level+"/"+d.File] = d
	}
	steps := map[string]int{}
	lines := map[string]bool{}
	var out []Candidate
	for _, s := range samples {
		if s.Kind != protocol.KindCall && s.Kind != protocol.KindSpecial {
			continue
		}
		k := s.Level + "/" + s.File
		if line := fmt.Sprint(k, "#", s.GoldLine); lines[line] {
			continue // a call set's other samples: one exercise per gold step
		} else {
			lines[line] = true
		}
		d := sum[k]
		out = append(out, Candidate{SampleView: s, Steps: steps[k], Turns: d.Turns, Special: d.Special})
		steps[k]++
	}
	for i := range out {
		if c := &out[i]; c.Kind == protocol.KindCall && sum[c.Level+"/"+c.File].Calls > steps[c.Level+"/"+c.File] && parallel != nil {
			c.Parallel = parallel(c.SampleView)
		}
	}
	return out
}

// Select picks a unit's worked example and its exercises by its rule, easiest first: the example is
// the easiest sample the rule picks, the exercises the Count after it (fewer when the data has fewer).
func Select(r Rule, cs []Candidate) (example *protocol.SampleView, exercises []protocol.SampleView) {
	picked := pick(r, cs)
	if len(picked) == 0 {
		return nil, nil
	}
	return &picked[0], picked[1:]
}

// pick takes Count+1 samples by the rule, easiest first.
func pick(r Rule, cs []Candidate) []protocol.SampleView {
	n := r.Count + 1
	var in []Candidate
	for _, c := range cs {
		if c.Level != r.Level || c.Kind != r.Kind || c.Steps < r.MinSteps || (r.MaxSteps != nil && c.Steps > *r.MaxSteps) ||
			(r.Parallel && !c.Parallel) || (len(r.Specials) > 0 && !slices.Contains(r.Specials, c.Special)) {
			continue
		}
		in = append(in, c)
	}
	measure := func(c Candidate) [2]int {
		if r.Order == "steps" {
			return [2]int{c.Steps, c.Turns}
		}
		return [2]int{c.Turns, c.Steps}
	}
	sort.SliceStable(in, func(i, j int) bool {
		a, b := measure(in[i]), measure(in[j])
		if a != b {
			return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
		}
		if in[i].File != in[j].File {
			return in[i].File < in[j].File
		}
		return in[i].ID < in[j].ID
	})
	if r.OneFile {
		byFile := map[string][]Candidate{}
		var files []string
		for _, c := range in {
			if byFile[c.File] == nil {
				files = append(files, c.File)
			}
			byFile[c.File] = append(byFile[c.File], c)
		}
		for _, f := range files {
			if len(byFile[f]) >= n {
				g := byFile[f]
				sort.Slice(g, func(i, j int) bool { return g[i].ID < g[j].ID })
				return views(g[:n])
			}
		}
		return nil
	}
	if len(r.Specials) > 0 {
		// Round-robin over the special cases, each list easiest first, so every case is met.
		var picked []Candidate
		used := map[string]int{}
		for len(picked) < n {
			before := len(picked)
			for _, sp := range r.Specials {
				seen := 0
				for _, c := range in {
					if c.Special != sp {
						continue
					}
					if seen == used[sp] && len(picked) < n {
						picked = append(picked, c)
						used[sp]++
						break
					}
					seen++
				}
			}
			if len(picked) == before {
				break
			}
		}
		sort.SliceStable(picked, func(i, j int) bool {
			a, b := measure(picked[i]), measure(picked[j])
			return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
		})
		return views(picked)
	}
	return views(spread(in, n))
}

// spread takes n of a sorted list evenly from its first to its last, so a unit runs from easy to hard.
func spread(in []Candidate, n int) []Candidate {
	if len(in) <= n {
		return in
	}
	out := make([]Candidate, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, in[i*(len(in)-1)/max(n-1, 1)])
	}
	return out
}

func views(cs []Candidate) []protocol.SampleView {
	out := make([]protocol.SampleView, len(cs))
	for i, c := range cs {
		out[i] = c.SampleView
	}
	return out
}

// parallelStep reports whether a sample's gold step is several calls in one turn: the API turn after
// its gold turn is marked parallel.
func parallelStep(d *protocol.Dialogue, s protocol.SampleView) bool {
	for i, t := range d.Turns {
		if t.Line == s.GoldLine {
			return i+1 < len(d.Turns) && d.Turns[i+1].Role == "API" && d.Turns[i+1].Parallel
		}
	}
	return false
}

// UnitExercises picks a unit's worked example and exercises from the data loaded in the tab.
func (t *Tab) UnitExercises(u Unit) (*protocol.SampleView, []protocol.SampleView, error) {
	ss, err := t.Samples(u.Rule.Level)
	if err != nil {
		return nil, nil, err
	}
	ds, err := t.Dialogues()
	if err != nil {
		return nil, nil, err
	}
	var derr error
	cs := Candidates(ss, ds, func(s protocol.SampleView) bool {
		if !u.Rule.Parallel {
			return false
		}
		d, err := t.Dialogue(s.Level, s.File)
		if err != nil {
			derr = err
			return false
		}
		return parallelStep(d, s)
	})
	if derr != nil {
		return nil, nil, derr
	}
	ex, exercises := Select(u.Rule, cs)
	return ex, exercises, nil
}
