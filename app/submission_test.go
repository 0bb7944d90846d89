package app

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSubmissionsAreJudgedAgain: a submission's answers are judged by the tab's engine; a verdict
// the file claims ("correct": true on a wrong answer) is never believed.
func TestSubmissionsAreJudgedAgain(t *testing.T) {
	useNative(t)
	units, err := Curriculum()
	if err != nil {
		t.Fatal(err)
	}
	_, ex, err := tab.UnitExercises(units[0])
	if err != nil || len(ex) < 2 {
		t.Fatalf("exercises: %v (%d)", err, len(ex))
	}
	a, b := ex[0], ex[1]
	// The gold call of a, as the engine gives it, is a right answer.
	gold, _, err := Judge([]SubmissionAnswer{{Level: a.Level, File: a.File, ID: a.ID}})
	if err != nil {
		t.Fatal(err)
	}
	right := gold[exerciseKey(a)].Call().GoldCall
	if right == "" {
		t.Fatal("no gold call for", exerciseKey(a))
	}
	file := func(student string, answers ...SubmissionAnswer) []byte {
		body, _ := json.Marshal(Submission{Format: SubmissionFormat, Student: student, Answers: answers})
		return body
	}
	honest := file("Ana", SubmissionAnswer{Level: a.Level, File: a.File, ID: a.ID, Answer: right, Attempts: 2},
		SubmissionAnswer{Level: b.Level, File: b.File, ID: b.ID, Answer: "[NoSuchTool(x='1')]", Attempts: 1, SeenAnswer: true})
	forged := file("Bo", SubmissionAnswer{Level: a.Level, File: a.File, ID: a.ID, Answer: "[NoSuchTool(x='1')]", Attempts: 1, Correct: true},
		SubmissionAnswer{Level: b.Level, File: b.File, ID: b.ID, Answer: "", Correct: true})
	var subs []Submission
	for name, body := range map[string][]byte{"ana.json": honest, "bo.json": forged} {
		s, err := ParseSubmission(name, body)
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, s)
	}
	tbl, err := JudgeSubmissions(subs)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		student  string
		ex       string
		correct  bool
		category string
		seen     bool
	}{
		{"Ana", exerciseKey(a), true, "CORRECT", false},
		{"Ana", exerciseKey(b), false, "", true},
		{"Bo", exerciseKey(a), false, "", false},
		{"Bo", exerciseKey(b), false, "NOT_ANSWERED", false},
	}
	for _, tt := range tests {
		c, ok := tbl.Cells[tt.student][tt.ex]
		if !ok {
			t.Errorf("%s %s: no cell", tt.student, tt.ex)
			continue
		}
		if c.Correct != tt.correct || tt.category != "" && c.Category != tt.category || c.SeenAnswer != tt.seen {
			t.Errorf("%s %s: %+v, want correct %v category %q seen %v", tt.student, tt.ex, c, tt.correct, tt.category, tt.seen)
		}
	}
	if len(tbl.Students) != 2 || len(tbl.Exercises) != 2 {
		t.Errorf("table %v × %v, want 2 × 2", tbl.Students, tbl.Exercises)
	}
}

func TestParseSubmissionErrors(t *testing.T) {
	tests := []struct{ body, want string }{
		{`{`, "x.json: not a submission file"},
		{`{"format":"other"}`, `format "other"`},
		{`{"format":"` + SubmissionFormat + `","answers":[{"level":"","file":"f","id":0}]}`, "x.json: answer 1 names no exercise"},
	}
	for _, tt := range tests {
		_, err := ParseSubmission("x.json", []byte(tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one with %q", tt.body, err, tt.want)
		}
	}
	s, err := ParseSubmission("nameless.json", []byte(`{"format":"`+SubmissionFormat+`","answers":[{"level":"l","file":"f","id":1,"correct":true}]}`))
	if err != nil || s.Student != "nameless" || s.Answers[0].Correct {
		t.Errorf("got %+v, %v; want the file's name as the student and the claimed verdict dropped", s, err)
	}
}

// TestNewSubmission writes progress in the assignment's order, with the answer seen.
func TestNewSubmission(t *testing.T) {
	a := Assignment{Name: "w1", Items: []ExerciseRef{{"L", "f", 2}, {"L", "g", 0}}}
	s := NewSubmission("Ana", a, map[string]Progress{"L/f#2": {Attempts: 3, Solved: true, Shown: 1, Answer: "[A()]"}})
	want := []SubmissionAnswer{{"L", "f", 2, "[A()]", 3, true, true}, {"L", "g", 0, "", 0, false, false}}
	if s.Format != SubmissionFormat || s.Student != "Ana" || s.Assignment != "w1" || len(s.Answers) != 2 || s.Answers[0] != want[0] || s.Answers[1] != want[1] {
		t.Errorf("got %+v", s)
	}
}
