package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
