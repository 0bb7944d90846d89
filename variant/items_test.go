package variant

import (
	"strings"
	"testing"
)

func TestItemGroups(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range itemGroups {
		if len(g) < 2 {
			t.Errorf("group %q has no word to move to", g)
		}
		for _, w := range g {
			if seen[w] || w != lowerASCII(w) || &itemGroup(w)[0] != &g[0] {
				t.Errorf("%q is in two groups, or not lower case", w)
			}
			seen[w] = true
		}
	}
	if itemGroup("dentist") == nil || itemGroup("meeting") != nil {
		t.Error("itemGroup does not find a group's word, or finds one for another word")
	}
}

// TestItemWordsMove: an item word moves in every case it is written, in the item's text, the loose
// mentions of it and the world's copies, and the item's words that are in no group stay.
func TestItemWordsMove(t *testing.T) {
	files, out, rep := variantOf(t, 42)
	var moves []Move
	for _, m := range rep.Moves {
		if m.Kind == KindItemWord {
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		t.Fatal("no item word moved")
	}
	moved := 0
	for _, m := range moves {
		title := recase(m.From, "Aa")
		for _, fr := range rep.Files {
			a, b := string(files[fr.Path]), string(out[fr.Path])
			if fr.Unchanged || !containsWord(strings.ToLower(a), m.From) {
				continue
			}
			if containsWord(b, m.From) || containsWord(b, title) {
				t.Errorf("%s still writes %q (moved to %q)", fr.Path, m.From, m.To)
			}
			if !containsWord(strings.ToLower(b), m.To) {
				t.Errorf("%s does not write %q for %q", fr.Path, m.To, m.From)
			}
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no file's item word moved")
	}
}
