package score

import (
	"fmt"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// SceneDialogue turns a level-3 scene into a dialogue the scorer can judge step by step, as the
// original's level-3 evaluator does (each gold call predicted from the gold history): one User turn
// with the request and the key facts, then the gold calls with their results. A scene without
// recorded results (the original's text scenes) gets them by running its gold calls in order in one
// world of base, so its steps are judged against what the calls do.
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
		d.Turns = append(d.Turns, dataset.Turn{Role: dataset.API, Tool: c.Tool, Params: c.Params, Result: res, Line: c.Line})
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

// Episode is a level-3 scene driven live: the model calls tools as it decides, in one world that keeps
// its state, and is judged at the end by the final world against the gold final world and by its
// recall of the gold calls.
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

// Finish judges the episode.
func (e *Episode) Finish(base *tools.Base) Outcome {
	out := Outcome{Scene: e.scene.File, Calls: len(e.calls), Missed: []string{}, Diff: []Difference{}}
	cat := e.scene.ToolCatalog()
	gold := base.NewWorld()
	used := make([]bool, len(e.calls))
	for _, t := range e.scene.Turns {
		if t.Role != dataset.API {
			continue
		}
		out.Gold++
		_, _ = cat.CallNative(gold, t.Tool, t.Params)
		if i := e.match(cat, t, used); i >= 0 {
			used[i] = true
			out.Matched++
		} else {
			out.Missed = append(out.Missed, goldText(e.scene, &t))
		}
	}
	if out.Gold > 0 {
		out.Recall = float64(out.Matched) / float64(out.Gold)
	}
	out.Diff = diffWorlds(gold, e.world)
	out.StateMatch = len(out.Diff) == 0
	out.Success = out.StateMatch && out.Matched == out.Gold
	return out
}

// match finds an unused model call of the gold turn's tool that the tool's check accepts against the
// gold result, or whose input equals the gold input.
func (e *Episode) match(cat *tools.Catalog, t dataset.Turn, used []bool) int {
	tool, ok := cat.Lookup(t.Tool)
	for i, c := range e.calls {
		if used[i] || c.name != t.Tool || c.env == nil {
			continue
		}
		gin, _ := t.Result.Get("input")
		cin, _ := c.env.Get("input")
		if value.Equal(gin, cin) {
			return i
		}
		if ok {
			r, _ := value.Clone(c.env).(*value.Map)
			g, _ := value.Clone(t.Result).(*value.Map)
			check := tool.Check
			if e.scene.Repaired {
				check = tool.CheckRepaired
			}
			if good, err := check(r, g); err == nil && good {
				return i
			}
		}
	}
	return -1
}

// diffWorlds compares every database either world changed.
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
		diffValues(n, gold.Database(n), got.Database(n), &diffs)
	}
	return diffs
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
