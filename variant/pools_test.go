package variant

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPoolsClean(t *testing.T) {
	seen := map[string]bool{}
	for _, pool := range pools {
		for _, w := range pool {
			if !nameShape.MatchString(w) || len(w) < 3 {
				t.Errorf("pool entry %q is not a capitalised ASCII word", w)
			}
			if seen[strings.ToLower(w)] {
				t.Errorf("pool entry %q twice", w)
			}
			seen[strings.ToLower(w)] = true
		}
	}
}

func TestReshape(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []string{"Lagos#Sunrise21", "fhfgt0m4gslm1p7pbz", "40728153", "a-B_9"} {
		for range 50 {
			n := reshape(rng, s)
			if !sameShape(s, n) || (s[0] != '0' && n[0] == '0') {
				t.Fatalf("reshape(%q) = %q", s, n)
			}
		}
	}
}

func TestDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pool := []string{"Ab", "Abcd", "Abcdef"}
	got, ok := draw(rng, pool, 4, func(s string) bool { return false })
	if !ok || got != "Abcd" {
		t.Errorf("draw nearest in length = %q %v", got, ok)
	}
	got, _ = draw(rng, pool, 4, func(s string) bool { return s == "Abcd" })
	if got == "Abcd" {
		t.Errorf("draw gave a taken entry")
	}
	if _, ok := draw(rng, pool, 4, func(string) bool { return true }); ok {
		t.Errorf("draw from a pool all taken")
	}
}

func TestRecase(t *testing.T) {
	for _, c := range []struct{ word, like, want string }{
		{"kemal", "Amara", "Kemal"}, {"Kemal", "amara", "kemal"}, {"kemal", "AMARA", "KEMAL"},
	} {
		if got := recase(c.word, c.like); got != c.want {
			t.Errorf("recase(%q, %q) = %q", c.word, c.like, got)
		}
	}
}
