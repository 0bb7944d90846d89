package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/class/wire"
	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/boardtest"
)

// nativePool gives each request a new in-process engine session (what the Worker does).
type nativePool struct {
	mu       sync.Mutex
	acquired int
	released int
	dead     int
}

func (p *nativePool) Acquire(ctx context.Context) (protocol.Transport, func(bool), error) {
	p.mu.Lock()
	p.acquired++
	p.mu.Unlock()
	s := engine.New()
	return func(_ context.Context, b []byte) ([]byte, error) { return s.Handle(b), nil }, func(dead bool) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.released++
		if dead {
			p.dead++
		}
	}, nil
}

// slowPool's engine never answers: each call waits for its context to end.
type slowPool struct{}

func (slowPool) Acquire(ctx context.Context) (protocol.Transport, func(bool), error) {
	return func(ctx context.Context, b []byte) ([]byte, error) {
		<-ctx.Done()
		return nil, fmt.Errorf("engine stopped: %w", ctx.Err())
	}, func(bool) {}, nil
}

// emptyPool never has a session free.
type emptyPool struct{}

func (emptyPool) Acquire(ctx context.Context) (protocol.Transport, func(bool), error) {
	return nil, nil, errors.New("the engine is starting")
}

// exchange is one request of the table and what it must answer.
type exchange struct {
	name, method, path string
	header             map[string]string
	body               string
	status             int
	// contains are texts the answer must contain.
	contains []string
}

func do(t *testing.T, h http.Handler, x exchange) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(x.method, x.path, strings.NewReader(x.body))
	for k, v := range x.header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// levelOneSamples lists the builtin data's level-1 samples, as an engine of this process gives them.
func levelOneSamples(t *testing.T) []protocol.SampleView {
	t.Helper()
	s := engine.New()
	ss, err := protocol.Call[[]protocol.SampleView](context.Background(), func(_ context.Context, b []byte) ([]byte, error) { return s.Handle(b), nil },
		protocol.Request{Op: protocol.OpSamples, Level: "level-1-given-desc"})
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// builtinPreds are a few prediction lines of the builtin data, one of them bad, with the JSONL body.
func builtinPreds(t *testing.T) string {
	t.Helper()
	ss := levelOneSamples(t)
	var b strings.Builder
	for _, sm := range ss[:6] {
		line, _ := json.Marshal(map[string]any{"file": sm.File, "id": sm.ID, "pred": "[Calculator(formula='1+1')] <ok>"})
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteString("{not json\n")
	b.WriteString(`{"file":"nope.jsonl","id":0,"pred":"x"}` + "\n")
	// One call of a gold call set of two: a verdict with its per-call "calls".
	b.WriteString(`{"file":"par-stock-01.jsonl","id":0,"pred":"[QueryStock(stock_code='AAPL', date='2023-03-29')]"}` + "\n")
	return b.String()
}

// covered records (path, method, status) answered by the tests, to compare with the document.
type covered struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (c *covered) add(path, method string, status int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[fmt.Sprintf("%s %s %d", strings.ToLower(method), path, status)] = true
}

// TestAnswersMatchTheDocument sends requests of every kind to the handler and validates each answer
// against openapi.json; then every path, method and status the document lists must have been seen.
func TestAnswersMatchTheDocument(t *testing.T) {
	v, err := newValidator(openAPI)
	if err != nil {
		t.Fatal(err)
	}
	var cov covered
	preds := builtinPreds(t)
	predLines := strings.Split(strings.TrimSpace(preds), "\n")
	var jsonPreds []json.RawMessage
	for _, l := range predLines[:6] {
		jsonPreds = append(jsonPreds, json.RawMessage(l))
	}
	scoreJSON, _ := json.Marshal(ScoreRequest{State: "fresh", Predictions: jsonPreds})
	jsonType := map[string]string{"Content-Type": "application/json"}
	ndjson := map[string]string{"Accept": NDJSON}
	pool := &nativePool{}
	store := tempStore(t)
	h := New(pool, Limits{MaxLines: 10, MaxBody: 64 << 10}, WithClasses(Classes{Store: store, Limits: ClassLimits{ClassesPerAddress: 2, AnswersPerStudent: 3}}),
		WithBoard(Board{Store: store, Engine: "doc", Limits: BoardLimits{MaxBody: 1 << 20, SubmissionsPerAddress: 3}}))
	classTests := documentClassExchanges(t, h)
	boardTests := documentBoardExchanges(t, h)
	tests := []exchange{
		{"health", "GET", "/healthz", nil, "", 200, []string{`"status":"ok"`}},
		{"health HEAD", "HEAD", "/healthz", nil, "", 200, nil},
		{"openapi", "GET", "/api/v1/openapi.json", nil, "", 200, []string{`"openapi": "3.1.0"`}},
		{"score JSONL", "POST", "/api/v1/score", nil, preds, 200, []string{`"lines":[`, `"category":`, `{"error":"no dialogue file \"nope.jsonl\" in builtin","line":8}`, `"report":{"state":"replay"`}},
		{"score JSONL fresh", "POST", "/api/v1/score?state=fresh", nil, preds, 200, []string{`"report":{"state":"fresh"`}},
		{"score NDJSON", "POST", "/api/v1/score", ndjson, preds, 200, []string{"\n{\"report\":{"}},
		{"score JSON", "POST", "/api/v1/score", jsonType, string(scoreJSON), 200, []string{`"state":"fresh"`}},
		{"score empty", "POST", "/api/v1/score", nil, "", 200, []string{`"lines":[]`}},
		{"score bad JSON", "POST", "/api/v1/score", jsonType, "{\"predictions\": [\n{\"file\": 1,,}]}", 400, []string{`"line":2`, "bad_request"}},
		{"score unknown member", "POST", "/api/v1/score", jsonType, `{"predictions": [], "preds": ""}`, 400, []string{`unknown field \"preds\"`}},
		{"score no predictions", "POST", "/api/v1/score", jsonType, `{"state": "fresh"}`, 400, []string{`no \"predictions\"`}},
		{"score bad state", "POST", "/api/v1/score?state=stale", nil, preds, 400, []string{"stale"}},
		{"score empty data", "POST", "/api/v1/score", jsonType, `{"data": {"files": {}}, "predictions": []}`, 400, []string{"no files"}},
		{"score too many lines", "POST", "/api/v1/score", nil, "\n" + strings.Repeat(predLines[0]+"\n", 11), 413, []string{`"line":12`, "too_large", "limit is 10"}},
		{"score too many predictions", "POST", "/api/v1/score", jsonType, `{"predictions": [` + strings.Repeat(`{},`, 10) + `{}]}`, 413, []string{`"line":11`}},
		{"score body too large", "POST", "/api/v1/score", nil, strings.Repeat("x", 70_000), 413, []string{"65536 bytes"}},
		{"rouge JSONL", "POST", "/api/v1/rouge", nil, "{\"ref\":\"the cat sat\",\"hyp\":\"the cat\"}\nnot a pair\n{\"ref\":\"x\",\"hyp\":\"\"}\n", 200,
			[]string{`{"f":`, `{"error":"line 2: not a JSON object`, `{"error":"Hypothesis is empty."}`}},
		{"rouge NDJSON", "POST", "/api/v1/rouge", ndjson, "{\"ref\":\"a b\",\"hyp\":\"a b\"}\n", 200, []string{"{\"f\":0.99"}},
		{"rouge JSON", "POST", "/api/v1/rouge", jsonType, `{"pairs":[{"ref":"a b c","hyp":"a c"}]}`, 200, []string{`"results":[{"f":`}},
		{"rouge bad JSON", "POST", "/api/v1/rouge", jsonType, `{"pairs":[{"ref":1}]}`, 400, []string{"bad_request"}},
		{"rouge too many", "POST", "/api/v1/rouge", nil, strings.Repeat("{\"ref\":\"a\",\"hyp\":\"a\"}\n", 11), 413, []string{`"line":11`}},
		{"rouge body too large", "POST", "/api/v1/rouge", nil, strings.Repeat("x", 70_000), 413, nil},
		{"catalog", "GET", "/api/v1/catalog", nil, "", 200, []string{`"catalog":"apis"`, `"type":"function"`}},
		{"catalog lv3", "GET", "/api/v1/catalog?name=lv3_apis", nil, "", 200, []string{`"catalog":"lv3_apis"`}},
		{"catalog unknown", "GET", "/api/v1/catalog?name=nope", nil, "", 400, []string{`unknown catalog \"nope\"`}},
		{"prompts", "GET", "/api/v1/prompts?level=level-3&form=native&model=m-1", nil, "", 200, []string{`{"model":"m-1","messages":[`, `"tools":[{"type":"function","function":{`, `"role":"tool"`}},
		{"prompts text", "GET", "/api/v1/prompts?level=level-3", nil, "", 200, []string{`{"model":"MODEL","messages":[{"role":"user","content":`}},
		{"prompts bad form", "GET", "/api/v1/prompts?form=yaml", nil, "", 400, []string{"yaml"}},
		{"prompts bad level", "GET", "/api/v1/prompts?level=level-9", nil, "", 400, []string{`no level \"level-9\"`, "level-1-given-desc (1)"}},
		{"dataset", "GET", "/api/v1/dataset", nil, "", 200, []string{`"tools_total":`}},
		{"unknown path", "GET", "/api/v1/nope", nil, "", 404, []string{"not_found", "/api/v1/nope"}},
	}
	// A method a path does not take, for every path.
	for p, item := range v.doc["paths"].(map[string]any) {
		method := ""
		for _, m := range []string{"DELETE", "GET", "PUT"} {
			if _, ok := item.(map[string]any)[strings.ToLower(m)]; !ok && method == "" {
				method = m
			}
		}
		tests = append(tests, exchange{"405 " + p, method, p, nil, "", 405, []string{"method_not_allowed"}})
	}
	tests = append(tests, classTests...)
	tests = append(tests, boardTests...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := do(t, h, tt)
			checkExchange(t, v, &cov, tt, rec)
		})
	}
	pool.mu.Lock()
	if pool.acquired != pool.released || pool.dead != 0 {
		t.Errorf("%d sessions acquired, %d released, %d reported dead", pool.acquired, pool.released, pool.dead)
	}
	pool.mu.Unlock()

	// Every operation that works on the engine: 408 when the engine outlives the time limit, 503
	// when no engine is free.
	slow := New(slowPool{}, Limits{Timeout: 30 * time.Millisecond})
	none := New(emptyPool{}, Limits{})
	for _, p := range []string{"/api/v1/score", "/api/v1/rouge", "/api/v1/catalog", "/api/v1/prompts", "/api/v1/dataset", "/healthz"} {
		method := "GET"
		if p == "/api/v1/score" || p == "/api/v1/rouge" {
			method = "POST"
		}
		if p != "/healthz" {
			x := exchange{"408 " + p, method, p, nil, "", 408, []string{"timeout", "30ms limit"}}
			checkExchange(t, v, &cov, x, do(t, slow, x))
		}
		x := exchange{"503 " + p, method, p, nil, "", 503, []string{"busy", "the engine is starting"}}
		rec := do(t, none, x)
		checkExchange(t, v, &cov, x, rec)
		if rec.Header().Get("Retry-After") != "1" {
			t.Errorf("503 of %s: Retry-After %q", p, rec.Header().Get("Retry-After"))
		}
	}

	// The same for a class's answers, which the engine judges.
	slowClasses := New(slowPool{}, Limits{Timeout: 30 * time.Millisecond}, WithClasses(Classes{Store: tempStore(t)}))
	noneClasses := New(emptyPool{}, Limits{}, WithClasses(Classes{Store: tempStore(t)}))
	file, id, gold := goldSample(t)
	for _, x := range []struct {
		h      http.Handler
		status int
		code   string
	}{{slowClasses, 408, "timeout"}, {noneClasses, 503, "busy"}} {
		rec := do(t, x.h, exchange{method: "POST", path: ClassesPath, body: `{"name":"slow"}`})
		var m wire.ClassMade
		if rec.Code != 201 || json.Unmarshal(rec.Body.Bytes(), &m) != nil {
			t.Fatalf("making a class: %d %s", rec.Code, rec.Body)
		}
		ex := exchange{fmt.Sprint(x.status, " class answer"), "POST", ClassesPath + "/" + m.Class + "/answers", nil, answerBody("Ann", file, id, gold, ""), x.status, []string{x.code}}
		checkExchange(t, v, &cov, ex, do(t, x.h, ex))
	}
	// And a board submission, which the engine judges.
	noneBoard := New(emptyPool{}, Limits{}, WithBoard(Board{Store: tempStore(t)}))
	sub, _ := json.Marshal(boardtest.Run(t, run.Text, "level-1-given-desc"))
	ex := exchange{"503 board submission", "POST", BoardPath, nil, string(sub), 503, []string{"busy"}}
	checkExchange(t, v, &cov, ex, do(t, noneBoard, ex))

	var missing []string
	for p, item := range v.doc["paths"].(map[string]any) {
		for m, op := range item.(map[string]any) {
			if m == "parameters" {
				continue
			}
			for status := range op.(map[string]any)["responses"].(map[string]any) {
				key := fmt.Sprintf("%s %s %s", m, p, status)
				if status == "405" {
					key = "405 " + p
				}
				if !cov.seen[key] {
					missing = append(missing, key)
				}
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("documented answers no test saw: %v", missing)
	}
}

// checkExchange checks status, texts, and the body against the document; it records the answer.
func checkExchange(t *testing.T, v *validator, cov *covered, x exchange, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.String()
	if rec.Code != x.status {
		t.Fatalf("%s: status %d, want %d: %s", x.name, rec.Code, x.status, body)
	}
	for _, c := range x.contains {
		if !strings.Contains(body, c) {
			t.Errorf("%s: answer lacks %s:\n%.600s", x.name, c, body)
		}
	}
	if x.status == 405 {
		cov.mu.Lock()
		if cov.seen == nil {
			cov.seen = map[string]bool{}
		}
		cov.seen["405 "+x.path] = true
		cov.mu.Unlock()
		if rec.Header().Get("Allow") == "" {
			t.Errorf("%s: 405 without Allow", x.name)
		}
	}
	path := documentPath(x.path)
	if x.status != 405 {
		cov.add(path, x.method, x.status)
	}
	if x.method == "HEAD" {
		return
	}
	if x.status == 204 {
		if _, err := v.response(path, x.method, x.status); err != nil || rec.Body.Len() != 0 {
			t.Errorf("%s: 204 with %d bytes (%v)", x.name, rec.Body.Len(), err)
		}
		return
	}
	if x.status == 404 {
		var e any
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", x.name, err)
		}
		if err := v.check(map[string]any{"$ref": "#/components/schemas/Error"}, e, "answer"); err != nil {
			t.Errorf("%s: %v", x.name, err)
		}
		return
	}
	resp, err := v.response(path, x.method, x.status)
	if err != nil {
		t.Fatalf("%s: %v", x.name, err)
	}
	if err := v.checkAnswer(resp, rec.Header().Get("Content-Type"), rec.Body.Bytes()); err != nil {
		t.Errorf("%s: %v\n%.400s", x.name, err, body)
	}
}

// TestBusy: past MaxConcurrent requests at once, the next one gets 503 with Retry-After at once.
func TestBusy(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	pool := poolFunc(func(ctx context.Context) (protocol.Transport, func(bool), error) {
		entered <- struct{}{}
		<-release
		return nil, nil, errors.New("released")
	})
	h := New(pool, Limits{MaxConcurrent: 1, RetryAfter: 3 * time.Second})
	done := make(chan struct{})
	go func() {
		defer close(done)
		do(t, h, exchange{method: "GET", path: "/api/v1/dataset"})
	}()
	<-entered
	rec := do(t, h, exchange{method: "GET", path: "/api/v1/dataset"})
	close(release)
	<-done
	if rec.Code != 503 || rec.Header().Get("Retry-After") != "3" || !strings.Contains(rec.Body.String(), "working on 1 requests") {
		t.Fatalf("second request: %d Retry-After %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
}

type poolFunc func(ctx context.Context) (protocol.Transport, func(bool), error)

func (f poolFunc) Acquire(ctx context.Context) (protocol.Transport, func(bool), error) { return f(ctx) }

// TestSlowBody: a body that stops arriving gets 408 within the time limit, over a real connection.
func TestSlowBody(t *testing.T) {
	srv := httptest.NewServer(New(&nativePool{}, Limits{Timeout: 300 * time.Millisecond}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/score HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"file\":")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	resp, err := http.ReadResponse(bufioReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 408 || !strings.Contains(string(body), "did not arrive") {
		t.Fatalf("a stalled body: %d %s", resp.StatusCode, body)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("408 after %s", took)
	}
}

// TestDeadSessionsAreReported: a transport failure releases the session as dead.
func TestDeadSessionsAreReported(t *testing.T) {
	var dead []bool
	pool := poolFunc(func(ctx context.Context) (protocol.Transport, func(bool), error) {
		return func(context.Context, []byte) ([]byte, error) { return nil, errors.New("trap") },
			func(d bool) { dead = append(dead, d) }, nil
	})
	rec := do(t, New(pool, Limits{}), exchange{method: "GET", path: "/api/v1/dataset"})
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), "trap") || len(dead) != 1 || !dead[0] {
		t.Fatalf("%d %s, released %v", rec.Code, rec.Body.String(), dead)
	}
}

// TestScoreLinesAreTheCLIs: the JSON and NDJSON answers carry the same lines, and the report's
// bytes indented are what --json prints (encoding/json, two spaces).
func TestScoreLinesAreTheCLIs(t *testing.T) {
	h := New(&nativePool{}, Limits{})
	preds := builtinPreds(t)
	js := do(t, h, exchange{method: "POST", path: "/api/v1/score", body: preds})
	nd := do(t, h, exchange{method: "POST", path: "/api/v1/score", body: preds, header: map[string]string{"Accept": NDJSON}})
	var answer struct {
		Lines  []json.RawMessage `json:"lines"`
		Report json.RawMessage   `json:"report"`
	}
	if err := json.Unmarshal(js.Body.Bytes(), &answer); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(nd.Body.String(), "\n"), "\n")
	if len(lines) != len(answer.Lines)+1 {
		t.Fatalf("NDJSON has %d lines, JSON %d lines + report", len(lines), len(answer.Lines))
	}
	for i, l := range answer.Lines {
		if string(l) != lines[i] {
			t.Errorf("line %d differs:\n%s\n%s", i+1, l, lines[i])
		}
	}
	s := engine.New()
	req, _ := protocol.Encode(protocol.Request{Op: protocol.OpScore, Preds: preds})
	b, err := protocol.Decode[protocol.Batch](protocol.OpScore, s.Handle(req))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := b.EachLine(func(l []byte) error { want.Write(l); want.WriteByte('\n'); return nil }); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(lines[:len(lines)-1], "\n") + "\n"; got != want.String() {
		t.Errorf("NDJSON lines differ from the engine's batch written as --out")
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, answer.Report, "", "  "); err != nil {
		t.Fatal(err)
	}
	var cli bytes.Buffer
	enc := json.NewEncoder(&cli)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(b.Report)
	if indented.String()+"\n" != cli.String() {
		t.Errorf("the report is not --json's, indented:\n%s\nvs\n%s", indented.String(), cli.String())
	}
}

func TestOverLimit(t *testing.T) {
	tests := []struct {
		body string
		max  int
		want int
	}{
		{"", 1, 0},
		{"a\nb\n", 2, 0},
		{"a\nb\nc", 2, 3},
		{"a\r\n\r\n  \nb\rc\n", 2, 5},
		{"a\n\n\nb", 1, 4},
	}
	for _, tt := range tests {
		if got := overLimit([]byte(tt.body), tt.max); got != tt.want {
			t.Errorf("overLimit(%q, %d) = %d, want %d", tt.body, tt.max, got, tt.want)
		}
	}
}

func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReader(r) }

// TestLimitAboveWriteTimeout: a time limit longer than the server's write timeout still ends in an
// answer (here the limit's 408), not a connection closed with no word.
func TestLimitAboveWriteTimeout(t *testing.T) {
	srv := httptest.NewUnstartedServer(New(slowPool{}, Limits{Timeout: 400 * time.Millisecond}))
	srv.Config.WriteTimeout = 100 * time.Millisecond
	srv.Start()
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/v1/dataset")
	if err != nil {
		t.Fatalf("no answer past the write timeout: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "limit") {
		t.Fatalf("want the limit's 408, got %d %s", resp.StatusCode, body)
	}
}
