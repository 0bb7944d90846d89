package wire

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/quick"

	"github.com/apibank-playground/apibank/protocol"
)

// TestExerciseSeedTable pins seeds: the UI (GOOS=js) and the server (any GOOS) must compute the
// same ones, and a change of the rule changes every student's exercise. Run under GOOS=js too:
// GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./class/wire/
func TestExerciseSeedTable(t *testing.T) {
	for _, tt := range []struct {
		scope, student, level, file string
		id                          int
		want                        int64
	}{
		{"class:ABCDEF", "Ann", "level-1-given-desc", "AddAgenda-level-1-1.jsonl", 2, 5917406917727917},
		{"class:ABCDEF", "Bo", "level-1-given-desc", "AddAgenda-level-1-1.jsonl", 2, 1023254376970950},
		{"assignment:0123456789abcdef", "Ann", "level-2-toolsearcher", "ToolSearcher-AddMeeting-level-2-1.jsonl", 2, 6754972833707115},
		{"class:ABCDEF", "Zoë 李", "level-1-given-desc", "x.jsonl", 2, 7869762377111296},
		{"", "", "", "", 2, 2550368376147534},
		// Spaces around a name are a form's, not the name's.
		{"class:ABCDEF", "  Ann\t", "level-1-given-desc", "AddAgenda-level-1-1.jsonl", 2, 5917406917727917},
	} {
		if got := ExerciseSeed(tt.scope, tt.student, tt.level, tt.file, tt.id); got != tt.want {
			t.Errorf("ExerciseSeed(%q, %q, %q, %q, %d) = %d, want %d", tt.scope, tt.student, tt.level, tt.file, tt.id, got, tt.want)
		}
	}
	if ClassScope(" abcdef") != ClassScope("ABCDEF") {
		t.Error("a class's scope depends on how its code was typed")
	}
}

// TestExerciseSeedProperties: any input gives a seed in 1..MaxSeed, the same twice; each field
// changes it; the fields do not run into each other.
func TestExerciseSeedProperties(t *testing.T) {
	f := func(scope, student, level, file string, id int) bool {
		s := ExerciseSeed(scope, student, level, file, id)
		return s >= 1 && s <= protocol.MaxSeed && s == ExerciseSeed(scope, student, level, file, id)
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 5000}); err != nil {
		t.Fatal(err)
	}
	base := ExerciseSeed("class:ABCDEF", "Ann", "level-1-given-desc", "a.jsonl", 2)
	for name, s := range map[string]int64{
		"class":   ExerciseSeed("class:ABCDEG", "Ann", "level-1-given-desc", "a.jsonl", 2),
		"student": ExerciseSeed("class:ABCDEF", "ann", "level-1-given-desc", "a.jsonl", 2),
		"level":   ExerciseSeed("class:ABCDEF", "Ann", "level-2-toolsearcher", "a.jsonl", 2),
		"file":    ExerciseSeed("class:ABCDEF", "Ann", "level-1-given-desc", "b.jsonl", 2),
		"id":      ExerciseSeed("class:ABCDEF", "Ann", "level-1-given-desc", "a.jsonl", 4),
		"scope":   ExerciseSeed(AssignmentScope("ABCDEF"), "Ann", "level-1-given-desc", "a.jsonl", 2),
		// Moving text from one field to the next is another input.
		"boundary": ExerciseSeed("class:ABCDEF", "An", "nlevel-1-given-desc", "a.jsonl", 2),
	} {
		if s == base {
			t.Errorf("changing the %s keeps the seed %d", name, s)
		}
	}
}

// TestExerciseSeedSpread: a class's students on one exercise, and one student over many
// exercises, get distinct seeds spread evenly over the range (no bucket of 16 far from its share).
func TestExerciseSeedSpread(t *testing.T) {
	const n, buckets = 20000, 16
	seen := map[int64]bool{}
	count := make([]int, buckets)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		var s int64
		if i%2 == 0 {
			s = ExerciseSeed(ClassScope("ABCDEF"), fmt.Sprintf("Student %d", i), "level-1-given-desc", "AddAgenda-level-1-1.jsonl", 2)
		} else {
			s = ExerciseSeed(ClassScope("ABCDEF"), "Ann", "level-1-given-desc", fmt.Sprintf("File-%d.jsonl", r.IntN(1000)), 2*i)
		}
		if seen[s] {
			t.Fatalf("seed %d twice in %d inputs", s, i)
		}
		seen[s] = true
		count[int(uint64(s-1)*buckets/uint64(protocol.MaxSeed))]++
	}
	for b, c := range count {
		if c < n/buckets*8/10 || c > n/buckets*12/10 {
			t.Errorf("bucket %d of %d holds %d of %d seeds (uneven): %v", b, buckets, c, n, count)
		}
	}
}

// TestStudentName: a name is kept as typed but for the spaces around it, so that a name sent with
// them is the student who typed it without; the spaces inside it, its case and its letters stay.
// Each name is judged on the variant of the name it reads as.
func TestStudentName(t *testing.T) {
	for _, tt := range []struct{ typed, want string }{
		{" Alice ", "Alice"},
		{"\tAlice\n", "Alice"},
		{"\u00a0Alice\u2003", "Alice"}, // no-break and em spaces are spaces too
		{"Alice", "Alice"},
		{"Ann  Lee", "Ann  Lee"},
		{"alice", "alice"},
		{" Zoë 李 ", "Zoë 李"},
		{"   ", ""},
		{"", ""},
	} {
		if got := StudentName(tt.typed); got != tt.want {
			t.Errorf("StudentName(%q) = %q, want %q", tt.typed, got, tt.want)
		}
		if a, b := ExerciseSeed("class:ABCDEF", tt.typed, "level-1-given-desc", "a.jsonl", 2), ExerciseSeed("class:ABCDEF", tt.want, "level-1-given-desc", "a.jsonl", 2); a != b {
			t.Errorf("%q is judged on seed %d, and %q on %d: one student, two variants", tt.typed, a, tt.want, b)
		}
	}
}
