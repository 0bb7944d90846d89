package app

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

func TestAnswersWaiting(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{1, "1 answer waits"},
		{2, "2 answers wait"},
		{12, "12 answers wait"},
	}
	for _, tt := range tests {
		if got := answersWaiting(tt.n); got != tt.want {
			t.Errorf("answersWaiting(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestProgressKey: a learner alone, each class student and each assignment's student keep their
// progress apart: none of them sees the others' exercises solved, on one computer too.
func TestProgressKey(t *testing.T) {
	week1 := &Assignment{Name: "Week 1", Items: []ExerciseRef{{"level-1-given-desc", "acct-agenda-add-28.jsonl", 0}}}
	week2 := &Assignment{Name: "Week 2", Items: []ExerciseRef{{"level-1-given-desc", "acct-agenda-add-28.jsonl", 0}}}
	pages := map[string]*ClassroomPage{
		"alone":                     {data: "builtin"},
		"Ann in class ACDEFG":       {data: "builtin", joined: Joined{Class: "ACDEFG", Student: "Ann"}},
		"Bo in class ACDEFG":        {data: "builtin", joined: Joined{Class: "ACDEFG", Student: "Bo"}},
		"Ann in class CDEFGH":       {data: "builtin", joined: Joined{Class: "CDEFGH", Student: "Ann"}},
		"Ann in week 1":             {data: "builtin", assignment: week1, student: "Ann"},
		"Bo in week 1":              {data: "builtin", assignment: week1, student: "Bo"},
		"Ann in week 2":             {data: "builtin", assignment: week2, student: "Ann"},
		"alone, on imported data":   {data: "my-folder"},
		"Ann in week 1, in a class": {data: "builtin", assignment: week1, student: "Ann", joined: Joined{Class: "ACDEFG", Student: "Ann"}},
	}
	seen := map[string]string{}
	for who, p := range pages {
		k := p.progressKey(p.data)
		if other, dup := seen[k]; dup && !(strings.Contains(who, "in a class") || strings.Contains(other, "in a class")) {
			t.Errorf("%s and %s keep their progress under one key %q", who, other, k)
		}
		seen[k] = who
	}
	// A class student's assignment is judged on their class variants: their class progress.
	if a, b := pages["Ann in week 1, in a class"], pages["Ann in class ACDEFG"]; a.progressKey(a.data) != b.progressKey(b.data) {
		t.Error("a class student's assignment keeps progress apart from their class's, on the same variants")
	}
	if p := pages["alone"]; p.progressKey("builtin") != "classroom/builtin" {
		t.Errorf("a learner alone's progress moved to %q: what they solved before is lost", p.progressKey("builtin"))
	}
}

// TestSamenessOf: a variant's exercise is the student's own when its answer moved; its wording
// only, when only the text did; everyone's when nothing did, and the note says so.
func TestSamenessOf(t *testing.T) {
	orig := protocol.Prompt{Text: "Hi, I'm PriyaSharma", Gold: "[GetUserToken(username='PriyaSharma')]", GoldNative: `{"name":"GetUserToken"}`}
	for _, tt := range []struct {
		name    string
		variant protocol.Prompt
		want    variantSameness
		says    string
	}{
		{"its answer moved", protocol.Prompt{Text: "Hi, I'm LeaMartin", Gold: "[GetUserToken(username='LeaMartin')]", GoldNative: `{"name":"GetUserToken"}`}, ownAnswer, "so is its answer"},
		{"only its wording moved", protocol.Prompt{Text: "Hi, I'm PriyaSharma, today", Gold: orig.Gold, GoldNative: orig.GoldNative}, ownWording, "its answer is the same for everyone"},
		{"nothing moved", orig, sameForAll, "This exercise is the same for everyone"},
	} {
		got := samenessOf(tt.variant, orig)
		if got != tt.want || !strings.Contains(variantNote(7, got), tt.says) {
			t.Errorf("%s: %v, %q; want %v saying %q", tt.name, got, variantNote(7, got), tt.want, tt.says)
		}
	}
}
