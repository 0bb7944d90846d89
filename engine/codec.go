package engine

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/value"
)

// decodeRequest reads a request with the engine's own JSON decoder (a score request carries megabytes
// of predictions; encoding/json's reflection is several times slower on it). Unknown fields are
// ignored; a field of the wrong type is an error that names it. The fields are listed by hand:
// codec_test.go fills every field of protocol.Request by reflection and fails when one does not come
// through, so a field added to the protocol cannot be dropped here unnoticed.
//
// A request may carry a body (protocol.Request.Body): raw bytes after the line break that ends its
// JSON, for the ops that read lines; the body aliases data.
func decodeRequest(data []byte) (*protocol.Request, error) {
	v, rest, err := value.DecodeHead(data)
	if err != nil {
		return nil, err
	}
	body, err := splitBody(rest, len(data)-len(rest))
	if err != nil {
		return nil, err
	}
	m, ok := v.(*value.Map)
	if !ok {
		return nil, errorf("a request must be a JSON object")
	}
	r := &protocol.Request{Body: body}
	var bad error
	m.Each(func(k string, v any) bool {
		text := func(dst *string) {
			if e := textField(k, v, dst); e != nil {
				bad = e
			}
		}
		flag := func(dst *bool) {
			if e := flagField(k, v, dst); e != nil {
				bad = e
			}
		}
		integer := func(dst *int) {
			if e := intField(k, v, dst); e != nil {
				bad = e
			}
		}
		switch k {
		case "v":
			if _, isNum := v.(bool); isNum || v == nil {
				bad = errorf("field \"v\" must be an integer (the protocol version, %d)", protocol.Version)
				break
			}
			integer(&r.V)
		case "id":
			r.ID = json.RawMessage(value.Marshal(v))
		case "op":
			var op string
			text(&op)
			r.Op = protocol.Op(op)
		case "name":
			text(&r.Name)
		case "catalog":
			text(&r.Catalog)
		case "level":
			text(&r.Level)
		case "file":
			text(&r.File)
		case "form":
			text(&r.Form)
			if bad == nil && r.Form != "" && r.Form != protocol.FormText && r.Form != protocol.FormNative {
				bad = errorf("field \"form\" must be %s or %s, not %q", protocol.FormText, protocol.FormNative, truncate(r.Form, 40))
			}
		case "preds":
			text(&r.Preds)
		case "lines":
			text(&r.Lines)
		case "line":
			integer(&r.Line)
		case "stream":
			integer(&r.Stream)
		case "state":
			text(&r.State)
		case "gold":
			flag(&r.Gold)
		case "bare":
			flag(&r.Bare)
		case "episodes":
			flag(&r.Episodes)
		case "memo":
			text(&r.Memo)
		case "builtin":
			flag(&r.Builtin)
		case "seed":
			n, ok := value.Int(v)
			if !ok || n < 0 || n > protocol.MaxSeed {
				bad = errorf("field \"seed\" must be a whole number from 0 to %d", int64(protocol.MaxSeed))
			}
			r.Seed = n
		case "sample":
			if v == nil {
				break
			}
			n, ok := value.Int(v)
			if !ok {
				bad = errorf("field \"sample\" must be an integer")
			}
			i := int(n)
			r.Sample = &i
		case "episode":
			integer(&r.Episode)
		case "reply":
			text(&r.Reply)
		case "call":
			if v != nil {
				r.Call = json.RawMessage(value.Marshal(v))
			}
		case "parts":
			list, ok := v.([]any)
			if !ok && v != nil {
				bad = errorf("field \"parts\" must be a list of {path, size}")
				break
			}
			for i, e := range list {
				pm, ok := e.(*value.Map)
				pv, _ := pm.Get("path")
				sv, _ := pm.Get("size")
				path, ok1 := pv.(string)
				size, ok2 := sv.(int64)
				if !ok || !ok1 || !ok2 || size < 0 {
					bad = errorf("parts[%d] must be {\"path\": text, \"size\": bytes}", i)
					break
				}
				r.Parts = append(r.Parts, protocol.Part{Path: path, Size: int(size)})
			}
		case "files":
			fm, ok := v.(*value.Map)
			if !ok && v != nil {
				bad = errorf("field \"files\" must be an object of path -> text")
				break
			}
			r.Files = make(map[string]string, fm.Len())
			fm.Each(func(p string, c any) bool {
				s, ok := c.(string)
				if !ok {
					bad = errorf("files[%q] must be a text", p)
					return false
				}
				r.Files[p] = s
				return true
			})
		case "candidate":
			text(&r.Candidate)
		case "style":
			text(&r.Style)
		case "tools", "seen":
			list, ok := v.([]any)
			if !ok && v != nil {
				bad = errorf("field %q must be a list of texts", k)
				break
			}
			var out []string
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					bad = errorf("field %q must be a list of texts", k)
					break
				}
				out = append(out, s)
			}
			if k == "tools" {
				r.Tools = out
			} else {
				r.Seen = out
			}
		case "databases":
			list, ok := v.([]any)
			if !ok && v != nil {
				bad = errorf("field \"databases\" must be a list of names")
				break
			}
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					bad = errorf("field \"databases\" must be a list of names")
					break
				}
				r.Databases = append(r.Databases, s)
			}
		case "pairs":
			list, ok := v.([]any)
			if !ok && v != nil {
				bad = errorf("field \"pairs\" must be a list of {ref, hyp}")
				break
			}
			for i, e := range list {
				pm, ok := e.(*value.Map)
				ref, ok1 := pm.Get("ref")
				hyp, ok2 := pm.Get("hyp")
				rs, ok3 := ref.(string)
				hs, ok4 := hyp.(string)
				if !ok || !ok1 || !ok2 || !ok3 || !ok4 {
					bad = errorf("pairs[%d] must be {\"ref\": text, \"hyp\": text}", i)
					break
				}
				r.Pairs = append(r.Pairs, protocol.Pair{Ref: rs, Hyp: hs})
			}
		}
		return bad == nil
	})
	if bad == nil {
		bad = takeBody(r)
	}
	return r, bad
}

// takeBody checks a request's body against its op, and for load and fill turns its parts into the
// request's files. White space alone after the JSON counts as no body (unless parts announce it).
func takeBody(r *protocol.Request) error {
	files := r.Op == protocol.OpLoad || r.Op == protocol.OpFill
	if r.Body != nil && blank(r.Body) && (!files || len(r.Parts) == 0) {
		r.Body = nil
	}
	switch {
	case r.Body == nil && len(r.Parts) > 0:
		return errorf("%d parts are announced but no body follows the JSON", len(r.Parts))
	case r.Body == nil:
		return nil
	case files:
		if len(r.Files) > 0 {
			return errorf("the files are given twice: in the field \"files\" and as the body")
		}
		total := 0
		for _, p := range r.Parts {
			total += p.Size
		}
		if total != len(r.Body) {
			return errorf("the parts announce %d bytes but the body has %d", total, len(r.Body))
		}
		r.Files = make(map[string]string, len(r.Parts))
		at := 0
		for _, p := range r.Parts {
			r.Files[p.Path] = string(r.Body[at : at+p.Size])
			at += p.Size
		}
		return nil
	case r.Op != protocol.OpScoreLines && r.Op != protocol.OpRougeLines:
		return errorf("op %q takes no body after its JSON (only %s, %s, %s and %s do)", truncate(string(r.Op), 40),
			protocol.OpScoreLines, protocol.OpRougeLines, protocol.OpLoad, protocol.OpFill)
	case r.Lines != "":
		return errorf("the lines are given twice: in the field \"lines\" and as the body")
	}
	return nil
}

// blank reports whether b holds only white space.
func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// splitBody returns the body that follows a request's JSON value: nil when only white space without
// a line break follows, else what comes after the line break ending the value's line.
// at is the offset of rest in the request.
func splitBody(rest []byte, at int) ([]byte, error) {
	i := 0
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '\r') {
		i++
	}
	if i == len(rest) {
		return nil, nil
	}
	if rest[i] != '\n' {
		return nil, errorf("unexpected data after the JSON value (offset %d; a body goes after a line break)", at+i)
	}
	return rest[i+1:], nil
}

// truncate shortens a text quoted back in an error.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// encode writes a response. A result in the lines form is the envelope on one line and its JSONL
// after it (see protocol.LinesAnswer).
func encode(r protocol.Response) []byte {
	if la, ok := r.Result.(*linesAnswer); ok && r.Error == nil {
		r.Result = la.answer
		head := encode(r)
		out := make([]byte, 0, len(head)+1+la.body.Len())
		out = append(append(append(out, head...), '\n'), la.body.Bytes()...)
		return out
	}
	if bt, ok := r.Result.(*protocol.Batch); ok && r.Error == nil {
		var b bytes.Buffer
		b.WriteString(`{"v":`)
		fmt.Fprint(&b, r.V)
		if len(r.ID) > 0 {
			b.WriteString(`,"id":`)
			b.Write(r.ID)
		}
		b.WriteString(`,"ok":true,"result":`)
		if err := score.AppendBatch(&b, bt); err == nil {
			b.WriteByte('}')
			return b.Bytes()
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		b, _ = json.Marshal(protocol.Response{V: protocol.Version, ID: r.ID, Error: internal("response not encodable: " + err.Error())})
	}
	return b
}

// errorf is fmt.Errorf. Not inlined: a copy at each of the file's many calls would cost the engine
// module more than the call does.
//
//go:noinline
func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

// textField sets *dst to a request's field k of value v, a text (or null: ""). Not inlined, nor
// are flagField and intField: decodeRequest reads a field with them in many places.
//
//go:noinline
func textField(k string, v any, dst *string) error {
	s, ok := v.(string)
	*dst = s
	if !ok && v != nil {
		return errorf("field %q must be a string", k)
	}
	return nil
}

// flagField sets *dst to a request's field k of value v, true or false (or null: false).
//
//go:noinline
func flagField(k string, v any, dst *bool) error {
	b, ok := v.(bool)
	*dst = b
	if !ok && v != nil {
		return errorf("field %q must be true or false", k)
	}
	return nil
}

// intField sets *dst to a request's field k of value v, an integer.
//
//go:noinline
func intField(k string, v any, dst *int) error {
	n, ok := value.Int(v)
	*dst = int(n)
	if !ok {
		return errorf("field %q must be an integer", k)
	}
	return nil
}
