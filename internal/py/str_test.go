package py

import (
	"reflect"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestIsSpace(t *testing.T) {
	space := []rune{'\t', '\n', '\v', '\f', '\r', ' ', 0x1C, 0x1D, 0x1E, 0x1F, 0x85, 0xA0, 0x1680,
		0x2000, 0x2005, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000}
	notSpace := []rune{0, 0x08, 0x0E, 0x1B, '!', 'a', 0x7F, 0x84, 0x9F, 0x180E, 0x200B, 0x200C, 0xFEFF,
		0x2060, 0x3001, utf8.RuneError}
	for _, r := range space {
		if !IsSpace(r) {
			t.Errorf("IsSpace(%U) = false, want true", r)
		}
	}
	for _, r := range notSpace {
		if IsSpace(r) {
			t.Errorf("IsSpace(%U) = true, want false", r)
		}
	}
	// Exhaustive: Python's whitespace is Go's plus U+001C–U+001F.
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.IsSpace(r) || 0x1C <= r && r <= 0x1F
		if IsSpace(r) != want {
			t.Errorf("IsSpace(%U) = %v, want %v", r, !want, want)
		}
	}
}

func TestStrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"  a b  ", "a b"},
		{"\t\n a\r\v\f", "a"},
		{"\x1cabc\x1f", "abc"}, // strings.TrimSpace keeps these
		{"\u3000全角\u3000", "全角"},
		{"\u00a0x\u0085", "x"},
		{"\u200bx\u200b", "\u200bx\u200b"}, // zero-width space is not whitespace
		{"x", "x"},
		{"\xffa ", "\xffa"},
	}
	for _, tt := range tests {
		if got := Strip(tt.in); got != tt.want {
			t.Errorf("Strip(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitSpace(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a b", []string{"a", "b"}},
		{"a  b", []string{"a", "", "b"}},
		{" a ", []string{"", "a", ""}},
		{"a\tb", []string{"a\tb"}},
		{"a\u3000b c", []string{"a\u3000b", "c"}},
	}
	for _, tt := range tests {
		if got := SplitSpace(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitSpace(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFields(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{" \t\n", []string{}},
		{"a", []string{"a"}},
		{"  a  b\t\nc ", []string{"a", "b", "c"}},
		{"a\x1cb", []string{"a", "b"}},
		{"a\u3000b\u00a0c", []string{"a", "b", "c"}},
		{"a\u200bb", []string{"a\u200bb"}},
	}
	for _, tt := range tests {
		got := Fields(tt.in)
		if len(got) == 0 && len(tt.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Fields(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLower(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"abc 123", "abc 123"},
		{"Hello World", "hello world"},
		{"İstanbul", "i\u0307stanbul"}, // two code points, unlike strings.ToLower
		{"I", "i"},
		{"ÀÉÎÕÜ", "àéîõü"},
		{"ǅ", "ǆ"}, // titlecase digraph
		{"ẞ", "ß"},
		{"ΑΣ", "ας"},             // final sigma
		{"ΑΣ Β", "ας β"},         // final before a space
		{"ΑΣΒ", "ασβ"},           // medial
		{"Σ", "σ"},               // alone: not preceded by a cased letter
		{"ΑΣ'", "ας'"},           // apostrophe is case-ignorable
		{"ΑΣ'Β", "ασ'β"},         // ... and skipped when looking ahead
		{"Α'Σ", "α'ς"},           // ... and when looking back
		{"1Σ", "1σ"},             // digit is not cased
		{"ΑΣ1", "ας1"},           // followed by a non-cased letter
		{"ΑΣ\u0301", "ας\u0301"}, // combining mark ignored
		{"ΟΔΥΣΣΕΥΣ", "οδυσσευς"},
		{"\xffA", "\xffa"},
		{"\U0001E900", "\U0001E922"}, // Adlam
	}
	for _, tt := range tests {
		if got := Lower(tt.in); got != tt.want {
			t.Errorf("Lower(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestUpper(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"ABC 123", "ABC 123"},
		{"hello", "HELLO"},
		{"straße", "STRASSE"},
		{"ŉ", "\u02bcN"},
		{"ǰ", "J\u030c"},
		{"ΐ", "\u0399\u0308\u0301"},
		{"ΰ", "\u03a5\u0308\u0301"},
		{"և", "ԵՒ"},
		{"ẖẗẘẙẚ", "H\u0331T\u0308W\u030aY\u030aA\u02be"},
		{"ὐ", "\u03a5\u0313"},
		{"ﬀﬁﬂﬃﬄﬅﬆ", "FFFIFLFFIFFLSTST"},
		{"ﬓﬔﬕﬖﬗ", "ՄՆՄԵՄԻՎՆՄԽ"},
		{"ᾀ", "\u1f08\u0399"},
		{"ᾏ", "\u1f0f\u0399"},
		{"ᾘ", "\u1f28\u0399"},
		{"ᾯ", "\u1f6f\u0399"},
		{"ᾳ", "\u0391\u0399"},
		{"ᾼ", "\u0391\u0399"},
		{"ῷ", "\u03a9\u0342\u0399"},
		{"ſ", "S"},
		{"ı", "I"},
		{"ǆ", "Ǆ"},
		{"ǅ", "Ǆ"},
		{"\u0345", "\u0399"},
		{"a\xffb", "A\xffB"},
		{"ab12_cd", "AB12_CD"},
	}
	for _, tt := range tests {
		if got := Upper(tt.in); got != tt.want {
			t.Errorf("Upper(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestUpperTable checks the shape of the SpecialCasing data: 102 expansions in all, each longer than
// one character and starting with an upper-case letter.
func TestUpperTable(t *testing.T) {
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		u := Upper(string(r))
		if utf8.RuneCountInString(u) > 1 {
			n++
			first, _ := utf8.DecodeRuneInString(u)
			if !unicode.IsUpper(first) && first != 0x02BC {
				t.Errorf("Upper(%U) = %q starts with %U", r, u, first)
			}
		}
	}
	if n != 102 {
		t.Errorf("%d multi-character upper-case mappings, want 102 (SpecialCasing.txt 14.0)", n)
	}
}

func TestZfill(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"23", 4, "0023"},
		{"2023", 4, "2023"},
		{"20230", 4, "20230"},
		{"", 4, "0000"},
		{"-5", 4, "-005"},
		{"+5", 4, "+005"},
		{"-", 4, "-000"},
		{"--1", 4, "-0-1"},
		{" -1", 4, "0 -1"},
		{"é", 3, "00é"}, // width counts code points
		{"ab", 0, "ab"},
		{"ab", -1, "ab"},
	}
	for _, tt := range tests {
		if got := Zfill(tt.in, tt.width); got != tt.want {
			t.Errorf("Zfill(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}

// TestUnicodeVersion guards the Unicode 14.0 mask: it was derived for Go's 15.0.0 tables, and a Go
// release with newer tables needs the characters added since then in unicodeNewerThan14.
func TestUnicodeVersion(t *testing.T) {
	if unicode.Version != goUnicodeVersion {
		t.Errorf("Go's unicode tables are %s; unicodeNewerThan14 was derived for %s: add the characters assigned since then",
			unicode.Version, goUnicodeVersion)
	}
	for i, s := range unicodeNewerThan14 {
		if s.lo > s.hi || i > 0 && unicodeNewerThan14[i-1].hi >= s.lo {
			t.Errorf("unicodeNewerThan14[%d] = %X..%X is not sorted and disjoint", i, s.lo, s.hi)
		}
	}
	for i, s := range digitNotDecimal {
		if s.lo > s.hi || i > 0 && digitNotDecimal[i-1].hi >= s.lo {
			t.Errorf("digitNotDecimal[%d] = %X..%X is not sorted and disjoint", i, s.lo, s.hi)
		}
	}
}
