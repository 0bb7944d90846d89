package py

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// isPrintable reports Python's str.isprintable for one character: every character except those of
// categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs, with the ASCII space counted printable. That is
// unicode.IsPrint (letters, marks, numbers, punctuation, symbols, and U+0020), restricted to the
// characters Unicode 14.0 assigns.
func isPrintable(r rune) bool {
	if r < utf8.RuneSelf {
		return 0x20 <= r && r < 0x7F
	}
	return unicode.IsPrint(r) && !unassigned14(r)
}

// Repr returns Python's repr(s): the text in single quotes, or in double quotes when it contains a
// single quote and no double quote; backslash, the chosen quote, \n, \r and \t are escaped with a
// backslash and other non-printable characters as \xNN, \uNNNN or \UNNNNNNNN (lower-case hex).
// Tools show it in messages (missing-key errors, strptime errors), so it must match byte for byte.
// An invalid UTF-8 byte, which a Python string cannot hold, is shown as U+FFFD.
func Repr(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	WriteRepr(&b, s)
	return b.String()
}

// WriteRepr writes Repr(s) to b: the repr of a value's texts is written where the value's is, with
// no string of its own. Runs of printable ASCII, most of any text, are copied whole.
func WriteRepr(b *strings.Builder, s string) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b.WriteByte(quote)
	run := 0 // s[run:i] is printable ASCII with no quote or backslash: written as it is
	for i := 0; i < len(s); {
		if c := s[i]; 0x20 <= c && c < 0x7F && c != quote && c != '\\' {
			i++
			continue
		}
		b.WriteString(s[run:i])
		i += writeEscaped(b, s[i:], quote)
		run = i
	}
	b.WriteString(s[run:])
	b.WriteByte(quote)
}

// writeEscaped writes the first character of s as Repr shows it inside quote, and returns its
// length in s.
//
// Not inlined: WriteRepr's loop stays small, and few characters come here.
//
//go:noinline
func writeEscaped(b *strings.Builder, s string, quote byte) int {
	const hex = "0123456789abcdef"
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case r == rune(quote) || r == '\\':
		b.WriteByte('\\')
		b.WriteByte(s[0])
	case r == '\t':
		b.WriteString(`\t`)
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case isPrintable(r):
		b.WriteRune(r) // an invalid byte as U+FFFD
	default:
		width, mark := 8, `\U`
		switch {
		case r <= 0xFF:
			width, mark = 2, `\x`
		case r <= 0xFFFF:
			width, mark = 4, `\u`
		}
		b.WriteString(mark)
		for shift := 4 * (width - 1); shift >= 0; shift -= 4 {
			b.WriteByte(hex[r>>shift&0xF])
		}
	}
	return n
}
