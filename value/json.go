package value

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/internal/py"
)

// Marshal encodes v as compact JSON. Object keys keep their order, floats print as Python's repr
// (9.0 stays 9.0, so an integer and a float stay distinguishable), non-finite floats as the texts
// "NaN", "Infinity" and "-Infinity" (JSON has no such numbers), and no HTML escaping is applied.
func Marshal(v any) []byte {
	var b bytes.Buffer
	Append(&b, v)
	return b.Bytes()
}

// Append writes the JSON encoding of v to b, as Marshal does.
func Append(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int64:
		var num [20]byte
		b.Write(strconv.AppendInt(num[:0], x, 10))
	case int:
		var num [20]byte
		b.Write(strconv.AppendInt(num[:0], int64(x), 10))
	case float64:
		switch {
		case math.IsNaN(x):
			b.WriteString(`"NaN"`)
		case math.IsInf(x, 1):
			b.WriteString(`"Infinity"`)
		case math.IsInf(x, -1):
			b.WriteString(`"-Infinity"`)
		default:
			b.WriteString(py.FloatRepr(x))
		}
	case string:
		appendString(b, x)
	case []any:
		appendList(b, x)
	case Tuple:
		appendList(b, x)
	case []string:
		b.WriteByte('[')
		for i, s := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			appendString(b, s)
		}
		b.WriteByte(']')
	case *Map:
		if x == nil {
			b.WriteString("null")
			return
		}
		b.WriteByte('{')
		for i, e := range x.entries {
			if i > 0 {
				b.WriteByte(',')
			}
			appendString(b, e.key)
			b.WriteByte(':')
			Append(b, e.val)
		}
		b.WriteByte('}')
	case *Opaque:
		appendString(b, x.Text)
	case json.RawMessage:
		b.Write(x)
	default:
		// Plain Go values (structs in reports) go through encoding/json.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			appendString(b, fmt.Sprint(x))
			return
		}
		b.Write(bytes.TrimRight(buf.Bytes(), "\n"))
	}
}

func appendList(b *bytes.Buffer, x []any) {
	b.WriteByte('[')
	for i, e := range x {
		if i > 0 {
			b.WriteByte(',')
		}
		Append(b, e)
	}
	b.WriteByte(']')
}

const hexDigits = "0123456789abcdef"

// plainASCII tells the bytes a JSON string holds as they are: ASCII other than a quote, a backslash
// or a control character (a table: one load a byte in the encoder's hot loop).
var plainASCII = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\'
	}
	return t
}()

// AppendString writes s as a JSON string (as Append does, without boxing s in an interface).
func AppendString(b *bytes.Buffer, s string) { appendString(b, s) }

func appendString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	// Fast path: plain ASCII with nothing to escape, the common case, is written in one go.
	plain := true
	for i := 0; i < len(s); i++ {
		if !plainASCII[s[i]] {
			plain = false
			break
		}
	}
	if plain {
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			b.WriteString(`\u202`)
			b.WriteByte(hexDigits[r&0xf])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

// MarshalJSON encodes the map with Marshal, so maps inside Go structs keep their key order.
func (m *Map) MarshalJSON() ([]byte, error) { return Marshal(m), nil }

// MarshalJSON encodes the object as its text.
func (o *Opaque) MarshalJSON() ([]byte, error) { return Marshal(o), nil }
