package score

import (
	"fmt"
	"strings"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// MemberVerdict is the judgement of one call of a gold call set (the protocol's type).
type MemberVerdict = protocol.MemberVerdict

// MaxSetCalls is the most calls of one prediction that are run for a gold call set: a prediction of
// more is EXTRA_CALL without running them (no gold set of ours has more than a handful).
const MaxSetCalls = 32

// callSet judges a prediction of several calls: for a gold call set, or for one gold call of our
// data. The predicted calls run in the order they were written, one after another in one world (the
// world before the set, as for one call); a gold set's calls are independent of each other (verify
// checks that they give the same results in the reverse order), so a right set is right in any
// order. Each predicted call is then paired with a gold call it matches (same tool, and the tool's
// check accepts its result against that gold call's recorded envelope), the most pairs possible.
// Right when every gold call has its pair and no call is left over; otherwise the category says what
// differs: MISSING_CALL when fewer calls were made than the set has, EXTRA_CALL when more, and with as
// many calls, the category of the first wrong one (each gold call left unpaired is judged against a
// left-over predicted call, of its own tool when there is one).
func (s *Scorer) callSet(sm Sample, pred string, v CallVerdict) CallVerdict {
	golds := sm.GoldTurns()
	cs, ok := s.calls.Reading.FindAll(pred)
	if !ok {
		v.Category = NoAPICall
		return v
	}
	if sm.Dialogue.Repaired {
		golds = withoutStated(golds, cs)
	}
	v.Form = string(cs[0].Form)
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	v.Called = strings.Join(names, ", ")
	if len(cs) > MaxSetCalls {
		v.Category = ExtraCall
		v.Error = fmt.Sprintf("the prediction makes %d calls, more than the %d judged; the gold set has %d", len(cs), MaxSetCalls, len(golds))
		return v
	}
	cat := sm.Dialogue.ToolCatalog()
	w := s.world(sm)
	repaired := sm.Dialogue.Repaired
	var start *tools.World
	if repaired {
		start = w.Clone()
	}
	type ran struct {
		env  *value.Map
		err  error
		args *value.Map
		fit  setFit
	}
	runs := make([]ran, len(cs))
	for i, c := range cs {
		args := Args(cat, c, repaired)
		fit := setFit{gold: -1}
		if repaired {
			args, fit = s.fairSetArgs(cat, w, c, golds, args)
		}
		// A call that raises leaves the world as it was.
		next := w.Clone()
		env, err := executeWith(cat, next, c, args)
		if err == nil {
			w = next
		}
		runs[i] = ran{env, err, args, fit}
	}
	judge := func(p, g int) CallVerdict {
		mv := CallVerdict{Tool: golds[g].Tool}
		if cs[p].Name != golds[g].Tool {
			mv.Category, mv.Error = APINameMismatch, cs[p].Name
			return mv
		}
		gold := golds[g].Result
		if f := runs[p].fit; f.gold == g && f.env != nil {
			gold = f.env // the accepted argument set it was read against
		}
		s.judgeRun(&mv, cat, golds[g], runs[p].env, runs[p].err, gold, true)
		return mv
	}
	verdicts := make([][]CallVerdict, len(cs))
	for p := range cs {
		verdicts[p] = make([]CallVerdict, len(golds))
		for g := range golds {
			verdicts[p][g] = judge(p, g)
		}
	}
	pairOf := match(len(cs), len(golds), func(p, g int) bool { return verdicts[p][g].Correct })

	// Gold calls left unpaired meet left-over predicted calls: of their own tool first, then any.
	predUsed := make([]bool, len(cs))
	for _, p := range pairOf {
		if p >= 0 {
			predUsed[p] = true
		}
	}
	for _, sameTool := range []bool{true, false} {
		for g := range golds {
			if pairOf[g] >= 0 {
				continue
			}
			for p := range cs {
				if !predUsed[p] && (!sameTool || cs[p].Name == golds[g].Tool) {
					pairOf[g], predUsed[p] = p, true
					break
				}
			}
		}
	}

	allRight := true
	firstWrong := ""
	for g, gt := range golds {
		p := pairOf[g]
		if p < 0 {
			allRight = false
			v.Calls = append(v.Calls, MemberVerdict{Category: MissingCall, Tool: gt.Tool, Error: "no predicted call pairs with this gold call"})
			continue
		}
		mv := verdicts[p][g]
		if !mv.Correct {
			allRight = false
			if firstWrong == "" {
				firstWrong = mv.Category
			}
		}
		v.Calls = append(v.Calls, MemberVerdict{Category: mv.Category, Correct: mv.Correct, Tool: gt.Tool, Called: cs[p].Name, Result: mv.Result, Error: mv.Error})
	}
	for p := range cs {
		if predUsed[p] {
			continue
		}
		allRight = false
		mv := MemberVerdict{Category: ExtraCall, Called: cs[p].Name}
		if runs[p].err != nil {
			mv.Error = runs[p].err.Error()
		} else {
			mv.Result = value.Marshal(runs[p].env)
		}
		v.Calls = append(v.Calls, mv)
	}
	if allRight && repaired {
		// The calls, read as they mean, must leave the world as the gold set does.
		params := make([]*value.Map, len(golds))
		for g, gt := range golds {
			params[g] = gt.Params
			if f := runs[pairOf[g]].fit; f.gold == g && f.params != nil {
				params[g] = f.params
			}
		}
		if why := effectDiffers(cat, start, w, golds, params); why != "" {
			v.Category, v.Error = Incorrect, why
			return v
		}
	}
	switch {
	case allRight:
		v.Category, v.Correct = Correct, true
	case len(cs) < len(golds):
		v.Category = MissingCall
		v.Error = fmt.Sprintf("%d of the %d calls of the gold set were made", len(cs), len(golds))
	case len(cs) > len(golds):
		v.Category = ExtraCall
		v.Error = fmt.Sprintf("%d calls were made; the gold set has %d", len(cs), len(golds))
	default:
		v.Category = firstWrong
	}
	return v
}

// setFit is the gold call of a set (its index, -1 for none) and argument set that a predicted call
// was read against: params and env are an accepted argument set and its envelope, nil for the gold's.
type setFit struct {
	gold   int
	params *value.Map
	env    *value.Map
}

// fairSetArgs returns the arguments a predicted call of a set runs with on our data, and what it was
// read against: read as they mean (fairArgs) against the first gold call of the set, of the same
// tool, or one of its accepted argument sets, that they then match in world w (tried in a copy);
// otherwise args, as written.
func (s *Scorer) fairSetArgs(cat *tools.Catalog, w *tools.World, c *call.Call, golds []*dataset.Turn, args *value.Map) (*value.Map, setFit) {
	for g, gt := range golds {
		if gt.Tool != c.Name {
			continue
		}
		for i, params := range append([]*value.Map{gt.Params}, gt.Accept...) {
			gold := gt.Result
			if i > 0 {
				env, err := cat.CallNative(w.Clone(), gt.Tool, params)
				if err != nil {
					continue
				}
				gold = env
			}
			fair := fairArgs(cat, w, c, gt, params)
			env, err := executeWith(cat, w.Clone(), c, fair)
			var mv CallVerdict
			s.judgeRun(&mv, cat, gt, env, err, gold, true)
			if !mv.Correct {
				continue
			}
			if i == 0 {
				return fair, setFit{gold: g}
			}
			return fair, setFit{gold: g, params: params, env: gold}
		}
	}
	return args, setFit{gold: -1}
}

// match pairs predicted calls with gold calls where ok(p, g) holds, as many pairs as possible
// (augmenting paths; the sets are small). It returns, per gold call, its predicted call or -1.
// Preferring earlier predicted calls for earlier gold calls keeps the pairing deterministic.
func match(preds, golds int, ok func(p, g int) bool) []int {
	pairOf := make([]int, golds)
	goldOf := make([]int, preds)
	for i := range pairOf {
		pairOf[i] = -1
	}
	for i := range goldOf {
		goldOf[i] = -1
	}
	var try func(g int, seen []bool) bool
	try = func(g int, seen []bool) bool {
		for p := 0; p < preds; p++ {
			if seen[p] || !ok(p, g) {
				continue
			}
			seen[p] = true
			if goldOf[p] < 0 || try(goldOf[p], seen) {
				goldOf[p], pairOf[g] = g, p
				return true
			}
		}
		return false
	}
	for g := 0; g < golds; g++ {
		try(g, make([]bool, preds))
	}
	return pairOf
}

// GoldSetPrediction is a perfect prediction for a sample's gold calls: GoldPrediction for one call;
// for a set, the text list [A(...), B(...)] when the text form carries every call exactly (always on
// our data, whose text calls are read as Python), else a JSON list of native calls.
func GoldSetPrediction(sm Sample) string {
	golds := sm.GoldTurns()
	if len(golds) == 1 {
		return GoldPrediction(sm.Dialogue, golds[0])
	}
	parts := make([]string, len(golds))
	for i, t := range golds {
		p := GoldPrediction(sm.Dialogue, t)
		if !strings.HasPrefix(p, "[") {
			return GoldSetNative(sm)
		}
		parts[i] = strings.TrimSuffix(strings.TrimPrefix(p, "["), "]")
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// GoldSetNative renders a sample's gold calls as native calls: one object for one call, a JSON list
// for a set.
func GoldSetNative(sm Sample) string {
	golds := sm.GoldTurns()
	if len(golds) == 1 {
		return GoldNative(golds[0])
	}
	list := make([]any, len(golds))
	for i, t := range golds {
		list[i] = value.MapOf("name", t.Tool, "arguments", t.Params)
	}
	return string(value.Marshal(list))
}

// goldResults returns the recorded envelopes of a sample's gold calls as JSON: the envelope for one
// call, a list for a set.
func goldResults(sm Sample) []byte {
	golds := sm.GoldTurns()
	if len(golds) == 1 {
		return value.Marshal(golds[0].Result)
	}
	list := make([]any, len(golds))
	for i, t := range golds {
		list[i] = t.Result
	}
	return value.Marshal(list)
}
