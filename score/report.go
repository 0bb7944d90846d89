package score

import (
	"slices"
	"sort"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
)

// Report sums up a batch of verdicts (the protocol's type; score fills it).
type Report = protocol.Report

// Tally counts call verdicts and reply scores for a level, a tool, or everything.
type Tally = protocol.Tally

// Count is the number of verdicts of one category.
type Count = protocol.Count

// tally accumulates a Tally: the mean ROUGE-L needs the sum of the scores until the end.
type tally struct {
	Tally
	rougeSum float64
}

func (t *tally) add(r *Result) {
	switch {
	case r.CallVerdict != nil && r.CallVerdict.Tool == "":
		t.Special++
		if r.CallVerdict.Correct {
			t.SpecialCorrect++
		}
	case r.CallVerdict != nil:
		t.Calls++
		if r.CallVerdict.Correct {
			t.Correct++
		}
	case r.ReplyVerdict != nil:
		t.Replies++
		t.rougeSum += r.ReplyVerdict.RougeL
	}
}

// done returns the tally with its accuracy and mean ROUGE-L.
func (t *tally) done() Tally {
	if t.Calls > 0 {
		t.Accuracy = float64(t.Correct) / float64(t.Calls)
	}
	if t.Replies > 0 {
		t.RougeL = t.rougeSum / float64(t.Replies)
	}
	return t.Tally
}

// NewReport sums results. The gold ceiling is computed for the levels present.
func NewReport(data *dataset.Data, ix *Index, results []Result, mode Mode) *Report {
	rb := newReportBuilder()
	for i := range results {
		rb.add(&results[i])
	}
	return rb.report(data, ix, mode, true)
}

// reportBuilder sums verdicts one at a time, so a stream of any length keeps only its tallies: a
// report built from a stream equals NewReport of the same verdicts (the sums are made in the same
// order).
type reportBuilder struct {
	overall     tally
	levels      map[string]*tally
	tools       map[string]*tally
	cats        counts
	specialCats counts
	forms       counts
	sceneOK     map[string]bool
	// lastLevel and lastTool are the tallies the last verdict went to: consecutive verdicts mostly
	// share their level and tool, and a comparison is cheaper than hashing the name again.
	lastLevel, lastTool *tally
}

// counts counts verdicts by a name (a category, a form): the names are few and repeat, so they are
// kept in a slice searched from the last one counted, which costs less than hashing the name.
type counts struct {
	names []string
	n     []int
	last  int
}

// add counts one more of name.
func (c *counts) add(name string) {
	if c.last < len(c.names) && c.names[c.last] == name {
		c.n[c.last]++
		return
	}
	for i, k := range c.names {
		if k == name {
			c.n[i]++
			c.last = i
			return
		}
	}
	c.names, c.n, c.last = append(c.names, name), append(c.n, 1), len(c.names)
}

// get returns the count of name.
func (c *counts) get(name string) int {
	for i, k := range c.names {
		if k == name {
			return c.n[i]
		}
	}
	return 0
}

// tallyOf returns the tally of name in m, made when absent; last is tried first and set.
func tallyOf(m map[string]*tally, last **tally, name string) *tally {
	if t := *last; t != nil && t.Name == name {
		return t
	}
	t := m[name]
	if t == nil {
		t = &tally{Tally: Tally{Name: name}}
		m[name] = t
	}
	*last = t
	return t
}

func newReportBuilder() *reportBuilder {
	return &reportBuilder{levels: map[string]*tally{}, tools: map[string]*tally{}, sceneOK: map[string]bool{}}
}

// add counts one verdict.
func (rb *reportBuilder) add(r *Result) {
	rb.overall.add(r)
	tallyOf(rb.levels, &rb.lastLevel, r.Level).add(r)
	if r.CallVerdict == nil {
		return
	}
	if r.CallVerdict.Tool == "" {
		rb.specialCats.add(r.CallVerdict.Category)
	} else {
		rb.cats.add(r.CallVerdict.Category)
	}
	form := r.CallVerdict.Form
	if form == "" {
		form = "none"
	}
	rb.forms.add(form)
	if len(r.CallVerdict.Calls) == 0 && r.CallVerdict.Tool != "" {
		// One call judged alone: its gold tool only (goldTools without the slice).
		tallyOf(rb.tools, &rb.lastTool, r.CallVerdict.Tool).add(r)
	} else {
		for _, name := range goldTools(r.CallVerdict) {
			tallyOf(rb.tools, &rb.lastTool, name).add(r)
		}
	}
	if r.Level == dataset.Level3 {
		ok, seen := rb.sceneOK[r.File]
		rb.sceneOK[r.File] = (ok || !seen) && r.CallVerdict.Correct
	}
}

// goldTools names the tools a call verdict is tallied under: its gold tool, or for a gold call set
// each distinct tool of the set (the set's verdict counts once under each); "(no call)" for a
// special case.
func goldTools(v *CallVerdict) []string {
	if v.Tool == "" {
		return []string{"(no call)"}
	}
	names := []string{v.Tool}
	for _, m := range v.Calls {
		if m.Tool != "" && !slices.Contains(names, m.Tool) {
			names = append(names, m.Tool)
		}
	}
	return names
}

// report returns the report of the verdicts added so far, with each level's gold ceiling when
// ceilings is true.
func (rb *reportBuilder) report(data *dataset.Data, ix *Index, mode Mode, ceilings bool) *Report {
	rep := &Report{State: string(mode), Data: data.Name, Forms: map[string]int{}}
	for i, k := range rb.forms.names {
		rep.Forms[k] = rb.forms.n[i]
	}
	overall := rb.overall
	levels := make(map[string]*tally, len(rb.levels))
	for k, t := range rb.levels {
		c := *t
		levels[k] = &c
	}
	if lt := levels[dataset.Level3]; lt != nil {
		for _, ok := range rb.sceneOK {
			lt.Scenes++
			overall.Scenes++
			if ok {
				lt.ScenesCorrect++
				overall.ScenesCorrect++
			}
		}
	}
	rep.Overall = overall.done()
	native := rep.Forms[string(call.Native)] > rep.Forms[string(call.Text)]
	for _, l := range dataset.Levels {
		if t, ok := levels[l]; ok {
			rep.Levels = append(rep.Levels, t.done())
			if ceilings {
				rep.Ceiling = append(rep.Ceiling, ix.Ceiling(mode, l, native))
			}
		}
	}
	for _, c := range Categories {
		if n := rb.cats.get(c); n > 0 {
			rep.Categories = append(rep.Categories, Count{Category: c, Count: n})
		}
		if n := rb.specialCats.get(c); n > 0 {
			rep.SpecialCategories = append(rep.SpecialCategories, Count{Category: c, Count: n})
		}
	}
	for _, t := range rb.tools {
		c := *t
		rep.Tools = append(rep.Tools, c.done())
	}
	sort.Slice(rep.Tools, func(i, j int) bool { return rep.Tools[i].Name < rep.Tools[j].Name })
	rep.Notes = notes(data)
	return rep
}

// notes are the caveats every report on a dataset carries.
func notes(data *dataset.Data) []string {
	n := []string{
		"ToolSearcher calls are judged by the tool names they return: the original compares whole outputs made by a sentence-embedding model over older descriptions, which no offline run can reproduce.",
	}
	if !data.Repaired {
		n = append(n, "Parity: a prediction of several calls is judged by its first call only, as the original's parser reads it; gold call sets (parallel API turns) are judged whole.")
	}
	if data.Tables == "gold results" {
		n = append(n, "Dictionary and Translate answer from tables built from the dataset's own recorded gold results (the original calls web services).")
	}
	return n
}

// Replayed is the outcome of replaying a level's gold calls (the protocol's type).
type Replayed = protocol.Replayed

// replayGold replays every gold API turn of a level once, with a fresh Scorer in mode: rendered in the
// original text format as its prompts render past calls (for our data: as GoldPrediction renders
// them), or as native calls when native is true.
func (ix *Index) replayGold(mode Mode, level string, native bool) Replayed {
	rep := Replayed{Level: level, Form: string(call.Text)}
	if native {
		rep.Form = string(call.Native)
	}
	s := New(ix.data, mode)
	dialogues := ix.data.Dialogues()
	if level == dataset.Level3 {
		dialogues = ix.Scenes()
	}
	for _, d := range dialogues {
		if d.Level != level {
			continue
		}
		// One sample per gold call set (per API turn where there are no parallel turns; scenes have
		// none), numbered as Samples numbers them.
		sets := d.CallSets()
		for k, set := range sets {
			p := set[0]
			t := &d.Turns[p]
			id := 2 * k
			if d.Scene != nil {
				id = k
			}
			sm := Sample{Dialogue: d, ID: id, Kind: KindCall, Gold: p, History: p, API: k}
			if len(set) > 1 {
				sm.Set = set
			}
			// The original's gold calls replay in its text format, as its evaluator renders them; ours
			// in text where the format can write the call exactly.
			pred := GoldText(t)
			if d.Repaired || len(set) > 1 {
				// A set's calls are all judged, in any data: a folder of ours imported (synthesized
				// dialogues) replays its sets as sets.
				pred = GoldSetPrediction(sm)
			}
			if native {
				pred = GoldSetNative(sm)
			}
			var v CallVerdict
			if err := isolated(func() { v = s.Call(sm, pred) }); err != nil {
				v = CallVerdict{Category: ToolError, Tool: t.Tool, Error: err.Error()}
			}
			// A set counts as many gold calls as it has, all accepted or none.
			rep.Total += len(set)
			if v.Correct {
				rep.Accepted += len(set)
			} else {
				rep.Rejected = append(rep.Rejected, Result{Level: level, File: d.File, ID: sm.ID, Kind: KindCall, CallVerdict: &v})
			}
		}
	}
	return rep
}

// sortedKeys returns a set's keys in order.
func sortedKeys(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
