package value

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"apibank/internal/py"
)

// Decode parses one JSON text into a value, keeping object key order and telling integers (no '.',
// 'e' or 'E' in the literal, as Python's json module decides) from floats. Text after the value is an
// error.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// DecodeString is Decode for a string.
func DecodeString(s string) (any, error) { return Decode([]byte(s)) }

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("unexpected end of JSON input")
		}
		return nil, err
	}
	return fromToken(dec, tok)
}

func fromToken(dec *json.Decoder, tok json.Token) (any, error) {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := NewMap(4)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string")
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				m.Set(key, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return m, nil
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, fmt.Errorf("unexpected %q", rune(t))
	case json.Number:
		s := string(t)
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return n, nil
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, err
		}
		return f, nil
	case string, bool, nil:
		return t, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

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
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
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
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			appendString(b, k)
			b.WriteByte(':')
			Append(b, x.vals[k])
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

func appendString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
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
