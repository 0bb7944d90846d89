package score

import (
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

func TestContainsPhrase(t *testing.T) {
	tests := []struct {
		text, phrase string
		want         bool
	}{
		{"what time should it be?", "time", true},
		{"sometimes it rains", "time", false},
		{"what time?", "?", true},
		{"kwame.mensah(at)inbox is not an address", "kwame.mensah(at)inbox", true},
		{"i can't do that", "can't", true},
		{"the 7 pm slot", "7 pm", true},
		{"the 17 pm slot", "7 pm", false},
		{"anything", "", false},
	}
	for _, tt := range tests {
		if got := containsPhrase(tt.text, tt.phrase); got != tt.want {
			t.Errorf("containsPhrase(%q, %q) = %v, want %v", tt.text, tt.phrase, got, tt.want)
		}
	}
}

func TestUnmet(t *testing.T) {
	needs := []protocol.Need{
		{What: "asks", Any: []string{"?", "please"}},
		{What: "names the missing time", Any: []string{"time", "when"}},
	}
	tests := []struct {
		reply string
		want  string // the What of the first need unmet, "" for none
	}{
		{"What time should I set it for?", ""},
		{"When  is it?", ""},
		{"Please tell me WHEN.", ""},
		{"I CAN’T — what time?", ""},
		{"OK.", "asks"},
		{"Done! It is all taken care of.", "asks"},
		{"Some details seem missing or wrong, could you check?", "names the missing time"},
		{"Which room is it in?", "names the missing time"},
	}
	for _, tt := range tests {
		got := ""
		if n := Unmet(tt.reply, needs); n != nil {
			got = n.What
		}
		if got != tt.want {
			t.Errorf("Unmet(%q) = %q, want %q", tt.reply, got, tt.want)
		}
	}
}

// TestSpecialJudgedOnTheReply: every special case of the builtin data records its needs; its gold
// reply is right, and replies that ignore the problem are not.
func TestSpecialJudgedOnTheReply(t *testing.T) {
	data, ix := builtin(t)
	ignoring := []string{"OK.", "Done! It is all taken care of.", "The weather is lovely in spring.",
		"Some details seem missing or wrong.", "Could you give me more details?", "Sorry, I can't help with that."}
	n := 0
	for _, sm := range ix.All() {
		if sm.Kind != KindSpecial {
			continue
		}
		n++
		if len(sm.Dialogue.Meta.Needs) == 0 {
			t.Errorf("%s: a special case without needs", sm.Dialogue.File)
			continue
		}
		s := New(data, Replay)
		if v := s.Call(sm, sm.GoldTurn().Text); !v.Correct {
			t.Errorf("%s #%d: the gold reply %q is %s: %s", sm.Dialogue.File, sm.ID, sm.GoldTurn().Text, v.Category, v.Error)
		}
		for _, r := range ignoring {
			if v := s.Call(sm, r); v.Correct || v.Category != MissedNeed {
				t.Errorf("%s #%d: %q is %s, want %s", sm.Dialogue.File, sm.ID, r, v.Category, MissedNeed)
			}
		}
	}
	if n == 0 {
		t.Fatal("no special case in the builtin data")
	}
}

func TestKindNeed(t *testing.T) {
	for _, k := range protocol.Specials {
		if n, ok := KindNeed(k); !ok || n.What == "" || len(n.Any) == 0 {
			t.Errorf("special kind %s has no need", k)
		}
	}
	if _, ok := KindNeed("nonsense"); ok {
		t.Error("an unknown kind has a need")
	}
}
