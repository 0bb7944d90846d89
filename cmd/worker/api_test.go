package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/api"
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
		h := classAPI(logger, func(ctx context.Context) (*class.SQLStore, error) {
			opened++
			return sqlite.Open(ctx, filepath.Join(t.TempDir(), "classes.db"), "")
		}, noVars)
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
		h := classAPI(logger, func(context.Context) (*class.SQLStore, error) { return nil, nil }, noVars)
		if rec := do(h, "POST", "/api/v1/classes", `{"name":"x"}`); rec.Code != 404 || !strings.Contains(rec.Body.String(), `"code":"not_found"`) {
			t.Errorf("with no store POST /api/v1/classes answered %d: %s", rec.Code, rec.Body.String())
		}
	})
	t.Run("store fails", func(t *testing.T) {
		h := classAPI(logger, func(context.Context) (*class.SQLStore, error) { return nil, errors.New("no such table") }, noVars)
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

// noVars is a Worker with no variables set.
func noVars(string) string { return "" }

// TestClassLimitVars: the Worker's variables change the class limits; unset ones and bad ones keep
// the defaults, and a bad one is logged by name.
func TestClassLimitVars(t *testing.T) {
	d := api.DefaultClassLimits()
	for _, tt := range []struct {
		name string
		vars map[string]string
		want api.ClassLimits
		log  string
	}{
		{"none", nil, d, ""},
		{"all", map[string]string{"CLASS_ANSWERS_PER_STUDENT": "3", "CLASS_ANSWERS_PER_CLASS": " 7 ", "CLASS_CLASSES_PER_ADDRESS": "2"},
			api.ClassLimits{MaxBody: d.MaxBody, AnswersPerStudent: 3, AnswersPerClass: 7, ClassesPerAddress: 2}, ""},
		{"bad", map[string]string{"CLASS_ANSWERS_PER_STUDENT": "lots", "CLASS_CLASSES_PER_ADDRESS": "0"}, d, "CLASS_ANSWERS_PER_STUDENT"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var logs strings.Builder
			got := classLimits(slog.New(slog.NewTextHandler(&logs, nil)), func(n string) string { return tt.vars[n] })
			if got != tt.want {
				t.Errorf("limits %+v, want %+v", got, tt.want)
			}
			if tt.log == "" && logs.Len() > 0 || !strings.Contains(logs.String(), tt.log) {
				t.Errorf("log %q, want it to name %q", logs.String(), tt.log)
			}
		})
	}
}

// TestWorkerLimitsAcrossInstances: on Workers every request runs in a new instance, so each
// request here gets a new handler (and store handle) over one database: the limits still hold,
// since they are counted in the store. The client is named by CF-Connecting-IP.
func TestWorkerLimitsAcrossInstances(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	db := filepath.Join(t.TempDir(), "classes.db")
	vars := map[string]string{"CLASS_ANSWERS_PER_STUDENT": "2", "CLASS_CLASSES_PER_ADDRESS": "2"}
	do := func(path, ip, body string) *httptest.ResponseRecorder {
		h := classAPI(logger, func(ctx context.Context) (*class.SQLStore, error) { return sqlite.Open(ctx, db, "") }, func(n string) string { return vars[n] })
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("CF-Connecting-IP", ip)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	tooMany := func(rec *httptest.ResponseRecorder, what string) {
		t.Helper()
		if rec.Code != 429 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), `"too_many_requests"`) {
			t.Errorf("%s: %d %s (Retry-After %q), want 429 with Retry-After", what, rec.Code, rec.Body, rec.Header().Get("Retry-After"))
		}
	}
	// Each step is one request in a fresh instance; a window could turn over between them, so a
	// step is tried again (up to 3 times) when the clock's window changed during it: the classes from
	// a new address, the answers as a new student, so no earlier try counts against the next.
	var code string
	for try := 1; ; try++ {
		addr := fmt.Sprintf("198.51.100.%d", 2*try-1)
		hour := time.Now().Truncate(time.Hour)
		for i := range 2 {
			rec := do("/api/v1/classes", addr, `{"name":"c"}`)
			if rec.Code != 201 {
				t.Fatalf("try %d, class %d: %d %s", try, i+1, rec.Code, rec.Body)
			}
			var made struct{ Class string }
			_ = json.Unmarshal(rec.Body.Bytes(), &made)
			code = made.Class
		}
		third := do("/api/v1/classes", addr, `{"name":"c"}`)
		other := do("/api/v1/classes", fmt.Sprintf("198.51.100.%d", 2*try), `{"name":"c"}`)
		if time.Now().Truncate(time.Hour) != hour && try < 3 {
			continue
		}
		tooMany(third, "a third class from one address in an hour")
		if other.Code != 201 {
			t.Errorf("a class from another address: %d %s", other.Code, other.Body)
		}
		break
	}
	for try := 1; ; try++ {
		answer := fmt.Sprintf(`{"student":"Ann %d","level":"level-1-given-desc","file":"%s","id":0,"answer":"[NoSuchTool()]"}`, try, firstLevel1File(t))
		minute := time.Now().Truncate(time.Minute)
		var recs []*httptest.ResponseRecorder
		for range 3 {
			recs = append(recs, do("/api/v1/classes/"+code+"/answers", "198.51.100.200", answer))
		}
		if time.Now().Truncate(time.Minute) != minute && try < 3 {
			continue
		}
		for i, rec := range recs[:2] {
			if rec.Code != 200 {
				t.Errorf("answer %d: %d %s", i+1, rec.Code, rec.Body)
			}
		}
		tooMany(recs[2], "a student's third answer in a minute")
		return
	}
}

// firstLevel1File is the name of the builtin data's first level-1 dialogue file.
func firstLevel1File(t *testing.T) string {
	t.Helper()
	es, err := os.ReadDir(filepath.Join("..", "..", "dataset", "builtin", "lv1-lv2-samples", "level-1-given-desc"))
	if err != nil || len(es) == 0 {
		t.Fatalf("the builtin data: %v", err)
	}
	return es[0].Name()
}

// TestBoardSeasonVar: BOARD_SEASON names the board's season; unset, 0 and a value that is not a
// variant's seed are no season, and a bad value is logged by name.
func TestBoardSeasonVar(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		want int64
		log  bool
	}{
		{"", 0, false},
		{"0", 0, false},
		{"7", 7, false},
		{" 41 ", 41, false},
		{"9007199254740991", 9007199254740991, false},
		{"9007199254740992", 0, true},
		{"-3", 0, true},
		{"seven", 0, true},
		{"010", 0, true},
		{"0x10", 0, true},
		{"1_000", 0, true},
		{"+7", 0, true},
		{"1.5", 0, true},
	} {
		var logs strings.Builder
		got := boardSeason(slog.New(slog.NewTextHandler(&logs, nil)), func(n string) string { return map[string]string{"BOARD_SEASON": tt.raw}[n] })
		if got != tt.want || tt.log != strings.Contains(logs.String(), "BOARD_SEASON") {
			t.Errorf("BOARD_SEASON=%q: season %d, log %q; want %d, logged %v", tt.raw, got, logs.String(), tt.want, tt.log)
		}
	}
}
