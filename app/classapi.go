package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/model"
)

// The class API's client: the tab talks to the server's /api/v1/classes (cmd/server --db, or the
// Worker) in the JSON of package class/wire, which the server's handlers use too.

// ClassesAPI is the class endpoints' root on the page's own origin.
const ClassesAPI = "/api/v1/classes"

// PendingAnswer is a checked answer on its way to the class: queued in the tab's storage until the
// server has taken it, so an answer made offline is sent when the tab is back online.
type PendingAnswer struct {
	Class   string `json:"class"`
	Student string `json:"student"`
	Level   string `json:"level"`
	File    string `json:"file"`
	ID      int    `json:"id"`
	Answer  string `json:"answer"`
	// Verdict and Correct are the tab's own verdict, sent for the server's parity check only.
	Verdict string `json:"verdict"`
	Correct bool   `json:"correct"`
}

// classError is a refusal of the site's API (classes, board): its status, its message, the line of
// the body it blames (0: none) and how long to wait (429, 503).
type classError struct {
	Status     int
	Message    string
	Line       int
	RetryAfter time.Duration
}

func (e *classError) Error() string {
	return fmt.Sprintf("the class server answered %d: %s", e.Status, e.Message)
}

// classCall sends one request to the class API and decodes a 2xx answer into out (nil: ignored).
// A failure to reach the server is returned as it is (the caller retries later); an answer of the
// server that refuses is a *classError.
func classCall(ctx context.Context, t model.Transport, method, path, key string, body any, out any) error {
	req := &model.HTTPRequest{Method: method, URL: path}
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		req.Body = b
		req.Header = append(req.Header, model.HeaderField{Name: "Content-Type", Value: "application/json"})
	}
	if key != "" {
		req.Header = append(req.Header, model.HeaderField{Name: "Authorization", Value: "Bearer " + key})
	}
	resp, err := t.Send(ctx, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return err
	}
	if resp.Status < 200 || resp.Status > 299 {
		var e struct {
			Error struct {
				Message string `json:"message"`
				Line    int    `json:"line"`
			} `json:"error"`
		}
		ce := &classError{Status: resp.Status, Message: strings.TrimSpace(string(b))}
		if json.Unmarshal(b, &e) == nil && e.Error.Message != "" {
			ce.Message, ce.Line = e.Error.Message, e.Error.Line
		}
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			ce.RetryAfter = time.Duration(secs) * time.Second
		}
		// A 404 that is no JSON of the API (a static site), or the API's own for a path it does not
		// serve (a server without classes): this site keeps no classes.
		if resp.Status == 404 && (ce.Message == strings.TrimSpace(string(b)) || strings.HasPrefix(ce.Message, "no API endpoint ")) {
			ce.Message = "this site has no class server (the classes need cmd/server --db or the Worker)"
		}
		return ce
	}
	if out != nil && len(b) > 0 {
		return json.Unmarshal(b, out)
	}
	return nil
}

// classPath is the path of a class's endpoint: rest is "" or "/answers".
func classPath(code, rest string) string { return ClassesAPI + "/" + url.PathEscape(code) + rest }

// retryable reports whether a failed send should be tried again later (no connection, a busy or
// failing server, a limit) rather than given up (the server refused the answer itself).
func retryable(err error) bool {
	var ce *classError
	if !errors.As(err, &ce) {
		return true
	}
	return ce.Status == 408 || ce.Status == 429 || ce.Status >= 500
}

// ExerciseRef names an exercise of a class: a call sample.
type ExerciseRef struct {
	Level string
	File  string
	ID    int
}

// Key is the exercise's key in progress maps (as the Classroom's).
func (e ExerciseRef) Key() string { return e.Level + "/" + e.File + "#" + strconv.Itoa(e.ID) }

// Cell is one student's record on one exercise: answers sent, and whether one was right.
type Cell struct {
	Attempts int
	Solved   bool
}

// WrongCategory is a category of wrong answers to an exercise: how many, and one example.
type WrongCategory struct {
	Category string
	Count    int
	Example  string
}

// ClassTable is the teacher's table of a class: the exercises answered (in level, file, id order),
// the students (in the order they first answered) and a cell per student and exercise, with the
// most common wrong categories of each exercise.
type ClassTable struct {
	Exercises []ExerciseRef
	Students  []string
	Cells     map[string]map[string]Cell // student -> exercise key -> cell
	Wrong     map[string][]WrongCategory // exercise key -> categories, most common first
}

// NewClassTable sums up a class's answers.
func NewClassTable(v wire.ClassView) ClassTable {
	t := ClassTable{Cells: map[string]map[string]Cell{}, Wrong: map[string][]WrongCategory{}}
	seen := map[string]ExerciseRef{}
	wrong := map[string]map[string]*WrongCategory{}
	for _, s := range v.Students {
		t.Students = append(t.Students, s.Student)
		cells := map[string]Cell{}
		for _, a := range s.Answers {
			ex := ExerciseRef{a.Level, a.File, a.ID}
			k := ex.Key()
			seen[k] = ex
			c := cells[k]
			c.Attempts++
			c.Solved = c.Solved || a.Correct
			cells[k] = c
			if !a.Correct {
				if wrong[k] == nil {
					wrong[k] = map[string]*WrongCategory{}
				}
				w := wrong[k][a.Verdict]
				if w == nil {
					w = &WrongCategory{Category: a.Verdict, Example: a.Answer}
					wrong[k][a.Verdict] = w
				}
				w.Count++
			}
		}
		t.Cells[s.Student] = cells
	}
	for _, ex := range seen {
		t.Exercises = append(t.Exercises, ex)
	}
	sort.Slice(t.Exercises, func(i, j int) bool {
		a, b := t.Exercises[i], t.Exercises[j]
		if a.Level != b.Level {
			return a.Level < b.Level
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.ID < b.ID
	})
	for k, ws := range wrong {
		var list []WrongCategory
		for _, w := range ws {
			list = append(list, *w)
		}
		sort.Slice(list, func(i, j int) bool {
			if list[i].Count != list[j].Count {
				return list[i].Count > list[j].Count
			}
			return list[i].Category < list[j].Category
		})
		t.Wrong[k] = list
	}
	return t
}

// ClassCSV is the class's answers as CSV, one row per answer in the order they came: class,
// student, level, file, id, answer, verdict, correct, at. A cell a spreadsheet would run as a
// formula (starting with = + - @) is written with a leading apostrophe: names and answers are what
// students typed.
func ClassCSV(v wire.ClassView) []byte {
	var b bytes.Buffer
	writeCSVRow(&b, []string{"class", "student", "level", "file", "id", "answer", "verdict", "correct", "at"})
	for _, s := range v.Students {
		for _, a := range s.Answers {
			writeCSVRow(&b, []string{v.Class, safeCell(s.Student), a.Level, a.File, strconv.Itoa(a.ID), safeCell(a.Answer), a.Verdict,
				strconv.FormatBool(a.Correct), a.At.UTC().Format(time.RFC3339)})
		}
	}
	return b.Bytes()
}

// safeCell keeps a spreadsheet from reading typed text as a formula.
func safeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
