package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Verdict is the judgement of one prediction line: a call verdict for call and special samples, a
// reply verdict for reply samples. It is the shape of the CLI's --out lines.
type Verdict struct {
	Level string
	File  string
	ID    int
	// Line is the prediction's line in its file (0 when it did not come from a file).
	Line int
	// Kind is KindCall, KindSpecial or KindReply.
	Kind string
	*CallVerdict
	*ReplyVerdict
	// Special is the special case of the dialogue, if any.
	Special string
}

// CallVerdict is the judgement of one call prediction.
type CallVerdict struct {
	// Category is the original evaluator's category (CORRECT, NO_API_CALL, ...) or one of ours.
	Category string
	Correct  bool
	// Tool is the gold call's tool (the first call's, for a gold call set; "" for a special case,
	// where the gold answer is a reply).
	Tool string
	// Form is how the prediction was written (text or native), empty when no call was found.
	Form string
	// Called is the tool name the prediction called, when one was found.
	Called string
	// Result is the envelope the predicted call produced, when it ran.
	Result json.RawMessage
	// Error is the error text when the call or the check raised.
	Error string
	// GoldCall and GoldResult are the gold answer and its recorded envelope, when the request asks
	// for them (score with gold: true).
	GoldCall   string
	GoldResult json.RawMessage
	// Calls has, for a gold call set or a prediction of several calls, one verdict per call: the
	// gold calls in their order (each with the predicted call paired with it, or MISSING_CALL), then
	// the predicted calls paired with none (EXTRA_CALL). Nil for one call judged alone.
	Calls []MemberVerdict
}

// MemberVerdict is the judgement of one call of a gold call set (see CallVerdict.Calls).
type MemberVerdict struct {
	// Category is the call's own category: CORRECT, one of the single-call categories, MISSING_CALL
	// (no predicted call for this gold call) or EXTRA_CALL (a predicted call no gold call wants).
	Category string `json:"category"`
	Correct  bool   `json:"correct"`
	// Tool is the gold call's tool ("" for an extra call).
	Tool string `json:"tool"`
	// Called is the predicted call's tool ("" for a missing call).
	Called string `json:"called,omitempty"`
	// Result is the envelope the predicted call produced, when it ran.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the error text when the call or the check raised.
	Error string `json:"error,omitempty"`
}

// ReplyVerdict is the judgement of one reply prediction.
type ReplyVerdict struct {
	// RougeL is the ROUGE-L F score rounded to 4 decimals as the original rounds it; 0 when the
	// prediction is empty or has no sentence.
	RougeL float64
	// Error is the ROUGE error ("Hypothesis is empty.") when one was raised and scored 0.
	Error string
}

// verdictJSON is a Verdict's JSON shape, one flat object: the call fields for call verdicts, rouge_l
// for reply verdicts, error for either. Pointers mark the members present even when zero.
type verdictJSON struct {
	Level      string          `json:"level"`
	File       string          `json:"file"`
	ID         int             `json:"id"`
	Line       int             `json:"line,omitempty"`
	Kind       string          `json:"kind"`
	Category   *string         `json:"category,omitempty"`
	Correct    *bool           `json:"correct,omitempty"`
	Tool       *string         `json:"tool,omitempty"`
	Form       string          `json:"form,omitempty"`
	Called     string          `json:"called,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	RougeL     *float64        `json:"rouge_l,omitempty"`
	Error      string          `json:"error,omitempty"`
	GoldCall   string          `json:"gold_call,omitempty"`
	GoldResult json.RawMessage `json:"gold_result,omitempty"`
	Calls      []MemberVerdict `json:"calls,omitempty"`
	Special    string          `json:"special,omitempty"`
}

// MarshalJSON writes the verdict as one flat object in the documented member order (level, file, id,
// line, kind, then the verdict's members, special). The engine writes the same bytes with a faster
// encoder of its own; a test compares the two on the whole oracle.
func (v Verdict) MarshalJSON() ([]byte, error) {
	j := verdictJSON{Level: v.Level, File: v.File, ID: v.ID, Line: v.Line, Kind: v.Kind, Special: v.Special}
	if c := v.CallVerdict; c != nil {
		j.Category, j.Correct, j.Tool = &c.Category, &c.Correct, &c.Tool
		j.Form, j.Called, j.Result, j.Error, j.GoldCall, j.GoldResult = c.Form, c.Called, c.Result, c.Error, c.GoldCall, c.GoldResult
		j.Calls = c.Calls
	}
	if r := v.ReplyVerdict; r != nil {
		j.RougeL, j.Error = &r.RougeL, r.Error
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads a verdict; members of another verdict kind, or unknown ones, are an error.
func (v *Verdict) UnmarshalJSON(data []byte) error {
	var j verdictJSON
	if err := decodeStrict(data, &j); err != nil {
		return err
	}
	*v = Verdict{Level: j.Level, File: j.File, ID: j.ID, Line: j.Line, Kind: j.Kind, Special: j.Special}
	switch {
	case j.RougeL != nil:
		if j.Category != nil || j.Correct != nil || j.Tool != nil || j.Calls != nil {
			return errors.New("a verdict has members of both a reply and a call verdict")
		}
		v.ReplyVerdict = &ReplyVerdict{RougeL: *j.RougeL, Error: j.Error}
	case j.Category != nil:
		c := &CallVerdict{Category: *j.Category, Form: j.Form, Called: j.Called, Result: j.Result, Error: j.Error,
			GoldCall: j.GoldCall, GoldResult: j.GoldResult, Calls: j.Calls}
		if j.Correct != nil {
			c.Correct = *j.Correct
		}
		if j.Tool != nil {
			c.Tool = *j.Tool
		}
		v.CallVerdict = c
	}
	return nil
}

// Call returns the call verdict, or a zero one for a reply verdict: hosts read its members without
// a nil check.
func (v Verdict) Call() CallVerdict {
	if v.CallVerdict == nil {
		return CallVerdict{}
	}
	return *v.CallVerdict
}

// Reply returns the reply verdict and true, or a zero one and false for a call verdict.
func (v Verdict) Reply() (ReplyVerdict, bool) {
	if v.ReplyVerdict == nil {
		return ReplyVerdict{}, false
	}
	return *v.ReplyVerdict, true
}

// Err returns the error text of either verdict kind ("" when none was raised).
func (v Verdict) Err() string {
	if v.CallVerdict != nil {
		return v.CallVerdict.Error
	}
	if v.ReplyVerdict != nil {
		return v.ReplyVerdict.Error
	}
	return ""
}
