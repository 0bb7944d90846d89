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

// TestItemWordsOutsideItems: an item word that is a word of a person's name or of a place is no
// item word (it stays: "seminar" of "Library seminar room"), and in every variant of seeds 1 to 20
// the texts where another word of a group would not fit stay as written.
func TestItemWordsOutsideItems(t *testing.T) {
	files := builtinFiles(t)
	f := learnedOnce(files, nil)
	for _, k := range []Kind{KindPerson, kindDoctor, KindPlace} {
		for v := range f.values[k] {
			eachWord(v, func(w string) {
				if f.values[KindItemWord][lowerASCII(w)] {
					t.Errorf("%q, a word of the %s %q, is an item word", w, k, v)
				}
			})
		}
	}
	if !f.values[KindItemWord]["car"] {
		t.Error(`"car" (of "Car inspection") is not an item word`)
	}
	const lv2 = "lv1-lv2-samples/level-2-toolsearcher/"
	for seed := uint64(1); seed <= 20; seed++ {
		out, _, err := Make(files, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ path, text string }{
			{lv2 + "find-meeting-02.jsonl", `"location":"Library seminar room"`}, // a place's word
			{lv2 + "find-meeting-02.jsonl", "the library seminar room, of course"},
			{lv2 + "find-email-01.jsonl", "the kitchen tap is leaking again, could you send a plumber"},
		} {
			if !strings.Contains(string(out[c.path]), c.text) {
				t.Errorf("seed %d: %s no longer writes %q", seed, c.path, c.text)
			}
		}
	}
}

// TestItemGroupsFitTheData: the words a review of the data's texts took out of their groups, each
// in no group: the data writes it (or would write it, drawn) where its group's other words do not
// fit.
func TestItemGroupsFitTheData(t *testing.T) {
	for w, why := range map[string]string{
		"plumber":  "the kitchen tap is leaking, could you send a plumber: no other trade",
		"piano":    "pick up the guitar from the repair shop: not an instrument one carries",
		"harp":     "pick up the guitar from the repair shop: not an instrument one carries",
		"webinar":  "a Research seminar in the Library seminar room: not online",
		"bootcamp": "the Brand guidelines workshop, from 2 to 4 pm: not a course of days",
		"invoice":  "the signed contract: one signs no invoice",
	} {
		if itemGroup(w) != nil {
			t.Errorf("%q is in a group, but %s", w, why)
		}
	}
}
