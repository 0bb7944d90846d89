package fakemodel

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func userRequest(text string) *ChatRequest {
	return &ChatRequest{Messages: []ChatMessage{{Role: "system", Content: ptr("rules")}, {Role: "user", Content: ptr(text)}}}
}

func ptr(s string) *string { return &s }

// TestGenerator checks the cycle of kinds, that every candidate but bad_json is JSON of the
// candidate shape, the judge's answers, and that other requests are left to the rules.
func TestGenerator(t *testing.T) {
	g := &Generator{}
	for i := 1; i <= 2*len(GeneratorKinds); i++ {
		reply, kind, ok := g.answer(userRequest("Candidate " + itoa(i) + " of 20. Write one."))
		if !ok || kind != GeneratorKinds[(i-1)%len(GeneratorKinds)] {
			t.Fatalf("candidate %d: kind %q ok %v", i, kind, ok)
		}
		var c struct {
			Request string             `json:"request"`
			Steps   [][]map[string]any `json:"steps"`
			Reply   string             `json:"reply"`
		}
		err := json.Unmarshal([]byte(reply.Content), &c)
		if (err != nil) != (kind == KindBadJSON) {
			t.Fatalf("candidate %d (%s): %v: %s", i, kind, err, reply.Content)
		}
		if err == nil && (c.Request == "" || c.Reply == "" || len(c.Steps) == 0) {
			t.Fatalf("candidate %d (%s) lacks a part: %s", i, kind, reply.Content)
		}
	}
	dup, _, _ := g.answer(userRequest("Candidate 9 of 20."))
	first, _, _ := g.answer(userRequest("Candidate 1 of 20."))
	if !strings.Contains(strings.ToLower(strings.Join(strings.Fields(dup.Content), " ")), "what is 101 plus 8?") || !strings.Contains(first.Content, "What is 101 plus 8?") {
		t.Errorf("the duplicate %s does not repeat the first candidate %s", dup.Content, first.Content)
	}
	for _, tt := range []struct{ text, kind, verdict string }{
		{"Judge this candidate.\nRequest: What is 1 plus 2?", "judge_yes", `"yes"`},
		{"Judge this candidate.\nRequest: Tell me a joke about 3.", "judge_no", `"no"`},
	} {
		reply, kind, ok := g.answer(userRequest(tt.text))
		if !ok || kind != tt.kind || !strings.Contains(reply.Content, tt.verdict) {
			t.Errorf("%q: %q %q %v", tt.text, kind, reply.Content, ok)
		}
	}
	if _, _, ok := g.answer(userRequest("What time is it?")); ok {
		t.Error("the generator answered a request of neither sort")
	}
	if _, err := ParseScript([]byte(`{"generator": {"kinds": ["ok", "explode"]}}`), "s.json"); err == nil || !strings.Contains(err.Error(), `unknown kind "explode"`) {
		t.Errorf("an unknown kind: %v", err)
	}
	if g2 := (&Generator{Kinds: []string{KindJudgeNo}}); g2.Kind(7) != KindJudgeNo {
		t.Error("a one-kind cycle serves another kind")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
