package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func decoded(t *testing.T, coding string, b []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(b)
	switch coding {
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	case "":
	default:
		t.Fatalf("unexpected coding %q", coding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return out
}

// TestEncodingNegotiation: each client gets the coding its Accept-Encoding ranks first, every coding
// has its own ETag, a revalidation answers 304 only for the form the client holds, and every body
// decodes to the file itself. A br-only client never gets the identity engine.
func TestEncodingNegotiation(t *testing.T) {
	srv, site := testServerSite(t)
	assets := site.assets
	targets := []struct {
		name, path string
		original   []byte
	}{
		{"engine", assets.URL("/web/engine.wasm"), assets.files["engine.wasm"].Body()},
		{"page", "/sandbox", site.pages["/sandbox"].Body()},
		{"loader", "/app.js", site.pages["/app.js"].Body()},
	}
	clients := []struct {
		accept, want string
	}{
		{"", ""},
		{"br", "br"},
		{"gzip", "gzip"},
		{"gzip, deflate, br, zstd", "br"},        // Chromium
		{"gzip, deflate, br;q=0.9", "gzip"},      // q-values rank
		{"deflate, gzip;q=1.0, *;q=0.5", "gzip"}, // curl --compressed style
		{"identity", ""},
		{"zstd", ""},
		{"br;q=0, gzip;q=0", ""},
	}
	for _, target := range targets {
		etags := map[string]string{}
		for _, c := range clients {
			resp, body := get(t, srv.URL+target.path, map[string]string{"Accept-Encoding": c.accept})
			if resp.StatusCode != 200 {
				t.Fatalf("%s with %q: status %d", target.name, c.accept, resp.StatusCode)
			}
			enc := resp.Header.Get("Content-Encoding")
			if enc != c.want {
				t.Errorf("%s with %q: coding %q, want %q", target.name, c.accept, enc, c.want)
			}
			if resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("%s: Vary %q", target.name, resp.Header.Get("Vary"))
			}
			if resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("%s with %q: Content-Length %s for %d bytes", target.name, c.accept, resp.Header.Get("Content-Length"), len(body))
			}
			if !bytes.Equal(decoded(t, enc, body), target.original) {
				t.Errorf("%s with %q: the %q body does not decode to the original", target.name, c.accept, enc)
			}
			etag := resp.Header.Get("ETag")
			if old, seen := etags[enc]; seen && old != etag {
				t.Errorf("%s: coding %q has two ETags %s and %s", target.name, enc, old, etag)
			}
			etags[enc] = etag
			// The tag of this form revalidates this form only.
			again, _ := get(t, srv.URL+target.path, map[string]string{"Accept-Encoding": c.accept, "If-None-Match": etag})
			if again.StatusCode != http.StatusNotModified || again.Header.Get("ETag") != etag {
				t.Errorf("%s with %q: revalidating %s gave %d %s", target.name, c.accept, etag, again.StatusCode, again.Header.Get("ETag"))
			}
		}
		seen := map[string]bool{}
		for enc, tag := range etags {
			if seen[tag] {
				t.Errorf("%s: two codings share the ETag %s", target.name, tag)
			}
			seen[tag] = true
			for other, otherTag := range etags {
				if other == enc {
					continue
				}
				resp, _ := get(t, srv.URL+target.path, map[string]string{"Accept-Encoding": map[string]string{"": "identity", "br": "br", "gzip": "gzip"}[enc], "If-None-Match": otherTag})
				if resp.StatusCode != 200 {
					t.Errorf("%s: a client holding the %q form asking for %q got %d, want 200", target.name, other, enc, resp.StatusCode)
				}
			}
		}
		if len(etags) != 3 {
			t.Errorf("%s: %d codings served, want 3: %v", target.name, len(etags), etags)
		}
	}
}

// TestPagesRenderedOnce: the cached page is what go-app renders for that path (with ourChanges)
// whatever the query or Host (the tab fills the page in), so rendering once at start-up changes nothing a visitor sees.
// go-app writes an element's attributes in map order, different from one render to the next, so
// the comparison sorts them (the cache, rendered once, is also what makes a page's ETag stable).
func TestPagesRenderedOnce(t *testing.T) {
	site := testSite(t)
	h := NewHandler(site.assets)
	for _, p := range append(pagePaths(), goappFiles...) {
		for _, target := range []string{p, p + "?level=level-1&file=x.jsonl&id=3"} {
			req, _ := http.NewRequest("GET", target, nil)
			req.Host = "evil.example"
			rec := &recorder{header: http.Header{}, status: 200}
			h.ServeHTTP(rec, req)
			if rec.status != 200 || canonical(string(ourChanges(p, rec.body.Bytes(), bootScript(site.assets)))) != canonical(string(site.pages[p].Body())) {
				t.Errorf("%s: go-app renders %d bytes (status %d), the cache holds %d", target, rec.body.Len(), rec.status, len(site.pages[p].Body()))
			}
		}
	}
}

var (
	startTag  = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>]+(?:="(?:[^"\\]|\\.)*")?)*)\s*(/?)>`)
	attribute = regexp.MustCompile(`\s+[^\s=>]+(?:="(?:[^"\\]|\\.)*")?`)
)

// canonical sorts the attributes of every start tag (go-app escapes a quote in a value as \").
func canonical(html string) string {
	return startTag.ReplaceAllStringFunc(html, func(tag string) string {
		m := startTag.FindStringSubmatch(tag)
		attrs := attribute.FindAllString(m[2], -1)
		for i := range attrs {
			attrs[i] = strings.TrimSpace(attrs[i])
		}
		sort.Strings(attrs)
		return "<" + m[1] + " " + strings.Join(attrs, " ") + m[3] + ">"
	})
}
