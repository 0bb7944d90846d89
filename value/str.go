package value

import (
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/internal/py"
)

// Str returns Python's str() of v: a string as itself, everything else as Repr. The original prompts
// render past calls and responses with it, so models imitate this notation.
func Str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return Repr(v)
}

// Repr returns Python's repr() of v: strings quoted, None/True/False, lists as [a, b], dicts as
// {'k': v}, tuples as (a, b) or (a,).
func Repr(v any) string {
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

func writeRepr(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		b.WriteString(py.FloatRepr(x))
	case string:
		py.WriteRepr(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e)
		}
		b.WriteByte(']')
	case Tuple:
		b.WriteByte('(')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e)
		}
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case *Map:
		b.WriteByte('{')
		for i, e := range x.entries {
			if i > 0 {
				b.WriteString(", ")
			}
			py.WriteRepr(b, e.key)
			b.WriteString(": ")
			writeRepr(b, e.val)
		}
		b.WriteByte('}')
	case *Opaque:
		b.WriteString(x.Text)
	default:
		b.WriteString("<?>")
	}
}
