package score

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/apibank-playground/apibank/value"
)

// AppendJSON writes the result as JSON, fields in the documented order (level, file, id, line, kind,
// then the verdict's), without reflection: a batch can hold thousands of results and this is the hot
// path of every score response. It writes what encoding/json would for the struct tags.
func (r *Result) AppendJSON(b *bytes.Buffer) {
	b.WriteString(`{"level":`)
	value.AppendString(b, r.Level)
	b.WriteString(`,"file":`)
	value.AppendString(b, r.File)
	b.WriteString(`,"id":`)
	b.WriteString(strconv.Itoa(r.ID))
	if r.Line != 0 {
		b.WriteString(`,"line":`)
		b.WriteString(strconv.Itoa(r.Line))
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
			value.Append(b, v.Result)
		}
		field(b, "error", v.Error)
		field(b, "gold_call", v.GoldCall)
		if v.GoldResult != nil {
			b.WriteString(`,"gold_result":`)
			value.Append(b, v.GoldResult)
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

// MarshalJSON encodes a result with AppendJSON.
func (r Result) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	r.AppendJSON(&b)
	return b.Bytes(), nil
}

// AppendJSON writes the batch as JSON: its results with Result.AppendJSON, the rest with
// encoding/json.
func (bt *Batch) AppendJSON(b *bytes.Buffer) error {
	b.WriteString(`{"results":[`)
	for i := range bt.Results {
		if i > 0 {
			b.WriteByte(',')
		}
		bt.Results[i].AppendJSON(b)
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
