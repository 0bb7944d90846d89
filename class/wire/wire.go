// Package wire is the class API's JSON (/api/v1/classes...): the bodies a client sends and the
// answers it gets, declared once for the handlers (api) and the UI's client (app, GOOS=js).
// It imports only the standard library and package protocol (which the UI imports anyway), so the
// UI carries no store and no engine host for it. ExerciseSeed (seed.go) is the one rule naming each
// student's variant of an exercise. api/openapi.json documents the same shapes; a change here is a
// change of the API.
package wire

import "time"

// NewClass is the body of POST /api/v1/classes.
type NewClass struct {
	Name string `json:"name"`
}

// ClassMade is the answer of POST /api/v1/classes: the code students type and the teacher's key,
// shown this once (only its hash is kept).
type ClassMade struct {
	Class      string    `json:"class"`
	TeacherKey string    `json:"teacher_key"`
	Name       string    `json:"name"`
	Created    time.Time `json:"created"`
}

// AnswerRequest is the body of POST /api/v1/classes/{CODE}/answers: who answered which sample
// what. Verdict and Correct are what the student's tab judged: never stored nor believed, only
// compared with the server's verdict (a difference is logged as a parity failure).
type AnswerRequest struct {
	Student string `json:"student"`
	Level   string `json:"level"`
	File    string `json:"file"`
	ID      *int   `json:"id"`
	Answer  string `json:"answer"`
	Verdict string `json:"verdict,omitempty"`
	Correct *bool  `json:"correct,omitempty"`
}

// AnswerVerdict is the answer of POST /api/v1/classes/{CODE}/answers: the server's verdict, the
// one kept.
type AnswerVerdict struct {
	Verdict string `json:"verdict"`
	Correct bool   `json:"correct"`
	// Tool is the gold call's tool; Called the tool the answer called, when it called one.
	Tool   string `json:"tool,omitempty"`
	Called string `json:"called,omitempty"`
	// Error is the error the call or the check raised, if any.
	Error string `json:"error,omitempty"`
	// Parity is false when the tab's verdict sent with the answer differs from this one.
	Parity *bool `json:"parity,omitempty"`
	// Seed names the variant of the builtin data the answer was judged on: ExerciseSeed of the
	// class, the student and the exercise, computed by the server (a request cannot name one).
	Seed int64 `json:"seed,omitempty"`
}

// ClassView is the answer of GET /api/v1/classes/{CODE}: the class and every answer of each
// student, students in the order they first answered, answers in the order they came.
type ClassView struct {
	Class    string        `json:"class"`
	Name     string        `json:"name"`
	Created  time.Time     `json:"created"`
	Students []StudentView `json:"students"`
}

// StudentView is one student's answers in a ClassView.
type StudentView struct {
	Student string       `json:"student"`
	Answers []AnswerView `json:"answers"`
}

// AnswerView is one kept answer with the server's verdict.
type AnswerView struct {
	Level   string    `json:"level"`
	File    string    `json:"file"`
	ID      int       `json:"id"`
	Answer  string    `json:"answer"`
	Verdict string    `json:"verdict"`
	Correct bool      `json:"correct"`
	At      time.Time `json:"at"`
	// Seed names the student's variant of the exercise (ExerciseSeed), derived again for the view:
	// it is not kept.
	Seed int64 `json:"seed,omitempty"`
}
