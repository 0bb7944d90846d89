// Package goldmodel is the perfect model of the tests: it recognises the chat request a run makes for
// each sample of a dataset — a call, reply or special-case sample of levels 1 and 2, a level-3 step
// sample, and every step of a level-3 episode — and answers that sample's gold, exactly as the engine
// shows it: in the text form as the message's content, in the native form as tool_calls (a gold call
// set as one message of several calls). Run against it, a harness must report the data's ceiling.
//
// It can also answer adversarially: each sample gets one behaviour from Behaviours (garbage, nothing,
// invalid tool-call JSON, ...), so that a test can check that every sample still gets a verdict or a
// listed failure and that the run and the engine live through it.
//
// A Model is a fakemodel.Oracle: it plugs into the fake endpoint (fakemodel.Server.SetOracle), which
// serves its answers plain or streamed, and the script's faults (429s, 500s) before them.
//
// A request is recognised by its messages alone: the role, text and calls of each message (tool-call
// ids and the tools offered aside). The model builds its table from the engine's own prompts
// (score.BuildPrompt), so a client that changed a prompt on its way to the endpoint would not be
// recognised, and its run would fail loudly.
package goldmodel

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/variant"
)

// Behaviours are the adversarial answers, in the order samples are given them. Each names what the
// "model" does instead of answering right.
var Behaviours = []string{
	// Garbage is text that holds no call and no sense.
	Garbage,
	// Nothing is an empty answer.
	Nothing,
	// InvalidJSON is a tool call whose arguments are not JSON (in the text form, a call cut short).
	InvalidJSON,
	// Both is the gold call written twice: as text in the content and as tool_calls.
	Both,
	// CallsInContent is the native gold call written as JSON text in the content, no tool_calls.
	CallsInContent,
	// Endless is an answer that never ends (the fake endpoint's endless fault).
	Endless,
	// Huge is an answer of several MiB (the fake endpoint's oversize fault).
	Huge,
}

// Hostile are the behaviours of a model that answers every kind of bad a client must survive with
// its memory and time bounded: text that means nothing, answers of several MiB, answers cut off
// half-way, connections dropped, JSON nested 5,000 deep, answers that never end, and answers that
// trickle in a byte a second.
var Hostile = []string{Garbage, Huge, Cut, Drop, Deep, Endless, Trickle}

// Names of the adversarial behaviours (see Behaviours and Hostile).
const (
	Garbage        = "garbage"
	Nothing        = "nothing"
	InvalidJSON    = "invalid-json"
	Both           = "both"
	CallsInContent = "calls-in-content"
	Endless        = "endless"
	Huge           = "huge"
	// Cut is an answer that ends cleanly half-way (the fake endpoint's cut fault).
	Cut = "cut"
	// Drop is an answer whose connection is broken off half-way (the drop fault).
	Drop = "drop"
	// Deep is JSON nested 5,000 deep in the answer's body and its call (the deep fault).
	Deep = "deep"
	// Trickle is an answer sent a byte a second (the trickle fault).
	Trickle = "trickle"
)

// Known says whether name is a behaviour of Behaviours or Hostile.
func Known(name string) bool {
	for _, b := range append(append([]string(nil), Behaviours...), Hostile...) {
		if b == name {
			return true
		}
	}
	return false
}

// hugeBytes is the size of a Huge answer: more than a client reads of one answer (1 MiB by default)
// and more than a call prediction may have (4 MiB).
const hugeBytes = 5 << 20

// deepLevels is how deep a Deep answer's JSON is nested.
const deepLevels = 5000

// Done begins the perfect model's closing message of a level-3 episode, once every gold call is
// made; the scene's answer follows (score.GoldReply: what the user asked to be told).
const Done = "All done: every step of your request has been carried out."

// gold is one answer: the text form's content, the native form's calls, or a reply (the same
// content in both forms, no calls).
type gold struct {
	text   string
	native []fakemodel.Call
	reply  bool
	// behaviour is the position of the sample's adversarial answer in the model's behaviours
	// (modulo their number).
	behaviour int
}

// scene is a level-3 scene's episode: the gold of each step in order.
type scene struct {
	steps []gold
	// behaviour is the first step's adversarial answer; step k gets the one k places after it.
	behaviour int
	// done is the closing message: Done, then what the scene's answer needs.
	done string
}

// Model answers the requests of one dataset's samples. Its zero value knows none.
type Model struct {
	// exact maps the key of a sample's whole prompt to its gold.
	exact map[[sha256.Size]byte]*gold
	// scenes maps the key of a level-3 episode's opening messages to its scene.
	scenes map[[sha256.Size]byte]*scene
	// adversarial makes every answer the sample's behaviour instead of its gold.
	adversarial bool
	// behaviours are the bad answers given in turn (Behaviours unless NewWith was given others).
	behaviours []string
	// learned counts the samples learned: the next one's place in behaviours.
	learned int
}

// New builds the perfect model of data: every sample's prompt in both forms, and every level-3
// scene's opening. With adversarial set, it answers badly instead (see Behaviours).
func New(data *dataset.Data, adversarial bool) (*Model, error) {
	if !adversarial {
		return NewWith(data, nil)
	}
	return NewWith(data, Behaviours)
}

// NewWith builds the model of data that answers badly with behaviours in turn (one per sample, in
// the data's order; a level-3 episode's step k gets the one k places after its first); none: the
// perfect model.
func NewWith(data *dataset.Data, behaviours []string) (*Model, error) {
	for _, b := range behaviours {
		if !Known(b) {
			return nil, fmt.Errorf("unknown behaviour %q", b)
		}
	}
	m := &Model{exact: map[[sha256.Size]byte]*gold{}, scenes: map[[sha256.Size]byte]*scene{}, adversarial: len(behaviours) > 0, behaviours: behaviours}
	if err := m.Learn(data); err != nil {
		return nil, err
	}
	return m, nil
}

// Learn adds the samples of another dataset to those the model answers: a variant of its data (the
// same samples with other names, numbers and texts), so that a run over the data and its variants
// meets a perfect model in every pass. A prompt that two datasets share has the same gold in both.
func (m *Model) Learn(data *dataset.Data) error {
	ix := score.NewIndex(data)
	add := func(sm score.Sample) error {
		if sm.Kind == score.KindSkip {
			return nil
		}
		p := score.BuildPrompt(sm)
		g, err := goldOf(p)
		if err != nil {
			return fmt.Errorf("%s %s #%d: %w", sm.Dialogue.Level, sm.Dialogue.File, sm.ID, err)
		}
		g.behaviour = m.learned
		m.learned++
		keys, err := promptKeys(p)
		if err != nil {
			return fmt.Errorf("%s %s #%d: %w", sm.Dialogue.Level, sm.Dialogue.File, sm.ID, err)
		}
		for _, k := range keys {
			m.exact[k] = g
		}
		return nil
	}
	for _, sm := range ix.All() {
		if err := add(sm); err != nil {
			return err
		}
	}
	for _, d := range ix.Scenes() {
		samples := score.SceneSamples(d)
		if len(samples) == 0 {
			continue
		}
		sc := &scene{behaviour: m.learned, done: Done}
		if r := score.GoldReply(d); r != "" {
			sc.done += " " + r
		}
		for _, sm := range samples {
			// The step samples themselves are among ix.All's, added above.
			g, err := goldOf(score.BuildPrompt(sm))
			if err != nil {
				return err
			}
			sc.steps = append(sc.steps, *g)
		}
		// An episode opens with the prompt of the scene's first step (the engine's episode_start).
		keys, err := promptKeys(score.BuildPrompt(samples[0]))
		if err != nil {
			return fmt.Errorf("%s: %w", d.File, err)
		}
		for _, k := range keys {
			m.scenes[k] = sc
		}
	}
	return nil
}

// goldOf reads a prompt's gold: the text form's answer as the engine shows it, and for a call the
// native form's calls.
func goldOf(p score.Prompt) (*gold, error) {
	g := &gold{text: p.Gold, reply: p.Expect != score.KindCall}
	if g.reply {
		return g, nil
	}
	calls, err := nativeCalls(p.GoldNative)
	if err != nil {
		return nil, err
	}
	g.native = calls
	return g, nil
}

// nativeCalls reads a native gold (one {"name","arguments"} object, or a list of them) as the calls
// of one assistant message.
func nativeCalls(s string) ([]fakemodel.Call, error) {
	type one struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	var list []one
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		var c one
		if err := json.Unmarshal([]byte(s), &c); err != nil {
			return nil, fmt.Errorf("native gold %.80q is neither a call nor a list of calls", s)
		}
		list = []one{c}
	}
	out := make([]fakemodel.Call, len(list))
	for i, c := range list {
		out[i] = fakemodel.Call{ID: fmt.Sprintf("call_%d", i), Name: c.Name, Arguments: c.Arguments}
	}
	return out, nil
}

// promptKeys are the keys of a prompt's request in the text form (one user message) and in the
// native form (its messages).
func promptKeys(p score.Prompt) ([][sha256.Size]byte, error) {
	text := p.Text
	keys := [][sha256.Size]byte{key([]fakemodel.ChatMessage{{Role: "user", Content: &text}})}
	if len(p.Messages) > 0 {
		var msgs []fakemodel.ChatMessage
		if err := json.Unmarshal(p.Messages, &msgs); err != nil {
			return nil, fmt.Errorf("prompt messages: %w", err)
		}
		keys = append(keys, key(msgs))
	}
	return keys, nil
}

// key is the key of a list of messages.
func key(msgs []fakemodel.ChatMessage) [sha256.Size]byte {
	h := sha256.New()
	for _, m := range msgs {
		write(h, m)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// write adds a message to a key: its role, text and calls (names and arguments, compared as JSON
// values), each field ended by a byte no text holds.
func write(h hash.Hash, m fakemodel.ChatMessage) {
	h.Write([]byte(m.Role))
	h.Write([]byte{0})
	if m.Content != nil {
		h.Write([]byte(*m.Content))
	}
	h.Write([]byte{0})
	for _, c := range m.ToolCalls {
		h.Write([]byte(c.Function.Name))
		h.Write([]byte{0})
		h.Write(canonical(c.Function.Arguments))
		h.Write([]byte{0})
	}
	h.Write([]byte{1})
}

// canonical is a JSON text as a value (keys sorted, no spaces); text that is not JSON stays as it is.
func canonical(s string) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return []byte(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(s)
	}
	return b
}

// Answer answers a request it recognises (a fakemodel.Oracle): a sample's whole prompt, or a level-3
// episode at some step — its opening messages followed by the calls and results so far. kind says what
// was served: "gold", or the adversarial behaviour.
func (m *Model) Answer(req *fakemodel.ChatRequest) (fakemodel.Reply, *fakemodel.Fault, string, bool) {
	native := hasTools(req.Tools)
	if g, ok := m.exact[key(req.Messages)]; ok {
		return m.answer(g, m.behaviourAt(g.behaviour), native)
	}
	// An episode: the longest opening of a known scene, then one assistant message per step made.
	h := sha256.New()
	var found *scene
	opened := 0
	for i, msg := range req.Messages {
		write(h, msg)
		var k [sha256.Size]byte
		h.Sum(k[:0])
		if sc, ok := m.scenes[k]; ok {
			found, opened = sc, i+1
		}
	}
	if found == nil {
		return fakemodel.Reply{}, nil, "", false
	}
	step := 0
	for _, msg := range req.Messages[opened:] {
		if msg.Role == "assistant" {
			step++
		}
	}
	behaviour := m.behaviourAt(found.behaviour + step)
	if step >= len(found.steps) {
		if m.adversarial {
			return m.answer(&gold{text: found.done, reply: true}, behaviour, native)
		}
		return fakemodel.Reply{Content: found.done}, nil, "gold", true
	}
	return m.answer(&found.steps[step], behaviour, native)
}

// behaviourAt is the n-th bad answer, in turn ("" for the perfect model).
func (m *Model) behaviourAt(n int) string {
	if len(m.behaviours) == 0 {
		return ""
	}
	return m.behaviours[n%len(m.behaviours)]
}

// answer is g's answer in a form, or with the model adversarial, the behaviour's.
func (m *Model) answer(g *gold, behaviour string, native bool) (fakemodel.Reply, *fakemodel.Fault, string, bool) {
	right := fakemodel.Reply{Content: g.text}
	if native && !g.reply {
		right = fakemodel.Reply{ToolCalls: g.native}
	}
	if !m.adversarial {
		return right, nil, "gold", true
	}
	var r fakemodel.Reply
	switch behaviour {
	case Garbage:
		r.Content = "~~ ]]) ( [[ \u00bf? lorem ipsum \ufffd not an answer ~~"
	case Nothing:
		r.Content = ""
	case InvalidJSON:
		if native && len(g.native) > 0 {
			broken, _ := json.Marshal(`{"` + firstKey(g.native[0].Arguments) + `": `)
			r.ToolCalls = []fakemodel.Call{{Name: g.native[0].Name, Arguments: broken}}
		} else {
			r.Content = "[" + callName(g) + "(x='1'"
		}
	case Both:
		r = fakemodel.Reply{Content: g.text, ToolCalls: g.native}
	case CallsInContent:
		r.Content = g.text
		if len(g.native) > 0 {
			b, _ := json.Marshal(g.native)
			r.Content = string(b)
		}
	case Endless:
		return right, &fakemodel.Fault{Kind: fakemodel.FaultEndless}, behaviour, true
	case Huge:
		return right, &fakemodel.Fault{Kind: fakemodel.FaultOversize, Size: hugeBytes}, behaviour, true
	case Cut:
		return right, &fakemodel.Fault{Kind: fakemodel.FaultCut}, behaviour, true
	case Drop:
		return right, &fakemodel.Fault{Kind: fakemodel.FaultDrop}, behaviour, true
	case Deep:
		return right, &fakemodel.Fault{Kind: fakemodel.FaultDeep, Size: deepLevels}, behaviour, true
	case Trickle:
		return right, &fakemodel.Fault{Kind: fakemodel.FaultTrickle, DelayMS: 1000}, behaviour, true
	}
	return r, nil, behaviour, true
}

// callName is the name of a gold's first call ("Tool" for a reply).
func callName(g *gold) string {
	if len(g.native) > 0 {
		return g.native[0].Name
	}
	return "Tool"
}

// firstKey is the first key of a JSON object's text ("x" when there is none).
func firstKey(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "x"
	}
	if t, err := dec.Token(); err == nil {
		if s, ok := t.(string); ok {
			return s
		}
	}
	return "x"
}

// hasTools says whether a request offers tools (the native form).
func hasTools(raw json.RawMessage) bool {
	var tools []json.RawMessage
	return json.Unmarshal(raw, &tools) == nil && len(tools) > 0
}

// Load builds the perfect model of the data a run would load: "" or "builtin" for the builtin dataset,
// else a folder in the original's layout (or any folder `apibank --data` reads).
func Load(data string, adversarial bool) (*Model, error) {
	if !adversarial {
		return LoadWith(data, nil)
	}
	return LoadWith(data, Behaviours)
}

// LoadWith is Load with the bad answers named (see NewWith).
func LoadWith(data string, behaviours []string) (*Model, error) {
	var d *dataset.Data
	if data == "" || data == "builtin" {
		b, err := dataset.Builtin()
		if err != nil {
			return nil, err
		}
		d = b
	} else {
		files, err := dataset.ReadDir(data)
		if err != nil {
			return nil, err
		}
		if d, _, err = dataset.Load(data, files); err != nil {
			return nil, fmt.Errorf("%s: %w", data, err)
		}
	}
	return NewWith(d, behaviours)
}

// LearnVariants adds the variants of the builtin data that seeds name (see Learn): the perfect
// model of a run that asks them too (`apibank run --variants N`, `--seed S`).
func (m *Model) LearnVariants(seeds []int64) error {
	files, err := dataset.BuiltinFiles()
	if err != nil {
		return err
	}
	for _, seed := range seeds {
		vf, rep, err := variant.Make(files, uint64(seed))
		if err != nil {
			return fmt.Errorf("variant %d: %w", seed, err)
		}
		d, _, err := dataset.LoadRepaired(rep.Name, vf)
		if err != nil {
			return fmt.Errorf("variant %d: %w", seed, err)
		}
		if err := m.Learn(d); err != nil {
			return fmt.Errorf("variant %d: %w", seed, err)
		}
	}
	return nil
}
