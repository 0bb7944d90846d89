package py

import (
	"sort"
	"unicode"
)

// span is an inclusive range of code points.
type span struct{ lo, hi rune }

// inSpans reports whether r lies in one of the sorted, disjoint spans.
func inSpans(spans []span, r rune) bool {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].hi >= r })
	return i < len(spans) && spans[i].lo <= r
}

// unicodeNewerThan14 lists the code points that Go's Unicode 15.0 tables assign but Python 3.11's
// Unicode 14.0 database leaves unassigned (general category Cn). Unicode 15.0 only added characters
// (no existing one changed its category), so masking these reproduces the 14.0 view.
var unicodeNewerThan14 = []span{
	{0x0CF3, 0x0CF3}, {0x0ECE, 0x0ECE}, {0x10EFD, 0x10EFF}, {0x1123F, 0x11241},
	{0x11B00, 0x11B09}, {0x11F00, 0x11F10}, {0x11F12, 0x11F3A}, {0x11F3E, 0x11F59},
	{0x1342F, 0x1342F}, {0x13439, 0x13455}, {0x1B132, 0x1B132}, {0x1B155, 0x1B155},
	{0x1D2C0, 0x1D2D3}, {0x1DF25, 0x1DF2A}, {0x1E030, 0x1E06D}, {0x1E08F, 0x1E08F},
	{0x1E4D0, 0x1E4F9}, {0x1F6DC, 0x1F6DC}, {0x1F774, 0x1F776}, {0x1F77B, 0x1F77F},
	{0x1F7D9, 0x1F7D9}, {0x1FA75, 0x1FA77}, {0x1FA87, 0x1FA88}, {0x1FAAD, 0x1FAAF},
	{0x1FABB, 0x1FABD}, {0x1FABF, 0x1FABF}, {0x1FACE, 0x1FACF}, {0x1FADA, 0x1FADB},
	{0x1FAE8, 0x1FAE8}, {0x1FAF7, 0x1FAF8}, {0x2B739, 0x2B739}, {0x31350, 0x323AF},
}

// goUnicodeVersion is the version of Go's unicode tables that unicodeNewerThan14 was derived for.
const goUnicodeVersion = "15.0.0"

// unassigned14 reports whether r is assigned in Go's tables but not in Unicode 14.0.
func unassigned14(r rune) bool {
	return r >= 0x0CF3 && inSpans(unicodeNewerThan14, r)
}

// digitNotDecimal lists the characters with Unicode Numeric_Type=Digit (Unicode 14.0): digits that
// str.isdigit accepts but that are not decimal (category Nd), so int() cannot read them. They are
// superscripts, subscripts, circled/parenthesised/full-stop digits, Ethiopic and a few other
// historic digit forms.
var digitNotDecimal = []span{
	{0x00B2, 0x00B3}, {0x00B9, 0x00B9}, // superscript two, three, one
	{0x1369, 0x1371},                   // Ethiopic digits one to nine
	{0x19DA, 0x19DA},                   // New Tai Lue tham digit one
	{0x2070, 0x2070}, {0x2074, 0x2079}, // superscript zero, four to nine
	{0x2080, 0x2089},   // subscript zero to nine
	{0x2460, 0x2468},   // circled digit one to nine
	{0x2474, 0x247C},   // parenthesized digit one to nine
	{0x2488, 0x2490},   // digit one to nine full stop
	{0x24EA, 0x24EA},   // circled digit zero
	{0x24F5, 0x24FD},   // double circled digit one to nine
	{0x24FF, 0x24FF},   // negative circled digit zero
	{0x2776, 0x277E},   // dingbat negative circled digit one to nine
	{0x2780, 0x2788},   // dingbat circled sans-serif digit one to nine
	{0x278A, 0x2792},   // dingbat negative circled sans-serif digit one to nine
	{0x10A40, 0x10A43}, // Kharoshthi digit one to four
	{0x10E60, 0x10E68}, // Rumi digit one to nine
	{0x11052, 0x1105A}, // Brahmi number one to nine
	{0x1F100, 0x1F10A}, // digit zero full stop, digit zero to nine comma
}

// upperSpecial holds the unconditional multi-character upper-case mappings of Unicode
// SpecialCasing.txt (14.0), except the regular Greek block U+1F80–U+1FAF, which upperGreekIota
// computes. Python's str.upper applies all of them; Go's unicode.ToUpper maps one rune to one.
var upperSpecial = map[rune]string{
	0x00DF: "SS",                 // ß
	0x0149: "\u02BCN",            // ŉ
	0x01F0: "J\u030C",            // ǰ
	0x0390: "\u0399\u0308\u0301", // ΐ
	0x03B0: "\u03A5\u0308\u0301", // ΰ
	0x0587: "\u0535\u0552",       // և
	0x1E96: "H\u0331",            // ẖ
	0x1E97: "T\u0308",            // ẗ
	0x1E98: "W\u030A",            // ẘ
	0x1E99: "Y\u030A",            // ẙ
	0x1E9A: "A\u02BE",            // ẚ
	0x1F50: "\u03A5\u0313",       // ὐ
	0x1F52: "\u03A5\u0313\u0300",
	0x1F54: "\u03A5\u0313\u0301",
	0x1F56: "\u03A5\u0313\u0342",
	0x1FB2: "\u1FBA\u0399",
	0x1FB3: "\u0391\u0399",
	0x1FB4: "\u0386\u0399",
	0x1FB6: "\u0391\u0342",
	0x1FB7: "\u0391\u0342\u0399",
	0x1FBC: "\u0391\u0399",
	0x1FC2: "\u1FCA\u0399",
	0x1FC3: "\u0397\u0399",
	0x1FC4: "\u0389\u0399",
	0x1FC6: "\u0397\u0342",
	0x1FC7: "\u0397\u0342\u0399",
	0x1FCC: "\u0397\u0399",
	0x1FD2: "\u0399\u0308\u0300",
	0x1FD3: "\u0399\u0308\u0301",
	0x1FD6: "\u0399\u0342",
	0x1FD7: "\u0399\u0308\u0342",
	0x1FE2: "\u03A5\u0308\u0300",
	0x1FE3: "\u03A5\u0308\u0301",
	0x1FE4: "\u03A1\u0313",
	0x1FE6: "\u03A5\u0342",
	0x1FE7: "\u03A5\u0308\u0342",
	0x1FF2: "\u1FFA\u0399",
	0x1FF3: "\u03A9\u0399",
	0x1FF4: "\u038F\u0399",
	0x1FF6: "\u03A9\u0342",
	0x1FF7: "\u03A9\u0342\u0399",
	0x1FFC: "\u03A9\u0399",
	0xFB00: "FF", // ﬀ
	0xFB01: "FI", // ﬁ
	0xFB02: "FL", // ﬂ
	0xFB03: "FFI",
	0xFB04: "FFL",
	0xFB05: "ST",           // ﬅ
	0xFB06: "ST",           // ﬆ
	0xFB13: "\u0544\u0546", // ﬓ
	0xFB14: "\u0544\u0535",
	0xFB15: "\u0544\u053B",
	0xFB16: "\u054E\u0546",
	0xFB17: "\u0544\u053D",
}

// upperGreekIota returns the upper-case expansion of U+1F80–U+1FAF (alpha, eta and omega with
// ypogegrammeni or prosgegrammeni, in both cases): the capital letter without the iota followed by
// capital iota U+0399. Each row of 16 shares one base (U+1F08, U+1F28, U+1F68) indexed by the low
// three bits.
func upperGreekIota(r rune) (string, bool) {
	if r < 0x1F80 || r > 0x1FAF {
		return "", false
	}
	base := [...]rune{0x1F08, 0x1F28, 0x1F68}[(r-0x1F80)>>4]
	return string([]rune{base + (r & 7), 0x0399}), true
}

// isCased reports the Unicode Cased property (Lowercase, Uppercase or Lt), used by Lower for the
// final-sigma rule.
func isCased(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	if unassigned14(r) {
		return false
	}
	return unicode.In(r, unicode.Ll, unicode.Lu, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// isCaseIgnorable reports the Unicode Case_Ignorable property: categories Mn, Me, Cf, Lm, Sk and
// the Word_Break classes MidLetter, MidNumLet and Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', // Single_Quote, MidNumLet, MidLetter
		0x00B7, 0x0387, 0x055F, 0x05F4, 0x2027, 0xFE13, 0xFE55, 0xFF1A, // MidLetter
		0x2018, 0x2019, 0x2024, 0xFE52, 0xFF07, 0xFF0E: // MidNumLet
		return true
	}
	if r < 0x80 {
		return r == '^' || r == '`' // Sk
	}
	if unassigned14(r) {
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
