package score

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// On our data a call is judged by what it means, not by how it is written (see RATIONALE, "Why is a
// call on our data judged by what it means?"): before the tool's check compares a predicted call with
// its gold call,
//   - an argument the gold turn marks free (text the user never dictated) takes the gold's text when
//     the prediction gives any non-empty text;
//   - a list argument that holds the gold's elements in another order takes the gold's order;
//   - a Calculator formula that is equal in value to the gold's takes the gold's formula;
//   - an argument the gold leaves empty ('' or []) may be left out;
// and after the check, the world the call leaves must be the world the gold call leaves (which
// meeting was deleted, what a reminder says). A GetToday call may be left out, the date stated in a
// reply instead: the prompt gives it. Each of the turn's accepted argument sets is a gold of its
// own, judged the same way. A level-3 step may instead make gold calls still to come, or look up a
// tool they need (otherNextStep). The original's data keeps its evaluator's reading (parity).

// calculator is the tool whose formula is judged by value.
const calculator = "Calculator"

// fairArgs returns the arguments of predicted call c, as Args reads them, brought to the form of the
// gold arguments gold where they mean the same (see above). w is the world the call runs in (the
// Calculator's value is computed in a copy of it). The call's own map is never changed.
func fairArgs(cat *tools.Catalog, w *tools.World, c *call.Call, gt *dataset.Turn, gold *value.Map) *value.Map {
	args := Args(cat, c, true)
	copied := false
	set := func(k string, v any) {
		if !copied {
			args, copied = value.Clone(args).(*value.Map), true
		}
		args.Set(k, v)
	}
	for _, k := range gt.Free {
		got, ok := args.Get(k)
		want, inGold := gold.Get(k)
		if text, isText := got.(string); ok && inGold && isText && text != "" {
			set(k, want)
		}
	}
	args.Each(func(k string, v any) bool {
		want, ok := gold.Get(k)
		if !ok {
			return true
		}
		if gl, isList := want.([]any); isList {
			if pl, isList := v.([]any); isList && !value.Equal(pl, gl) && samePermutation(pl, gl) {
				set(k, want)
			}
		}
		return true
	})
	// An argument the gold leaves empty ('' or []) is one the call does not use (DeleteMeeting's
	// location, QueryAgenda's content when it looks by time): leaving it out says the same.
	gold.Each(func(k string, want any) bool {
		if _, given := args.Get(k); !given && isEmpty(want) {
			set(k, want)
		}
		return true
	})
	if c.Name == calculator && gt.Tool == calculator {
		if f, ok := args.Get("formula"); ok {
			if g, ok := gold.Get("formula"); ok && !value.Equal(f, g) && sameValue(cat, w, c.Form, f, g) {
				set("formula", g)
			}
		}
	}
	return args
}

// isEmpty reports whether v is an empty text or an empty list.
func isEmpty(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	}
	return false
}

// samePermutation reports whether a and b hold equal elements, each as often, in any order.
func samePermutation(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
outer:
	for _, x := range a {
		for j, y := range b {
			if !used[j] && value.Equal(x, y) {
				used[j] = true
				continue outer
			}
		}
		return false
	}
	return true
}

// sameValue reports whether two Calculator formulas give the same number (sameNumber).
func sameValue(cat *tools.Catalog, w *tools.World, form call.Form, f, g any) bool {
	a, okA := calculate(cat, w, form, f)
	b, okB := calculate(cat, w, call.Native, g)
	return okA && okB && sameNumber(a, b)
}

// calculate runs Calculator on formula in a copy of w: its number, or false when it raises or
// answers no number.
func calculate(cat *tools.Catalog, w *tools.World, form call.Form, formula any) (float64, bool) {
	args := value.MapOf("formula", formula)
	var env *value.Map
	var err error
	if form == call.Native {
		env, err = cat.CallNative(w.Clone(), calculator, args)
	} else {
		env, err = cat.Call(w.Clone(), calculator, args)
	}
	if err != nil {
		return 0, false
	}
	if exc, _ := env.Get("exception"); exc != nil {
		return 0, false
	}
	out, _ := env.Get("output")
	switch x := out.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// effectDiffers returns, when the world got (after the predicted calls) differs from the world
// the gold calls leave when run from start, the first difference in words; "" when they agree. Texts
// the worlds hold are compared as the data's checks compare texts (sameText: the user's own casing of
// an agenda item is the item), everything else exactly. The calls of a gold set (more than one) may
// run in any order, and records a tool numbers as it adds them are numbered in that order: a set's
// worlds are compared with records and lists taken as collections.
func effectDiffers(cat *tools.Catalog, start, got *tools.World, golds []*dataset.Turn, params []*value.Map) string {
	want := start.Clone()
	for i, gt := range golds {
		// A gold call that raises leaves the world as it was.
		_, _ = cat.CallNative(want, gt.Tool, params[i])
	}
	anyOrder := len(golds) > 1
	for _, name := range append(want.Changed(), got.Changed()...) {
		if sameEffect(want.Database(name), got.Database(name), anyOrder) {
			continue
		}
		for _, d := range diffWorlds(want, got) {
			return fmt.Sprintf("the call leaves the world unlike the gold call: %s is %s, the gold call leaves %s", d.Path, d.Got, d.Gold)
		}
		return "the call leaves the world unlike the gold call: " + name + " differs"
	}
	return ""
}

// sameEffect reports whether two states of a database mean the same: texts alike (sameText), other
// values equal, objects with the same keys; with anyOrder, lists and objects whose keys are all
// numbers (records numbered as they were added) are compared as collections, in any order.
func sameEffect(a, b any, anyOrder bool) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && sameText(x, y)
	case []any:
		y, ok := b.([]any)
		return ok && sameElements(x, y, anyOrder)
	case *value.Map:
		y, ok := b.(*value.Map)
		if !ok {
			return false
		}
		if anyOrder && numbered(x) && numbered(y) {
			return sameElements(elements(x), elements(y), true)
		}
		if x.Len() != y.Len() {
			return false
		}
		same := true
		x.Each(func(k string, xv any) bool {
			yv, ok := y.Get(k)
			same = ok && sameEffect(xv, yv, anyOrder)
			return same
		})
		return same
	}
	return value.Equal(a, b)
}

// sameElements reports whether two lists hold elements alike (sameEffect), in the same order or,
// with anyOrder, each paired with its own (the first alike one left).
func sameElements(a, b []any, anyOrder bool) bool {
	if len(a) != len(b) {
		return false
	}
	if !anyOrder {
		for i := range a {
			if !sameEffect(a[i], b[i], false) {
				return false
			}
		}
		return true
	}
	used := make([]bool, len(b))
outer:
	for _, x := range a {
		for j, y := range b {
			if !used[j] && sameEffect(x, y, true) {
				used[j] = true
				continue outer
			}
		}
		return false
	}
	return true
}

// elements returns the values of m in its order.
func elements(m *value.Map) []any {
	out := make([]any, 0, m.Len())
	m.Each(func(_ string, v any) bool {
		out = append(out, v)
		return true
	})
	return out
}

// numbered reports whether every key of m is a number (and m has one).
func numbered(m *value.Map) bool {
	if m.Len() == 0 {
		return false
	}
	for _, k := range m.Keys() {
		if _, err := strconv.Atoi(k); err != nil {
			return false
		}
	}
	return true
}

// sameText reports whether two texts a tool keeps mean the same, as the data's checks compare the
// texts a user words (an agenda item, a reminder, a meeting topic): equal, or alike by the
// original's Jaccard similarity of their words (over a half), without regard to case.
func sameText(a, b string) bool {
	return a == b || tools.Jaccard(py.Lower(a), py.Lower(b)) > 0.5
}

// judgeFair judges predicted call c of gold turn gt on our data: against the gold, then against each
// accepted argument set, in the world start (not changed). It returns the verdict of the gold, or of
// the first accepted set the call matches.
func (s *Scorer) judgeFair(cat *tools.Catalog, start *tools.World, c *call.Call, gt *dataset.Turn, v CallVerdict) CallVerdict {
	first := v
	alts := append([]*value.Map{gt.Params}, gt.Accept...)
	for i, params := range alts {
		gold := s.gold(gt)
		if i > 0 {
			env, err := cat.CallNative(start.Clone(), gt.Tool, params)
			if err != nil {
				continue
			}
			gold = env
		}
		w := start.Clone()
		env, err := executeWith(cat, w, c, fairArgs(cat, start, c, gt, params))
		mv := v
		s.judgeRun(&mv, cat, gt, env, err, gold, i > 0)
		if mv.Correct {
			if why := effectDiffers(cat, start, w, []*dataset.Turn{gt}, []*value.Map{params}); why != "" {
				mv.Category, mv.Correct, mv.Error = Incorrect, false, why
			}
		}
		if mv.Correct {
			return mv
		}
		if i == 0 {
			first = mv
		}
	}
	return first
}

// getToday is the tool whose answer our prompts state (tools.Today): calling it is right, and so is
// not calling it, since the model has been told the date.
const getToday = "GetToday"

// todayNeed is what a reply must say to answer "what is the date" without GetToday: today (a
// YYYY-MM-DD date) in one of its usual spellings ("31 march", "march 31st", "3/31", ...).
func todayNeed(today string) protocol.Need {
	n := protocol.Need{What: "states today's date", Any: []string{today}}
	words := strings.Fields(strings.ToLower(tools.InWords(today))) // "friday," "31" "march" "2023"
	if len(words) != 4 || len(today) != 10 {
		return n
	}
	d, month := words[1], words[2]
	ord := d + "th"
	if len(d) == 1 || d[0] != '1' {
		switch d[len(d)-1] {
		case '1':
			ord = d + "st"
		case '2':
			ord = d + "nd"
		case '3':
			ord = d + "rd"
		}
	}
	mm, dd := today[5:7], today[8:]
	n.Any = append(n.Any, d+" "+month, month+" "+d, ord+" of "+month, month+" "+ord, ord+" "+month,
		dd+"/"+mm, strings.TrimPrefix(mm, "0")+"/"+d, mm+"/"+dd)
	return n
}

// statesToday reports whether a reply without a call answers a GetToday sample: it gives today's
// date (the dialogue's stated today).
func statesToday(reply, today string) bool { return Meets(reply, todayNeed(today)) }

// withoutStated returns golds without its GetToday calls when the prediction cs makes none: a call
// that reads what the prompt states may be left out of a set.
func withoutStated(golds []*dataset.Turn, cs []*call.Call) []*dataset.Turn {
	for _, c := range cs {
		if c.Name == getToday {
			return golds
		}
	}
	var out []*dataset.Turn
	for _, gt := range golds {
		if gt.Tool != getToday {
			out = append(out, gt)
		}
	}
	if len(out) == 0 {
		return golds
	}
	return out
}

// searchFindsLater says whether ToolSearcher call c, run in w, finds the tool of one of the gold calls
// still to come that the prompt has not shown: looking up a tool the plan needs later is a right
// next step too.
func (s *Scorer) searchFindsLater(cat *tools.Catalog, w *tools.World, c *call.Call, later []*dataset.Turn, shown map[string]bool) bool {
	found, _ := search(cat, w.Clone(), c, true)
	if found == "" {
		return false
	}
	for _, gt := range later {
		if gt.Tool == found && !shown[found] {
			return true
		}
	}
	return false
}

// otherNextStep judges a level-3 step prediction that is not the step's gold call against the
// scene's other gold calls still to come: a plan's independent calls may come in any order, so a call
// (or a list of calls) that makes gold calls not made yet, each judged right in the step's world, or
// that searches for a tool a call still to come needs, is as right a next step as the gold's
// (another order of independent calls, an earlier lookup). ok is
// false when some predicted call matches none. v is the verdict against the step's gold, whose
// identity the answer keeps.
func (s *Scorer) otherNextStep(sm Sample, pred string, v CallVerdict) (CallVerdict, bool) {
	cs, ok := s.calls.Reading.FindAll(pred)
	if !ok || len(cs) > MaxSetCalls {
		return v, false
	}
	var later []*dataset.Turn
	for i := sm.Gold; i < len(sm.Dialogue.Turns); i++ {
		if t := &sm.Dialogue.Turns[i]; t.Role == dataset.API {
			later = append(later, t)
		}
	}
	cat := sm.Dialogue.ToolCatalog()
	start := s.world(sm).Clone()
	used := make([]bool, len(later))
	shown := map[string]bool{}
	for _, t := range offered(sm) {
		shown[t.Name] = true
	}
	for _, c := range cs {
		if c.Name == searcher && s.searchFindsLater(cat, start, c, later, shown) {
			continue
		}
		found := false
		for j, gt := range later {
			if used[j] || gt.Tool != c.Name {
				continue
			}
			if mv := s.judgeFair(cat, start, c, gt, CallVerdict{Tool: gt.Tool}); mv.Correct {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return v, false
		}
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return CallVerdict{Category: Correct, Correct: true, Tool: v.Tool, Form: string(cs[0].Form), Called: strings.Join(names, ", ")}, true
}
