package bm25

import (
	"unicode"
	"unicode/utf8"
)

// This file holds the character classes of Python 3's `re` module for str
// patterns (which are Unicode-aware by default) and Python's str.lower and
// str.strip, as the original tool and NLTK see them. Go's own \w, \d and \s
// are ASCII-only, so the tokenizer uses these predicates instead of regexp.

// isPySpace reports whether r is whitespace for Python (\s, str.split,
// str.strip): the Unicode White_Space characters plus the ASCII
// separators U+001C..U+001F that Python also counts.
//
// Not inlined: a copy at each call would cost the engine module more than
// the call does.
//
//go:noinline
func isPySpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r <= ' ' && asciiSpaces>>r&1 != 0
	}
	return unicode.IsSpace(r)
}

// asciiSpaces is the set of ASCII whitespace characters for Python, as a
// bitmap: tab, newline, vertical tab, form feed, carriage return, the
// separators U+001C..U+001F and the space.
const asciiSpaces = 1<<'\t' | 1<<'\n' | 1<<'\v' | 1<<'\f' | 1<<'\r' | 0xf<<0x1c | 1<<' '

// isPyWord reports whether r matches Python's Unicode \w: letters,
// numbers (any numeric category) and the underscore.
func isPyWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r|0x20 >= 'a' && r|0x20 <= 'z' || r >= '0' && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// isPyDigit reports whether r matches Python's Unicode \d (category Nd).
func isPyDigit(r rune) bool {
	return unicode.IsDigit(r)
}

// foldIs reports whether r matches the lower-case ASCII letter want under
// Python's case-insensitive matching: equal lower-case forms, plus the
// extra equivalences Python's regex engine applies (long s, dotless i).
func foldIs(r rune, want rune) bool {
	if r < utf8.RuneSelf {
		return r == want || r >= 'A' && r <= 'Z' && r+'a'-'A' == want
	}
	if unicode.ToLower(r) == want {
		return true
	}
	switch want {
	case 's':
		return r == 0x17f // LATIN SMALL LETTER LONG S
	case 'i':
		return r == 0x131 // LATIN SMALL LETTER DOTLESS I
	case 'k':
		return r == 0x212a // KELVIN SIGN
	}
	return false
}

// foldHas reports whether s[i:] starts with the lower-case ASCII word w
// under Python's case-insensitive matching.
func foldHas(s []rune, i int, w string) bool {
	if i < 0 || i+len(w) > len(s) {
		return false
	}
	for k := 0; k < len(w); k++ {
		if !foldIs(s[i+k], rune(w[k])) {
			return false
		}
	}
	return true
}

// pyStrip removes leading and trailing Python whitespace, as str.strip().
func pyStrip(s string) string {
	r := []rune(s)
	a, b := 0, len(r)
	for a < b && isPySpace(r[a]) {
		a++
	}
	for b > a && isPySpace(r[b-1]) {
		b--
	}
	return string(r[a:b])
}

// pyLower lower-cases s as Python's str.lower(): simple lower-case mappings,
// the one unconditional multi-character mapping (U+0130 becomes "i" plus a
// combining dot above) and the Final_Sigma rule for U+03A3.
func pyLower(s string) string {
	r := []rune(s)
	out := make([]rune, 0, len(r))
	for i, c := range r {
		switch c {
		case 0x130:
			out = append(out, 'i', 0x307)
		case 0x3a3:
			if finalSigma(r, i) {
				out = append(out, 0x3c2)
			} else {
				out = append(out, 0x3c3)
			}
		default:
			out = append(out, unicode.ToLower(c))
		}
	}
	return string(out)
}

// finalSigma reports whether the capital sigma at r[i] is in the Unicode
// Final_Sigma context: preceded by a cased letter (skipping case-ignorable
// characters) and not followed by one (likewise skipping).
func finalSigma(r []rune, i int) bool {
	j := i - 1
	for j >= 0 && isCaseIgnorable(r[j]) {
		j--
	}
	if j < 0 || !isCased(r[j]) {
		return false
	}
	j = i + 1
	for j < len(r) && isCaseIgnorable(r[j]) {
		j++
	}
	return j == len(r) || !isCased(r[j])
}

func isCased(c rune) bool {
	return unicode.In(c, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

func isCaseIgnorable(c rune) bool {
	switch c {
	// Word_Break MidLetter, MidNumLet and Single_Quote characters.
	case '\'', '.', ':', 0xb7, 0x387, 0x55f, 0x5f4, 0x2018, 0x2019, 0x2024,
		0x2027, 0xfe13, 0xfe52, 0xfe55, 0xff07, 0xff0e, 0xff1a:
		return true
	}
	return unicode.In(c, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
