package wire

import (
	"encoding/json"
	"testing"
	"time"
)

// TestJSON pins the bytes of each shape: api/openapi.json documents them and clients of
// the API (the UI among them) read them, so a renamed field or a changed omitempty is a break.
func TestJSON(t *testing.T) {
	at := time.Date(2026, 3, 2, 9, 0, 0, 5e6, time.UTC)
	id, yes, no := 2, true, false
	for _, tt := range []struct {
		name string
		v    any
		want string
	}{
		{"NewClass", NewClass{Name: "Tools 101"}, `{"name":"Tools 101"}`},
		{"ClassMade", ClassMade{Class: "ACDEFG", TeacherKey: "k", Name: "n", Created: at},
			`{"class":"ACDEFG","teacher_key":"k","name":"n","created":"2026-03-02T09:00:00.005Z"}`},
		{"AnswerRequest", AnswerRequest{Student: "Ann", Level: "level-1", File: "f.jsonl", ID: &id, Answer: "[A()]", Verdict: "CORRECT", Correct: &yes},
			`{"student":"Ann","level":"level-1","file":"f.jsonl","id":2,"answer":"[A()]","verdict":"CORRECT","correct":true}`},
		{"AnswerRequest without a claim", AnswerRequest{Student: "Ann", Level: "level-1", File: "f.jsonl", ID: &id},
			`{"student":"Ann","level":"level-1","file":"f.jsonl","id":2,"answer":""}`},
		{"AnswerVerdict", AnswerVerdict{Verdict: "API_NAME_MISMATCH", Tool: "A", Called: "B", Error: "e", Parity: &no},
			`{"verdict":"API_NAME_MISMATCH","correct":false,"tool":"A","called":"B","error":"e","parity":false}`},
		{"AnswerVerdict bare", AnswerVerdict{Verdict: "CORRECT", Correct: true}, `{"verdict":"CORRECT","correct":true}`},
		{"ClassView", ClassView{Class: "ACDEFG", Name: "n", Created: at, Students: []StudentView{{Student: "Ann",
			Answers: []AnswerView{{Level: "level-1", File: "f.jsonl", ID: 2, Answer: "<b>", Verdict: "CORRECT", Correct: true, At: at}}}}},
			`{"class":"ACDEFG","name":"n","created":"2026-03-02T09:00:00.005Z","students":[{"student":"Ann","answers":[{"level":"level-1","file":"f.jsonl","id":2,"answer":"\u003cb\u003e","verdict":"CORRECT","correct":true,"at":"2026-03-02T09:00:00.005Z"}]}]}`},
	} {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.want {
			t.Errorf("%s: %s (%v)\nwant %s", tt.name, b, err, tt.want)
		}
	}
}
