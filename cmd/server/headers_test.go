package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/serve"
)

// TestHeadersOnEveryRoute: every answer, pages, files, revalidations, errors and refusals alike,
// carries the security headers, and methods a route does not take get 405 with Allow.
func TestHeadersOnEveryRoute(t *testing.T) {
	srv, assets := testServer(t)
	want := serve.SecurityHeaders(policy(assets))
	hashed := assets.URL("/web/engine.wasm")
	page, _ := get(t, srv.URL+"/dataset", map[string]string{"Accept-Encoding": "br"})
	tests := []struct {
		name, method, path string
		header             map[string]string
		status             int
		allow              string
	}{
		{"home", "GET", "/", nil, 200, ""},
		{"page", "GET", "/sandbox", map[string]string{"Accept-Encoding": "gzip"}, 200, ""},
		{"page, HEAD", "HEAD", "/score", nil, 200, ""},
		{"page revalidated", "GET", "/dataset", map[string]string{"Accept-Encoding": "br", "If-None-Match": page.Header.Get("ETag")}, 304, ""},
		{"go-app loader", "GET", "/app.js", nil, 200, ""},
		{"service worker", "GET", "/app-worker.js", nil, 200, ""},
		{"manifest", "GET", "/manifest.webmanifest", nil, 200, ""},
		{"engine", "GET", hashed, map[string]string{"Accept-Encoding": "br"}, 200, ""},
		{"engine, HEAD", "HEAD", hashed, nil, 200, ""},
		{"icon", "GET", "/web/icon-192.png", nil, 200, ""},
		{"missing file", "GET", "/web/nothing.js", nil, 404, ""},
		{"missing page", "GET", "/nothing", nil, 404, ""},
		{"run page", "GET", "/run", nil, 200, ""},
		{"go-app proxy path", "GET", "/robots.txt", nil, 404, ""},
		{"web folder", "GET", "/web", nil, http.StatusTemporaryRedirect, ""},
		{"not acceptable", "GET", "/", map[string]string{"Accept-Encoding": "identity;q=0, br;q=0, gzip;q=0"}, 406, ""},
		{"POST a page", "POST", "/", nil, 405, "GET, HEAD"},
		{"PUT a file", "PUT", "/web/engine.wasm", nil, 405, "GET, HEAD"},
		{"DELETE a page", "DELETE", "/sandbox", nil, 405, "GET, HEAD"},
		{"OPTIONS", "OPTIONS", "/app.js", nil, 405, "GET, HEAD"},
		{"PATCH a missing path", "PATCH", "/nothing", nil, 405, "GET, HEAD"},
		{"TRACE", "TRACE", "/", nil, 405, "GET, HEAD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			for k, v := range want {
				if got := resp.Header.Values(k); len(got) != 1 || got[0] != v[0] {
					t.Errorf("%s = %q, want %q", k, got, v[0])
				}
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow %q, want %q", got, tt.allow)
			}
		})
	}
}

// TestPagesNeedNoMoreThanThePolicy reads the rendered pages for what the policy would block: an
// inline script whose hash it lacks, inline styles or event handlers, javascript: URLs, and
// scripts, styles or images from another origin.
func TestPagesNeedNoMoreThanThePolicy(t *testing.T) {
	site := testSite(t)
	csp := site.Headers.Get("Content-Security-Policy")
	inline := regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	forbidden := []struct {
		what string
		re   *regexp.Regexp
	}{
		{"an inline style", regexp.MustCompile(`(?i)<[a-z][^>]*\sstyle=`)},
		{"a <style> element", regexp.MustCompile(`(?i)<style`)},
		{"an inline event handler", regexp.MustCompile(`(?i)<[a-z][^>]*\son[a-z]+=`)},
		{"a javascript: URL", regexp.MustCompile(`(?i)javascript:`)},
		{"a resource of another origin", regexp.MustCompile(`(?i)(src|href)="(https?:)?//`)},
	}
	for _, p := range pagePaths() {
		html := string(site.pages[p].Body())
		scripts := inline.FindAllStringSubmatch(html, -1)
		if len(scripts) == 0 {
			t.Errorf("%s: no inline script (the boot script is expected)", p)
		}
		for _, m := range scripts {
			if h := serve.ScriptHash(m[1]); !strings.Contains(csp, h) {
				t.Errorf("%s: the inline script %.60q… (%s) is not allowed by the policy", p, m[1], h)
			}
		}
		for _, f := range forbidden {
			if loc := f.re.FindStringIndex(html); loc != nil {
				t.Errorf("%s has %s: %q", p, f.what, html[loc[0]:min(loc[1]+40, len(html))])
			}
		}
	}
}
