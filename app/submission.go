package app

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/apibank-playground/apibank/protocol"
)

// SubmissionFormat names a submission file, so a teacher's tab refuses any other JSON.
const SubmissionFormat = "apibank-submission/1"

// Submission is what a student without a class hands in for an assignment: each exercise's last
// answer, attempts and whether the answer was seen. Correct is what the student's tab judged; a
// teacher's tab never reads it (it judges every answer again, on the student's variant of each
// exercise: ExerciseSeedIn of the class or the assignment, the student and the exercise).
type Submission struct {
	Format     string `json:"format"`
	Student    string `json:"student"`
	Assignment string `json:"assignment"`
	// Class is the class the student was in, whose variants they answered (empty: none, the
	// assignment's variants; the assignment is named by its name and its exercises, in order).
	Class   string             `json:"class,omitempty"`
	Answers []SubmissionAnswer `json:"answers"`
}

// SubmissionAnswer is one exercise of a submission.
type SubmissionAnswer struct {
	Level      string `json:"level"`
	File       string `json:"file"`
	ID         int    `json:"id"`
	Answer     string `json:"answer"`
	Attempts   int    `json:"attempts"`
	SeenAnswer bool   `json:"seen_answer"`
	Correct    bool   `json:"correct"`
}

// Key is the exercise's key, as progress keeps it.
func (a SubmissionAnswer) Key() string { return ExerciseRef{a.Level, a.File, a.ID}.Key() }

// NewSubmission writes a student's progress on an assignment's exercises.
func NewSubmission(student string, a Assignment, progress map[string]Progress) Submission {
	s := Submission{Format: SubmissionFormat, Student: student, Assignment: a.Name, Answers: []SubmissionAnswer{}}
	for _, it := range a.Items {
		pr := progress[it.Key()]
		s.Answers = append(s.Answers, SubmissionAnswer{it.Level, it.File, it.ID, pr.Answer, pr.Attempts, pr.Shown > 0, pr.Solved})
	}
	return s
}

// ParseSubmission reads a submission file; the error names the file and what is wrong. The
// student's own verdicts are dropped here, so nothing downstream can believe them.
func ParseSubmission(name string, b []byte) (Submission, error) {
	var s Submission
	if err := json.Unmarshal(b, &s); err != nil {
		return Submission{}, fmt.Errorf("%s: not a submission file: %v", name, err)
	}
	if s.Format != SubmissionFormat {
		return Submission{}, fmt.Errorf("%s: not a submission file (format %q, want %q)", name, s.Format, SubmissionFormat)
	}
	s.Student = strings.TrimSpace(s.Student)
	if s.Student == "" {
		s.Student = strings.TrimSuffix(name, ".json")
	}
	for i, a := range s.Answers {
		if a.Level == "" || a.File == "" || a.ID < 0 {
			return Submission{}, fmt.Errorf("%s: answer %d names no exercise", name, i+1)
		}
		s.Answers[i].Correct = false
	}
	return s, nil
}

// Judge scores answers with the tab's engine, the path the Classroom checks an answer by; the
// verdicts come back by exercise key. An answer the engine could not judge is in errs by key.
func Judge(answers []SubmissionAnswer) (map[string]protocol.Verdict, map[string]string, error) {
	return judgeOn(tab.Engine, answers)
}

// judgeOn is Judge on the data e holds.
func judgeOn(e Engine, answers []SubmissionAnswer) (map[string]protocol.Verdict, map[string]string, error) {
	if len(answers) == 0 {
		return map[string]protocol.Verdict{}, map[string]string{}, nil
	}
	var lines []string
	for _, a := range answers {
		l, _ := json.Marshal(map[string]any{"level": a.Level, "file": a.File, "id": a.ID, "pred": a.Answer})
		lines = append(lines, string(l))
	}
	b, err := call[protocol.Batch](e, protocol.Request{Op: protocol.OpScore, Preds: strings.Join(lines, "\n"), Name: "classroom", Gold: true, Bare: true})
	if err != nil {
		return nil, nil, err
	}
	out := map[string]protocol.Verdict{}
	for _, v := range b.Results {
		out[ExerciseRef{v.Level, v.File, v.ID}.Key()] = v
	}
	errs := map[string]string{}
	for _, e := range b.Errors {
		if e.Line >= 1 && e.Line <= len(answers) {
			errs[answers[e.Line-1].Key()] = e.Message
		}
	}
	return out, errs, nil
}

// JudgedCell is one student's exercise as the teacher's tab judged it, on the student's variant.
type JudgedCell struct {
	Answer     string
	Attempts   int
	SeenAnswer bool
	Correct    bool
	Category   string
	// Variant is the exercise as the student's variant gives it (Seed 0: the data of this tab).
	Variant Variant
}

// SubmissionTable is students by exercises, every verdict the teacher's engine's.
type SubmissionTable struct {
	Students  []string
	Exercises []ExerciseRef
	Cells     map[string]map[string]JudgedCell
	// Variants is false when this tab holds data other than the builtin data: the answers were
	// judged on it, not on the students' variants of the builtin data.
	Variants bool
}

// submissionAssignment is the assignment a submission answers: its name and its exercises in order
// (NewSubmission writes one answer per exercise), which name it (AssignmentID).
func submissionAssignment(s Submission) Assignment {
	a := Assignment{Name: s.Assignment}
	for _, x := range s.Answers {
		a.Items = append(a.Items, ExerciseRef{x.Level, x.File, x.ID})
	}
	return a
}

// judgeSubmission judges a submission's answers, each on the student's variant of its exercise
// when the tab holds the builtin data.
func judgeSubmission(s Submission, onBuiltin bool) (map[string]protocol.Verdict, map[string]string, map[string]Variant, error) {
	if !onBuiltin {
		vs, errs, err := Judge(s.Answers)
		return vs, errs, map[string]Variant{}, err
	}
	a := submissionAssignment(s)
	vs, errs, variants := map[string]protocol.Verdict{}, map[string]string{}, map[string]Variant{}
	for _, x := range s.Answers {
		ex := ExerciseRef{x.Level, x.File, x.ID}
		seed := ExerciseSeedIn(s.Class, &a, s.Student, ex)
		err := tab.OnVariant(seed, func(e Engine) error {
			v, e1, err := judgeOn(e, []SubmissionAnswer{x})
			if err != nil {
				return err
			}
			maps.Copy(vs, v)
			maps.Copy(errs, e1)
			if vr, err := variantOf(e, seed, ex); err == nil {
				variants[ex.Key()] = vr
			}
			return nil
		})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	return vs, errs, variants, nil
}

// JudgeSubmissions judges every answer of the submissions again, on each student's variant of
// each exercise, and lays them out; a student named twice keeps the later file.
func JudgeSubmissions(subs []Submission) (SubmissionTable, error) {
	t := SubmissionTable{Cells: map[string]map[string]JudgedCell{}}
	name, err := tab.DataName()
	if err != nil {
		return t, err
	}
	t.Variants = name == builtinName
	seen := map[string]bool{}
	for _, s := range subs {
		vs, errs, variants, err := judgeSubmission(s, t.Variants)
		if err != nil {
			return t, err
		}
		if t.Cells[s.Student] == nil {
			t.Students = append(t.Students, s.Student)
		}
		row := map[string]JudgedCell{}
		for _, a := range s.Answers {
			k := a.Key()
			if !seen[k] {
				seen[k] = true
				t.Exercises = append(t.Exercises, ExerciseRef{a.Level, a.File, a.ID})
			}
			c := JudgedCell{Answer: a.Answer, Attempts: a.Attempts, SeenAnswer: a.SeenAnswer, Category: "NOT_ANSWERED", Variant: variants[k]}
			if v, ok := vs[k]; ok && a.Answer != "" {
				c.Correct, c.Category = v.Call().Correct, v.Call().Category
			} else if e, ok := errs[k]; ok {
				c.Category = "ERROR: " + e
			}
			row[k] = c
		}
		t.Cells[s.Student] = row
	}
	return t, nil
}
