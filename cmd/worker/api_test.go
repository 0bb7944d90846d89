package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/class"
	"github.com/apibank-playground/apibank/class/sqlite"
)

// The Worker's whole handler with the real API over fresh in-process sessions, natively: each
// endpoint answers, the Worker's own body limit holds, and the error shape is the API's.
func TestWorkerAPI(t *testing.T) {
	h := newHandler(slog.New(slog.NewTextHandler(io.Discard, nil)), apiHandler())
	tests := []struct {
		name, method, path, ctype, body string
		status                          int
		want                            string // a substring of the answer
	}{
		{"health", "GET", "/healthz", "", "", 200, `"status":"ok"`},
		{"catalog", "GET", "/api/v1/catalog?name=apis", "", "", 200, `"function"`},
		{"dataset", "GET", "/api/v1/dataset", "", "", 200, `"dialogues"`},
		{"openapi", "GET", "/api/v1/openapi.json", "", "", 200, `"openapi"`},
		{"rouge", "POST", "/api/v1/rouge", "application/json", `{"pairs":[{"ref":"a b c","hyp":"a b c"}]}`, 200, `"results":[{"f":0.9`},
		{"score line error", "POST", "/api/v1/score", "", "not JSON\n", 200, `"report"`},
		{"score bad json", "POST", "/api/v1/score", "application/json", "{", 400, `"code":"bad_request"`},
		{"score too large", "POST", "/api/v1/score", "", strings.Repeat("x", maxBody+1), 413, `"code":"too_large"`},
		{"wrong method", "GET", "/api/v1/score", "", "", 405, `"code":"method_not_allowed"`},
		{"unknown endpoint", "GET", "/api/v1/nope", "", "", 404, `"code":"not_found"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
			if tc.ctype != "" {
				req.Header.Set("Content-Type", tc.ctype)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %.300s", rec.Code, tc.status, rec.Body.String())
			}
			if !strings.Contains(rec.Body.String(), tc.want) {
				t.Errorf("answer lacks %s: %.300s", tc.want, rec.Body.String())
			}
			if rec.Header().Get("Content-Security-Policy") == "" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("no security headers: %v", rec.Header())
			}
			if rec.Code >= 400 {
				var e errorBody
				if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error.Message == "" {
					t.Errorf("an error answer not in the API's shape: %.300s", rec.Body.String())
				}
			}
		})
	}
}

// A page path the assets did not answer gets the API's error shape too.
func TestNotFoundShape(t *testing.T) {
	h := newHandler(slog.New(slog.NewTextHandler(io.Discard, nil)), http.NotFoundHandler())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/missing", nil))
	var e errorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error.Code != "not_found" || !strings.Contains(e.Error.Message, "/missing") {
		t.Errorf("404 answer %q (err %v)", rec.Body.String(), err)
	}
}

// The Worker's class wiring, natively over the SQLite store (the same SQLStore the Worker builds on
// D1; D1 itself is tested on workerd in e2e/tests/worker-class.test.mjs): the store is opened once
// and only for a class path; no store leaves the class endpoints out; a store that fails to open is
// a 500 in the API's shape while the rest of the API answers.
func TestWorkerClassAPI(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	do := func(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
		return rec
	}
	t.Run("sqlite store", func(t *testing.T) {
		opened := 0
		h := classAPI(logger, func(ctx context.Context) (class.Store, error) {
			opened++
			return sqlite.Open(ctx, filepath.Join(t.TempDir(), "classes.db"), "")
		})
		if rec := do(h, "GET", "/healthz", ""); rec.Code != 200 || opened != 0 {
			t.Fatalf("/healthz answered %d and opened the store %d times", rec.Code, opened)
		}
		rec := do(h, "POST", "/api/v1/classes", `{"name":"Maths 3B"}`)
		if rec.Code != 201 {
			t.Fatalf("POST /api/v1/classes answered %d: %s", rec.Code, rec.Body.String())
		}
		var made struct {
			Class      string `json:"class"`
			TeacherKey string `json:"teacher_key"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &made); err != nil || made.Class == "" {
			t.Fatalf("answer %s (err %v)", rec.Body.String(), err)
		}
		if rec := do(h, "GET", "/api/v1/classes/"+made.Class, ""); rec.Code != 401 {
			t.Errorf("GET without the key answered %d", rec.Code)
		}
		withKey := func(method string) int {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(method, "/api/v1/classes/"+made.Class, nil)
			req.Header.Set("Authorization", "Bearer "+made.TeacherKey)
			h.ServeHTTP(rec, req)
			return rec.Code
		}
		if got := withKey("GET"); got != 200 {
			t.Errorf("GET with the key answered %d", got)
		}
		if got := withKey("DELETE"); got != 204 {
			t.Errorf("DELETE with the key answered %d", got)
		}
		if got := withKey("GET"); got != 404 {
			t.Errorf("GET of the deleted class answered %d", got)
		}
		if opened != 1 {
			t.Errorf("the store was opened %d times, want once", opened)
		}
	})
	t.Run("no store", func(t *testing.T) {
		h := classAPI(logger, func(context.Context) (class.Store, error) { return nil, nil })
		if rec := do(h, "POST", "/api/v1/classes", `{"name":"x"}`); rec.Code != 404 || !strings.Contains(rec.Body.String(), `"code":"not_found"`) {
			t.Errorf("with no store POST /api/v1/classes answered %d: %s", rec.Code, rec.Body.String())
		}
	})
	t.Run("store fails", func(t *testing.T) {
		h := classAPI(logger, func(context.Context) (class.Store, error) { return nil, errors.New("no such table") })
		rec := do(h, "POST", "/api/v1/classes", `{"name":"x"}`)
		var e errorBody
		if rec.Code != 500 || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error.Code != "internal" {
			t.Errorf("a failed store answered %d: %s", rec.Code, rec.Body.String())
		}
		if rec := do(h, "GET", "/healthz", ""); rec.Code != 200 {
			t.Errorf("after a failed store /healthz answered %d", rec.Code)
		}
	})
}
