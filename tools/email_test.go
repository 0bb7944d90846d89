package tools

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// The original's receiver pattern, with Python's Unicode \w; validEmail must agree with it.
var emailRef = regexp.MustCompile(`^[a-z0-9]+[._]?[a-z0-9]+@[\p{L}\p{N}_]+\.[\p{L}\p{N}_]{2,3}$`)

func TestValidEmailMatchesPattern(t *testing.T) {
	fixed := []string{"a@b.com", "ab@b.com", "a.b@c.org", "a_b@c.io", "a..b@c.com", ".ab@c.com", "ab.@c.com",
		"ab@c.comm", "ab@c.d.com", "Ab@c.com", "ab@ü.de", "ab@c.１２", "a-b@c.com", "ab@@c.com", "", "ab@.com", "ab@c.", "a.b.c@d.com"}
	for _, s := range fixed {
		if got, want := validEmail(s), emailRef.MatchString(s); got != want {
			t.Errorf("validEmail(%q) = %v, the pattern says %v", s, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("ab0._@-.Zé１")
	for i := 0; i < 200000; i++ {
		n := r.IntN(10)
		b := make([]rune, n)
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		if got, want := validEmail(s), emailRef.MatchString(s); got != want {
			t.Fatalf("validEmail(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}
