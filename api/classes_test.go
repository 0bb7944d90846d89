package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/class"
	"github.com/apibank-playground/apibank/class/sqlite"
	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// clock is a test clock the class endpoints read.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }
func newClock() *clock                   { return &clock{now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)} }

// classAPI is the API with the class endpoints over SQLite in a temporary file, the native engine,
// a test clock and a log kept for reading.
type classAPI struct {
	h     http.Handler
	store class.Store
	clock *clock
	logs  *bytes.Buffer
	mu    *sync.Mutex
}

func newClassAPI(t *testing.T, limits ClassLimits) *classAPI {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "classes.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	a := &classAPI{store: store, clock: newClock(), logs: &bytes.Buffer{}, mu: &sync.Mutex{}}
	logger := slog.New(slog.NewJSONHandler(lockedWriter{a.mu, a.logs}, nil))
	a.h = New(&nativePool{}, Limits{}, WithClasses(Classes{Store: store, Limits: limits, Logger: logger, Now: a.clock.Now,
		ClientAddr: func(r *http.Request) string { return r.Header.Get("X-Test-Client") }}))
	return a
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (a *classAPI) log() string { a.mu.Lock(); defer a.mu.Unlock(); return a.logs.String() }

// req sends a request; key, when not empty, goes in the Authorization header.
func (a *classAPI) req(t *testing.T, method, path, key, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Test-Client", "203.0.113.7")
	w := httptest.NewRecorder()
	a.h.ServeHTTP(w, r)
	return w
}

func (a *classAPI) create(t *testing.T, name string) wire.ClassMade {
	t.Helper()
	w := a.req(t, "POST", ClassesPath, "", fmt.Sprintf(`{"name":%q}`, name))
	if w.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	var m wire.ClassMade
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func (a *classAPI) view(t *testing.T, m wire.ClassMade) wire.ClassView {
	t.Helper()
	w := a.req(t, "GET", ClassesPath+"/"+m.Class, m.TeacherKey, "")
	if w.Code != http.StatusOK {
		t.Fatalf("view: %d %s", w.Code, w.Body)
	}
	var v wire.ClassView
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func answerBody(student, file string, id int, answer string, extra string) string {
	b, _ := json.Marshal(map[string]any{"student": student, "level": level1, "file": file, "id": id, "answer": answer})
	if extra != "" {
		return strings.TrimSuffix(string(b), "}") + "," + extra + "}"
	}
	return string(b)
}

// goldSample is the first level-1 call sample of the builtin data and its gold call, as the engine
// says. A student of a class answers on a variant of it: studentGold is that student's gold.
func goldSample(t *testing.T) (file string, id int, gold string) {
	t.Helper()
	do := func(_ context.Context, req []byte) ([]byte, error) { return engine.New().Handle(req), nil }
	ss, err := protocol.Call[[]protocol.SampleView](context.Background(), do, protocol.Request{Op: protocol.OpSamples, Level: level1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if s.Kind == protocol.KindCall {
			file, id = s.File, s.ID
			break
		}
	}
	return file, id, goldOn(t, 0, file, id)
}

// goldOn is the gold call of a level-1 sample in the variant seed names (0: the builtin data).
func goldOn(t *testing.T, seed int64, file string, id int) string {
	t.Helper()
	gold, err := goldmodel.GoldCall(seed, level1, file, id)
	if err != nil {
		t.Fatal(err)
	}
	return gold
}

// studentGold is the gold call of a student's own variant of a level-1 exercise of class code.
func studentGold(t *testing.T, code, student, file string, id int) string {
	t.Helper()
	return goldOn(t, wire.ExerciseSeed(wire.ClassScope(code), student, level1, file, id), file, id)
}

// TestClassFlow: a class is made, two students answer (one right, one wrong claiming to be right),
// the teacher sees both with the server's verdicts, and deletes the class.
func TestClassFlow(t *testing.T) {
	a := newClassAPI(t, ClassLimits{})
	file, id, _ := goldSample(t)
	m := a.create(t, "Tools 101")
	if _, ok := wire.NormalCode(m.Class); !ok || len(m.TeacherKey) < 43 {
		t.Fatalf("made %+v: want a class code and a key of 256 bits", m)
	}

	gold := studentGold(t, m.Class, "Ann", file, id)
	w := a.req(t, "POST", ClassesPath+"/"+strings.ToLower(m.Class)+"/answers", "", answerBody("Ann", file, id, gold, `"verdict":"CORRECT","correct":true`))
	var right wire.AnswerVerdict
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &right) != nil || right.Verdict != "CORRECT" || !right.Correct || right.Parity == nil || !*right.Parity {
		t.Fatalf("a right answer: %d %s", w.Code, w.Body)
	}
	// A forged verdict: a wrong answer that claims to be right is judged and kept as it is.
	w = a.req(t, "POST", ClassesPath+"/"+m.Class+"/answers", "", answerBody("Bo <script>", file, id, "[NoSuchTool()]", `"verdict":"CORRECT","correct":true`))
	var forged wire.AnswerVerdict
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &forged) != nil || forged.Correct || forged.Verdict == "CORRECT" || forged.Parity == nil || *forged.Parity {
		t.Fatalf("a forged verdict: %d %s", w.Code, w.Body)
	}
	if log := a.log(); !strings.Contains(log, "parity failure") || !strings.Contains(log, forged.Verdict) || strings.Contains(log, "Bo <script>") || strings.Contains(log, "NoSuchTool") {
		t.Errorf("the parity failure's log line should name the verdicts, not the student or the answer:\n%s", log)
	}

	v := a.view(t, m)
	if v.Class != m.Class || v.Name != "Tools 101" || len(v.Students) != 2 {
		t.Fatalf("the teacher's view: %+v", v)
	}
	for i, want := range []struct {
		student, answer string
		correct         bool
	}{{"Ann", gold, true}, {"Bo <script>", "[NoSuchTool()]", false}} {
		s := v.Students[i]
		if s.Student != want.student || len(s.Answers) != 1 || s.Answers[0].Answer != want.answer || s.Answers[0].Correct != want.correct ||
			s.Answers[0].File != file || s.Answers[0].At.IsZero() {
			t.Errorf("student %d: %+v, want %+v", i, s, want)
		}
	}

	if w := a.req(t, "DELETE", ClassesPath+"/"+m.Class, m.TeacherKey, ""); w.Code != http.StatusNoContent || w.Body.Len() != 0 {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if w := a.req(t, "GET", ClassesPath+"/"+m.Class, m.TeacherKey, ""); w.Code != 404 {
		t.Errorf("GET after delete: %d", w.Code)
	}
	if w := a.req(t, "POST", ClassesPath+"/"+m.Class+"/answers", "", answerBody("Ann", file, id, gold, "")); w.Code != 404 {
		t.Errorf("an answer after delete: %d", w.Code)
	}
	if as, err := a.store.Answers(context.Background(), m.Class); err != nil || len(as) != 0 {
		t.Errorf("the deleted class's rows: %d answers, %v", len(as), err)
	}
}

// TestClassErrors: every refusal of the class endpoints, with its status and error code.
func TestClassErrors(t *testing.T) {
	a := newClassAPI(t, ClassLimits{})
	file, id, gold := goldSample(t)
	m := a.create(t, "errors")
	answers := ClassesPath + "/" + m.Class + "/answers"
	other, _ := class.NewKey()
	for _, tt := range []struct {
		name, method, path, key, body string
		status                        int
		code                          string
	}{
		{"unknown class", "POST", ClassesPath + "/QQQQQQ/answers", "", answerBody("Ann", file, id, gold, ""), 404, CodeNotFound},
		{"not a code", "POST", ClassesPath + "/nope/answers", "", answerBody("Ann", file, id, gold, ""), 404, CodeNotFound},
		{"unknown sample file", "POST", answers, "", answerBody("Ann", "NoSuch-level-1-1.jsonl", 0, gold, ""), 400, CodeBadRequest},
		{"unknown sample id", "POST", answers, "", answerBody("Ann", file, 998, gold, ""), 400, CodeBadRequest},
		{"a reply sample", "POST", answers, "", answerBody("Ann", file, id+1, "Done.", ""), 400, CodeBadRequest},
		{"unknown level", "POST", answers, "", strings.Replace(answerBody("Ann", file, id, gold, ""), level1, "level-9", 1), 400, CodeBadRequest},
		{"malformed JSON", "POST", answers, "", `{"student": "Ann",`, 400, CodeBadRequest},
		{"unknown member", "POST", answers, "", answerBody("Ann", file, id, gold, `"score":1`), 400, CodeBadRequest},
		{"no id", "POST", answers, "", `{"student":"Ann","level":"` + level1 + `","file":"` + file + `","answer":"x"}`, 400, CodeBadRequest},
		{"negative id", "POST", answers, "", answerBody("Ann", file, -2, gold, ""), 400, CodeBadRequest},
		{"name of 65 characters", "POST", answers, "", answerBody(strings.Repeat("é", 65), file, id, gold, ""), 400, CodeBadRequest},
		{"empty name", "POST", answers, "", answerBody(" ", file, id, gold, ""), 400, CodeBadRequest},
		{"name with a newline", "POST", answers, "", answerBody("Ann\nBo", file, id, gold, ""), 400, CodeBadRequest},
		{"body over 64 KB", "POST", answers, "", answerBody("Ann", file, id, strings.Repeat("x", 64<<10), ""), 413, CodeTooLarge},
		{"class without a name", "POST", ClassesPath, "", `{"name":""}`, 400, CodeBadRequest},
		{"class name too long", "POST", ClassesPath, "", fmt.Sprintf(`{"name":%q}`, strings.Repeat("n", 101)), 400, CodeBadRequest},
		{"class body over 64 KB", "POST", ClassesPath, "", fmt.Sprintf(`{"name":%q}`, strings.Repeat("n", 64<<10)), 413, CodeTooLarge},
		{"view without the key", "GET", ClassesPath + "/" + m.Class, "", "", 401, CodeUnauthorized},
		{"view with a wrong key", "GET", ClassesPath + "/" + m.Class, other, "", 401, CodeUnauthorized},
		{"view with the key cut short", "GET", ClassesPath + "/" + m.Class, m.TeacherKey[:20], "", 401, CodeUnauthorized},
		{"delete with a wrong key", "DELETE", ClassesPath + "/" + m.Class, other, "", 401, CodeUnauthorized},
		{"view an unknown class", "GET", ClassesPath + "/QQQQQQ", m.TeacherKey, "", 404, CodeNotFound},
		{"GET on answers", "GET", answers, "", "", 405, CodeMethodNotAllowed},
		{"PUT on a class", "PUT", ClassesPath + "/" + m.Class, m.TeacherKey, "", 405, CodeMethodNotAllowed},
		{"GET the list", "GET", ClassesPath, "", "", 405, CodeMethodNotAllowed},
		{"below answers", "POST", answers + "/x", "", "", 404, CodeNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := a.req(t, tt.method, tt.path, tt.key, tt.body)
			var e struct{ Error Error }
			if w.Code != tt.status || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error.Code != tt.code || e.Error.Message == "" {
				t.Errorf("%d %s, want %d %s", w.Code, w.Body, tt.status, tt.code)
			}
			if tt.status == 401 && w.Header().Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
	// None of the refused answers was kept, and the class still answers to its key.
	if v := a.view(t, m); len(v.Students) != 0 {
		t.Errorf("refused answers were kept: %+v", v.Students)
	}
}

// TestClassLimits: answers per student and per class a minute, classes per address an hour, each a
// 429 with Retry-After until its window ends.
func TestClassLimits(t *testing.T) {
	a := newClassAPI(t, ClassLimits{AnswersPerStudent: 3, AnswersPerClass: 5, ClassesPerAddress: 2})
	file, id, gold := goldSample(t)
	m := a.create(t, "limits")
	send := func(student string) *httptest.ResponseRecorder {
		return a.req(t, "POST", ClassesPath+"/"+m.Class+"/answers", "", answerBody(student, file, id, gold, ""))
	}
	tooMany := func(w *httptest.ResponseRecorder, what string) {
		t.Helper()
		if w.Code != 429 || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), CodeTooMany) {
			t.Errorf("%s: %d %s (Retry-After %q), want 429 with Retry-After", what, w.Code, w.Body, w.Header().Get("Retry-After"))
		}
	}
	for i := range 3 {
		if w := send("Ann"); w.Code != 200 {
			t.Fatalf("answer %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	w := send("Ann")
	tooMany(w, "Ann's 4th answer in a minute")
	if !strings.Contains(w.Body.String(), "this student sent 3 answers this minute") {
		t.Errorf("Ann's 4th answer: %s, want the student's limit named", w.Body)
	}
	for i := range 2 {
		if w := send("Bo"); w.Code != 200 {
			t.Fatalf("Bo's answer %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	w = send("Cy")
	tooMany(w, "the class's 6th answer in a minute")
	if !strings.Contains(w.Body.String(), "took 5 answers this minute") {
		t.Errorf("the class's 6th answer: %s, want the class's limit named", w.Body)
	}
	a.clock.Advance(61 * time.Second)
	if w := send("Ann"); w.Code != 200 {
		t.Errorf("a minute later: %d %s", w.Code, w.Body)
	}

	a.create(t, "second") // this address's 2nd class this hour (limits made the first)
	w = a.req(t, "POST", ClassesPath, "", `{"name":"third"}`)
	tooMany(w, "a 3rd class in an hour")
	if ra := w.Header().Get("Retry-After"); ra != "3539" {
		t.Errorf("Retry-After %q, want the 3539 s left of the hour", ra)
	}
	a.clock.Advance(time.Hour)
	a.create(t, "an hour later")
}

// TestClassIdle: a class no one used for 180 days is deleted with its answers; one used lately stays.
func TestClassIdle(t *testing.T) {
	a := newClassAPI(t, ClassLimits{})
	file, id, gold := goldSample(t)
	idle := a.create(t, "idle")
	used := a.create(t, "used")
	if w := a.req(t, "POST", ClassesPath+"/"+idle.Class+"/answers", "", answerBody("Ann", file, id, gold, "")); w.Code != 200 {
		t.Fatal(w.Body)
	}
	a.clock.Advance(100 * 24 * time.Hour)
	a.view(t, used) // the teacher's visit counts as use
	a.clock.Advance(81 * 24 * time.Hour)
	if w := a.req(t, "GET", ClassesPath+"/"+idle.Class, idle.TeacherKey, ""); w.Code != 404 {
		t.Errorf("a class idle 181 days: %d %s, want 404", w.Code, w.Body)
	}
	if as, _ := a.store.Answers(context.Background(), idle.Class); len(as) != 0 {
		t.Errorf("the idle class's %d answers are kept", len(as))
	}
	a.view(t, used)
	if !strings.Contains(a.log(), "idle classes deleted") {
		t.Errorf("the deletion is not logged:\n%s", a.log())
	}
}

// TestClassKeyNeverLogged: nothing the class endpoints log holds a teacher's key, a student's name
// or an answer.
func TestClassKeyNeverLogged(t *testing.T) {
	a := newClassAPI(t, ClassLimits{})
	file, id, _ := goldSample(t)
	m := a.create(t, "secret class")
	a.req(t, "POST", ClassesPath+"/"+m.Class+"/answers", "", answerBody("Dee Secretname", file, id, "[Wrong(x='secret answer')]", `"verdict":"CORRECT"`))
	a.req(t, "GET", ClassesPath+"/"+m.Class, m.TeacherKey, "")
	a.req(t, "GET", ClassesPath+"/"+m.Class, m.TeacherKey+"x", "")
	log := a.log()
	if log == "" {
		t.Fatal("nothing logged: the test sees no parity failure line")
	}
	for _, secret := range []string{m.TeacherKey, m.TeacherKey[:16], "Dee Secretname", "secret answer"} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds %q:\n%s", secret, log)
		}
	}
}

// TestClassConcurrentAnswers: 30 students answering at once all get a verdict, and all are kept.
func TestClassConcurrentAnswers(t *testing.T) {
	a := newClassAPI(t, ClassLimits{})
	file, id, _ := goldSample(t)
	m := a.create(t, "thirty")
	var wg sync.WaitGroup
	codes := make([]int, 30)
	golds := make([]string, len(codes))
	for i := range golds {
		golds[i] = studentGold(t, m.Class, fmt.Sprintf("student %02d", i), file, id)
	}
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = a.req(t, "POST", ClassesPath+"/"+m.Class+"/answers", "", answerBody(fmt.Sprintf("student %02d", i), file, id, golds[i], "")).Code
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != 200 {
			t.Errorf("student %d: %d", i, c)
		}
	}
	v := a.view(t, m)
	var names []string
	for _, s := range v.Students {
		names = append(names, s.Student)
		if len(s.Answers) != 1 || !s.Answers[0].Correct {
			t.Errorf("%s: %+v", s.Student, s.Answers)
		}
	}
	sort.Strings(names)
	if len(names) != 30 || names[0] != "student 00" || names[29] != "student 29" {
		t.Errorf("students kept: %v", names)
	}
}

// level1 is the builtin data's level-1 folder.
const level1 = "level-1-given-desc"

// tempStore is a class store in a temporary SQLite file, closed with the test.
func tempStore(t *testing.T) *class.SQLStore {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "classes.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// documentPath is the document's path of a request's: the query cut, a class code as {code}.
func documentPath(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	if rest, ok := strings.CutPrefix(p, ClassesPath+"/"); ok {
		_, tail, _ := strings.Cut(rest, "/")
		if tail != "" {
			tail = "/" + tail
		}
		return ClassesPath + "/{code}" + tail
	}
	if rest, ok := strings.CutPrefix(p, BoardPath+"/"); ok {
		_, tail, _ := strings.Cut(rest, "/")
		if tail != "" {
			tail = "/" + tail
		}
		return BoardPath + "/{id}" + tail
	}
	return p
}

// documentClassExchanges makes a class through h and returns an exchange for every answer of the
// class endpoints the document lists (checked against it by TestAnswersMatchTheDocument), in an
// order that works: the limits of h must be ClassesPerAddress 2 and AnswersPerStudent 3.
func documentClassExchanges(t *testing.T, h http.Handler) []exchange {
	t.Helper()
	rec := do(t, h, exchange{method: "POST", path: ClassesPath, body: `{"name":"doc"}`})
	var m wire.ClassMade
	if rec.Code != 201 || json.Unmarshal(rec.Body.Bytes(), &m) != nil {
		t.Fatalf("making a class: %d %s", rec.Code, rec.Body)
	}
	file, id, _ := goldSample(t)
	gold := studentGold(t, m.Class, "Ann", file, id)
	path := ClassesPath + "/" + m.Class
	bearer := map[string]string{"Authorization": "Bearer " + m.TeacherKey}
	wrong := map[string]string{"Authorization": "Bearer " + m.TeacherKey[1:]}
	ann := answerBody("Ann", file, id, gold, "")
	return []exchange{
		{"class create", "POST", ClassesPath, nil, `{"name":"second"}`, 201, []string{`"teacher_key":"`}},
		{"class create limit", "POST", ClassesPath, nil, `{"name":"third"}`, 429, []string{"too_many_requests"}},
		{"class create bad", "POST", ClassesPath, nil, `{"name":""}`, 400, []string{"empty"}},
		{"class create too large", "POST", ClassesPath, nil, strings.Repeat(" ", 65<<10), 413, []string{"too_large"}},
		{"class answer", "POST", path + "/answers", nil, answerBody("Ann", file, id, gold, `"verdict":"CORRECT"`), 200, []string{`"verdict":"CORRECT"`, `"parity":true`}},
		{"class answer wrong", "POST", path + "/answers", nil, answerBody("Ann", file, id, "[Nope()]", ""), 200, []string{`"correct":false`}},
		{"class answer bad", "POST", path + "/answers", nil, `{`, 400, []string{"bad_request"}},
		{"class answer too large", "POST", path + "/answers", nil, strings.Repeat(" ", 65<<10), 413, []string{"too_large"}},
		{"class answer unknown class", "POST", ClassesPath + "/QQQQQQ/answers", nil, ann, 404, []string{"not_found"}},
		{"class answer third", "POST", path + "/answers", nil, ann, 200, nil},
		{"class answer limit", "POST", path + "/answers", nil, ann, 429, []string{"too_many_requests"}},
		{"class view", "GET", path, bearer, "", 200, []string{`"student":"Ann"`, `"verdict":"CORRECT"`}},
		{"class view wrong key", "GET", path, wrong, "", 401, []string{"unauthorized"}},
		{"class view unknown", "GET", ClassesPath + "/QQQQQQ", bearer, "", 404, []string{"not_found"}},
		{"class delete wrong key", "DELETE", path, wrong, "", 401, []string{"unauthorized"}},
		{"class delete", "DELETE", path, bearer, "", 204, nil},
		{"class delete again", "DELETE", path, bearer, "", 404, []string{"not_found"}},
	}
}

// TestClassSweepOncePerHour: the idle sweep is counted in the store, so handlers that share it (the
// server's processes, the Worker's instances, each fresh) sweep once an hour between them, and the
// sweep drops the rate counts of ended windows.
func TestClassSweepOncePerHour(t *testing.T) {
	ctx := context.Background()
	store := tempStore(t)
	clk := newClock()
	fresh := func() http.Handler { // a new process or Worker instance: no memory of its own
		return New(&nativePool{}, Limits{}, WithClasses(Classes{Store: store, Now: clk.Now}))
	}
	idle := func(code string) {
		t.Helper()
		old := clk.Now().Add(-class.IdleAfter - time.Hour)
		if err := store.Create(ctx, class.Class{Code: code, Name: "idle", KeyHash: []byte("h"), Created: old, Active: old}); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(code string) bool {
		_, err := store.Get(ctx, code)
		return err == nil
	}
	visit := func() {
		fresh().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", ClassesPath+"/QQQQQQ", nil))
	}

	idle("AAAAAA")
	if ok, _, err := store.Hit(ctx, "a count of a window that ends", time.Minute, 5, clk.Now()); !ok || err != nil {
		t.Fatal(ok, err)
	}
	visit()
	if exists("AAAAAA") {
		t.Fatal("the first request of the hour did not sweep the idle class")
	}
	idle("CCCCCC")
	clk.Advance(30 * time.Minute)
	visit()
	if !exists("CCCCCC") {
		t.Error("a fresh handler swept again within the hour")
	}
	clk.Advance(31 * time.Minute)
	visit()
	if exists("CCCCCC") {
		t.Error("the next hour's first request did not sweep")
	}
	// The minute's count and the last hour's sweep count ended before this sweep: it dropped them.
	if n, err := store.PruneHits(ctx, clk.Now()); err != nil || n != 0 {
		t.Errorf("the sweep left %d ended counts (%v)", n, err)
	}
}

// TestClassVariants: each student answers on a variant of their own. Two students of a class
// answer the same exercise, each with the other's gold first, then with their own: only their own
// variant's gold is right, and the server's seed is the one ExerciseSeed derives. The teacher's view
// names each answer's seed; a request cannot name one, and a verdict it claims changes nothing.
func TestClassVariants(t *testing.T) {
	a := newClassAPI(t, ClassLimits{})
	file, id, builtin := goldSample(t)
	m := a.create(t, "variants")
	ann, bo := studentGold(t, m.Class, "Ann", file, id), studentGold(t, m.Class, "Bo", file, id)
	if ann == bo || ann == builtin || bo == builtin {
		t.Fatalf("the exercise %s #%d should differ between its variants:\nAnn %s\nBo  %s\nbuiltin %s", file, id, ann, bo, builtin)
	}
	send := func(student, answer, extra string) wire.AnswerVerdict {
		t.Helper()
		w := a.req(t, "POST", ClassesPath+"/"+m.Class+"/answers", "", answerBody(student, file, id, answer, extra))
		var v wire.AnswerVerdict
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &v) != nil {
			t.Fatalf("%s answering %s: %d %s", student, answer, w.Code, w.Body)
		}
		if want := wire.ExerciseSeed(wire.ClassScope(m.Class), student, level1, file, id); v.Seed != want {
			t.Errorf("%s was judged on seed %d, want %d", student, v.Seed, want)
		}
		return v
	}
	// Each with the other's gold, claiming it right: wrong, both.
	for _, c := range []struct{ student, answer string }{{"Ann", bo}, {"Bo", ann}, {"Ann", builtin}} {
		if v := send(c.student, c.answer, `"verdict":"CORRECT","correct":true`); v.Correct || v.Verdict == "CORRECT" || v.Parity == nil || *v.Parity {
			t.Errorf("%s with another variant's gold %s: %+v, want a wrong answer and a parity failure", c.student, c.answer, v)
		}
	}
	// Each with their own: right.
	for _, c := range []struct{ student, answer string }{{"Ann", ann}, {"Bo", bo}} {
		if v := send(c.student, c.answer, ""); !v.Correct || v.Verdict != "CORRECT" {
			t.Errorf("%s with their own gold %s: %+v", c.student, c.answer, v)
		}
	}
	// A request cannot name the seed.
	other := wire.ExerciseSeed(wire.ClassScope(m.Class), "Bo", level1, file, id)
	if w := a.req(t, "POST", ClassesPath+"/"+m.Class+"/answers", "", answerBody("Ann", file, id, bo, fmt.Sprintf(`"seed":%d`, other))); w.Code != 400 {
		t.Errorf("an answer naming a seed: %d %s, want 400", w.Code, w.Body)
	}

	v := a.view(t, m)
	for _, s := range v.Students {
		want := wire.ExerciseSeed(wire.ClassScope(m.Class), s.Student, level1, file, id)
		var right []bool
		for _, x := range s.Answers {
			right = append(right, x.Correct)
			if x.Seed != want {
				t.Errorf("the view's seed of %s: %d, want %d", s.Student, x.Seed, want)
			}
		}
		if wantRight := map[string]string{"Ann": "[false false true]", "Bo": "[false true]"}[s.Student]; fmt.Sprint(right) != wantRight {
			t.Errorf("%s's answers kept as %v, want %s", s.Student, right, wantRight)
		}
	}
}

// TestClassStudentNames: the answers door reads a name as the Classroom's form does
// (wire.StudentName): " Ann ", "Ann" and "\tAnn\n" are one student, judged on Ann's variant, counted
// toward Ann's limit, kept and listed once as "Ann", with an answer kept before with spaces around
// the name (as the door kept them) among hers; a level named by its number is its folder's. Names
// that differ inside (case, inner spaces) stay students of their own.
func TestClassStudentNames(t *testing.T) {
	a := newClassAPI(t, ClassLimits{AnswersPerStudent: 4})
	file, id, _ := goldSample(t)
	m := a.create(t, "names")
	ann := studentGold(t, m.Class, "Ann", file, id)
	// An answer kept before the door read names so: the view lists it as Ann's.
	if err := a.store.Add(context.Background(), m.Class, class.Answer{Student: " Ann ", Level: level1, File: file, ID: id, Answer: "[Old()]",
		Verdict: "API_NAME_MISMATCH", At: a.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	answers := ClassesPath + "/" + m.Class + "/answers"
	for _, tt := range []struct{ student, level string }{
		{" Ann ", level1},
		{"Ann", level1},
		{"\tAnn\n", "1"},
		{"Ann", "level-1"},
		{"ann", level1},
		{"Ann  Lee", level1},
	} {
		body := strings.Replace(answerBody(tt.student, file, id, ann, ""), `"level":"`+level1+`"`, `"level":"`+tt.level+`"`, 1)
		w := a.req(t, "POST", answers, "", body)
		var v wire.AnswerVerdict
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &v) != nil {
			t.Fatalf("%q on level %q: %d %s", tt.student, tt.level, w.Code, w.Body)
		}
		want := wire.ExerciseSeed(wire.ClassScope(m.Class), strings.TrimSpace(tt.student), level1, file, id)
		if v.Seed != want || v.Correct != (strings.TrimSpace(tt.student) == "Ann") {
			t.Errorf("%q on level %q: seed %d, correct %v; want seed %d, right only for Ann", tt.student, tt.level, v.Seed, v.Correct, want)
		}
	}
	// Four of Ann's answers in this minute, however her name was sent: the fifth is over her limit.
	if w := a.req(t, "POST", answers, "", answerBody("  Ann", file, id, ann, "")); w.Code != http.StatusTooManyRequests {
		t.Errorf("Ann's 5th answer of the minute, sent as \"  Ann\": %d %s, want 429", w.Code, w.Body)
	}

	v := a.view(t, m)
	var got []string
	for _, s := range v.Students {
		var levels []string
		for _, x := range s.Answers {
			levels = append(levels, x.Level)
			if x.Seed != wire.ExerciseSeed(wire.ClassScope(m.Class), s.Student, level1, file, id) {
				t.Errorf("%s's answer %q has seed %d, not theirs", s.Student, x.Answer, x.Seed)
			}
		}
		got = append(got, fmt.Sprintf("%s: %d on %s", s.Student, len(s.Answers), strings.Join(slices.Compact(levels), ",")))
	}
	if want := []string{"Ann: 5 on " + level1, "ann: 1 on " + level1, "Ann  Lee: 1 on " + level1}; !slices.Equal(got, want) {
		t.Errorf("the teacher's view lists %q, want %q", got, want)
	}
	kept, err := a.store.Answers(context.Background(), m.Class)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kept[1:] { // the first is the one kept before
		if k.Student != strings.TrimSpace(k.Student) || k.Level != level1 {
			t.Errorf("kept as %q on %q: want the name without spaces around it and the level's folder", k.Student, k.Level)
		}
	}

	// A level that is none is refused by name, with the levels.
	w := a.req(t, "POST", answers, "", strings.Replace(answerBody("Ann", file, id, ann, ""), `"level":"`+level1+`"`, `"level":"7"`, 1))
	if w.Code != 400 || !strings.Contains(w.Body.String(), `\"level\": no level \"7\": the levels are level-1-given-desc (1), level-2-toolsearcher (2), level-3 (3)`) {
		t.Errorf("level \"7\": %d %s, want 400 naming it and the levels", w.Code, w.Body)
	}
}
