package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// stubAPI stands for api: it answers with the path it got, so the test sees the routing.
var stubAPI = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, "api "+r.Method+" "+r.URL.Path)
})

func TestHandlerRoutes(t *testing.T) {
	var logs bytes.Buffer
	h := newHandler(slog.New(slog.NewJSONHandler(&logs, nil)), stubAPI)
	tests := []struct {
		method, path string
		status       int
		ctype        string
		body         string // a substring the body must hold
	}{
		{"GET", "/healthz", 200, "text/plain", "api GET /healthz"},
		{"POST", "/healthz", 200, "text/plain", "api POST /healthz"}, // the API answers its own 405s
		{"GET", "/healthzz", 404, "application/json", `"code":"not_found"`},
		{"POST", "/api/v1/score", 200, "text/plain", "api POST /api/v1/score"},
		{"GET", "/api/v1/catalog", 200, "text/plain", "api GET /api/v1/catalog"},
		{"GET", "/no/such/page", 404, "application/json", `"code":"not_found"`},
		{"GET", "/", 404, "application/json", "no page, file or API route at /"},
		{"POST", "/score", 405, "text/plain; charset=utf-8", "Method Not Allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(tc.method, tc.path+"?key=sk-in-query", strings.NewReader("sk-in-body"))
			req.Header.Set("Authorization", "Bearer sk-in-header")
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d (body %q)", rec.Code, tc.status, rec.Body.String())
			}
			if got := rec.Header().Get("Content-Type"); got != tc.ctype {
				t.Errorf("Content-Type %q, want %q", got, tc.ctype)
			}
			if !strings.Contains(rec.Body.String(), tc.body) {
				t.Errorf("body %q lacks %q", rec.Body.String(), tc.body)
			}
			for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options", "Cross-Origin-Opener-Policy"} {
				if rec.Header().Get(k) == "" {
					t.Errorf("no %s header", k)
				}
			}
		})
	}
	// The notable requests' lines (the first, then those after which the instance held more memory
	// than ever: none failed), each a JSON object naming its path and the memory the instance holds.
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) == 0 || len(lines) > len(tests) {
		t.Fatalf("%d log lines for %d requests:\n%s", len(lines), len(tests), logs.String())
	}
	next, high := 0, uint64(0)
	for i, l := range lines {
		var rec struct {
			Msg, Path string
			Status    int
			Sys       uint64 `json:"sys_bytes"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Msg != "request" {
			t.Fatalf("log line %d = %s (err %v), want a request line", i+1, l, err)
		}
		for next < len(tests) && tests[next].path != rec.Path {
			next++
		}
		if next == len(tests) || (i == 0 && next != 0) || rec.Status != tests[next].status {
			t.Errorf("log line %d = %s: not the line of a request in order (the first request's first)", i+1, l)
		}
		next++
		if rec.Sys <= high {
			t.Errorf("log line %d = %s: says no more memory (%d) than a line before (%d)", i+1, l, rec.Sys, high)
		}
		high = rec.Sys
	}
	// No key, wherever the request carried it, reaches the log.
	if strings.Contains(logs.String(), "sk-in-") {
		t.Errorf("a key reached the log:\n%s", logs.String())
	}
}

// A panic in the API is a 500 with the security headers, and the next request is served.
func TestHandlerSurvivesPanic(t *testing.T) {
	var logs bytes.Buffer
	boom := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })
	h := newHandler(slog.New(slog.NewJSONHandler(&logs, nil)), boom)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/score", nil))
	if rec.Code != 500 || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("panic answered %d with headers %v", rec.Code, rec.Header())
	}
	if !strings.Contains(logs.String(), "handler panicked") {
		t.Errorf("the panic is not logged: %s", logs.String())
	}
	if !strings.Contains(logs.String(), `"msg":"request","method":"POST","path":"/api/v1/score","status":500`) {
		t.Errorf("the failed request has no access line: %s", logs.String())
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/no-such-page", nil))
	if rec.Code != 404 {
		t.Errorf("after a panic a page answered %d", rec.Code)
	}
}

// countingBody is a request body that counts the bytes read from it and whether it was closed.
type countingBody struct {
	r      io.Reader
	read   int64
	closed bool
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += int64(n)
	return n, err
}

func (b *countingBody) Close() error {
	b.closed = true
	return nil
}

// TestHandlerReadsTheRest: what a handler leaves of a request body (a 413 stops at the limit) is
// read to its end, up to restMax, and the body closed.
func TestHandlerReadsTheRest(t *testing.T) {
	for _, c := range []struct {
		name       string
		size, used int64 // the body's size and what the handler reads of it
		want       int64 // read in all
	}{
		{"all read by the handler", 1000, 1000, 1000},
		{"none read", 5 << 20, 0, 5 << 20},
		{"stopped at a limit", 9 << 20, 8<<20 + 1, 9 << 20},
		{"over the bound: cut off", restMax + 3<<20, 1 << 20, 1<<20 + restMax},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHandler(slog.New(slog.NewJSONHandler(io.Discard, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.CopyN(io.Discard, r.Body, c.used)
				w.WriteHeader(http.StatusRequestEntityTooLarge)
			}))
			body := &countingBody{r: io.LimitReader(zeros{}, c.size)}
			req := httptest.NewRequest("POST", "/api/v1/score", nil)
			req.Body = body
			req.ContentLength = c.size
			h.ServeHTTP(httptest.NewRecorder(), req)
			if body.read != c.want || !body.closed {
				t.Errorf("read %d bytes (want %d), closed %v", body.read, c.want, body.closed)
			}
		})
	}
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
