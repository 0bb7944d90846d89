package app

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// TestHashInSteps checks that hashing in steps gives SHA-256 of the whole input, with a turn of
// the page between two steps and none after the last.
func TestHashInSteps(t *testing.T) {
	for _, tc := range []struct {
		name   string
		size   int
		yields int
	}{
		{"empty", 0, 0},
		{"under a step", 100, 0},
		{"one step exactly", hashStep, 0},
		{"a byte over a step", hashStep + 1, 1},
		{"a level's list", 124193, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bytes.Repeat([]byte("sample "), tc.size/7+1)[:tc.size]
			h := sha256.New()
			yields := 0
			hashInSteps(h, b, func() { yields++ })
			want := sha256.Sum256(b)
			if !bytes.Equal(h.Sum(nil), want[:]) {
				t.Error("the hash in steps differs from SHA-256 of the whole input")
			}
			if yields != tc.yields {
				t.Errorf("%d yields, want %d", yields, tc.yields)
			}
		})
	}
}
