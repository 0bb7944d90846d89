package score

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// pyStyle is one way of writing a call in Python: how strings are quoted, and whether numbers and
// True/False are written bare (Python's repr) or quoted as the prompts teach (key='value').
type pyStyle struct {
	name string
	// quote writes a string literal.
	quote func(string) string
	// quoteScalars writes numbers and True/False as quoted text ('5', 'True').
	quoteScalars bool
}

// quoteWith writes s in quote q, escaping q, backslashes and control characters.
func quoteWith(q byte) func(string) string {
	return func(s string) string {
		var b strings.Builder
		b.WriteByte(q)
		for _, r := range s {
			switch {
			case r == rune(q) || r == '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\t':
				b.WriteString(`\t`)
			case r < 0x20 || r == 0x7f:
				fmt.Fprintf(&b, `\x%02x`, r)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte(q)
		return b.String()
	}
}

// pyStyles are the ways TestGoldWritable writes every gold.
var pyStyles = []pyStyle{
	{"Python repr", py.Repr, false},
	{"double quotes", quoteWith('"'), true},
	{"single quotes, apostrophes escaped", quoteWith('\''), true},
}

// write writes v as a Python value in style st; top is set for an argument's own value (not an
// element of a list or dict).
func (st pyStyle) write(v any, top bool) string {
	switch x := v.(type) {
	case string:
		return st.quote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = st.write(e, false)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *value.Map:
		var parts []string
		x.Each(func(k string, e any) bool {
			parts = append(parts, st.quote(k)+": "+st.write(e, false))
			return true
		})
		return "{" + strings.Join(parts, ", ") + "}"
	case nil:
		return "None"
	}
	if top && st.quoteScalars {
		return st.quote(value.Str(v))
	}
	return value.Repr(v)
}

// call writes the gold calls of a sample as one text answer: [A(...)] or [A(...), B(...)].
func (st pyStyle) call(golds []*dataset.Turn) string {
	calls := make([]string, len(golds))
	for i, t := range golds {
		var args []string
		t.Params.Each(func(k string, v any) bool {
			args = append(args, k+"="+st.write(v, true))
			return true
		})
		calls[i] = t.Tool + "(" + strings.Join(args, ", ") + ")"
	}
	return "[" + strings.Join(calls, ", ") + "]"
}

// TestGoldWritable: on our data every gold call a model may be asked for — each call sample of levels
// 1 and 2 (a gold set as one list) and each level-3 step — is judged right in replay state when
// written in the text form the prompts teach, in each of the ways Python reads it (either quote,
// escaped quotes, empty strings, lists, numbers bare or quoted). The engine's own gold prediction is
// that text form, Python's repr of every value, never the native fallback.
func TestGoldWritable(t *testing.T) {
	data, ix := builtin(t)
	for _, st := range pyStyles {
		t.Run(st.name, func(t *testing.T) {
			s := New(data, Replay)
			n, wrong := 0, 0
			for _, sm := range ix.All() {
				if sm.Kind != KindCall {
					continue
				}
				n++
				pred := st.call(sm.GoldTurns())
				if st.name == "Python repr" {
					if gold := GoldSetPrediction(sm); gold != pred {
						t.Errorf("%s %s %d: the gold prediction is %s, want the text form %s", sm.Dialogue.Level, sm.Dialogue.File, sm.ID, gold, pred)
					}
				}
				if v := s.Call(sm, pred); !v.Correct {
					wrong++
					t.Errorf("%s %s %d: %s judged %s (%s)", sm.Dialogue.Level, sm.Dialogue.File, sm.ID, pred, v.Category, v.Error)
				}
			}
			if n == 0 {
				t.Fatal("the builtin data has no call sample")
			}
			t.Logf("%d of %d gold calls judged wrong", wrong, n)
		})
	}
}
