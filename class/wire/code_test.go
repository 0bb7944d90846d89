package wire

import "testing"

// TestNormalCode: a code is read in upper case without spaces and dashes; one of another length, or
// with a character codes never hold (Z, 0, O, 1…), is none.
func TestNormalCode(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"ACDEFG", "ACDEFG", true},
		{"acd-efg", "ACDEFG", true},
		{" acd efg ", "ACDEFG", true},
		{" acd-efg ", "ACDEFG", true},
		{"x3 y4 k7", "X3Y4K7", true},
		{"ZZZZZ9", "", false},
		{"ACDEF0", "", false}, // 0 is not in the alphabet (it reads as O)
		{"ACDEF", "", false},
		{"ACDEFGH", "", false},
		{"", "", false},
		{"ACDÉFG", "", false},
		{"ÄCDEFG", "", false},
	} {
		got, ok := NormalCode(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("NormalCode(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
