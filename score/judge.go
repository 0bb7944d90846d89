package score

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/rouge"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// Verdict categories. The first ten are the original evaluator's, in its order of checks; the others
// are ours, for cases where the original evaluator itself crashes or has no name for the outcome.
const (
	Correct               = "CORRECT"
	NoAPICall             = "NO_API_CALL"
	FailedParseAPICall    = "FAILED_PARSE_API_CALL"
	APINameMismatch       = "API_NAME_MISMATCH"
	InvalidInputParameter = "INVALID_INPUT_PARAMETER"
	MissInputArgument     = "MISS_INPUT_ARGUMENT"
	KeyError              = "KEY_ERROR"
	HasException          = "HAS_EXCEPTION"
	OutputMismatch        = "OUTPUT_MISMATCH"
	InputMismatch         = "INPUT_MISMATCH"

	// InvalidParameterType: a value the declared type rejects ("invalid parameter type", int() of an
	// unreadable digit). The original evaluator stops its whole run on these.
	InvalidParameterType = "INVALID_PARAMETER_TYPE"
	// ToolError: the tool raised out of the call instead of answering (the original's run stops).
	ToolError = "TOOL_ERROR"
	// CheckError: the correctness check itself raised (the original's run stops).
	CheckError = "CHECK_ERROR"
	// Incorrect: wrong, with no difference in exception, output or input (the original leaves these
	// without a category).
	Incorrect = "INCORRECT"
	// PrematureCall: the model called a tool where the gold answer is to reply (ask for a missing
	// value, say no tool fits, ask which was meant).
	PrematureCall = "PREMATURE_CALL"
	// InputTooLarge: the prediction is beyond any sensible size (MaxCallPrediction for a call); the
	// error says the size and the limit. Incorrect.
	InputTooLarge = "INPUT_TOO_LARGE"
	// MissedNeed: a special case's reply made no call but does not do what the case needs (ask for
	// the missing value, point out the wrong one, name the candidates, say no tool can do it); the
	// verdict's error says which need it missed.
	MissedNeed = "MISSED_NEED"
	// MissingCall: a gold call set got fewer calls than it has (protocol.MissingCall).
	MissingCall = protocol.MissingCall
	// ExtraCall: a prediction made more calls than its gold set (protocol.ExtraCall).
	ExtraCall = protocol.ExtraCall
)

// MaxCallPrediction is the most bytes a call prediction may have (4 MiB): a tool call of more is not
// a call any model makes, and judging one echoes it in the verdict.
const MaxCallPrediction = 4 << 20

// Categories lists every category in report order.
var Categories = []string{Correct, NoAPICall, FailedParseAPICall, APINameMismatch, InvalidInputParameter,
	MissInputArgument, KeyError, HasException, OutputMismatch, InputMismatch,
	InvalidParameterType, ToolError, CheckError, Incorrect, PrematureCall, MissedNeed, InputTooLarge, MissingCall, ExtraCall}

// Mode is how the world is set up for a call sample.
type Mode string

const (
	// Fresh runs every call against the initial world, as the original evaluator does.
	Fresh Mode = protocol.StateFresh
	// Replay runs a call against the world advanced by the dialogue's gold calls before it.
	Replay Mode = protocol.StateReplay
)

// ParseMode reads a mode name; "" gives def.
func ParseMode(s string, def Mode) (Mode, error) {
	switch Mode(s) {
	case "":
		return def, nil
	case Fresh, Replay:
		return Mode(s), nil
	}
	return "", errors.New("state must be fresh or replay, not " + strconv.Quote(s))
}

// CallVerdict is the judgement of one call prediction (the protocol's type).
type CallVerdict = protocol.CallVerdict

// ReplyVerdict is the judgement of one reply prediction (the protocol's type).
type ReplyVerdict = protocol.ReplyVerdict

// Scorer judges predictions against one dataset in one state mode. It keeps the original's
// per-run state: gold envelopes that checks mutate stay mutated for later predictions of the same
// gold turn, as in one run of the original evaluator (see RATIONALE.md). Use a new Scorer per batch.
type Scorer struct {
	data  *dataset.Data
	mode  Mode
	golds map[*dataset.Turn]*value.Map
	// replays caches, per dialogue, the world after each prefix of its gold calls.
	replays map[*dataset.Dialogue][]*tools.World
	// scratch is where a verdict's result is encoded before it is copied out at its size: one
	// allocation a verdict instead of a buffer grown several times.
	scratch bytes.Buffer
	// reuse is set for a stream, whose verdicts are written out before the next line is judged:
	// results then stay in scratch (emptied once a verdict) and the call verdict is the scorer's
	// own, rather than copies made for every verdict.
	reuse   bool
	verdict CallVerdict
	// fresh is the world a verdict runs in, in Fresh mode (see world).
	fresh tools.World
	// lastFile is the file of the last line judged, and lastSamples its samples in lastFiles.
	lastFiles   *Index
	lastFile    string
	lastSamples *fileSamples
	// calls finds each verdict's call: the call is done with when the verdict is, so one serves all.
	// Its Reading is the data's (call.ReadingFor): every call of a prediction is read with it.
	calls call.Finder
}

// scratchMax is the largest scratch buffer a Scorer keeps between verdicts.
const scratchMax = 1 << 20

// marshal encodes v as value.Marshal does, through the scorer's scratch buffer.
func (s *Scorer) marshal(v any) []byte {
	if s.reuse {
		// Several results of one verdict (a gold call set's) share scratch: each is its own part of
		// it, and a part stays intact when the buffer grows (the growth copies to a new array).
		start := s.scratch.Len()
		value.Append(&s.scratch, v)
		b := s.scratch.Bytes()
		return b[start:len(b):len(b)]
	}
	s.scratch.Reset()
	value.Append(&s.scratch, v)
	out := bytes.Clone(s.scratch.Bytes())
	if s.scratch.Cap() > scratchMax {
		s.scratch = bytes.Buffer{}
	}
	return out
}

// newVerdict starts a verdict: in reuse mode it empties the scratch buffer and returns the scorer's
// own call verdict (both are the previous verdict's, which has been written out); otherwise a
// new one.
func (s *Scorer) newVerdict() *CallVerdict {
	if !s.reuse {
		return new(CallVerdict)
	}
	s.scratch.Reset()
	if s.scratch.Cap() > scratchMax {
		s.scratch = bytes.Buffer{}
	}
	s.verdict = CallVerdict{}
	return &s.verdict
}

// New returns a scorer for data in mode.
func New(data *dataset.Data, mode Mode) *Scorer {
	return &Scorer{data: data, mode: mode, golds: map[*dataset.Turn]*value.Map{}, replays: map[*dataset.Dialogue][]*tools.World{},
		calls: call.Finder{Reading: call.ReadingFor(data.Repaired)}}
}

// Mode returns the scorer's state mode.
func (s *Scorer) Mode() Mode { return s.mode }

// world returns the world a call sample's prediction runs in: a copy the caller may change.
func (s *Scorer) world(sm Sample) *tools.World {
	if s.mode != Replay {
		// Nothing keeps a verdict's world past the verdict: the scorer's one is reset for each.
		s.data.Base.Reset(&s.fresh)
		s.fresh.SetToday(sm.Dialogue.Today)
		return &s.fresh
	}
	return s.replayed(sm.Dialogue, sm.Gold).Clone()
}

// replayed returns the world after every gold call of d before turn index pos (shared: clone it).
func (s *Scorer) replayed(d *dataset.Dialogue, pos int) *tools.World {
	states, ok := s.replays[d]
	if !ok {
		cat := d.ToolCatalog()
		w := s.data.Base.NewWorld()
		w.SetToday(d.Today)
		states = make([]*tools.World, len(d.Turns)+1)
		states[0] = w
		for i, t := range d.Turns {
			if t.Role == dataset.API {
				w = w.Clone()
				// A gold call that raises leaves the world as it was.
				_, _ = cat.CallNative(w, t.Tool, t.Params)
			}
			states[i+1] = w
		}
		s.replays[d] = states
	}
	return states[pos]
}

// gold returns the run's copy of a gold envelope (checks may mutate it, see Scorer). Repaired data
// gets a new copy for every verdict: that a check's mutation outlives it is the original's defect
// (a second prediction of the same sample, as repeated trials make, could never be right), kept only
// where verdict parity needs it.
func (s *Scorer) gold(t *dataset.Turn) *value.Map {
	if s.data.Repaired {
		g, _ := value.Clone(t.Result).(*value.Map)
		return g
	}
	g, ok := s.golds[t]
	if !ok {
		g, _ = value.Clone(t.Result).(*value.Map)
		s.golds[t] = g
	}
	return g
}

// Call judges a prediction for a call sample, following the original evaluator's order of checks.
func (s *Scorer) Call(sm Sample, pred string) CallVerdict {
	v := s.call(sm, pred)
	if !v.Correct && sceneStep(sm) {
		if other, ok := s.otherNextStep(sm, pred, v); ok {
			return other
		}
	}
	return v
}

// call judges a call prediction against the sample's own gold (see Call).
func (s *Scorer) call(sm Sample, pred string) CallVerdict {
	gt := sm.GoldTurn()
	v := CallVerdict{Tool: gt.Tool}
	if len(pred) > MaxCallPrediction {
		v.Category = InputTooLarge
		v.Error = fmt.Sprintf("the prediction has %d bytes, more than the %d a call prediction may have", len(pred), MaxCallPrediction)
		return v
	}
	if gt.Role != dataset.API {
		// Our special cases: the right answer was not to call.
		if c, ok := s.calls.Find(pred); ok {
			v.Category, v.Form, v.Called = PrematureCall, string(c.Form), c.Name
			return v
		}
		return s.special(sm, pred, v)
	}
	// A level-3 scene step whose gold tool the prompt does not show: a ToolSearcher call that finds
	// it is right (SearchFinds, score/scene.go); our data only.
	if sv, ok := s.SearchFinds(sm, pred); ok {
		return sv
	}
	if len(sm.Set) > 0 {
		return s.callSet(sm, pred, v)
	}
	if s.data.Repaired {
		// Our data judges every call of a prediction: more calls than the one gold call is EXTRA_CALL.
		// The original's data keeps its parser's rule, the first call only (parity).
		if s.calls.Reading.Several(pred) {
			if cs, ok := s.calls.Reading.FindAll(pred); ok && len(cs) > 1 {
				return s.callSet(sm, pred, v)
			}
		}
	}
	c, ok := s.calls.Find(pred)
	if !ok {
		if sm.Dialogue.Repaired && gt.Tool == getToday && statesToday(pred, sm.Dialogue.StatedToday()) {
			// The prompt states the date: a reply that gives it is as right as asking GetToday.
			v.Category, v.Correct = Correct, true
			return v
		}
		v.Category = NoAPICall
		return v
	}
	v.Form, v.Called = string(c.Form), c.Name
	if c.Name != gt.Tool {
		v.Category, v.Error = APINameMismatch, c.Name
		return v
	}
	cat := sm.Dialogue.ToolCatalog()
	if sm.Dialogue.Repaired {
		return s.judgeFair(cat, s.world(sm), c, gt, v)
	}
	env, err := Execute(cat, s.world(sm), c, sm.Dialogue.Repaired)
	s.judgeRun(&v, cat, gt, env, err, s.gold(gt), false)
	return v
}

// special judges a reply to a special case: right when it makes no call and, on data whose special
// cases record their needs (ours), meets what the case's kind needs and every need of the case.
// The original's data has no special cases; data of ours without needs keeps "no call is right".
func (s *Scorer) special(sm Sample, pred string, v CallVerdict) CallVerdict {
	meta := sm.Dialogue.Meta
	if meta == nil || len(meta.Needs) == 0 {
		v.Category, v.Correct = Correct, true
		return v
	}
	needs := meta.Needs
	if kn, ok := KindNeed(meta.Special); ok {
		needs = append([]protocol.Need{kn}, needs...)
	}
	if miss := Unmet(pred, needs); miss != nil {
		v.Category, v.Error = MissedNeed, "the reply does not do what the case needs: "+miss.What
		return v
	}
	v.Category, v.Correct = Correct, true
	return v
}

// Execute runs a parsed call in w, read as the data reads calls. It is the one reading of a call that
// every judge of a world shares — the step judge, a level-3 episode's world, the sandbox (and through
// the judge the classroom): a native call runs with its typed arguments, a text call with the
// arguments Args gives. repaired is the data's Repaired (dataset.Data.Repaired).
func Execute(cat *tools.Catalog, w *tools.World, c *call.Call, repaired bool) (*value.Map, error) {
	return executeWith(cat, w, c, Args(cat, c, repaired))
}

// executeWith runs c in w with args, the arguments Args gave for it: for a caller that keeps them (a
// level-3 episode shows them), so a call is read once. A text call read as Python (call.Literal) has
// typed values, as a native call has, and runs as one (True is true for a bool parameter).
func executeWith(cat *tools.Catalog, w *tools.World, c *call.Call, args *value.Map) (*value.Map, error) {
	if c.Form == call.Native || c.Reading == call.Literal {
		return cat.CallNative(w, c.Name, args)
	}
	return cat.Call(w, c.Name, args)
}

// judgeRun fills v with the judgement of a call of gold turn gt that ran (env, or err when it raised)
// against the gold envelope gold, in the original evaluator's order of checks. With trial set, the
// check gets copies, so neither env nor gold is changed (a gold call set tries several pairings).
func (s *Scorer) judgeRun(v *CallVerdict, cat *tools.Catalog, gt *dataset.Turn, env *value.Map, err error, gold *value.Map, trial bool) {
	if err != nil {
		v.Error = err.Error()
		v.Category = callErrorCategory(err)
		return
	}
	tool, _ := cat.Lookup(gt.Tool)
	if gold == nil {
		v.Result = value.Marshal(env)
		v.Category, v.Error = KeyError, "'result'"
		return
	}
	if trial {
		env, _ = value.Clone(env).(*value.Map)
		gold, _ = value.Clone(gold).(*value.Map)
	}
	// The check may change the response in place (the meeting-family checks delete an input field):
	// env is this call's own (its input map is made by the call, nothing else holds it), so the
	// verdict shows the response as the check left it, as the original prints it.
	check := tool.Check
	if s.data.Repaired {
		check = tool.CheckRepaired
	}
	okCheck, err := check(env, gold)
	// The verdict shows the response as the check left it (the original prints it after the check's
	// in-place changes).
	v.Result = s.marshal(env)
	if err != nil {
		v.Error = err.Error()
		te, isTool := toolError(err)
		switch {
		case isTool && te.Kind == tools.Key:
			v.Category = KeyError
		case isTool && te.Kind == tools.Assertion && strings.Contains(te.Text, "The API name is not correct."):
			v.Category = APINameMismatch
		default:
			v.Category = CheckError
		}
		return
	}
	if okCheck {
		v.Category, v.Correct = Correct, true
		return
	}
	exc, _ := env.Get("exception")
	out, _ := env.Get("output")
	in, _ := env.Get("input")
	gout, _ := gold.Get("output")
	gin, _ := gold.Get("input")
	switch {
	case exc != nil:
		v.Category = HasException
	case !value.Equal(out, gout):
		v.Category = OutputMismatch
	case !value.Equal(in, gin):
		v.Category = InputMismatch
	default:
		v.Category = Incorrect
	}
}

// toolError returns the *tools.Error in err's chain, as errors.As finds it; the error itself, the
// usual case, is tried first without errors.As's reflection.
func toolError(err error) (*tools.Error, bool) {
	if te, ok := err.(*tools.Error); ok {
		return te, true
	}
	var te *tools.Error
	ok := errors.As(err, &te)
	return te, ok
}

// callErrorCategory maps an error raised out of a call to the original evaluator's category, or to
// ours where the original's run would stop.
func callErrorCategory(err error) string {
	te, ok := toolError(err)
	if !ok {
		return ToolError
	}
	switch {
	case te.Kind == tools.Assertion && strings.Contains(te.Text, "invalid parameter name"):
		return InvalidInputParameter
	case te.Kind == tools.Assertion && strings.Contains(te.Text, "The API name is not correct."):
		return APINameMismatch
	case te.Kind == tools.Assertion && strings.Contains(te.Text, "invalid parameter type"):
		return InvalidParameterType
	case strings.Contains(te.Text, "missing") && strings.Contains(te.Text, "required positional argument"):
		return MissInputArgument
	case te.Kind == tools.Value && strings.HasPrefix(te.Text, "invalid literal for int()"):
		return InvalidParameterType
	}
	return ToolError
}

// Reply judges a prediction for a reply sample: ROUGE-L F against the gold text, rounded to 4
// decimals; an empty prediction scores 0, and so does one ROUGE rejects (the original would stop).
func (s *Scorer) Reply(sm Sample, pred string) ReplyVerdict {
	if pred == "" {
		return ReplyVerdict{}
	}
	f, err := rouge.L(pred, sm.GoldTurn().Text)
	if err != nil {
		return ReplyVerdict{Error: err.Error()}
	}
	return ReplyVerdict{RougeL: Round4(f)}
}

// numberText is Python's str() of a number read from a literal; false for any other value.
func numberText(v any) (string, bool) {
	switch n := v.(type) {
	case int64:
		return strconv.FormatInt(n, 10), true
	case float64:
		return py.FloatRepr(n), true
	}
	return "", false
}

// Round4 rounds as Python's round(x, 4): to the nearest 4-decimal value of the exact binary number,
// ties to even.
func Round4(f float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 4, 64), 64)
	return r
}

// Args returns the arguments a parsed call passes to its tool, as the data reads them. The original
// passes a text call's every value on as the text that was written, so a list argument reaches its tool
// as the string "['Mary', 'Peter']" and a right list can never match its gold list; its data keeps that
// reading (verdict parity needs it). Repaired data — our own — is judged without that defect: its text
// calls are read as Python (call.Literal), so a list written as a literal arrives a list, and a value
// of a list parameter that is text holding a Python literal ([...]) is that list. Native calls, and
// values that do not read as a literal, are passed as they are. The call's own map is never changed.
func Args(cat *tools.Catalog, c *call.Call, repaired bool) *value.Map {
	if !repaired || c.Form == call.Native {
		return c.Args
	}
	t, ok := cat.Lookup(c.Name)
	if !ok {
		return c.Args
	}
	args := c.Args
	copied := false
	c.Args.Each(func(k string, v any) bool {
		p, ok := t.Param(k)
		if ok && p.Type == "str" && c.Reading == call.Literal {
			// A bare number written for a text parameter (password=123456) means its digits, as
			// str() gives them: the prompt quotes every value, but the intent is plain.
			if s, isNum := numberText(v); isNum {
				if !copied {
					args, copied = value.Clone(c.Args).(*value.Map), true
				}
				args.Set(k, s)
			}
			return true
		}
		text, isText := v.(string)
		if !ok || (p.Type != "list" && p.Type != "list(str)") || !isText || !strings.HasPrefix(strings.TrimSpace(text), "[") {
			return true
		}
		lit, err := dataset.ParseLiteral(strings.TrimSpace(text))
		if err != nil {
			return true
		}
		if !copied {
			args, copied = value.Clone(c.Args).(*value.Map), true
		}
		args.Set(k, lit)
		return true
	})
	return args
}
