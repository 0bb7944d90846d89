package app

import (
	"slices"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestCurriculumRulesPickFromBuiltin checks every unit of curriculum.json against the builtin data:
// at least three exercises, each satisfying the unit's rule (measured again here from the
// dialogue itself), ordered easiest first.
func TestCurriculumRulesPickFromBuiltin(t *testing.T) {
	useNative(t)
	units, err := Curriculum()
	if err != nil {
		t.Fatal(err)
	}
	if len(units) < 7 {
		t.Fatalf("the curriculum has %d units, want the 7 skills", len(units))
	}
	sums, err := tab.Dialogues()
	if err != nil {
		t.Fatal(err)
	}
	summary := func(level, file string) protocol.DialogueSummary {
		for _, d := range sums {
			if d.Level == level && d.File == file {
				return d
			}
		}
		t.Fatalf("no summary for %s %s", level, file)
		return protocol.DialogueSummary{}
	}
	seen := map[string]string{}
	for _, u := range units {
		t.Run(u.ID, func(t *testing.T) {
			if u.Title == "" || u.Text == "" || u.Rule.Count < 3 {
				t.Fatalf("unit %q needs a title, a text and a count of at least 3: %+v", u.ID, u)
			}
			example, ex, err := tab.UnitExercises(u)
			if err != nil {
				t.Fatal(err)
			}
			if example == nil || slices.Contains(ex, *example) {
				t.Fatalf("the worked example %v must be a sample outside the exercises", example)
			}
			ex = append([]protocol.SampleView{*example}, ex...)
			if len(ex) < 4 || len(ex) > u.Rule.Count+1 {
				t.Fatalf("%d samples (example and exercises), want 4..%d", len(ex), u.Rule.Count+1)
			}
			r := u.Rule
			prev := [2]int{-1, -1}
			specials := map[string]bool{}
			for _, s := range ex {
				if other, dup := seen[exerciseKey(s)]; dup && other != u.ID {
					t.Errorf("%s is in both %s and %s", exerciseKey(s), other, u.ID)
				}
				seen[exerciseKey(s)] = u.ID
				if s.Level != r.Level || s.Kind != r.Kind {
					t.Errorf("%s: level %s kind %s, rule wants %s %s", exerciseKey(s), s.Level, s.Kind, r.Level, r.Kind)
				}
				d, err := tab.Dialogue(s.Level, s.File)
				if err != nil {
					t.Fatal(err)
				}
				// Steps before: gold steps (API turns opening a call set, or the special line) above the gold line.
				steps := 0
				for _, tu := range d.Turns {
					if tu.Line < s.GoldLine && tu.Role == "API" && !tu.Parallel {
						steps++
					}
				}
				if steps < r.MinSteps || r.MaxSteps != nil && steps > *r.MaxSteps {
					t.Errorf("%s has %d steps before it, rule wants %d..%v", exerciseKey(s), steps, r.MinSteps, r.MaxSteps)
				}
				if r.Parallel && !parallelStep(d, s) {
					t.Errorf("%s is not a parallel step", exerciseKey(s))
				}
				sp := summary(s.Level, s.File).Special
				if len(r.Specials) > 0 {
					if !slices.Contains(r.Specials, sp) {
						t.Errorf("%s special %q not in %v", exerciseKey(s), sp, r.Specials)
					}
					specials[sp] = true
				}
				m := [2]int{len(d.Turns), steps}
				if r.Order == "steps" {
					m = [2]int{steps, len(d.Turns)}
				}
				if r.OneFile {
					if s.File != ex[0].File {
						t.Errorf("one_file unit spans %s and %s", ex[0].File, s.File)
					}
				} else if m[0] < prev[0] || m[0] == prev[0] && m[1] < prev[1] {
					t.Errorf("%s (%v) comes after a harder one (%v)", exerciseKey(s), m, prev)
				}
				prev = m
			}
			if len(r.Specials) > 0 && len(specials) != len(r.Specials) {
				t.Errorf("special cases met %v, want all of %v", specials, r.Specials)
			}
		})
	}
}

// TestSelect checks the rule's parts on a small hand-made set.
func TestSelect(t *testing.T) {
	zero := 0
	c := func(file string, id, steps, turns int, kind, special string, par bool) Candidate {
		return Candidate{SampleView: protocol.SampleView{Level: "L", File: file, ID: id, Kind: kind}, Steps: steps, Turns: turns, Special: special, Parallel: par}
	}
	cs := []Candidate{
		c("a", 0, 0, 9, "call", "", false), c("a", 2, 1, 9, "call", "", true), c("a", 4, 2, 9, "call", "", false),
		c("b", 0, 0, 3, "call", "", false), c("b", 2, 1, 3, "call", "", false),
		c("s", 1, 0, 4, "special", "no_tool", false), c("t", 1, 0, 2, "special", "ambiguous", false), c("u", 1, 0, 1, "special", "no_tool", false),
	}
	key := func(ss []protocol.SampleView) []string {
		var out []string
		for _, s := range ss {
			out = append(out, exerciseKey(s))
		}
		return out
	}
	tests := []struct {
		name string
		r    Rule
		want []string
	}{
		{"first calls by length", Rule{Level: "L", Kind: "call", MaxSteps: &zero, Count: 4, Order: "turns"}, []string{"L/b#0", "L/a#0"}},
		{"later steps", Rule{Level: "L", Kind: "call", MinSteps: 1, Count: 4, Order: "steps"}, []string{"L/b#2", "L/a#2", "L/a#4"}},
		{"parallel", Rule{Level: "L", Kind: "call", Parallel: true, Count: 4}, []string{"L/a#2"}},
		{"spread keeps ends", Rule{Level: "L", Kind: "call", Count: 1, Order: "turns"}, []string{"L/b#0", "L/a#4"}},
		{"one file in order", Rule{Level: "L", Kind: "call", OneFile: true, Count: 2, Order: "steps"}, []string{"L/a#0", "L/a#2", "L/a#4"}},
		{"specials round-robin", Rule{Level: "L", Kind: "special", Specials: []string{"no_tool", "ambiguous"}, Count: 1, Order: "turns"}, []string{"L/u#1", "L/t#1"}},
		{"other level", Rule{Level: "M", Kind: "call", Count: 3}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, rest := Select(tt.r, cs)
			var got []string
			if ex != nil {
				got = append(key([]protocol.SampleView{*ex}), key(rest)...)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
