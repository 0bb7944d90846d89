package class

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/class/wire"
)

// TestNewCode: every code made is one wire.NormalCode reads as itself.
func TestNewCode(t *testing.T) {
	for range 100 {
		c := NewCode()
		if n, ok := wire.NormalCode(c); !ok || n != c {
			t.Fatalf("NewCode gave %q, which NormalCode refuses", c)
		}
	}
}

func TestKey(t *testing.T) {
	key, hash := NewKey()
	if len(key) < 43 { // 256 bits in base64url
		t.Errorf("key %d characters, want at least 43", len(key))
	}
	other, _ := NewKey()
	if key == other {
		t.Error("two keys alike")
	}
	if strings.Contains(string(hash), key) || len(hash) != 32 {
		t.Errorf("the hash is not a SHA-256 of the key")
	}
	for _, tt := range []struct {
		key  string
		hash []byte
		want bool
	}{
		{key, hash, true},
		{other, hash, false},
		{key[:len(key)-1], hash, false},
		{"", hash, false},
		{key, nil, false},
		{key, hash[:16], false},
	} {
		if got := KeyMatches(tt.key, tt.hash); got != tt.want {
			t.Errorf("KeyMatches(%.8q…, %d bytes) = %v, want %v", tt.key, len(tt.hash), got, tt.want)
		}
	}
}

func TestCheckText(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string // "" for no error, else a part of the error
	}{
		{"Ann", ""},
		{"Zoë O'Brien <b>", ""},
		{strings.Repeat("é", MaxStudent), ""},
		{strings.Repeat("é", MaxStudent+1), "65 characters"},
		{"", "empty"},
		{"   ", "empty"},
		{"a\nb", "control character"},
		{"a\x00", "control character"},
		{"\xff", "UTF-8"},
	} {
		err := CheckText("student", tt.in, MaxStudent)
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("CheckText(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}
