package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestAPIServed runs the server with the real engine module: /healthz turns 200 once the module
// is compiled, /api/v1/score judges, an unknown API path is a JSON 404, a wrong method a JSON 405,
// and every answer carries the security headers.
func TestAPIServed(t *testing.T) {
	engine, err := os.ReadFile(filepath.Join("..", "..", "web", "engine.wasm"))
	if err != nil {
		t.Fatalf("web/engine.wasm is missing: run `make wasm` (make test does): %v", err)
	}
	web := testWeb(t)
	if err := os.WriteFile(filepath.Join(web, "engine.wasm"), engine, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--web", web, "--api-instances", "1", "--api-max-lines", "3"}, out, io.Discard)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
	}()
	var base string
	for start := time.Now(); base == "" && time.Since(start) < 30*time.Second; time.Sleep(20 * time.Millisecond) {
		if m := regexp.MustCompile(`http://[^ \n]+/`).FindString(out.String()); m != "" {
			base = strings.TrimSuffix(m, "/")
		}
	}
	if base == "" {
		t.Fatal("the server printed no address")
	}
	status := 0
	for start := time.Now(); status != 200 && time.Since(start) < 60*time.Second; time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		status = resp.StatusCode
		if status != 200 && (status != 503 || resp.Header.Get("Retry-After") == "") {
			t.Fatalf("/healthz while starting: %d", status)
		}
	}
	if status != 200 {
		t.Fatal("the API did not become ready within a minute")
	}
	tests := []struct {
		method, path, body string
		status             int
		contains           string
	}{
		{"POST", "/api/v1/score", `{"file":"nope.jsonl","id":0,"pred":"x"}`, 200, `{"error":"no dialogue file \"nope.jsonl\" in builtin","line":1}`},
		{"POST", "/api/v1/score", "{}\n{}\n{}\n{}\n", 413, `"line":4`},
		{"GET", "/api/v1/catalog?name=lv3_apis", "", 200, `"catalog":"lv3_apis"`},
		{"GET", "/api/v1/nope", "", 404, `"code":"not_found"`},
		{"DELETE", "/api/v1/score", "", 405, `"code":"method_not_allowed"`},
		{"POST", "/healthz", "", 405, `"code":"method_not_allowed"`},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, base+tt.path, strings.NewReader(tt.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.contains) {
			t.Errorf("%s %s: %d %s, want %d with %s", tt.method, tt.path, resp.StatusCode, b, tt.status, tt.contains)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("%s %s: no security headers", tt.method, tt.path)
		}
	}
}
