package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
	"github.com/apibank-playground/apibank/verify"
)

// synthFolder is where synthesized dialogues go in the original layout: they give the tools'
// descriptions to the model, as level 1 does.
const synthFolder = "lv1-lv2-samples/" + dataset.Level1 + "/"

// synthCheck runs one synthesized candidate through the engine's stages: format, execution (the
// dataset fill step), grounding (validate's check) and duplicate. A failed stage is an answer, not
// an error; only a malformed request (unknown style or catalog, a bad file name) is refused.
func (s *Session) synthCheck(r *protocol.Request) (protocol.SynthCheck, *protocol.Error) {
	if !slices.Contains(protocol.Styles, r.Style) && !slices.Contains(protocol.Specials, r.Style) {
		return protocol.SynthCheck{}, badRequest(fmt.Sprintf("style %q is not one of %s or a special case (%s)", r.Style, strings.Join(protocol.Styles, ", "), strings.Join(protocol.Specials, ", ")))
	}
	if r.Catalog != "" && r.Catalog != tools.APIs.Name {
		return protocol.SynthCheck{}, badRequest(fmt.Sprintf("catalog %q: synthesized dialogues are level-1 dialogues, whose tools are the %s catalog", r.Catalog, tools.APIs.Name))
	}
	name := r.Name
	if name == "" {
		name = "synth.jsonl"
	}
	if path.Base(name) != name || !strings.HasSuffix(name, ".jsonl") {
		return protocol.SynthCheck{}, badRequest(fmt.Sprintf("name %q must be a file name ending in .jsonl", name))
	}
	cat := tools.APIs
	for _, t := range r.Tools {
		if _, ok := cat.Lookup(t); !ok {
			return protocol.SynthCheck{}, badRequest(fmt.Sprintf("tools: no tool %s in the %s catalog", t, cat.Name))
		}
	}
	fail := func(out protocol.SynthCheck, stage, format string, a ...any) (protocol.SynthCheck, *protocol.Error) {
		out.Stage, out.Reason = stage, fmt.Sprintf(format, a...)
		return out, nil
	}

	// 1. format
	c, args, why := readCandidate(r.Candidate)
	if why != "" {
		return fail(protocol.SynthCheck{}, protocol.StageFormat, "%s", why)
	}
	out := protocol.SynthCheck{Candidate: c, Keys: synthKeys(c.Request, candidateCalls(c, args))}
	if why := checkShape(c, r.Style); why != "" {
		return fail(out, protocol.StageFormat, "%s", why)
	}
	allowed := allowedTools(cat, r.Tools)
	for i, step := range c.Steps {
		for j, call := range step {
			if why := checkSynthCall(cat, allowed, call.Name, args[i][j]); why != "" {
				return fail(out, protocol.StageFormat, "step %d call %d: %s", i+1, j+1, why)
			}
		}
	}

	file := synthFolder + name
	draft := synthDraft(c, args, r.Style)
	dl, errs := dataset.ParseDraft(dataset.Level1, file, draft)
	if len(errs) > 0 {
		return fail(out, protocol.StageFormat, "%s", errs[0].Error())
	}
	if why := checkStyle(dl, r.Style); why != "" {
		return fail(out, protocol.StageFormat, "%s", why)
	}

	// 2. execution: the fill step, in a fresh world of the loaded data.
	filled, errs := score.Fill(s.data.Base, file, draft)
	if len(errs) > 0 {
		return fail(out, protocol.StageExecution, "%s", errs[0].Message)
	}
	dl, errs = dataset.ParseDialogue(dataset.Level1, file, filled)
	if len(errs) > 0 {
		return fail(out, protocol.StageFormat, "%s", errs[0].Error())
	}
	k := 0
	c.Outputs = make([][]protocol.SynthOutput, len(c.Steps))
	for _, t := range dl.Turns {
		if t.Role != dataset.API {
			continue
		}
		step, at := stepOf(c, k)
		k++
		o, _ := t.Result.Get("output")
		e, _ := t.Result.Get("exception")
		c.Outputs[step] = append(c.Outputs[step], protocol.SynthOutput{Output: value.Marshal(o), Exception: value.Marshal(e)})
		if e != nil {
			return fail(out, protocol.StageExecution, "step %d call %d: %s answered the exception %q", step+1, at+1, t.Tool, value.Str(e))
		}
	}

	// 3. grounding: validate's checks on the filled dialogue.
	format, grounding := verify.Dialogue(dl)
	if len(format) > 0 {
		return fail(out, protocol.StageFormat, "line %d: %s", format[0].Line, format[0].Why)
	}
	if len(grounding) > 0 {
		return fail(out, protocol.StageGrounding, "%s", grounding[0].Why)
	}

	// 4. duplicate: against the loaded data and the candidates accepted before.
	existing := s.synthIndex()
	for _, key := range out.Keys {
		if f, ok := existing[key]; ok {
			return fail(out, protocol.StageDuplicate, "its %s repeats the dialogue %s", keyKind(key), f)
		}
		if slices.Contains(r.Seen, key) {
			return fail(out, protocol.StageDuplicate, "its %s repeats a candidate accepted before", keyKind(key))
		}
	}
	out.OK, out.File, out.Text = true, file, string(filled)
	return out, nil
}

// readCandidate reads the model's text as a candidate: the JSON object in it (a Markdown code fence
// or words around it are allowed), strictly of the shape, with each call's arguments an object.
func readCandidate(text string) (*protocol.SynthCandidate, [][]*value.Map, string) {
	start, end := strings.Index(text, "{"), strings.LastIndex(text, "}")
	switch {
	case start < 0:
		return nil, nil, "the answer holds no JSON object"
	case end < start:
		return nil, nil, "not JSON: the object that starts at character " + fmt.Sprint(start+1) + " is never closed (a cut answer?)"
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text[start : end+1])))
	dec.DisallowUnknownFields()
	var c protocol.SynthCandidate
	if err := dec.Decode(&c); err != nil {
		return nil, nil, "not JSON of the candidate shape: " + err.Error()
	}
	if dec.More() {
		return nil, nil, "not JSON of the candidate shape: more than one JSON value"
	}
	c.Outputs = nil
	switch {
	case strings.TrimSpace(c.Request) == "":
		return nil, nil, `no "request" (the user's words)`
	case strings.TrimSpace(c.Reply) == "":
		return nil, nil, `no "reply" (the assistant's answer)`
	}
	args := make([][]*value.Map, len(c.Steps))
	for i, step := range c.Steps {
		if len(step) == 0 {
			return nil, nil, fmt.Sprintf("step %d makes no call", i+1)
		}
		for j, call := range step {
			if call.Name == "" {
				return nil, nil, fmt.Sprintf(`step %d call %d has no "name"`, i+1, j+1)
			}
			raw := bytes.TrimSpace(call.Arguments)
			if len(raw) == 0 || string(raw) == "null" {
				raw = []byte("{}")
			}
			v, err := value.Decode(raw)
			m, ok := v.(*value.Map)
			if err != nil || !ok {
				return nil, nil, fmt.Sprintf(`step %d call %d (%s): "arguments" must be a JSON object`, i+1, j+1, call.Name)
			}
			args[i] = append(args[i], m)
		}
	}
	return &c, args, ""
}

// checkShape checks the candidate's steps before its calls are looked at: a special case makes no
// call, the simple and multiple styles one call a step.
func checkShape(c *protocol.SynthCandidate, style string) string {
	if slices.Contains(protocol.Specials, style) {
		if len(c.Steps) > 0 {
			return fmt.Sprintf("a %s special case answers with a reply, not calls (it has %d steps)", style, len(c.Steps))
		}
		return ""
	}
	if len(c.Steps) == 0 {
		return fmt.Sprintf("a %s candidate makes calls, and this one has no steps", style)
	}
	for i, step := range c.Steps {
		if (style == protocol.StyleSimple || style == protocol.StyleMultiple) && len(step) != 1 {
			return fmt.Sprintf("step %d makes %d calls at once; a %s candidate makes one call a step", i+1, len(step), style)
		}
	}
	return ""
}

// checkStyle checks the draft dialogue is of the style asked for, as `dataset stats` counts styles
// (dataset.Dialogue.Style): simple calls one tool; multiple several, one call a step; parallel has
// a set of calls of one tool made at once; parallel-multiple a set mixing tools.
func checkStyle(dl *dataset.Dialogue, style string) string {
	if slices.Contains(protocol.Specials, style) {
		return ""
	}
	count := map[string]int{}
	tools := map[string]bool{}
	for _, set := range dl.CallSets() {
		count[dl.Style(set)]++
	}
	for _, t := range dl.Turns {
		if t.Role == dataset.API {
			tools[t.Tool] = true
		}
	}
	switch style {
	case protocol.StyleSimple:
		if len(tools) > 1 {
			return fmt.Sprintf("it calls %d tools: a simple candidate calls one (several is the multiple style)", len(tools))
		}
	case protocol.StyleMultiple:
		if len(tools) < 2 {
			return "it calls one tool: a multiple candidate chooses among several (one is the simple style)"
		}
	case protocol.StyleParallel:
		if count[protocol.StyleParallelMultiple] > 0 {
			return "a step calls several tools at once: parallel calls are of one tool (mixing tools is the parallel-multiple style)"
		}
		if count[protocol.StyleParallel] == 0 {
			return "a parallel candidate has a step of several calls made at once, and this one has none"
		}
	case protocol.StyleParallelMultiple:
		if count[protocol.StyleParallelMultiple] == 0 {
			return "a parallel-multiple candidate has a step of calls of several tools made at once, and this one has none"
		}
	}
	return ""
}

// allowedTools is the set of tools a candidate may call: the chosen ones and GetUserToken when
// one of them takes a token (nil: the whole catalog).
func allowedTools(cat *tools.Catalog, chosen []string) map[string]bool {
	if len(chosen) == 0 {
		return nil
	}
	set := map[string]bool{}
	for _, n := range chosen {
		set[n] = true
		if t, ok := cat.Lookup(n); ok {
			if _, token := t.Param("token"); token {
				set["GetUserToken"] = true
			}
		}
	}
	return set
}

// checkSynthCall checks one call's tool and arguments against the catalog's declarations.
func checkSynthCall(cat *tools.Catalog, allowed map[string]bool, name string, args *value.Map) string {
	t, ok := cat.Lookup(name)
	if !ok {
		return fmt.Sprintf("no tool %s in the %s catalog", name, cat.Name)
	}
	if allowed != nil && !allowed[name] {
		return fmt.Sprintf("%s is not one of the chosen tools", name)
	}
	for _, k := range args.Keys() {
		p, ok := t.Param(k)
		if !ok {
			return fmt.Sprintf("%s has no parameter %q", name, k)
		}
		v, _ := args.Get(k)
		if !typeFits(p.Type, v) {
			return fmt.Sprintf("%s parameter %q is declared %s, and %s is not", name, k, p.Type, value.Marshal(v))
		}
	}
	for _, p := range t.Params {
		if p.Required && !args.Has(p.Name) {
			return fmt.Sprintf("%s lacks the required parameter %q", name, p.Name)
		}
	}
	return ""
}

// typeFits says whether a JSON value is of a declared parameter type.
func typeFits(typ string, v any) bool {
	switch typ {
	case "str":
		_, ok := v.(string)
		return ok
	case "int":
		_, ok := v.(int64)
		return ok
	case "float":
		_, ok := value.Float(v)
		return ok
	case "bool":
		_, ok := v.(bool)
		return ok
	case "list":
		_, ok := v.([]any)
		return ok
	case "list(str)":
		list, ok := v.([]any)
		for _, e := range list {
			if _, isText := e.(string); !isText {
				return false
			}
		}
		return ok
	}
	return false
}

// synthDraft writes the candidate as a draft dialogue (results null) for the fill step: a Meta line
// when it is a special case or derives values, the user's request, its calls in order and the reply.
func synthDraft(c *protocol.SynthCandidate, args [][]*value.Map, style string) []byte {
	var b bytes.Buffer
	line := func(m *value.Map) {
		b.Write(value.Marshal(m))
		b.WriteByte('\n')
	}
	special := slices.Contains(protocol.Specials, style)
	if special || len(c.Derived) > 0 {
		meta := value.MapOf("role", "Meta")
		if special {
			meta.Set("special", style)
			meta.Set("line", int64(3)) // Meta, User, then the AI turn that answers instead of a call
		}
		if len(c.Derived) > 0 {
			list := make([]any, len(c.Derived))
			for i, d := range c.Derived {
				list[i] = value.MapOf("value", d.Value, "rule", d.Rule)
			}
			meta.Set("derived", list)
		}
		line(meta)
	}
	line(value.MapOf("role", dataset.User, "text", c.Request))
	for i := range c.Steps {
		for j, call := range c.Steps[i] {
			turn := value.MapOf("role", dataset.API, "api_name", call.Name, "param_dict", args[i][j])
			if j > 0 {
				turn.Set("parallel", true) // made at once with the call before it
			}
			turn.Set("result", nil)
			line(turn)
		}
	}
	line(value.MapOf("role", dataset.AI, "text", c.Reply))
	return b.Bytes()
}

// stepOf locates the k-th call of the candidate: its step and its place in the step.
func stepOf(c *protocol.SynthCandidate, k int) (step, at int) {
	for i, s := range c.Steps {
		if k < len(s) {
			return i, k
		}
		k -= len(s)
	}
	return len(c.Steps) - 1, 0
}

// candidateCalls lists a candidate's calls as (tool, arguments) pairs.
func candidateCalls(c *protocol.SynthCandidate, args [][]*value.Map) [][2]string {
	var calls [][2]string
	for i := range c.Steps {
		for j, call := range c.Steps[i] {
			calls = append(calls, [2]string{call.Name, string(value.Marshal(args[i][j]))})
		}
	}
	return calls
}

// Duplicate key prefixes: a key is a request or a call set, normalised.
const (
	keyRequest = "request:"
	keyCalls   = "calls:"
)

func keyKind(key string) string {
	if strings.HasPrefix(key, keyRequest) {
		return "request"
	}
	return "call set"
}

// normalizeKey lowercases and collapses white space, so that keys differing only there collide.
func normalizeKey(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// synthKeys are a dialogue's duplicate keys: its request, and its call set (sorted, so that the same
// calls in another order collide) when it makes calls.
func synthKeys(request string, calls [][2]string) []string {
	keys := []string{keyRequest + normalizeKey(request)}
	if len(calls) == 0 {
		return keys
	}
	set := make([]string, len(calls))
	for i, c := range calls {
		set[i] = normalizeKey(c[0] + c[1])
	}
	sort.Strings(set)
	return append(keys, keyCalls+strings.Join(set, " ; "))
}

// synthIndex maps the duplicate keys of the loaded data's dialogues (first request, call set) to a
// file that has them; built once per loaded dataset.
func (s *Session) synthIndex() map[string]string {
	if s.synthKeys != nil && s.synthKeysOf == s.data {
		return s.synthKeys
	}
	idx := map[string]string{}
	for _, dl := range s.data.Dialogues() {
		request := ""
		var calls [][2]string
		for _, t := range dl.Turns {
			switch {
			case t.Role == dataset.User && request == "":
				request = t.Text
			case t.Role == dataset.API:
				calls = append(calls, [2]string{t.Tool, string(value.Marshal(t.Params))})
			}
		}
		for _, k := range synthKeys(request, calls) {
			if _, ok := idx[k]; !ok {
				idx[k] = dl.Level + "/" + dl.File
			}
		}
	}
	s.synthKeys, s.synthKeysOf = idx, s.data
	return idx
}

// worldFiles writes the loaded data's initial world as init_database files (the tools' own
// bookkeeping databases, named with "_", left out).
func (s *Session) worldFiles() protocol.WorldFiles {
	out := protocol.WorldFiles{Files: map[string]string{}}
	for _, n := range s.data.Base.Names() {
		if strings.HasPrefix(n, "_") {
			continue
		}
		if db, ok := s.data.Base.Database(n); ok {
			out.Files["init_database/"+n+".json"] = string(value.Marshal(db))
		}
	}
	return out
}
