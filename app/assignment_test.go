package app

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestAssignmentFragment(t *testing.T) {
	a := Assignment{Name: "Week 1 — «dates»", Items: []ExerciseRef{{"level-1-given-desc", "acct-agenda-add-28.jsonl", 0}, {"level-3", "scene-1.json", 2}}}
	frag, err := AssignmentFragment(a)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(frag[2:], "#&=+/ ") {
		t.Errorf("the fragment %q needs escaping in a URL", frag)
	}
	got, ok, err := ParseAssignment("#" + frag)
	if err != nil || !ok || got.Name != a.Name || len(got.Items) != 2 || got.Items[1] != a.Items[1] {
		t.Fatalf("round trip: %+v %v %v", got, ok, err)
	}
	enc := func(s string) string { return "a=" + base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, tt := range []struct {
		name, frag string
		ok         bool
		err        string
	}{
		{"no fragment", "", false, ""},
		{"another fragment", "#class=X&key=Y", false, ""},
		{"not base64", "#a=%%%", false, ""},
		{"bad base64", "#a=***", true, "base64url"},
		{"not JSON", enc("nope"), true, "damaged"},
		{"empty set", enc(`{"n":"x","x":[]}`), true, "1 to 100"},
		{"incomplete", enc(`{"n":"x","x":[{"l":"level-1-given-desc","f":"","i":0}]}`), true, "exercise 1 is incomplete"},
	} {
		_, ok, err := ParseAssignment(tt.frag)
		if ok != tt.ok || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: ok %v err %v, want ok %v err %q", tt.name, ok, err, tt.ok, tt.err)
		}
	}
	if _, err := AssignmentFragment(Assignment{Name: "empty"}); err == nil {
		t.Error("an empty assignment makes a link")
	}
	big := Assignment{Items: make([]ExerciseRef, MaxAssignment+1)}
	if _, err := AssignmentFragment(big); err == nil {
		t.Error("an assignment over the limit makes a link")
	}
}
