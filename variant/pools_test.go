package variant

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"regexp"
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
	got, ok := draw(rng, pool, 4, 0, func(s string) bool { return false })
	if !ok || got != "Abcd" {
		t.Errorf("draw nearest in length = %q %v", got, ok)
	}
	got, _ = draw(rng, pool, 4, 0, func(s string) bool { return s == "Abcd" })
	if got == "Abcd" {
		t.Errorf("draw gave a taken entry")
	}
	if _, ok := draw(rng, pool, 4, 0, func(string) bool { return true }); ok {
		t.Errorf("draw from a pool all taken")
	}
	// Within a slack, every entry near enough is drawn, and none farther.
	seen := map[string]bool{}
	for range 200 {
		got, _ := draw(rng, []string{"Ab", "Abc", "Abcd", "Abcdefgh"}, 3, 1, func(string) bool { return false })
		seen[got] = true
	}
	if !seen["Ab"] || !seen["Abc"] || !seen["Abcd"] || seen["Abcdefgh"] {
		t.Errorf("draw within a slack of 1 of 3 letters gave %v", seen)
	}
	// Nothing within the slack: the nearest.
	if got, _ := draw(rng, []string{"A", "Abcdefgh", "Abcdefghijk"}, 6, 1, func(string) bool { return false }); got != "Abcdefgh" {
		t.Errorf("draw with nothing within its slack = %q, not the nearest", got)
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

// genderCues are the words a text uses for a woman or a man, by the pool of the gender: its
// pronouns, and the kinship words that name a person when the name follows ("my sister Nadia", "my
// grandmother, Elena").
var genderCues = []struct {
	pool               int
	pronouns, kinships string
}{
	{femalePool, " she her hers herself ", " mum mom mother sister wife grandmother daughter aunt girlfriend "},
	{malePool, " he him his himself ", " dad father brother husband grandfather son uncle boyfriend "},
}

// poolNames name the given names' pools in the tests' messages.
var poolNames = [...]string{femalePool: "female", malePool: "male", neutralPool: "neutral"}

// wordRun is a run of ASCII letters: a word of a text (the new names are plain ASCII).
var wordRun = regexp.MustCompile(`[A-Za-z]+`)

// saidGenders returns, for each of names (whole words, as written) a dialogue file's texts write, the
// pools of the genders the texts give it: a kinship word right before the name, or in a text that
// writes one of names only, pronouns of one gender only. The texts are the file's JSON strings.
func saidGenders(file []byte, names map[string]bool) map[string]map[int]bool {
	said := map[string]map[int]bool{}
	say := func(name string, pool int) {
		if said[name] == nil {
			said[name] = map[int]bool{}
		}
		said[name][pool] = true
	}
	each := func(s string) {
		words := wordRun.FindAllString(s, -1)
		written := map[string]bool{}
		pronouns := map[int]bool{}
		for i, w := range words {
			for _, c := range genderCues {
				switch {
				case !names[w] && strings.Contains(c.pronouns, " "+strings.ToLower(w)+" "):
					pronouns[c.pool] = true
				case names[w] && i > 0 && strings.Contains(c.kinships, " "+strings.ToLower(words[i-1])+" "):
					say(w, c.pool)
				}
			}
			if names[w] {
				written[w] = true
			}
		}
		if len(written) == 1 && len(pronouns) == 1 {
			for w := range written {
				for pool := range pronouns {
					say(w, pool)
				}
			}
		}
	}
	var texts func(v any)
	texts = func(v any) {
		switch v := v.(type) {
		case string:
			each(v)
		case []any:
			for _, x := range v {
				texts(x)
			}
		case map[string]any:
			for _, x := range v {
				texts(x)
			}
		}
	}
	for _, line := range bytes.Split(file, []byte("\n")) {
		var v any
		if json.Unmarshal(line, &v) == nil {
			texts(v)
		}
	}
	return said
}

// TestGivenNamesKeepGender: a moved first name keeps the gender the texts give the person. In the
// variants of seeds 1-20, every first name is drawn from the pool of its original's gender
// (givenPool), and no new first name the texts call a woman (she, her, my mum...) is a man's, nor
// the other way round; in the builtin data, no first name the texts call a woman is one givenPool
// gives a man's name, nor the other way round; and each gender's pool holds twice the names the
// data draws from it, so that a draw never runs out.
func TestGivenNamesKeepGender(t *testing.T) {
	files := builtinFiles(t)
	poolOf := map[string]int{} // a given name → its pool
	for _, k := range []int{femalePool, malePool, neutralPool} {
		for _, w := range pools[k] {
			poolOf[w] = k
		}
	}
	firsts := map[string]int{} // a moved first name of the data → its new name's pool
	for seed := uint64(1); seed <= 20; seed++ {
		out, rep, err := Make(files, seed)
		if err != nil {
			t.Fatal(err)
		}
		drawn := map[string]bool{}
		for _, m := range rep.Moves {
			k, given := poolOf[m.To]
			if m.Kind != KindName || !given {
				continue // a family name
			}
			drawn[m.To] = true
			if want := poolOf[givenPool(m.From)[0]]; k != want {
				t.Errorf("seed %d: %s, given %s names, became %s, a %s name", seed, m.From, poolNames[want], m.To, poolNames[k])
			}
			firsts[m.From] = k
		}
		for _, p := range sortedKeys(out) {
			if !strings.HasSuffix(p, ".jsonl") {
				continue
			}
			for name, said := range saidGenders(out[p], drawn) {
				for _, c := range genderCues {
					if said[c.pool] && poolOf[name] != c.pool && poolOf[name] != neutralPool {
						t.Errorf("seed %d: %s: %s, a %s name, for a person the text calls %s", seed, p, name, poolNames[poolOf[name]], poolNames[c.pool])
					}
				}
			}
		}
	}
	originals, needs := map[string]bool{}, map[int]int{}
	for w, k := range firsts {
		originals[w] = true
		needs[k]++
	}
	gendered := 0 // first names a text gives a gender
	for _, p := range sortedKeys(files) {
		if !strings.HasSuffix(p, ".jsonl") {
			continue
		}
		for name, said := range saidGenders(files[p], originals) {
			gendered++
			for _, c := range genderCues {
				if said[c.pool] && firsts[name] != c.pool && firsts[name] != neutralPool {
					t.Errorf("%s: %s, given %s names, is called %s", p, name, poolNames[firsts[name]], poolNames[c.pool])
				}
			}
		}
	}
	if len(firsts) < 40 || gendered < 6 {
		t.Errorf("%d first names moved, %d given a gender by the texts: the test reads the data wrong", len(firsts), gendered)
	}
	f := learnedOnce(files, nil)
	for _, k := range []int{femalePool, malePool, neutralPool} {
		if open := len(f.open[&pools[k][0]].words); open < 2*needs[k] {
			t.Errorf("the %s pool has %d names to draw for %d first names", poolNames[k], open, needs[k])
		}
		t.Logf("%s: %d first names of the data, %d names to draw", poolNames[k], needs[k], len(f.open[&pools[k][0]].words))
	}
}
