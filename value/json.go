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
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func Marshal(v any) []byte { return AppendValue(nil, v) }

// Append writes the JSON encoding of v to b, as Marshal does.
func Append(b *bytes.Buffer, v any) { b.Write(AppendValue(b.AvailableBuffer(), v)) }

// AppendString writes s as a JSON string (as Append does, without boxing s in an interface).
func AppendString(b *bytes.Buffer, s string) { b.Write(AppendText(b.AvailableBuffer(), s)) }

// AppendValue appends the JSON encoding of v to dst, as Marshal writes it, and returns the extended
// slice. The encoders append to a slice rather than call a bytes.Buffer's methods byte by byte:
// under WebAssembly a call costs much more than an append.
func AppendValue(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		if x {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return append(dst, `"NaN"`...)
		case math.IsInf(x, 1):
			return append(dst, `"Infinity"`...)
		case math.IsInf(x, -1):
			return append(dst, `"-Infinity"`...)
		}
		return append(dst, py.FloatRepr(x)...)
	case string:
		return AppendText(dst, x)
	case []any:
		return appendList(dst, x)
	case Tuple:
		return appendList(dst, x)
	case []string:
		dst = append(dst, '[')
		for i, s := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendText(dst, s)
		}
		return append(dst, ']')
	case *Map:
		if x == nil {
			return append(dst, "null"...)
		}
		dst = append(dst, '{')
		for i, e := range x.entries {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendText(dst, e.key)
			dst = append(dst, ':')
			dst = AppendValue(dst, e.val)
		}
		return append(dst, '}')
	case *Opaque:
		return AppendText(dst, x.Text)
	case json.RawMessage:
		return append(dst, x...)
	}
	// Plain Go values (structs in reports) go through encoding/json.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return AppendText(dst, fmt.Sprint(v))
	}
	return append(dst, bytes.TrimRight(buf.Bytes(), "\n")...)
}

func appendList(dst []byte, x []any) []byte {
	dst = append(dst, '[')
	for i, e := range x {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendValue(dst, e)
	}
	return append(dst, ']')
}

// AppendJSONFloat appends f as encoding/json writes a float64 (the bytes the rouge command and the
// rouge_l member always had): the shortest decimal that reads back as f, in exponent form below 1e-6
// and from 1e21 on with the exponent unpadded, and null for what JSON cannot hold. Without
// encoding/json's reflection, which cost a twentieth of a pair's time in the module.
func AppendJSONFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-07 -> e-7
		b = b[:n-1]
	}
	return b
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

// AppendText appends s as a JSON string to dst, as AppendValue writes a text, and returns the
// extended slice.
func AppendText(dst []byte, s string) []byte {
	dst = append(dst, '"')
	// Fast path: plain ASCII with nothing to escape, the common case, is written in one go.
	i := 0
	for i+8 <= len(s) {
		if x := word8Text(s, i); special8(x) || x&highs8 != 0 {
			break
		}
		i += 8
	}
	for i < len(s) && plainASCII[s[i]] {
		i++
	}
	if i == len(s) {
		dst = append(dst, s...)
		return append(dst, '"')
	}
	// The plain run found is copied at once, then the rest byte by byte.
	dst = append(dst, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, `\n`...)
			case c == '\r':
				dst = append(dst, `\r`...)
			case c == '\t':
				dst = append(dst, `\t`...)
			case c < 0x20:
				dst = append(dst, `\u00`...)
				dst = append(dst, hexDigits[c>>4], hexDigits[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, `\u202`...)
			dst = append(dst, hexDigits[r&0xf])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// MarshalJSON encodes the map with Marshal, so maps inside Go structs keep their key order.
func (m *Map) MarshalJSON() ([]byte, error) { return Marshal(m), nil }

// MarshalJSON encodes the object as its text.
func (o *Opaque) MarshalJSON() ([]byte, error) { return Marshal(o), nil }
