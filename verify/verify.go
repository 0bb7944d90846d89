// Package verify checks a dataset the way APIGen verifies generated function-calling data, so that
// every gold answer is proven rather than trusted:
//
//  1. format: every turn and scene has the shape of the benchmark's files, tools and parameters exist,
//     and the order of turns makes sense;
//  2. execution: every gold call, replayed in order in the dataset's world, yields exactly its
//     recorded result, and the calls of a gold call set (parallel API turns) yield the same results
//     in the reverse order, so the set does not depend on the order its calls run in;
//  3. grounding: every argument value of every gold call appears earlier in the dialogue (or in an
//     earlier API output), after normalising case, whitespace and date/time formats, or the dialogue
//     declares it derived with the rule used;
//
// plus, on our own data, the fairness checks (fair.go: writable golds, special cases' needs, level-3
// tools shown, audit status), and coverage: the dataset's size against the paper's (and the project's)
// targets.
package verify

import (
	"fmt"
	"sort"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// Check names.
const (
	Format    = protocol.CheckFormat
	Execution = protocol.CheckExecution
	Grounding = protocol.CheckGrounding
	Coverage  = protocol.CheckCoverage
)

// Tally counts what a check passed and failed (the protocol's CheckTally).
type Tally = protocol.CheckTally

// Failure is one problem, located (the protocol's type).
type Failure = protocol.Failure

// Report is the outcome of Run, in the shape `apibank validate --json` prints (the protocol's
// Validation).
type Report = protocol.Validation

// Targets are the coverage goals: the paper's sizes and the project's special cases.
type Targets struct {
	Level1, Level2, Level3 int
	Dialogues, Calls       int
	PerTool                int
	Special                int
	// Parallel is the number of dialogues with a gold call set (parallel or parallel-multiple);
	// PerSpecialKind the number of special cases of each kind.
	Parallel       int
	PerSpecialKind int
}

// PaperTargets are the sizes of the paper's evaluation data, and our goals for special cases and
// per-tool coverage.
var PaperTargets = Targets{Level1: 214, Level2: 50, Level3: 50, Dialogues: 314, Calls: 753, PerTool: 3, Special: 40,
	Parallel: 40, PerSpecialKind: 15}

// Run verifies a dataset. loadErrs are the problems Load reported (they count as format failures).
// targets, when not nil, adds the coverage check.
func Run(d *dataset.Data, loadErrs []dataset.LineError, targets *Targets) Report {
	r := Report{Checks: map[string]Tally{Format: {}, Execution: {}, Grounding: {}}, Failures: []Failure{}}
	fail := func(check, file string, line int, format string, a ...any) {
		r.Failures = append(r.Failures, Failure{File: file, Line: line, Check: check, Why: fmt.Sprintf(format, a...)})
	}
	count := func(check string, ok bool) {
		t := r.Checks[check]
		if ok {
			t.Passed++
		} else {
			t.Failed++
		}
		r.Checks[check] = t
	}
	for _, e := range loadErrs {
		fail(Format, e.File, e.Line, "%s", e.Message)
		count(Format, false)
	}
	for _, dl := range d.Dialogues() {
		ok := checkFormat(dl, func(line int, format string, a ...any) { fail(Format, dl.File, line, format, a...) })
		count(Format, ok)
		checkExecution(d.Base, dl, func(ok bool, line int, why string) {
			count(Execution, ok)
			if !ok {
				fail(Execution, dl.File, line, "%s", why)
			}
		})
		checkGrounding(dl, func(ok bool, line int, why string) {
			count(Grounding, ok)
			if !ok {
				fail(Grounding, dl.File, line, "%s", why)
			}
		})
	}
	for _, sc := range d.Scenes() {
		ok := checkSceneFormat(sc, func(line int, format string, a ...any) { fail(Format, sc.File, line, format, a...) })
		count(Format, ok)
		checkSceneExecution(d.Base, sc, func(ok bool, line int, why string) {
			count(Execution, ok)
			if !ok {
				fail(Execution, sc.File, line, "%s", why)
			}
		})
		checkSceneGrounding(sc, func(ok bool, line int, why string) {
			count(Grounding, ok)
			if !ok {
				fail(Grounding, sc.File, line, "%s", why)
			}
		})
	}
	if d.Repaired {
		for _, c := range []string{Writable, Special, Shown, Audit} {
			r.Checks[c] = Tally{}
		}
		fairness(d, count, fail)
	}
	if targets != nil {
		r.Checks[Coverage] = checkCoverage(d, *targets, func(why string) { fail(Coverage, d.Name, 0, "%s", why) })
	}
	r.OK = true
	for _, t := range r.Checks {
		if t.Failed > 0 {
			r.OK = false
		}
	}
	sort.SliceStable(r.Failures, func(i, j int) bool {
		a, b := r.Failures[i], r.Failures[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return r
}

// checkFormat checks a dialogue's shape; it reports whether the dialogue passed.
func checkFormat(dl *dataset.Dialogue, fail func(line int, format string, a ...any)) bool {
	ok := true
	bad := func(line int, format string, a ...any) {
		ok = false
		fail(line, format, a...)
	}
	if len(dl.Turns) == 0 {
		bad(0, "no turns")
		return false
	}
	if dl.Turns[0].Role != dataset.User {
		bad(dl.Turns[0].Line, "a dialogue starts with a User turn, not %s", dl.Turns[0].Role)
	}
	cat := dl.ToolCatalog()
	for i, t := range dl.Turns {
		if t.Role != dataset.API {
			if t.Text == "" {
				bad(t.Line, "empty %s text", t.Role)
			}
			continue
		}
		if i == len(dl.Turns)-1 {
			bad(t.Line, "the dialogue ends with an API turn: its reply sample cannot be built")
		}
		checkCall(cat, t.Tool, t.Params, t.Result, func(format string, a ...any) { bad(t.Line, format, a...) })
	}
	return ok
}

// checkCall checks one gold call's declaration against the catalog and its envelope's shape.
func checkCall(cat *tools.Catalog, name string, params, result *value.Map, bad func(format string, a ...any)) {
	tool, found := cat.Lookup(name)
	if !found {
		bad("unknown tool %s in the %s catalog", name, cat.Name)
		return
	}
	for _, k := range params.Keys() {
		if _, ok := tool.Param(k); !ok {
			bad("%s has no parameter %q", name, k)
		}
	}
	for _, p := range tool.Params {
		if p.Required && !params.Has(p.Name) {
			bad("%s call lacks the required parameter %q", name, p.Name)
		}
	}
	if result == nil {
		bad("no result")
		return
	}
	for _, k := range []string{"input", "output", "exception"} {
		if !result.Has(k) {
			bad("result lacks %q", k)
		}
	}
	if an, has := result.Get("api_name"); has && an != name {
		bad("result api_name %v differs from the turn's %s", an, name)
	} else if !has && !tool.Bare {
		bad("result lacks \"api_name\"")
	}
}

// checkExecution replays a dialogue's gold calls in order in one world and compares every result;
// each gold call set is also run in the reverse order from the world before it, and must give the
// same results (its calls are independent, so a model may make them in any order).
func checkExecution(base *tools.Base, dl *dataset.Dialogue, report func(ok bool, line int, why string)) {
	cat := dl.ToolCatalog()
	w := base.NewWorld()
	w.SetToday(dl.Today)
	for _, set := range dl.CallSets() {
		var before *tools.World // the world before a set of several calls, to run them reversed
		if len(set) > 1 {
			before = w.Clone()
		}
		for _, i := range set {
			t := dl.Turns[i]
			env, err := cat.CallNative(w, t.Tool, t.Params)
			ok, why := sameGold(cat, t, env, err)
			report(ok, t.Line, why)
		}
		if before == nil {
			continue
		}
		rw := before
		ok, line, why := true, dl.Turns[set[0]].Line, ""
		for j := len(set) - 1; j >= 0 && ok; j-- {
			t := dl.Turns[set[j]]
			env, err := cat.CallNative(rw, t.Tool, t.Params)
			if good, w := sameGold(cat, t, env, err); !good {
				ok, line, why = false, t.Line, "the parallel set depends on the order of its calls: run in the reverse order, "+w
			}
		}
		report(ok, line, why)
	}
}

// sameGold compares a replayed gold call with its recorded envelope (ToolSearcher by the tools it
// finds).
func sameGold(cat *tools.Catalog, t dataset.Turn, env *value.Map, err error) (bool, string) {
	ok, _, why := sameResult(env, err, t.Result)
	if !ok && err == nil && t.Tool == "ToolSearcher" && sameTools(cat, env, t.Result) {
		// ToolSearcher's entries carry each catalog's own descriptions: an offline replay can only
		// reproduce which tools it finds (see RATIONALE.md).
		ok = true
	}
	return ok, why
}

// sameResult compares a replayed call with its recorded envelope.
func sameResult(env *value.Map, err error, want *value.Map) (bool, int, string) {
	if err != nil {
		return false, 0, "the call raised: " + err.Error()
	}
	if want == nil {
		return false, 0, "no recorded result"
	}
	if value.Equal(env, want) {
		return true, 0, "" // most do, as they are: no JSON round trip (below) needed
	}
	// Compare what a file can record: the JSON round trip turns tuples into lists.
	if v, err := value.Decode(value.Marshal(env)); err == nil {
		env, _ = v.(*value.Map)
	}
	if value.Equal(env, want) {
		return true, 0, ""
	}
	for _, k := range []string{"api_name", "input", "output", "exception"} {
		a, _ := env.Get(k)
		b, _ := want.Get(k)
		if !value.Equal(a, b) {
			return false, 0, fmt.Sprintf("replayed %s %s differs from the recorded %s", k, value.Marshal(a), value.Marshal(b))
		}
	}
	return false, 0, "replayed result differs from the recorded one"
}

func checkSceneFormat(sc *dataset.Scene, fail func(line int, format string, a ...any)) bool {
	ok := true
	bad := func(line int, format string, a ...any) {
		ok = false
		fail(line, format, a...)
	}
	if sc.Utterance == "" {
		bad(0, "no first utterance")
	}
	cat, _ := tools.CatalogByName(sc.Catalog)
	for _, c := range sc.Calls {
		if c.Result == nil {
			// The original's text scenes record no results: nothing to check beyond the call.
			c.Result = nil
			if _, found := cat.Lookup(c.Tool); !found {
				bad(c.Line, "unknown tool %s in the %s catalog", c.Tool, cat.Name)
			}
			continue
		}
		checkCall(cat, c.Tool, c.Params, c.Result, func(format string, a ...any) { bad(c.Line, format, a...) })
	}
	return ok
}

func checkSceneExecution(base *tools.Base, sc *dataset.Scene, report func(ok bool, line int, why string)) {
	cat, _ := tools.CatalogByName(sc.Catalog)
	w := base.NewWorld()
	for _, c := range sc.Calls {
		env, err := cat.CallNative(w, c.Tool, c.Params)
		if c.Result == nil {
			// No recorded result (the original's scenes): the call must at least run cleanly.
			switch {
			case err != nil:
				report(false, c.Line, "the call raised: "+err.Error())
			case env != nil && mustGet(env, "exception") != nil:
				report(false, c.Line, fmt.Sprintf("the call failed: %v", mustGet(env, "exception")))
			default:
				report(true, c.Line, "")
			}
			continue
		}
		ok, _, why := sameResult(env, err, c.Result)
		report(ok, c.Line, why)
	}
}

func mustGet(m *value.Map, k string) any {
	v, _ := m.Get(k)
	return v
}

// checkCoverage compares the dataset's counts with the targets.
func checkCoverage(d *dataset.Data, t Targets, fail func(why string)) Tally {
	var tally Tally
	c := dataset.Stats(d)
	want := func(ok bool, format string, a ...any) {
		if ok {
			tally.Passed++
			return
		}
		tally.Failed++
		fail(fmt.Sprintf(format, a...))
	}
	want(c.Levels["1"].Dialogues >= t.Level1, "level 1 has %d dialogues, the target is %d", c.Levels["1"].Dialogues, t.Level1)
	want(c.Levels["2"].Dialogues >= t.Level2, "level 2 has %d dialogues, the target is %d", c.Levels["2"].Dialogues, t.Level2)
	want(c.Levels["3"].Dialogues >= t.Level3, "level 3 has %d scenes, the target is %d", c.Levels["3"].Dialogues, t.Level3)
	want(c.Dialogues >= t.Dialogues, "%d dialogues in all, the target is %d", c.Dialogues, t.Dialogues)
	want(c.APICalls >= t.Calls, "%d gold API calls in all, the target is %d", c.APICalls, t.Calls)
	want(c.SpecialCases >= t.Special, "%d special cases, the target is %d", c.SpecialCases, t.Special)
	parallel := 0
	for _, dl := range d.Dialogues() {
		for _, set := range dl.CallSets() {
			if len(set) > 1 {
				parallel++
				break
			}
		}
	}
	want(parallel >= t.Parallel, "%d dialogues with parallel calls, the target is %d", parallel, t.Parallel)
	for _, k := range protocol.Specials {
		want(c.Specials[k] >= t.PerSpecialKind, "%d special cases of kind %s, the target is %d", c.Specials[k], k, t.PerSpecialKind)
	}
	for _, st := range protocol.Styles {
		want(c.Styles[st] > 0, "no call turn of the %s style", st)
	}
	uses := ToolUses(d)
	var short []string
	for _, cat := range []*tools.Catalog{tools.APIs, tools.LV3} {
		for _, tool := range cat.Tools() {
			if n := uses[cat.Name+"/"+tool.Name]; n < t.PerTool {
				short = append(short, fmt.Sprintf("%s/%s (%d)", cat.Name, tool.Name, n))
			}
		}
	}
	want(len(short) == 0, "tools with fewer than %d gold calls: %v", t.PerTool, short)
	return tally
}

// ToolUses counts gold calls per catalog/tool ("apis/AddAlarm", "lv3_apis/FlightSearch").
func ToolUses(d *dataset.Data) map[string]int {
	uses := map[string]int{}
	for _, dl := range d.Dialogues() {
		cat := dl.ToolCatalog()
		for _, t := range dl.Turns {
			if t.Role == dataset.API {
				uses[cat.Name+"/"+t.Tool]++
			}
		}
	}
	for _, sc := range d.Scenes() {
		for _, c := range sc.Calls {
			uses[sc.Catalog+"/"+c.Tool]++
		}
	}
	return uses
}

// sameTools reports whether two ToolSearcher envelopes name the same tools (the tool's own check).
func sameTools(cat *tools.Catalog, env, want *value.Map) bool {
	t, ok := cat.Lookup("ToolSearcher")
	if !ok || want == nil {
		return false
	}
	a, _ := value.Clone(env).(*value.Map)
	b, _ := value.Clone(want).(*value.Map)
	good, err := t.Check(a, b)
	return err == nil && good
}

// Dialogue checks one dialogue's format and grounding as Run does, for a single dialogue that is
// not part of a loaded dataset (a synthesized candidate): the problems found, each located by line.
func Dialogue(dl *dataset.Dialogue) (format, grounding []Failure) {
	checkFormat(dl, func(line int, f string, a ...any) {
		format = append(format, Failure{File: dl.File, Line: line, Check: Format, Why: fmt.Sprintf(f, a...)})
	})
	checkGrounding(dl, func(ok bool, line int, why string) {
		if !ok {
			grounding = append(grounding, Failure{File: dl.File, Line: line, Check: Grounding, Why: why})
		}
	})
	return format, grounding
}
