package call

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/value"
)

// The original's two regular expressions, written with explicit Unicode classes (Go's \w and \s are
// ASCII-only). The hand-written scanner of call.go must agree with them on every input.
const (
	refWord  = `[\p{L}\p{N}_]`
	refSpace = `[\t\n\x0b\x0c\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`
)

var (
	refCall  = regexp.MustCompile(`\[(` + refWord + `+)\((.*)\)\]`)
	refParam = regexp.MustCompile(
		`(` + refWord + `+)` + refSpace + `*=` + refSpace + `*['"](.+?)['"]` +
			`|(` + refWord + `+)` + refSpace + `*=` + refSpace + `*(\[.*\])` +
			`|(` + refWord + `+)` + refSpace + `*=` + refSpace + `*(` + refWord + `+)`)
)

// refParse is the regular-expression version of Extract and Parse.
func refParse(s string) (raw, name, args string, ok bool) {
	m := refCall.FindStringSubmatchIndex(s)
	if m == nil {
		return "", "", "", false
	}
	a := value.NewMap(4)
	for _, p := range refParam.FindAllStringSubmatch(s[m[4]:m[5]], -1) {
		switch {
		case p[1] != "":
			a.Set(p[1], p[2])
		case p[3] != "":
			a.Set(p[3], p[4])
		default:
			a.Set(p[5], p[6])
		}
	}
	return s[m[0]:m[1]], s[m[2]:m[3]], string(value.Marshal(a)), true
}

func checkAgainstRegexp(t *testing.T, s string) {
	t.Helper()
	raw, name, args, ok := refParse(s)
	got, gotOK := Extract(s)
	if gotOK != ok || got != raw {
		t.Fatalf("Extract(%q) = %q, %v; the regexp gives %q, %v", s, got, gotOK, raw, ok)
	}
	if !ok {
		return
	}
	c, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	if c.Name != name || string(value.Marshal(c.Args)) != args {
		t.Fatalf("Parse(%q) = %s %s; the regexp gives %s %s", s, c.Name, value.Marshal(c.Args), name, args)
	}
}

func TestScannerMatchesRegexp(t *testing.T) {
	inputs := []string{
		"[A(x='1')] and [B(y='2')]", `[S(content="He said 'hi'")]`, `[S(x='', y='2')]`, `[S(x='')]`,
		`[M(a=[1], b=[2])]`, `[M(attendees='['John', 'Mary']')]`, "[A(x = \t 'v', y=w z=3.5)]",
		"[A(x='a\nb')]", "[A(x=[1\n])]", "[A(é_1 = 'ü', ２=３)]", "[A(x=)] [B(y='1')]", "[A(x=='1')]",
		"[A(x='1'y='2')]", "[A(=x, y = [ ], z='\")]", "[A(a b=c)]", "[A(x='\u2028')]", "[A((x='1'))]",
		"text [A(x='1') more )] end", "[[A(x)]", "[A(x=\"'\")]", "[A(aaaa=\x00'q')]",
	}
	for _, s := range inputs {
		checkAgainstRegexp(t, s)
	}
}

func FuzzScannerMatchesRegexp(f *testing.F) {
	for _, s := range []string{"[A(x='1')]", "[A(x=[1], y='2')]", "[A(x = y)]", "[A(x='', y=\"2\")]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAgainstRegexp(t, s)
	})
}

// TestScannerLongLines runs the scanner on lines of 256 KB built so that every position is a
// candidate start ("[a(" with no ")]" after it, "x=[" with no ']' after it): it must agree with the
// regular expressions and stay linear. A scanner that searches the rest of the line from each
// candidate takes 25 s here; a linear one, milliseconds (the bound leaves room for a slow machine).
func TestScannerLongLines(t *testing.T) {
	const n = 1 << 18
	rep := func(s string) string { return strings.Repeat(s, n/len(s)) }
	cases := []struct{ name, in string }{
		{"call starts without an end", rep("[a(")},
		{"call starts, then one end", rep("[a(") + ")]"},
		{"call starts on many lines", rep("[a(x\n")},
		{"lists without an end", "[A(" + rep("x=[") + ")]"},
		{"lists then a value", "[A(" + rep("x=[") + "y='1')]"},
		{"quotes without an end", "[A(" + rep("x='") + ")]"},
		{"names without values", "[A(" + rep("ab ") + ")]"},
		{"equals signs", "[A(" + rep("a=") + ")]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, _ = Find(c.in)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("%d bytes took %v: not linear", len(c.in), d)
			}
			checkAgainstRegexp(t, c.in)
		})
	}
}
