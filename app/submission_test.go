package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
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
	asg := Assignment{Name: "Week 1", Items: []ExerciseRef{{a.Level, a.File, a.ID}, {b.Level, b.File, b.ID}}}
	// Ana's gold call of a, from her variant of it, is her right answer.
	right := goldOfVariant(t, ExerciseSeedIn("", &asg, "Ana", asg.Items[0]), asg.Items[0])
	file := func(student string, answers ...SubmissionAnswer) []byte {
		body, _ := json.Marshal(Submission{Format: SubmissionFormat, Student: student, Assignment: asg.Name, Answers: answers})
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

// goldOfVariant is an exercise's gold call in the variant seed names, as the tab's engine gives it.
func goldOfVariant(t *testing.T, seed int64, ex ExerciseRef) string {
	t.Helper()
	var v Variant
	err := tab.OnVariant(seed, func(e Engine) (err error) { v, err = variantOf(e, seed, ex); return err })
	if err != nil || v.Gold == "" || v.Request == "" {
		t.Fatalf("the variant %d of %s: %+v %v", seed, ex.Key(), v, err)
	}
	return v.Gold
}

// TestSubmissionsOnEachStudentsVariant: two students hand in the same assignment, each with the
// other's gold call of an exercise and then with their own: each is right only on their own
// variant's gold, and the table shows each one's seed, request and gold as their variant gives them.
func TestSubmissionsOnEachStudentsVariant(t *testing.T) {
	useNative(t)
	ss, err := tab.Samples("level-1-given-desc")
	if err != nil {
		t.Fatal(err)
	}
	var ex ExerciseRef
	for _, s := range ss {
		if s.Kind == "call" {
			ex = ExerciseRef{s.Level, s.File, s.ID}
			break
		}
	}
	asg := Assignment{Name: "Week 2", Items: []ExerciseRef{ex}}
	seedA, seedB := ExerciseSeedIn("", &asg, "Ana", ex), ExerciseSeedIn("", &asg, "Bo", ex)
	goldA, goldB := goldOfVariant(t, seedA, ex), goldOfVariant(t, seedB, ex)
	if seedA == seedB || goldA == goldB {
		t.Fatalf("Ana and Bo share an exercise: seeds %d %d, golds %s %s", seedA, seedB, goldA, goldB)
	}
	judge := func(answerA, answerB string) SubmissionTable {
		t.Helper()
		var subs []Submission
		for _, x := range []struct{ student, answer string }{{"Ana", answerA}, {"Bo", answerB}} {
			body, _ := json.Marshal(NewSubmission(x.student, asg, map[string]Progress{ex.Key(): {Attempts: 1, Solved: true, Answer: x.answer}}))
			s, err := ParseSubmission(x.student+".json", body)
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, s)
		}
		tbl, err := JudgeSubmissions(subs)
		if err != nil || !tbl.Variants {
			t.Fatalf("%+v %v", tbl, err)
		}
		return tbl
	}
	swapped := judge(goldB, goldA)
	own := judge(goldA, goldB)
	for _, x := range []struct {
		student, gold string
		seed          int64
	}{{"Ana", goldA, seedA}, {"Bo", goldB, seedB}} {
		if c := swapped.Cells[x.student][ex.Key()]; c.Correct {
			t.Errorf("%s is right with the other's gold: %+v", x.student, c)
		}
		c := own.Cells[x.student][ex.Key()]
		if !c.Correct || c.Category != "CORRECT" {
			t.Errorf("%s with their own gold: %+v", x.student, c)
		}
		if c.Variant.Seed != x.seed || c.Variant.Gold != x.gold || c.Variant.Request == "" {
			t.Errorf("%s's variant as the table shows it: %+v, want seed %d and gold %s", x.student, c.Variant, x.seed, x.gold)
		}
	}
	if own.Cells["Ana"][ex.Key()].Variant.Request == own.Cells["Bo"][ex.Key()].Variant.Request {
		t.Errorf("Ana and Bo were asked the same: %q", own.Cells["Ana"][ex.Key()].Variant.Request)
	}
}

// TestVariantsLeaveTheBuiltinData: once a page that loaded variants is left, the tab's next
// requests find the builtin data again.
func TestVariantsLeaveTheBuiltinData(t *testing.T) {
	useNative(t)
	ex := ExerciseRef{"level-1-given-desc", "", 0}
	ss, _ := tab.Samples(ex.Level)
	for _, s := range ss {
		if s.Kind == "call" {
			ex.File, ex.ID = s.File, s.ID
			break
		}
	}
	builtin := goldOfVariant(t, 0, ex)
	seed := ExerciseSeedIn("ABCDEF", nil, "Ana", ex)
	if g := goldOfVariant(t, seed, ex); g == builtin {
		t.Fatalf("the variant's gold is the builtin one: %s", g)
	}
	tab.LeaveVariants()
	h, err := call[protocol.Hello](tab.Engine, protocol.Request{Op: protocol.OpHello})
	if err != nil || h.Variant != nil || h.Data != builtinName {
		t.Fatalf("after leaving: %+v %v", h, err)
	}
}
