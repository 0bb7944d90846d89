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
func AppendResult(b *bytes.Buffer, r *Result) { b.Write(appendResult(b.AvailableBuffer(), r)) }

// appendResult appends a verdict as AppendResult writes it (appends cost less than a buffer's
// method calls under WebAssembly).
func appendResult(b []byte, r *Result) []byte {
	return appendResultAfterHead(appendResultHead(b, r.Level, r.File), r)
}

// appendResultHead appends the start of a verdict of level and file, up to its id: the part that
// repeats from one line of a prediction file to the next (a stream keeps it, see resultHead).
func appendResultHead(b []byte, level, file string) []byte {
	b = append(b, `{"level":`...)
	b = value.AppendText(b, level)
	b = append(b, `,"file":`...)
	b = value.AppendText(b, file)
	return append(b, `,"id":`...)
}

// appendResultAfterHead appends the rest of a verdict, after appendResultHead's part.
func appendResultAfterHead(b []byte, r *Result) []byte {
	b = strconv.AppendInt(b, int64(r.ID), 10)
	if r.Line != 0 {
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(r.Line), 10)
	}
	b = append(b, `,"kind":`...)
	b = value.AppendText(b, r.Kind)
	if v := r.CallVerdict; v != nil {
		b = append(b, `,"category":`...)
		b = value.AppendText(b, v.Category)
		if v.Correct {
			b = append(b, `,"correct":true`...)
		} else {
			b = append(b, `,"correct":false`...)
		}
		b = append(b, `,"tool":`...)
		b = value.AppendText(b, v.Tool)
		b = field(b, "form", v.Form)
		b = field(b, "called", v.Called)
		if v.Result != nil {
			b = append(b, `,"result":`...)
			b = append(b, v.Result...)
		}
		b = field(b, "error", v.Error)
		b = field(b, "gold_call", v.GoldCall)
		if v.GoldResult != nil {
			b = append(b, `,"gold_result":`...)
			b = append(b, v.GoldResult...)
		}
		if len(v.Calls) > 0 {
			b = append(b, `,"calls":[`...)
			for i, m := range v.Calls {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendMember(b, &m)
			}
			b = append(b, ']')
		}
	}
	if v := r.ReplyVerdict; v != nil {
		b = append(b, `,"rouge_l":`...)
		b = value.AppendJSONFloat(b, v.RougeL)
		b = field(b, "error", v.Error)
	}
	b = field(b, "special", r.Special)
	return append(b, '}')
}

// appendMember writes one call's verdict of a gold call set, as encoding/json writes MemberVerdict.
func appendMember(b []byte, m *MemberVerdict) []byte {
	b = append(b, `{"category":`...)
	b = value.AppendText(b, m.Category)
	if m.Correct {
		b = append(b, `,"correct":true`...)
	} else {
		b = append(b, `,"correct":false`...)
	}
	b = append(b, `,"tool":`...)
	b = value.AppendText(b, m.Tool)
	b = field(b, "called", m.Called)
	if m.Result != nil {
		b = append(b, `,"result":`...)
		b = append(b, m.Result...)
	}
	b = field(b, "error", m.Error)
	return append(b, '}')
}

// field writes ,"name":"text" when text is not empty (omitempty).
func field(b []byte, name, text string) []byte {
	if text == "" {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `":`...)
	return value.AppendText(b, text)
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
