package py

import "testing"

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
