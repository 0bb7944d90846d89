package score

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/apibank-playground/apibank/value"
)

// AppendResult writes a verdict as JSON, members in the documented order (level, file, id, line, kind,
// then the verdict's), without reflection: a batch can hold thousands of verdicts and this is the hot
// path of every score response. It writes the bytes protocol.Verdict's MarshalJSON writes (a test
// compares the two on the whole oracle).
func AppendResult(b *bytes.Buffer, r *Result) {
	b.WriteString(`{"level":`)
	value.AppendString(b, r.Level)
	b.WriteString(`,"file":`)
	value.AppendString(b, r.File)
	var num [20]byte // room for a number, without an allocation
	b.WriteString(`,"id":`)
	b.Write(strconv.AppendInt(num[:0], int64(r.ID), 10))
	if r.Line != 0 {
		b.WriteString(`,"line":`)
		b.Write(strconv.AppendInt(num[:0], int64(r.Line), 10))
	}
	b.WriteString(`,"kind":`)
	value.AppendString(b, r.Kind)
	if v := r.CallVerdict; v != nil {
		b.WriteString(`,"category":`)
		value.AppendString(b, v.Category)
		if v.Correct {
			b.WriteString(`,"correct":true`)
		} else {
			b.WriteString(`,"correct":false`)
		}
		b.WriteString(`,"tool":`)
		value.AppendString(b, v.Tool)
		field(b, "form", v.Form)
		field(b, "called", v.Called)
		if v.Result != nil {
			b.WriteString(`,"result":`)
			b.Write(v.Result)
		}
		field(b, "error", v.Error)
		field(b, "gold_call", v.GoldCall)
		if v.GoldResult != nil {
			b.WriteString(`,"gold_result":`)
			b.Write(v.GoldResult)
		}
		if len(v.Calls) > 0 {
			b.WriteString(`,"calls":[`)
			for i, m := range v.Calls {
				if i > 0 {
					b.WriteByte(',')
				}
				appendMember(b, &m)
			}
			b.WriteByte(']')
		}
	}
	if v := r.ReplyVerdict; v != nil {
		b.WriteString(`,"rouge_l":`)
		f, _ := json.Marshal(v.RougeL)
		b.Write(f)
		field(b, "error", v.Error)
	}
	field(b, "special", r.Special)
	b.WriteByte('}')
}

// appendMember writes one call's verdict of a gold call set, as encoding/json writes MemberVerdict.
func appendMember(b *bytes.Buffer, m *MemberVerdict) {
	b.WriteString(`{"category":`)
	value.AppendString(b, m.Category)
	if m.Correct {
		b.WriteString(`,"correct":true`)
	} else {
		b.WriteString(`,"correct":false`)
	}
	b.WriteString(`,"tool":`)
	value.AppendString(b, m.Tool)
	field(b, "called", m.Called)
	if m.Result != nil {
		b.WriteString(`,"result":`)
		b.Write(m.Result)
	}
	field(b, "error", m.Error)
	b.WriteByte('}')
}

// field writes ,"name":"text" when text is not empty (omitempty).
func field(b *bytes.Buffer, name, text string) {
	if text == "" {
		return
	}
	b.WriteString(`,"`)
	b.WriteString(name)
	b.WriteString(`":`)
	value.AppendString(b, text)
}

// AppendBatch writes a batch as JSON: its verdicts with AppendResult, the rest with encoding/json.
func AppendBatch(b *bytes.Buffer, bt *Batch) error {
	b.WriteString(`{"results":[`)
	for i := range bt.Results {
		if i > 0 {
			b.WriteByte(',')
		}
		AppendResult(b, &bt.Results[i])
	}
	b.WriteString(`],"errors":`)
	e, err := json.Marshal(bt.Errors)
	if err != nil {
		return err
	}
	b.Write(e)
	b.WriteString(`,"report":`)
	rep, err := json.Marshal(bt.Report)
	if err != nil {
		return err
	}
	b.Write(rep)
	b.WriteByte('}')
	return nil
}
