package score

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// searcher is the catalog lookup tool's name. Its calls change nothing and a plan may make them or
// not (a native episode is offered every tool), so a scene never requires one.
const searcher = "ToolSearcher"

// SceneDialogue turns a level-3 scene into a dialogue the scorer can judge step by step, as the
// original's level-3 evaluator does (each gold call predicted from the gold history): one User turn
// with the request and the key facts, then the gold calls with their results. A scene without
// recorded results (the original's text scenes) gets them by running its gold calls in order in one
// world of base, so its steps are judged against what the calls do. A call's free arguments (the
// text the user never dictated) become its turn's Free.
func SceneDialogue(base *tools.Base, sc *dataset.Scene) *dataset.Dialogue {
	d := &dataset.Dialogue{Level: dataset.Level3, File: sc.File, Scene: sc, Catalog: sc.Catalog, Repaired: sc.Repaired}
	text := sc.Utterance
	for _, k := range sc.KeyInfo {
		text += "\n" + k
	}
	d.Turns = append(d.Turns, dataset.Turn{Role: dataset.User, Text: text})
	cat := d.ToolCatalog()
	var w *tools.World
	for _, c := range sc.Calls {
		res := c.Result
		if res == nil {
			if w == nil {
				w = base.NewWorld()
			}
			env, err := cat.CallNative(w, c.Tool, c.Params)
			if err != nil {
				// A gold call that raises has no envelope: record the error as its exception.
				env = value.MapOf("api_name", c.Tool, "input", c.Params, "output", nil, "exception", err.Error())
			}
			res = env
		}
		d.Turns = append(d.Turns, dataset.Turn{Role: dataset.API, Tool: c.Tool, Params: c.Params, Result: res, Line: c.Line, Free: c.Free})
	}
	return d
}

// SceneSamples returns a scene dialogue's step samples: id k predicts the k-th gold call from the
// request and the gold calls before it.
func SceneSamples(d *dataset.Dialogue) []Sample {
	var out []Sample
	k := 0
	for p, t := range d.Turns {
		if t.Role != dataset.API {
			continue
		}
		out = append(out, Sample{Dialogue: d, ID: k, Kind: KindCall, Gold: p, History: p, API: k})
		k++
	}
	return out
}

// sceneStep says whether a sample is a step of one of our level-3 scenes: the samples whose prompt
// offers the tools the history knows and whose ToolSearcher call may find the gold's tool. The
// original's scenes keep the original's prompt and verdicts.
func sceneStep(sm Sample) bool {
	return sm.Dialogue.Scene != nil && sm.Dialogue.Repaired && sm.Dialogue.Level == dataset.Level3
}

// knownTools returns the tools the history of a scene step already knows, in the order it met them:
// those its gold calls used and those its ToolSearcher calls found (their answers described them).
func knownTools(sm Sample) []string {
	var names []string
	add := func(n string) {
		if n != "" && n != searcher && !contains(names, n) {
			names = append(names, n)
		}
	}
	for _, t := range sm.Dialogue.Turns[:sm.History] {
		if t.Role != dataset.API {
			continue
		}
		add(t.Tool)
		if t.Tool == searcher && t.Result != nil {
			out, _ := t.Result.Get("output")
			add(foundTool(out))
		}
	}
	return names
}

// foundTool is the name of the tool a ToolSearcher output describes (its last entry, for the
// levels 1-2 answer that puts GetUserToken first), or "".
func foundTool(out any) string {
	if list, ok := out.([]any); ok && len(list) > 0 {
		out = list[len(list)-1]
	}
	if m, ok := out.(*value.Map); ok {
		return m.String("name")
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SearchFinds judges a scene step's prediction that calls ToolSearcher where the gold calls a tool
// the prompt does not show: the model cannot call a tool it has not been told of, so looking it up is
// the right next step, and the call is CORRECT when its answer finds the gold's tool. ok is false
// when the rule does not apply (not a step of our scenes, the gold's tool is shown, the prediction
// is not one ToolSearcher call, or the search finds another tool): the step is then judged as any
// call is. The original's data keeps its verdicts (the rule never applies to it).
func (s *Scorer) SearchFinds(sm Sample, pred string) (CallVerdict, bool) {
	gt := sm.GoldTurn()
	if !sceneStep(sm) || gt.Role != dataset.API || gt.Tool == searcher || len(sm.Set) > 0 {
		return CallVerdict{}, false
	}
	for _, t := range offered(sm) {
		if t.Name == gt.Tool {
			return CallVerdict{}, false
		}
	}
	reading := call.ReadingFor(sm.Dialogue.Repaired)
	cs, ok := reading.FindAll(pred)
	if !ok || len(cs) != 1 || cs[0].Name != searcher {
		return CallVerdict{}, false
	}
	c := cs[0]
	cat := sm.Dialogue.ToolCatalog()
	found, env := search(cat, s.world(sm), c, sm.Dialogue.Repaired)
	if found != gt.Tool {
		return CallVerdict{}, false
	}
	return CallVerdict{Category: Correct, Correct: true, Tool: gt.Tool, Form: string(c.Form), Called: searcher, Result: value.Marshal(env)}, true
}

// search runs ToolSearcher call c in w and returns the name of the tool its answer describes
// (foundTool) with the answer; "" when the call raises or answers an exception.
func search(cat *tools.Catalog, w *tools.World, c *call.Call, repaired bool) (string, *value.Map) {
	env, err := Execute(cat, w, c, repaired)
	if err != nil || env == nil {
		return "", nil
	}
	if exc, _ := env.Get("exception"); exc != nil {
		return "", nil
	}
	out, _ := env.Get("output")
	return foundTool(out), env
}

// Episode is a level-3 scene driven live: the model calls tools as it decides, in one world that keeps
// its state, and is judged at the end (Finish) by what its plan did, not by how it was written: the
// final world against the gold plan's, the required gold calls it achieved, and its final answer.
type Episode struct {
	scene *dataset.Dialogue
	world *tools.World
	calls []episodeCall
}

// episodeCall is one call of the model, with the values the judgement reads.
type episodeCall struct {
	name      string
	args, env *value.Map
	err       error
}

// EpisodeCall is the protocol's type of that name; score fills it.
type EpisodeCall = protocol.EpisodeCall

// NewEpisode starts an episode of a scene dialogue (see SceneDialogue) in a fresh world of base.
func NewEpisode(base *tools.Base, scene *dataset.Dialogue) *Episode {
	return &Episode{scene: scene, world: base.NewWorld()}
}

// Repaired says whether the episode's scene is our data's (dataset.Dialogue.Repaired): its text calls
// are then read as Python reads them (call.ReadingFor).
func (e *Episode) Repaired() bool { return e.scene.Repaired }

// Step runs one call of the model in the episode's world, read as the step judge reads it (Execute).
func (e *Episode) Step(c *call.Call) EpisodeCall {
	cat := e.scene.ToolCatalog()
	args := Args(cat, c, e.scene.Repaired)
	env, err := executeWith(cat, e.world, c, args)
	e.calls = append(e.calls, episodeCall{name: c.Name, args: args, env: env, err: err})
	return e.calls[len(e.calls)-1].view()
}

// view is the call as the protocol shows it.
func (c episodeCall) view() EpisodeCall {
	v := EpisodeCall{Name: c.name, Args: value.Marshal(c.args)}
	if c.env != nil {
		v.Result = value.Marshal(c.env)
	}
	if c.err != nil {
		v.Error = c.err.Error()
	}
	return v
}

// Calls returns the calls made so far.
func (e *Episode) Calls() []EpisodeCall {
	out := make([]EpisodeCall, len(e.calls))
	for i, c := range e.calls {
		out[i] = c.view()
	}
	return out
}

// Outcome is the protocol's type of that name; score fills it.
type Outcome = protocol.Outcome

// Difference is the protocol's type of that name; score fills it.
type Difference = protocol.Difference

// Finish judges the episode; reply is its final message to the user (the model's last answer
// without a call; "" when the episode ended otherwise).
//
//   - Milestones: each required gold call (every one but ToolSearcher's and those the scene marks
//     optional) is achieved by a model call
//     of its tool whose arguments are all alike to the gold's (see alike); a model call achieves at
//     most one, and the pairing is a maximum matching, so the order of independent calls is free.
//   - World: the gold world is the gold calls run in order, each achieved one with the model's values
//     where they differ but are alike (a free text, a list in another order), so that only a
//     difference of meaning remains; the model's final world must equal it. Record tables are
//     compared as sets (independent writes in any order). Lookups change nothing, so an extra lookup
//     is free; an unrequested write (a second reminder, another meeting) is a difference.
//   - Answer: the reply must meet every need of the scene's answer (Meets), so right calls followed
//     by a wrong conclusion ("nobody is travelling") are not a success.
func (e *Episode) Finish(base *tools.Base, reply string) Outcome {
	out := Outcome{Scene: e.scene.File, Calls: len(e.calls), Missed: []string{}, Diff: []Difference{}}
	cat := e.scene.ToolCatalog()
	var required []int // turn indexes of the required gold calls
	for p, t := range e.scene.Turns {
		if t.Role == dataset.API && t.Tool != searcher && !e.optional(p) {
			required = append(required, p)
		}
	}
	pair := e.pairs(cat, required)
	gold := base.NewWorld()
	for k, p := range required {
		t := &e.scene.Turns[p]
		params := t.Params
		if j := pair[k]; j >= 0 {
			out.Matched++
			params = e.asWritten(cat, p, e.calls[j])
		} else {
			out.Missed = append(out.Missed, goldText(e.scene, t))
		}
		// A gold call that raises leaves the gold world as it was.
		_, _ = cat.CallNative(gold, t.Tool, params)
	}
	out.Gold = len(required)
	out.Milestone = 1
	if out.Gold > 0 {
		out.Milestone = float64(out.Matched) / float64(out.Gold)
	}
	out.Recall = out.Milestone
	out.Diff = diffWorlds(gold, e.world)
	out.StateMatch = len(out.Diff) == 0
	if sc := e.scene.Scene; sc != nil {
		out.Unmet = unmet(reply, sc.Answer)
	}
	out.AnswerMet = len(out.Unmet) == 0
	out.Success = out.StateMatch && out.Matched == out.Gold && out.AnswerMet
	return out
}

// pairs pairs the required gold calls (turn indexes) with the model calls that achieve them, as a
// maximum matching (match, as a gold call set's calls are paired): pairs[k] is the model call of
// required[k], or -1.
func (e *Episode) pairs(cat *tools.Catalog, required []int) []int {
	can := make([][]bool, len(e.calls)) // can[j][k]: model call j achieves required[k]
	for j := range e.calls {
		can[j] = make([]bool, len(required))
		for k, p := range required {
			can[j][k] = e.achieves(cat, p, e.calls[j])
		}
	}
	return match(len(e.calls), len(required), func(j, k int) bool { return can[j][k] })
}

// achieves says whether model call c achieves the gold call at turn p: the same tool, the same
// exception (none, or the same error: a lookup of a post that does not exist), and every argument
// alike.
func (e *Episode) achieves(cat *tools.Catalog, p int, c episodeCall) bool {
	t := &e.scene.Turns[p]
	if c.name != t.Tool || c.env == nil || c.err != nil || t.Result == nil {
		return false
	}
	gexc, _ := t.Result.Get("exception")
	cexc, _ := c.env.Get("exception")
	if !value.Equal(gexc, cexc) {
		return false
	}
	gin, _ := t.Result.Get("input")
	cin, _ := c.env.Get("input")
	gm, _ := gin.(*value.Map)
	cm, _ := cin.(*value.Map)
	if gm == nil || cm == nil {
		return value.Equal(gin, cin)
	}
	tool, _ := cat.Lookup(t.Tool)
	same := true
	names := append(gm.Keys(), cm.Keys()...)
	for _, k := range names {
		gv, gok := gm.Get(k)
		cv, cok := cm.Get(k)
		if !gok || !cok || !e.alike(tool, p, k, gv, cv, t.Result, c.env) {
			same = false
			break
		}
	}
	return same
}

// alike says whether a model's argument value cv means what the gold's gv means for argument k of
// the gold call at turn p (envelopes gold and got): an equal value; any non-empty text for a free
// argument (the user dictated none), containing one of its "about" phrases where the scene lists
// them; or a value the tool takes as the same (tools.Alike: a text in another case, a list in another
// order, a formula of the same result).
func (e *Episode) alike(tool *tools.Tool, p int, k string, gv, cv any, gold, got *value.Map) bool {
	if value.Equal(gv, cv) {
		return true
	}
	if free, about := e.freeArg(p, k); free {
		s, ok := cv.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return false
		}
		if len(about) == 0 {
			return true
		}
		return Meets(s, protocol.Need{What: k, Any: about})
	}
	if tool == nil {
		return false
	}
	param, ok := tool.Param(k)
	if !ok {
		return false
	}
	switch param.Alike {
	case tools.AnyCase:
		gs, gok := gv.(string)
		cs, cok := cv.(string)
		return gok && cok && strings.EqualFold(gs, cs)
	case tools.AnyOrder:
		gl, gok := gv.([]any)
		cl, cok := cv.([]any)
		return gok && cok && samePermutation(gl, cl)
	case tools.SameResult:
		gout, _ := gold.Get("output")
		cout, _ := got.Get("output")
		return sameNumber(gout, cout)
	}
	return false
}

// sameNumber says whether two outputs are equal, numbers within floating-point rounding: formulas
// of one value computed in another order may differ in their last bit (105000/12-70000/12 and
// (105000-70000)/12). A number too large to compute (an infinity) is near no other number.
func sameNumber(a, b any) bool {
	if value.Equal(a, b) {
		return true
	}
	x, xok := value.Float(a)
	y, yok := value.Float(b)
	if !xok || !yok || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return false
	}
	return math.Abs(x-y) <= 1e-9*max(1, math.Abs(x), math.Abs(y))
}

// sceneCall returns the scene's gold call of the API turn at index p (its dialogue's turns are the
// one User turn, then the calls in order), or nil.
func (e *Episode) sceneCall(p int) *dataset.SceneCall {
	sc := e.scene.Scene
	if sc == nil {
		return nil
	}
	if i := p - 1; i >= 0 && i < len(sc.Calls) && sc.Calls[i].Tool == e.scene.Turns[p].Tool {
		return &sc.Calls[i]
	}
	return nil
}

// optional says whether the scene marks the gold call at turn p as one a right plan may skip.
func (e *Episode) optional(p int) bool {
	c := e.sceneCall(p)
	return c != nil && c.Optional
}

// freeArg says whether argument k of the gold call at turn p is free text, and the phrases it must
// contain one of (none: any text).
func (e *Episode) freeArg(p int, k string) (bool, []string) {
	if !contains(e.scene.Turns[p].Free, k) {
		return false, nil
	}
	if c := e.sceneCall(p); c != nil {
		return true, c.About[k]
	}
	return true, nil
}

// asWritten is the gold call at turn p with the model call c's values where they differ from the
// gold's but are alike (a free text, a list in another order): the gold world then keeps the words
// the model chose, and the world comparison sees only differences of meaning.
func (e *Episode) asWritten(cat *tools.Catalog, p int, c episodeCall) *value.Map {
	t := &e.scene.Turns[p]
	cin, _ := c.env.Get("input")
	cm, ok := cin.(*value.Map)
	if !ok {
		return t.Params
	}
	params, _ := value.Clone(t.Params).(*value.Map)
	t.Params.Each(func(k string, gv any) bool {
		if cv, ok := cm.Get(k); ok && !value.Equal(gv, cv) {
			params.Set(k, value.Clone(cv))
		}
		return true
	})
	return params
}

// diffWorlds compares every database either world changed. A table that is a list of records
// (meetings, reminders) is compared as a set: writes that do not depend on each other may come in any
// order.
func diffWorlds(gold, got *tools.World) []Difference {
	names := map[string]bool{}
	for _, n := range gold.Changed() {
		names[n] = true
	}
	for _, n := range got.Changed() {
		names[n] = true
	}
	var diffs []Difference
	for _, n := range sortedKeys(names) {
		diffValues(n, records(gold.Database(n)), records(got.Database(n)), &diffs)
	}
	return diffs
}

// records returns a database that is a list in a canonical order (by each record's JSON); any other
// database as it is.
func records(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	keyed := make([]struct {
		key string
		v   any
	}, len(list))
	for i, r := range list {
		keyed[i].key, keyed[i].v = string(value.Marshal(r)), r
	}
	sort.SliceStable(keyed, func(i, j int) bool { return keyed[i].key < keyed[j].key })
	out := make([]any, len(list))
	for i, k := range keyed {
		out[i] = k.v
	}
	return out
}

// diffValues records the differences between two values under path, descending into objects.
func diffValues(path string, a, b any, out *[]Difference) {
	am, aok := a.(*value.Map)
	bm, bok := b.(*value.Map)
	if !aok || !bok {
		if !value.Equal(a, b) {
			*out = append(*out, Difference{Path: path, Gold: value.Marshal(a), Got: value.Marshal(b)})
		}
		return
	}
	keys := map[string]bool{}
	for _, k := range am.Keys() {
		keys[k] = true
	}
	for _, k := range bm.Keys() {
		keys[k] = true
	}
	for _, k := range sortedKeys(keys) {
		av, _ := am.Get(k)
		bv, _ := bm.Get(k)
		diffValues(fmt.Sprintf("%s/%s", path, k), av, bv, out)
	}
}

// GoldReply is a final reply to a scene that meets its answer's every need: the first phrase of
// each, one a sentence ("" for a scene without answer needs). The perfect model of the tests ends its
// episodes with it.
func GoldReply(d *dataset.Dialogue) string {
	if d.Scene == nil {
		return ""
	}
	var parts []string
	for _, n := range d.Scene.Answer {
		if len(n.Any) > 0 {
			parts = append(parts, n.Any[0]+".")
		}
	}
	return strings.Join(parts, " ")
}

// unmet returns, in words (each need's What), the needs of a scene's answer that a reply does not
// meet (Meets: one of the need's phrases, as a whole word or number, in any letter case).
func unmet(reply string, needs []protocol.Need) []string {
	var out []string
	for _, n := range needs {
		if !Meets(reply, n) {
			out = append(out, n.What)
		}
	}
	return out
}
