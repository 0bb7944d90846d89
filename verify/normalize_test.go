package verify

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/internal/py"
)

// TestNormalizeAsFields: normalize, and the evidence's add, write a text as its Python words joined
// by one space (and squeezed, without its spaces), whatever its whitespace (Unicode spaces, runs, ends) and its bytes.
func TestNormalizeAsFields(t *testing.T) {
	for _, s := range []string{"", " ", "  ", "a", " a", "a ", "a  b", "A\tB\nc", "x\u00a0y", "\u2003lead", "trail\u3000",
		"Hello  World ", "İstanbul Σ", "bad\xffbyte  x", "one two three", "\x1cx\x1f", "a\u0085b", "no-space"} {
		want := strings.Join(py.Fields(py.Lower(s)), " ")
		if got := normalize(s); got != want {
			t.Errorf("normalize(%q) = %q, want %q", s, got, want)
		}
		ev := &evidence{}
		ev.add(s)
		ev.add(s)
		if w := " " + want + "  " + want + " "; ev.text != w {
			t.Errorf("add(%q) twice: %q, want %q", s, ev.text, w)
		}
		if w := strings.ReplaceAll(ev.text, " ", ""); ev.squeeze() != w {
			t.Errorf("add(%q) twice: squeezed %q, want %q", s, ev.squeeze(), w)
		}
	}
}
