package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/apibank-playground/apibank/class"
	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// Classes configures the class endpoints (/api/v1/classes...): where classes are kept and what a
// client may do how often. The handlers are the same over every Store (SQLite on the server, D1 on
// the Worker).
type Classes struct {
	// Store keeps the classes; nil leaves the endpoints out (404).
	Store class.Store
	// Limits bound the endpoints; a zero field takes its default (DefaultClassLimits).
	Limits ClassLimits
	// Logger gets the parity failures (a student's tab and the server judging one answer apart)
	// and the idle classes deleted; nil discards them. No key and no student name is ever logged.
	Logger *slog.Logger
	// ClientAddr names the client of a request for the per-address limit; nil takes the host of
	// RemoteAddr.
	ClientAddr func(*http.Request) string
	// Now is the clock (nil: time.Now), for tests of the time limits.
	Now func() time.Time
}

// ClassLimits bound the class endpoints. Counts are per fixed window (a minute or an hour, aligned
// to the clock) and kept in the store, so they hold across processes and across the Worker's
// isolates: a request over one answers 429 with Retry-After, the seconds until its window ends.
type ClassLimits struct {
	// MaxBody is the largest request body of a class endpoint in bytes (413 above it).
	MaxBody int64
	// AnswersPerClass is the most answers a class takes a minute, all students together.
	AnswersPerClass int
	// AnswersPerStudent is the most answers one student of a class sends a minute.
	AnswersPerStudent int
	// ClassesPerAddress is the most classes one client address makes an hour.
	ClassesPerAddress int
}

// DefaultClassLimits are the production limits: a class of 30 checking an answer every few
// seconds each is well within them.
func DefaultClassLimits() ClassLimits {
	return ClassLimits{MaxBody: 64 << 10, AnswersPerClass: 1200, AnswersPerStudent: 60, ClassesPerAddress: 20}
}

func (l ClassLimits) withDefaults() ClassLimits {
	d := DefaultClassLimits()
	if l.MaxBody <= 0 {
		l.MaxBody = d.MaxBody
	}
	if l.AnswersPerClass <= 0 {
		l.AnswersPerClass = d.AnswersPerClass
	}
	if l.AnswersPerStudent <= 0 {
		l.AnswersPerStudent = d.AnswersPerStudent
	}
	if l.ClassesPerAddress <= 0 {
		l.ClassesPerAddress = d.ClassesPerAddress
	}
	return l
}

// Option changes the API New makes.
type Option func(*handler)

// WithClasses serves the class endpoints over c.Store.
func WithClasses(c Classes) Option {
	return func(h *handler) {
		if c.Store == nil {
			return
		}
		c.Limits = c.Limits.withDefaults()
		if c.Logger == nil {
			c.Logger = slog.New(slog.DiscardHandler)
		}
		if c.ClientAddr == nil {
			c.ClientAddr = RemoteHost
		}
		if c.Now == nil {
			c.Now = time.Now
		}
		h.classes = &classes{Classes: c}
	}
}

// CodeTooMany (429): a class limit is reached; see Retry-After.
const CodeTooMany = "too_many_requests"

// CodeUnauthorized (401): the teacher's key is missing or wrong.
const CodeUnauthorized = "unauthorized"

// ClassesPath is the class endpoints' root.
const ClassesPath = "/api/v1/classes"

// classes is the class endpoints' state: the configuration, when this process last swept, and the
// classes it found lately. The rate limits' counts are in the store (Store.Hit), not here.
type classes struct {
	Classes
	sweepMu sync.Mutex
	swept   time.Time
	seenMu  sync.Mutex
	seen    map[string]time.Time // class code → when it was found to exist
}

// seenFor is how long a class found to exist is taken to exist without asking the store again, and
// seenMax the most codes remembered. A class deleted meanwhile costs nothing: the answer's insert
// checks the class itself (Store.Add) and answers 404.
const (
	seenFor = 30 * time.Second
	seenMax = 4096
)

// exists says whether the class with code exists (nil), asking the store at most once every seenFor
// a class: an answer's first check, before its limits are counted, saves a round trip to the store.
func (c *classes) exists(ctx context.Context, code string) error {
	now := time.Now() // the real clock: a cache, not a limit
	c.seenMu.Lock()
	at, ok := c.seen[code]
	c.seenMu.Unlock()
	if ok && now.Sub(at) < seenFor {
		return nil
	}
	if _, err := c.Store.Get(ctx, code); err != nil {
		return err
	}
	c.seenMu.Lock()
	if c.seen == nil || len(c.seen) >= seenMax {
		c.seen = map[string]time.Time{}
	}
	c.seen[code] = now
	c.seenMu.Unlock()
	return nil
}

// serveClasses routes the class endpoints. Only the answers, which take an engine, count toward
// MaxConcurrent; the others are a store's work.
func (h *handler) serveClasses(w http.ResponseWriter, r *http.Request) {
	c := h.classes
	rest := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, ClassesPath), "/")
	parts := strings.Split(rest, "/")
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	allow := func(methods ...string) bool { return allowMethod(w, r, method, methods) }
	c.sweep(r.Context())
	switch {
	case rest == "":
		if allow(http.MethodPost) {
			h.createClass(w, r)
		}
	case len(parts) == 1:
		if allow(http.MethodGet, http.MethodDelete) {
			code, ok := c.lookup(w, r, parts[0])
			if !ok {
				return
			}
			if method == http.MethodGet {
				c.view(w, r, code)
			} else {
				c.delete(w, r, code)
			}
		}
	case len(parts) == 2 && parts[1] == "answers":
		if allow(http.MethodPost) {
			h.gated(func(w http.ResponseWriter, r *http.Request) { h.answer(w, r, parts[0]) })(w, r)
		}
	default:
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no API endpoint %s (the endpoints are listed at /api/v1/openapi.json)", r.URL.Path), 0)
	}
}

// allowMethod says whether method (a request's, HEAD read as GET) is one of methods, answering 405
// with Allow when it is not: the class and board endpoints route several methods a path.
func allowMethod(w http.ResponseWriter, r *http.Request, method string, methods []string) bool {
	for _, m := range methods {
		if m == method {
			return true
		}
	}
	w.Header().Set("Allow", strings.Join(methods, ", "))
	writeError(w, http.StatusMethodNotAllowed, CodeMethodNotAllowed, fmt.Sprintf("%s takes %s, not %s", r.URL.Path, strings.Join(methods, ", "), r.Method), 0)
	return false
}

// sweep deletes the classes idle for class.IdleAfter and the rate counts of ended windows, on a
// request (the Worker has no timer of its own) and at most once an hour for the whole store: the
// hour is counted in the store like a limit of one, so the Worker, whose isolates are many,
// sweeps once an hour too. This process's own memory of its last sweep spares the server that
// count on every request.
func (c *classes) sweep(ctx context.Context) {
	now := c.Now()
	c.sweepMu.Lock()
	if now.Sub(c.swept) < sweepWindow {
		c.sweepMu.Unlock()
		return
	}
	c.sweepMu.Unlock()
	ok, _, err := c.Store.Hit(ctx, limitName("sweep", "", ""), sweepWindow, 1, now)
	if err != nil {
		c.Logger.Error("counting the hourly sweep of idle classes", "error", err.Error())
		return // not marked swept: the next request tries again
	}
	c.sweepMu.Lock()
	c.swept = now
	c.sweepMu.Unlock()
	if !ok { // another process or request swept this hour
		return
	}
	n, err := c.Store.DeleteIdle(ctx, now.Add(-class.IdleAfter))
	switch {
	case err != nil:
		c.Logger.Error("deleting idle classes", "error", err.Error())
	case n > 0:
		c.Logger.Info("idle classes deleted", "count", n, "idle_days", int(class.IdleAfter.Hours()/24))
	}
	if _, err := c.Store.PruneHits(ctx, now); err != nil {
		c.Logger.Error("pruning the rate counts", "error", err.Error())
	}
}

// lookup normalises a code of the path; a code that cannot be one is a 404 like an unknown one.
func (c *classes) lookup(w http.ResponseWriter, r *http.Request, raw string) (string, bool) {
	code, ok := wire.NormalCode(raw)
	if !ok {
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no class %q: %s", raw, wire.CodeRule), 0)
	}
	return code, ok
}

// readClassBody reads a class endpoint's body within its limit and decodes it strictly into v.
func (c *classes) readClassBody(w http.ResponseWriter, r *http.Request, v any, form string) bool {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(10 * time.Second)) // the real clock, not Now
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, c.Limits.MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("the request body is over the limit of %d bytes", c.Limits.MaxBody), 0)
		return false
	case err != nil:
		writeError(w, http.StatusBadRequest, CodeBadRequest, "reading the request body: "+err.Error(), 0)
		return false
	}
	if line, err := decodeJSON(body, v); err != nil {
		writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("the body is not %s: %v", form, err), line)
		return false
	}
	return true
}

// tooMany answers 429 with Retry-After.
func tooMany(w http.ResponseWriter, wait time.Duration, why string) {
	secs := max(1, int((wait+time.Second-1)/time.Second))
	w.Header().Set("Retry-After", fmt.Sprint(secs))
	writeError(w, http.StatusTooManyRequests, CodeTooMany, fmt.Sprintf("%s; try again in %d s", why, secs), 0)
}

// storeError answers a store's failure: ErrNotFound as 404, anything else as 500 (logged, as the
// message a client gets cannot help it).
func (c *classes) storeError(w http.ResponseWriter, code string, err error) {
	if errors.Is(err, class.ErrNotFound) {
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no class %s", code), 0)
		return
	}
	c.Logger.Error("class store", "error", err.Error())
	writeError(w, http.StatusInternalServerError, CodeInternal, "the class store failed", 0)
}

func (h *handler) createClass(w http.ResponseWriter, r *http.Request) {
	c := h.classes
	var req wire.NewClass
	if !c.readClassBody(w, r, &req, `a class {"name"}`) {
		return
	}
	if err := class.CheckText("the class's name", req.Name, class.MaxName); err != nil {
		writeError(w, http.StatusBadRequest, CodeBadRequest, err.Error(), 0)
		return
	}
	if !c.take(w, r, limitName("classes-per-address", "", c.ClientAddr(r)), classWindow, c.Limits.ClassesPerAddress,
		fmt.Sprintf("this address made %d classes this hour, the limit", c.Limits.ClassesPerAddress)) {
		return
	}
	now := c.Now()
	key, hash := class.NewKey()
	made := class.Class{Name: req.Name, KeyHash: hash, Created: now.Truncate(time.Millisecond), Active: now.Truncate(time.Millisecond)}
	var err error
	for range 8 { // a taken code is rare (about 190 million codes); try another
		made.Code = class.NewCode()
		if err = c.Store.Create(r.Context(), made); !errors.Is(err, class.ErrExists) {
			break
		}
	}
	if err != nil {
		c.storeError(w, made.Code, err)
		return
	}
	writeJSON(w, http.StatusCreated, wire.ClassMade{Class: made.Code, TeacherKey: key, Name: made.Name, Created: made.Created.UTC()})
}

// authorized returns the class when the request's Authorization: Bearer KEY matches its key's
// hash, or answers 401 (or 404 for no class).
func (c *classes) authorized(w http.ResponseWriter, r *http.Request, code string) (class.Class, bool) {
	cl, err := c.Store.Get(r.Context(), code)
	if err != nil {
		c.storeError(w, code, err)
		return class.Class{}, false
	}
	scheme, key, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || !class.KeyMatches(strings.TrimSpace(key), cl.KeyHash) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="class"`)
		writeError(w, http.StatusUnauthorized, CodeUnauthorized, fmt.Sprintf("class %s needs its teacher's key: Authorization: Bearer KEY", code), 0)
		return class.Class{}, false
	}
	return cl, true
}

func (c *classes) view(w http.ResponseWriter, r *http.Request, code string) {
	cl, ok := c.authorized(w, r, code)
	if !ok {
		return
	}
	if err := c.Store.Touch(r.Context(), code, c.Now()); err != nil {
		c.storeError(w, code, err)
		return
	}
	as, err := c.Store.Answers(r.Context(), code)
	if err != nil {
		c.storeError(w, code, err)
		return
	}
	v := wire.ClassView{Class: cl.Code, Name: cl.Name, Created: cl.Created.UTC(), Students: []wire.StudentView{}}
	index := map[string]int{}
	for _, a := range as {
		// Read by wire.StudentName, as an answer is kept now: answers kept before with spaces
		// around the name are the same student's.
		a.Student = wire.StudentName(a.Student)
		i, ok := index[a.Student]
		if !ok {
			i = len(v.Students)
			index[a.Student] = i
			v.Students = append(v.Students, wire.StudentView{Student: a.Student})
		}
		v.Students[i].Answers = append(v.Students[i].Answers, wire.AnswerView{Level: a.Level, File: a.File, ID: a.ID, Answer: a.Answer, Verdict: a.Verdict, Correct: a.Correct, At: a.At.UTC(),
			Seed: wire.ExerciseSeed(wire.ClassScope(code), a.Student, a.Level, a.File, a.ID)})
	}
	writeJSON(w, http.StatusOK, v)
}

func (c *classes) delete(w http.ResponseWriter, r *http.Request, code string) {
	if _, ok := c.authorized(w, r, code); !ok {
		return
	}
	if err := c.Store.Delete(r.Context(), code); err != nil {
		c.storeError(w, code, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// answer judges a student's answer with the engine, on the student's own variant of the exercise,
// and keeps it with the engine's verdict. The variant's seed is derived here from the class, the
// student and the exercise (wire.ExerciseSeed): a request cannot name one (the strict decoder
// refuses a "seed" field), and the verdict it may carry is only compared.
func (h *handler) answer(w http.ResponseWriter, r *http.Request, raw string) {
	c := h.classes
	code, ok := c.lookup(w, r, raw)
	if !ok {
		return
	}
	var req wire.AnswerRequest
	if !c.readClassBody(w, r, &req, `an answer {"student", "level", "file", "id", "answer"}`) {
		return
	}
	// The name as the Classroom's form reads it (wire.StudentName): one student whatever spaces
	// came around it, checked as the form checks it (not empty, at most MaxStudent characters).
	req.Student = wire.StudentName(req.Student)
	if err := class.CheckText("the student's name", req.Student, class.MaxStudent); err != nil {
		writeError(w, http.StatusBadRequest, CodeBadRequest, err.Error(), 0)
		return
	}
	if req.Level != "" {
		// A level as the CLI names it (its folder, or its number): kept by its folder's name, the
		// name the tab sends, so that one exercise is one exercise (and one variant).
		level, ok := run.LevelNamed(req.Level)
		if !ok {
			writeError(w, http.StatusBadRequest, CodeBadRequest, `"level": `+run.UnknownLevel(req.Level).Error(), 0)
			return
		}
		req.Level = level
	}
	switch {
	case req.Level == "" || req.File == "" || req.ID == nil:
		writeError(w, http.StatusBadRequest, CodeBadRequest, `an answer needs "level", "file" and "id" (the sample it answers)`, 0)
		return
	case *req.ID < 0:
		writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf(`"id" %d: a sample id is not negative`, *req.ID), 0)
		return
	}
	if err := c.exists(r.Context(), code); err != nil {
		c.storeError(w, code, err)
		return
	}
	seed := wire.ExerciseSeed(wire.ClassScope(code), req.Student, req.Level, req.File, *req.ID)
	h.work(w, r, false, func(ctx context.Context, s *session) error {
		if _, err := call[protocol.Loaded](ctx, s, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed}); err != nil {
			return err
		}
		line, err := json.Marshal(map[string]any{"level": req.Level, "file": req.File, "id": *req.ID, "pred": req.Answer})
		if err != nil {
			return err
		}
		b, err := call[protocol.Batch](ctx, s, protocol.Request{Op: protocol.OpScore, Preds: string(line), Name: "class", Bare: true})
		var pe *protocol.Error
		if errors.As(err, &pe) && (pe.Code == protocol.CodeBadRequest || pe.Code == protocol.CodeNotFound) {
			writeError(w, http.StatusBadRequest, CodeBadRequest, pe.Message, 0)
			return nil
		}
		if err != nil {
			return err
		}
		s.done()
		if len(b.Results) != 1 {
			msg := "the engine judged nothing"
			if len(b.Errors) > 0 {
				msg = b.Errors[0].Message
			}
			writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("%s %s #%d: %s", req.Level, req.File, *req.ID, msg), 0)
			return nil
		}
		v := b.Results[0]
		if v.CallVerdict == nil {
			writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("%s %s #%d is a %s sample; an exercise answers a call sample", req.Level, req.File, *req.ID, v.Kind), 0)
			return nil
		}
		cv := v.Call()
		out := wire.AnswerVerdict{Verdict: cv.Category, Correct: cv.Correct, Tool: cv.Tool, Called: cv.Called, Error: cv.Error, Seed: seed}
		a := class.Answer{Student: req.Student, Level: req.Level, File: req.File, ID: *req.ID, Answer: req.Answer, Verdict: cv.Category, Correct: cv.Correct, At: c.Now()}
		quota := class.Quota{Student: limitName("answers-per-student", code, req.Student), Class: limitName("answers-per-class", code, ""),
			Window: answerWindow, PerStudent: c.Limits.AnswersPerStudent, PerClass: c.Limits.AnswersPerClass}
		err = c.Store.Take(r.Context(), code, a, quota)
		var limit *class.LimitError
		switch {
		case errors.As(err, &limit) && limit.Student:
			tooMany(w, limit.Ends.Sub(a.At), fmt.Sprintf("this student sent %d answers this minute, the limit", c.Limits.AnswersPerStudent))
			return nil
		case errors.As(err, &limit):
			tooMany(w, limit.Ends.Sub(a.At), fmt.Sprintf("class %s took %d answers this minute, the limit", code, c.Limits.AnswersPerClass))
			return nil
		case err != nil:
			c.storeError(w, code, err)
			return nil
		}
		if req.Verdict != "" || req.Correct != nil {
			same := req.Verdict == cv.Category && (req.Correct == nil || *req.Correct == cv.Correct)
			out.Parity = &same
			if !same {
				c.Logger.Warn("class answer parity failure", "class", code, "level", req.Level, "file", req.File, "id", *req.ID,
					"tab_verdict", req.Verdict, "server_verdict", cv.Category)
			}
		}
		writeJSON(w, http.StatusOK, out)
		return nil
	})
}

// RemoteHost is the host of the request's RemoteAddr (all of it when it has no port): the client's
// address for the per-address limit where no proxy in front names it.
func RemoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// The windows of the limits.
const (
	answerWindow = time.Minute
	classWindow  = time.Hour
	sweepWindow  = time.Hour
)

// limitName is the name a limit counts under in the store: its kind, then the parts that say whose
// count it is. Parts a person typed or that identify one (a student's name, a client's address)
// are kept as a hash: the counts table holds no one's name or address, only the class code.
func limitName(kind, code, who string) string {
	if who != "" {
		h := sha256.Sum256([]byte(who))
		who = hex.EncodeToString(h[:16])
	}
	return kind + " " + code + " " + who
}

// take counts a request toward a limit in the store (so that every process and Worker isolate count
// together) and answers 429 with Retry-After when the limit is reached, or 500 when the store fails.
func (c *classes) take(w http.ResponseWriter, r *http.Request, name string, length time.Duration, limit int, why string) bool {
	now := c.Now()
	ok, ends, err := c.Store.Hit(r.Context(), name, length, limit, now)
	if err != nil {
		c.storeError(w, "", err)
		return false
	}
	if !ok {
		tooMany(w, ends.Sub(now), why)
	}
	return ok
}
