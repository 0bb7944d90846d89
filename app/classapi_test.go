package app

import (
	"context"
	"encoding/csv"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/model"
)

func TestNewClassTable(t *testing.T) {
	at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	v := wire.ClassView{Class: "ACDEFG", Students: []wire.StudentView{
		{Student: "Bo", Answers: []wire.AnswerView{
			{Level: "l1", File: "b.jsonl", ID: 2, Answer: "[X()]", Verdict: "API_NAME_MISMATCH", At: at},
			{Level: "l1", File: "b.jsonl", ID: 2, Answer: "[Y()]", Verdict: "API_NAME_MISMATCH", At: at},
			{Level: "l1", File: "b.jsonl", ID: 2, Answer: "[Z(a='1')]", Verdict: "CORRECT", Correct: true, At: at},
		}},
		{Student: "Ann", Answers: []wire.AnswerView{
			{Level: "l1", File: "a.jsonl", ID: 0, Answer: "[A()]", Verdict: "MISS_INPUT_ARGUMENT", At: at},
			{Level: "l1", File: "b.jsonl", ID: 2, Answer: "", Verdict: "NO_API_CALL", At: at},
		}},
	}}
	tb := NewClassTable(v)
	if got := strings.Join(tb.Students, ","); got != "Bo,Ann" {
		t.Errorf("students %s, want the order they first answered", got)
	}
	if len(tb.Exercises) != 2 || tb.Exercises[0].File != "a.jsonl" || tb.Exercises[1].ID != 2 {
		t.Fatalf("exercises %+v", tb.Exercises)
	}
	b := ExerciseRef{"l1", "b.jsonl", 2}.Key()
	a := ExerciseRef{"l1", "a.jsonl", 0}.Key()
	for _, tt := range []struct {
		student, ex string
		want        Cell
	}{
		{"Bo", b, Cell{3, true}},
		{"Bo", a, Cell{}},
		{"Ann", a, Cell{1, false}},
		{"Ann", b, Cell{1, false}},
	} {
		if got := tb.Cells[tt.student][tt.ex]; got != tt.want {
			t.Errorf("%s %s: %+v, want %+v", tt.student, tt.ex, got, tt.want)
		}
	}
	w := tb.Wrong[b]
	if len(w) != 2 || w[0] != (WrongCategory{"API_NAME_MISMATCH", 2, "[X()]"}) || w[1].Category != "NO_API_CALL" {
		t.Errorf("wrong categories of b: %+v", w)
	}
}

func TestClassCSV(t *testing.T) {
	at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	v := wire.ClassView{Class: "ACDEFG", Students: []wire.StudentView{
		{Student: "=HYPERLINK(\"x\")", Answers: []wire.AnswerView{{Level: "l1", File: "f.jsonl", ID: 2, Answer: "[A(x='1, \"2\"')]\nmore", Verdict: "CORRECT", Correct: true, At: at}}},
		{Student: "Zoë", Answers: []wire.AnswerView{{Level: "l1", File: "f.jsonl", ID: 2, Answer: "-1", Verdict: "NO_API_CALL", At: at}}},
	}}
	rows, err := csv.NewReader(strings.NewReader(string(ClassCSV(v)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"class", "student", "level", "file", "id", "answer", "verdict", "correct", "at"},
		{"ACDEFG", "'=HYPERLINK(\"x\")", "l1", "f.jsonl", "2", "[A(x='1, \"2\"')]\nmore", "CORRECT", "true", "2026-03-02T09:00:00Z"},
		{"ACDEFG", "Zoë", "l1", "f.jsonl", "2", "'-1", "NO_API_CALL", "false", "2026-03-02T09:00:00Z"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q, want %q", i, rows[i], want[i])
		}
	}
}

// TestOutbox: answers wait while the server is out of reach, survive a new outbox over the same
// store (a reload), go in order once it is back, a 429 waits its Retry-After, and an answer the
// server refuses for good is dropped with the reason.
func TestOutbox(t *testing.T) {
	store := NewMemoryStore()
	var sent []int
	reply := func(ctx context.Context, p PendingAnswer) (wire.AnswerVerdict, error) {
		return wire.AnswerVerdict{}, errors.New("fetch failed: offline")
	}
	send := func(ctx context.Context, p PendingAnswer) (wire.AnswerVerdict, error) { return reply(ctx, p) }
	o := NewOutbox(store, send)
	for i := range 3 {
		if err := o.Add(PendingAnswer{Class: "ACDEFG", Student: "Ann", Level: "l1", File: "f", ID: i * 2, Verdict: "CORRECT", Correct: true}); err != nil {
			t.Fatal(err)
		}
	}
	changes := 0
	if wait := o.Flush(context.Background(), func() { changes++ }); wait <= 0 {
		t.Fatalf("offline: Flush asks for no retry")
	}
	if n, offline, _ := o.State(); n != 3 || !offline {
		t.Fatalf("offline: %d waiting, offline %v", n, offline)
	}
	o = NewOutbox(store, send) // a reload
	if n, _, _ := o.State(); n != 3 {
		t.Fatalf("after a reload %d answers wait, want 3", n)
	}
	if !o.Waiting("ACDEFG", "Ann", ExerciseRef{"l1", "f", 2}) {
		t.Error("a queued answer is not waiting")
	}
	if o.Waiting("ACDEFG", "Bo", ExerciseRef{"l1", "f", 2}) {
		t.Error("Ann's queued answer waits for Bo, who shares her computer")
	}
	reply = func(ctx context.Context, p PendingAnswer) (wire.AnswerVerdict, error) {
		switch p.ID {
		case 2:
			if len(sent) == 1 {
				sent = append(sent, -1) // the first try of answer 2 meets the limit
				return wire.AnswerVerdict{}, &classError{Status: 429, Message: "limit", RetryAfter: 30 * time.Second}
			}
		case 4:
			return wire.AnswerVerdict{}, &classError{Status: 404, Message: "no class ACDEFG"}
		}
		sent = append(sent, p.ID)
		return wire.AnswerVerdict{Verdict: "NO_API_CALL"}, nil
	}
	if wait := o.Flush(context.Background(), func() { changes++ }); wait != 30*time.Second {
		t.Errorf("429: wait %v, want its Retry-After", wait)
	}
	if _, _, refused := o.State(); refused != "" || o.Held() != "limit" {
		t.Errorf("an answer held back by a limit reads as refused (%q) or not as held (%q)", refused, o.Held())
	}
	if wait := o.Flush(context.Background(), func() { changes++ }); wait != 0 {
		t.Errorf("the rest: wait %v, want 0", wait)
	}
	if !slices.Equal(sent, []int{0, -1, 2}) {
		t.Errorf("sent in the order %v, want 0, the limit, 2", sent)
	}
	n, offline, refused := o.State()
	if n != 0 || offline || refused != "no class ACDEFG" {
		t.Errorf("after: %d waiting, offline %v, refused %q", n, offline, refused)
	}
	if v, ok := o.Verdict("ACDEFG", "Ann", ExerciseRef{"l1", "f", 0}); !ok || v.Verdict != "NO_API_CALL" {
		t.Errorf("the server's verdict on answer 0: %+v %v", v, ok)
	}
	if _, ok := o.Verdict("ACDEFG", "Bo", ExerciseRef{"l1", "f", 0}); ok {
		t.Error("Ann's verdict is shown to Bo, who joined the class on her computer after her")
	}
	if _, ok := o.Verdict("ACDEFG", "Ann", ExerciseRef{"l1", "f", 4}); ok {
		t.Error("a refused answer has a verdict")
	}
	if changes == 0 {
		t.Error("Flush never said the queue changed")
	}
}

// answering is a model.Transport that answers every request with status and body.
type answering struct {
	status int
	body   string
}

func (a answering) Send(context.Context, *model.HTTPRequest) (*model.HTTPResponse, error) {
	return &model.HTTPResponse{Status: a.status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(a.body))}, nil
}

// TestClassCallErrors: a site without classes is said to have none, in words a student reads,
// whether its 404 is a static site's page or the API's own for a path it does not serve; the API's
// other errors are passed on as they are.
func TestClassCallErrors(t *testing.T) {
	const none = "this site has no class server (the classes need cmd/server --db or the Worker)"
	for _, tt := range []struct {
		name   string
		answer answering
		want   string
	}{
		{"a static site", answering{404, "<!doctype html><p>Not found"}, none},
		{"a server without classes", answering{404, `{"error":{"code":"not_found","message":"no API endpoint /api/v1/classes/ACDEFG/answers (the endpoints are listed at /api/v1/openapi.json)"}}`}, none},
		{"an unknown class", answering{404, `{"error":{"code":"not_found","message":"no class \"ACDEFG\""}}`}, `no class "ACDEFG"`},
		{"a limit", answering{429, `{"error":{"code":"rate_limited","message":"over the limit"}}`}, "over the limit"},
	} {
		err := classCall(context.Background(), tt.answer, "POST", "/api/v1/classes/ACDEFG/answers", "", map[string]string{}, nil)
		var ce *classError
		if !errors.As(err, &ce) || ce.Message != tt.want {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
