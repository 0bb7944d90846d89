package py

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsSpace reports whether r is whitespace as Python's str.isspace defines it (ASCII \t\n\v\f\r and
// space, U+001C–U+001F, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
// U+3000). It differs from unicode.IsSpace on U+001C–U+001F, which Python counts as whitespace.
func IsSpace(r rune) bool {
	switch {
	case r <= 0x20:
		return IsSpaceASCII(byte(r))
	case r < 0x85:
		return false
	case r <= 0xA0:
		return r == 0x85 || r == 0xA0
	case r < 0x1680:
		return false
	}
	switch r {
	case 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// IsSpaceASCII is IsSpace for an ASCII byte, as a bit test: for code that reads text a byte at a
// time where it is ASCII.
func IsSpaceASCII(c byte) bool { return c <= ' ' && spacesASCII>>c&1 != 0 }

// spacesASCII has bit c set for each ASCII whitespace byte c: \t \n \v \f \r, the separators
// U+001C–U+001F and the space.
const spacesASCII = 1<<'\t' | 1<<'\n' | 1<<'\v' | 1<<'\f' | 1<<'\r' | 0xF<<0x1C | 1<<' '

// Strip returns s without leading and trailing whitespace, like Python's s.strip(); whitespace is
// IsSpace, so unlike strings.TrimSpace it also removes U+001C–U+001F.
func Strip(s string) string {
	return strings.TrimRightFunc(strings.TrimLeftFunc(s, IsSpace), IsSpace)
}

// SplitSpace splits s at every single U+0020 like Python's s.split(' '): consecutive spaces give
// empty pieces and the result always has at least one element.
func SplitSpace(s string) []string {
	return strings.Split(s, " ")
}

// Fields splits s at runs of IsSpace whitespace like Python's s.split() without arguments: no empty
// pieces, so an empty or all-whitespace s gives an empty slice.
func Fields(s string) []string {
	return strings.FieldsFunc(s, IsSpace)
}

// Lower returns Python's s.lower(): the full Unicode lower-case mapping, which differs from
// strings.ToLower in two places: 'İ' (U+0130) becomes "i̇" (i and U+0307), and a capital sigma in
// word-final position (after a cased letter and not before one, ignoring case-ignorable characters
// in between) becomes the final form 'ς'.
func Lower(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			break
		}
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x0130:
			b.WriteString("i\u0307")
		case r == 0x03A3:
			if finalSigma(s, i, n) {
				b.WriteRune(0x03C2)
			} else {
				b.WriteRune(0x03C3)
			}
		case r == utf8.RuneError && n == 1, unassigned14(r):
			b.WriteString(s[i : i+n])
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		i += n
	}
	return b.String()
}

// finalSigma reports whether the capital sigma at s[i:i+n] is in the Unicode Final_Sigma context:
// preceded by a cased letter and not followed by one, skipping case-ignorable characters both ways.
// This is the test Python's str.lower applies.
func finalSigma(s string, i, n int) bool {
	before := s[:i]
	for {
		if before == "" {
			return false
		}
		r, m := utf8.DecodeLastRuneInString(before)
		before = before[:len(before)-m]
		if !isCaseIgnorable(r) {
			if !isCased(r) {
				return false
			}
			break
		}
	}
	after := s[i+n:]
	for after != "" {
		r, m := utf8.DecodeRuneInString(after)
		after = after[m:]
		if !isCaseIgnorable(r) {
			return !isCased(r)
		}
	}
	return true
}

// Upper returns Python's s.upper(): the full Unicode upper-case mapping, including the unconditional
// expansions of SpecialCasing.txt ('ß' → "SS", 'ŉ' → "ʼN", 'ﬁ' → "FI", Greek letters with iota
// subscript → two letters, ...), which strings.ToUpper does not apply.
func Upper(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= utf8.RuneSelf || 'a' <= c && c <= 'z' {
			break
		}
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if x, ok := upperSpecial[r]; ok {
			b.WriteString(x)
		} else if x, ok := upperGreekIota(r); ok {
			b.WriteString(x)
		} else if r == utf8.RuneError && n == 1 || unassigned14(r) {
			b.WriteString(s[i : i+n])
		} else {
			b.WriteRune(unicode.ToUpper(r))
		}
		i += n
	}
	return b.String()
}

// Zfill returns Python's s.zfill(width): s left-padded with '0' to width code points, with a
// leading '+' or '-' kept in front of the zeros; s is returned unchanged when it is already at least
// width code points long.
func Zfill(s string, width int) string {
	n := utf8.RuneCountInString(s)
	if n >= width {
		return s
	}
	zeros := strings.Repeat("0", width-n)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[:1] + zeros + s[1:]
	}
	return zeros + s
}
