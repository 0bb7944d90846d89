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
// ignored; a field of the wrong type is an error that names it.
func decodeRequest(data []byte) (*protocol.Request, error) {
	v, err := value.Decode(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(*value.Map)
	if !ok {
		return nil, fmt.Errorf("a request must be a JSON object")
	}
	r := &protocol.Request{}
	var bad error
	m.Each(func(k string, v any) bool {
		text := func(dst *string) {
			s, ok := v.(string)
			if !ok && v != nil {
				bad = fmt.Errorf("field %q must be a string", k)
			}
			*dst = s
		}
		flag := func(dst *bool) {
			b, ok := v.(bool)
			if !ok && v != nil {
				bad = fmt.Errorf("field %q must be true or false", k)
			}
			*dst = b
		}
		integer := func(dst *int) {
			n, ok := value.Int(v)
			if !ok {
				bad = fmt.Errorf("field %q must be an integer", k)
			}
			*dst = int(n)
		}
		switch k {
		case "v":
			if _, isNum := v.(bool); isNum || v == nil {
				bad = fmt.Errorf("field \"v\" must be an integer (the protocol version, %d)", protocol.Version)
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
				bad = fmt.Errorf("field \"form\" must be %s or %s, not %q", protocol.FormText, protocol.FormNative, truncate(r.Form, 40))
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
		case "builtin":
			flag(&r.Builtin)
		case "sample":
			if v == nil {
				break
			}
			n, ok := value.Int(v)
			if !ok {
				bad = fmt.Errorf("field \"sample\" must be an integer")
			}
			i := int(n)
			r.Sample = &i
		case "episode":
			integer(&r.Episode)
		case "call":
			if v != nil {
				r.Call = json.RawMessage(value.Marshal(v))
			}
		case "files":
			fm, ok := v.(*value.Map)
			if !ok && v != nil {
				bad = fmt.Errorf("field \"files\" must be an object of path -> text")
				break
			}
			r.Files = make(map[string]string, fm.Len())
			fm.Each(func(p string, c any) bool {
				s, ok := c.(string)
				if !ok {
					bad = fmt.Errorf("files[%q] must be a text", p)
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
				bad = fmt.Errorf("field %q must be a list of texts", k)
				break
			}
			var out []string
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					bad = fmt.Errorf("field %q must be a list of texts", k)
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
				bad = fmt.Errorf("field \"databases\" must be a list of names")
				break
			}
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					bad = fmt.Errorf("field \"databases\" must be a list of names")
					break
				}
				r.Databases = append(r.Databases, s)
			}
		case "pairs":
			list, ok := v.([]any)
			if !ok && v != nil {
				bad = fmt.Errorf("field \"pairs\" must be a list of {ref, hyp}")
				break
			}
			for i, e := range list {
				pm, ok := e.(*value.Map)
				ref, ok1 := pm.Get("ref")
				hyp, ok2 := pm.Get("hyp")
				rs, ok3 := ref.(string)
				hs, ok4 := hyp.(string)
				if !ok || !ok1 || !ok2 || !ok3 || !ok4 {
					bad = fmt.Errorf("pairs[%d] must be {\"ref\": text, \"hyp\": text}", i)
					break
				}
				r.Pairs = append(r.Pairs, protocol.Pair{Ref: rs, Hyp: hs})
			}
		}
		return bad == nil
	})
	return r, bad
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
