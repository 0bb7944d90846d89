package wire

import (
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/protocol"
)

// A student's exercise in a class or an assignment is a variant of the builtin data of its own:
// ExerciseSeed names it. The UI (the student's Classroom, the teacher's Teach page) and the
// server (api's answer handler, on cmd/server and the Worker) compute it with this one function, so
// the seed is never sent to be believed, nor stored: it is derived again wherever it is needed.

// seedVersion is written first in what ExerciseSeed hashes: a later rule would change it, and so
// every seed, rather than give a student another's exercise.
const seedVersion = "apibank-exercise-seed/1"

// ClassScope is the scope of a class's exercises for ExerciseSeed: its code, in capitals.
func ClassScope(code string) string { return "class:" + strings.ToUpper(strings.TrimSpace(code)) }

// AssignmentScope is the scope of an assignment's exercises for ExerciseSeed: id names the
// assignment (the UI derives it from the assignment's name and exercises).
func AssignmentScope(id string) string { return "assignment:" + id }

// StudentName is a student's name as a class keeps it and every host reads it: the name as typed
// without the spaces around it, which are a form's, not the name's (the Classroom's forms trim them
// too). The class API applies it at its door, so that " Ann " and "Ann" are one student: judged on
// one variant (ExerciseSeed reads the name by this rule), counted toward one limit and listed once
// in the teacher's view.
func StudentName(typed string) string { return strings.TrimSpace(typed) }

// ExerciseSeed is the seed of the variant a student's exercise is shown and judged on: a
// deterministic function of the scope (ClassScope or AssignmentScope), the student's name as they
// typed it (read by StudentName: spaces around it ignored) and the exercise (level, file,
// sample id), from 1 to protocol.MaxSeed. It is FNV-1a (64 bits) of the fields, each written with
// its length so no two lists of fields read alike, mixed by SplitMix64's finaliser so that the
// seeds of near inputs spread, then taken modulo MaxSeed, plus 1. It uses no map, no float and no
// platform-sized integer: every GOOS computes the same seed (the tests pin a table of them).
func ExerciseSeed(scope, student, level, file string, id int) int64 {
	h := fnv.New64a()
	for _, f := range []string{seedVersion, scope, StudentName(student), level, file, strconv.FormatInt(int64(id), 10)} {
		_, _ = h.Write([]byte(strconv.Itoa(len(f))))
		_, _ = h.Write([]byte{':'})
		_, _ = h.Write([]byte(f))
	}
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return int64(x%uint64(protocol.MaxSeed)) + 1
}
