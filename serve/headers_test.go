package serve

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestScriptHash(t *testing.T) {
	// The example of the CSP Level 3 specification (section "hash-source").
	if got, want := ScriptHash("alert('Hello, world.');"), "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"; got != want {
		t.Errorf("ScriptHash = %s, want %s", got, want)
	}
}

// directives splits a policy into its directives' source lists.
func directives(t *testing.T, csp string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, d := range strings.Split(csp, ";") {
		f := strings.Fields(d)
		if len(f) == 0 {
			continue
		}
		if _, dup := out[f[0]]; dup {
			t.Errorf("directive %s appears twice (browsers ignore the second)", f[0])
		}
		out[f[0]] = f[1:]
	}
	return out
}

func TestContentSecurityPolicy(t *testing.T) {
	h := ScriptHash("window.x=1;")
	d := directives(t, ContentSecurityPolicy(h))
	tests := []struct {
		directive string
		has       []string
		lacks     []string
	}{
		{"default-src", []string{"'self'"}, []string{"*", "https:", "data:", "blob:"}},
		{"script-src", []string{"'self'", "'wasm-unsafe-eval'", h}, []string{"'unsafe-inline'", "'unsafe-eval'", "*", "https:", "data:"}},
		{"style-src", []string{"'self'"}, []string{"'unsafe-inline'"}},
		{"connect-src", []string{"'self'", "https:", "http://localhost:*", "http://127.0.0.1:*"}, []string{"http:", "*"}},
		{"worker-src", []string{"'self'"}, []string{"blob:", "*"}},
		{"img-src", []string{"'self'"}, nil},
		{"object-src", []string{"'none'"}, nil},
		{"media-src", []string{"'none'"}, nil},
		{"frame-src", []string{"'none'"}, nil},
		{"frame-ancestors", []string{"'none'"}, nil},
		{"base-uri", []string{"'none'"}, nil},
		{"form-action", []string{"'self'"}, nil},
	}
	for _, tt := range tests {
		got, ok := d[tt.directive]
		if !ok {
			t.Errorf("no %s", tt.directive)
			continue
		}
		for _, s := range tt.has {
			if !contains(got, s) {
				t.Errorf("%s %v lacks %s", tt.directive, got, s)
			}
		}
		for _, s := range tt.lacks {
			if contains(got, s) {
				t.Errorf("%s %v has %s", tt.directive, got, s)
			}
		}
	}
}

// TestContentSecurityPolicyUnderstood checks that every directive is one that every engine knows:
// WebKit reports an unknown one (manifest-src) as a console error on every page.
func TestContentSecurityPolicyUnderstood(t *testing.T) {
	for name := range directives(t, ContentSecurityPolicy(ScriptHash("x"))) {
		if !contains(UnderstoodDirectives, name) {
			t.Errorf("directive %s is not understood by every engine (UnderstoodDirectives)", name)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestSecureOnEveryResponse(t *testing.T) {
	headers := SecurityHeaders(ContentSecurityPolicy())
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ok", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	mux.HandleFunc("GET /panic", func(w http.ResponseWriter, r *http.Request) { panic("boom") })
	mux.HandleFunc("GET /error", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "bad", http.StatusBadRequest) })
	h := AccessLog(logger, Secure(headers, Recover(logger, mux)))
	tests := []struct {
		method, path string
		status       int
	}{
		{"GET", "/ok", 200},
		{"HEAD", "/ok", 200},
		{"GET", "/missing", 404},
		{"POST", "/ok", 405},
		{"GET", "/panic", 500},
		{"GET", "/error", 400},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
		if rec.Code != tt.status {
			t.Errorf("%s %s: status %d, want %d", tt.method, tt.path, rec.Code, tt.status)
		}
		for k, v := range headers {
			if got := rec.Header().Values(k); len(got) != 1 || got[0] != v[0] {
				t.Errorf("%s %s (%d): %s = %q, want %q", tt.method, tt.path, rec.Code, k, got, v[0])
			}
		}
	}
	// The shared header values are copied, never handed to a response to modify.
	rec := httptest.NewRecorder()
	Secure(headers, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Referrer-Policy"][0] = "unsafe-url"
	})).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if headers.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("a handler changed the shared headers")
	}
}
