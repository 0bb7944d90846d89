package py

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRepr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `''`},
		{"Paris", `'Paris'`},
		{"it's", `"it's"`},
		{`a'b"c`, `'a\'b"c'`},
		{`say "hi"`, `'say "hi"'`},
		{"é", "'é'"},
		{"中文", "'中文'"},
		{`back\slash`, `'back\\slash'`},
		{"a\nb\rc\td", `'a\nb\rc\td'`},
		{"\x00\x1f\x7f", `'\x00\x1f\x7f'`},
		{"\u0085\u00a0\u00ad", `'\x85\xa0\xad'`}, // C1 control, no-break space, soft hyphen
		{"a b", `'a b'`},
		{"\u3000", `'\u3000'`},
		{"\u200b\u2028\ufeff", `'\u200b\u2028\ufeff'`},
		{"\ue000", `'\ue000'`},         // private use
		{"\u0378", `'\u0378'`},         // unassigned
		{"\U0001F600", "'\U0001F600'"}, // emoji is printable
		{"\U000E0001", `'\U000e0001'`}, // language tag (Cf)
		{"\U00031350", `'\U00031350'`}, // CJK Ext. H: Unicode 15.0, unassigned in Python 3.11
		{"\U0010FFFF", `'\U0010ffff'`},
		{"\u0301", "'\u0301'"}, // combining mark is printable
		{"²", "'²'"},
		{"\xff", "'\ufffd'"},
	}
	for _, tt := range tests {
		if got := Repr(tt.in); got != tt.want {
			t.Errorf("Repr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// reprByRune is Repr written the plain way, a character at a time: the reference the run-copying
// WriteRepr must equal.
func reprByRune(s string) string {
	quote := '\''
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		quote = '"'
	}
	out := string(quote)
	for _, r := range s {
		switch {
		case r == quote || r == '\\':
			out += `\` + string(r)
		case r == '\t':
			out += `\t`
		case r == '\n':
			out += `\n`
		case r == '\r':
			out += `\r`
		case isPrintable(r):
			out += string(r)
		case r <= 0xFF:
			out += fmt.Sprintf(`\x%02x`, r)
		case r <= 0xFFFF:
			out += fmt.Sprintf(`\u%04x`, r)
		default:
			out += fmt.Sprintf(`\U%08x`, r)
		}
	}
	return out + string(quote)
}

// TestWriteReprAppends: WriteRepr writes after what the builder holds, as Repr alone would, on
// texts of every kind of character in runs and alone.
func TestWriteReprAppends(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"a", "Paris ", "'", `"`, `\`, "\n", "\t", "\r", "\x00", "\x7f", "é", "\u00a0", "\u3000", "\U0001F600", "\U000E0001", "\xff", "\xe2\x82", " "}
	for i := 0; i < 5000; i++ {
		var s strings.Builder
		for n := rnd.IntN(12); n > 0; n-- {
			s.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		var b strings.Builder
		b.WriteString("x=")
		WriteRepr(&b, s.String())
		if want := "x=" + reprByRune(s.String()); b.String() != want {
			t.Fatalf("WriteRepr(%q) wrote %q, want %q", s.String(), b.String(), want)
		}
	}
}

// FuzzRepr holds Repr to the plain character-at-a-time reading on any input.
func FuzzRepr(f *testing.F) {
	for _, s := range []string{"", "it's", `a'b"c`, "\xff\xfe", "tab\there", "\U0010FFFF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Repr(s), reprByRune(s); got != want {
			t.Fatalf("Repr(%q) = %q, want %q", s, got, want)
		}
	})
}
