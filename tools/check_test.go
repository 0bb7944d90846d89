package tools

import (
	"errors"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// TestJaccard: word-set overlap of texts split on single spaces, case and punctuation kept.
func TestJaccard(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"meeting with the team", "meeting with the team", 1},
		{"meeting with the team", "the team meeting with", 1},
		{"a b c", "a b d", 0.5},
		{"a b", "c d", 0},
		{"Team sync", "team sync", 1.0 / 3},
		{"a a a", "a", 1},
		{"a  b", "a b", 2.0 / 3}, // two spaces make an empty piece
		{"", "", 1},
	}
	for _, tt := range tests {
		if got := Jaccard(tt.a, tt.b); got != tt.want {
			t.Errorf("Jaccard(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestDefaultCheck: a tool without its own check accepts a response whose input, output and
// exception equal the gold's, and raises a KeyError when it reaches a key one side lacks.
func TestDefaultCheck(t *testing.T) {
	env := func(in, out, exc any) *value.Map {
		return value.MapOf("api_name", "T", "input", in, "output", out, "exception", exc)
	}
	gold := env(value.MapOf("a", int64(1)), "done", nil)
	tests := []struct {
		name string
		resp *value.Map
		want bool
		key  string // a KeyError's text, when the check raises one
	}{
		{"equal", env(value.MapOf("a", int64(1)), "done", nil), true, ""},
		{"another input", env(value.MapOf("a", int64(2)), "done", nil), false, ""},
		{"another output", env(value.MapOf("a", int64(1)), "other", nil), false, ""},
		{"an exception", env(value.MapOf("a", int64(1)), "done", "oops"), false, ""},
		{"no input key", value.MapOf("output", "done", "exception", nil), false, "'input'"},
		{"unequal input before a missing output", value.MapOf("input", value.MapOf(), "exception", nil), false, ""},
	}
	tool := &Tool{Name: "T"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, check := range []func(r, g *value.Map) (bool, error){tool.Check, tool.CheckRepaired} {
				got, err := check(tt.resp, gold)
				var e *Error
				if tt.key != "" {
					if !errors.As(err, &e) || e.Kind != Key || e.Text != tt.key {
						t.Fatalf("error %v, want KeyError %s", err, tt.key)
					}
					continue
				}
				if err != nil || got != tt.want {
					t.Errorf("check = %v, %v; want %v", got, err, tt.want)
				}
			}
		})
	}
}

// TestCheckConditions: the steps checks are made of — the api_name assertion, a stripped input
// field, a word-overlap field and the removal of a field from both inputs.
func TestCheckConditions(t *testing.T) {
	env := func(name string, in any) *value.Map { return value.MapOf("api_name", name, "input", in) }
	tests := []struct {
		name string
		cond cond
		r, g *value.Map
		want bool
		kind Kind // of the error raised, "" for none
	}{
		{"same name", assertSameName, env("A", nil), env("A", nil), true, ""},
		{"another name", assertSameName, env("A", nil), env("B", nil), false, Assertion},
		{"stripped equal", sameIn("who", strip), env("A", value.MapOf("who", " Ana ")), env("A", value.MapOf("who", "Ana")), true, ""},
		{"unstripped differ", sameIn("who", nil), env("A", value.MapOf("who", " Ana ")), env("A", value.MapOf("who", "Ana")), false, ""},
		{"input not a dict", sameIn("who", nil), env("A", nil), env("A", value.MapOf("who", "Ana")), false, Type},
		{"overlap over half, lowered", jaccardIn("topic", true), env("A", value.MapOf("topic", "Team Sync now")), env("A", value.MapOf("topic", "team sync")), true, ""},
		{"overlap of half is not enough", jaccardIn("topic", false), env("A", value.MapOf("topic", "a b c")), env("A", value.MapOf("topic", "a b d")), false, ""},
		{"overlap of a non-text", jaccardIn("topic", false), env("A", value.MapOf("topic", int64(1))), env("A", value.MapOf("topic", "a")), false, Attribute},
		{"drop a field both have", dropIn("topic"), env("A", value.MapOf("topic", "x")), env("A", value.MapOf("topic", "y")), true, ""},
		{"drop a field one lacks", dropIn("topic"), env("A", value.MapOf("topic", "x")), env("A", value.MapOf()), false, Key},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.cond(tt.r, tt.g)
			var e *Error
			if tt.kind != "" {
				if !errors.As(err, &e) || e.Kind != tt.kind {
					t.Fatalf("error %v, want a %s", err, tt.kind)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("= %v, %v; want %v", got, err, tt.want)
			}
		})
	}
	// dropIn removes the field from both sides.
	r, g := env("A", value.MapOf("topic", "x", "k", int64(1))), env("A", value.MapOf("topic", "y"))
	if _, err := dropIn("topic")(r, g); err != nil {
		t.Fatal(err)
	}
	for _, side := range []*value.Map{r, g} {
		if in, _ := inputOf(side); in.Has("topic") {
			t.Errorf("topic still in %v", in)
		}
	}
}
