package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/app"
	"github.com/apibank-playground/apibank/internal/serve"
)

// testWeb makes a small web/ folder with every file the server needs.
func testWeb(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"app.wasm":         "\x00asm" + strings.Repeat("app", 400),
		"engine.wasm":      "\x00asm" + strings.Repeat("engine", 400),
		"bridge.js":        strings.Repeat("// bridge\n", 100),
		"bridge/engine.js": "// the engine's state machine",
		"bridge/files.js":  "// files",
		"engine-worker.js": "// worker",
		"wasi.js":          "// wasi",
		"style.css":        strings.Repeat("body{}\n", 100),
		// The icons the handler names (go-app precaches them: one missing fails the worker's install).
		"icon-192.png": "\x89PNG 192",
		"icon-512.png": "\x89PNG 512",
		"icon.svg":     "<svg/>",
	}
	if err := os.Mkdir(filepath.Join(dir, "bridge"), 0o755); err != nil {
		t.Fatal(err)
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(n)), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// testSite loads a web/ folder made by testWeb and renders the site.
func testSite(t testing.TB) *Site {
	t.Helper()
	assets, err := LoadAssets(testWeb(t))
	if err != nil {
		t.Fatal(err)
	}
	routesOnce.Do(app.Routes)
	site, err := NewSite(NewHandler(assets), assets)
	if err != nil {
		t.Fatal(err)
	}
	return site
}

// testServer serves a test site on 127.0.0.1 with the whole handler chain (its access log discarded).
func testServer(t *testing.T) (*httptest.Server, *Assets) {
	t.Helper()
	srv, site := testServerSite(t)
	return srv, site.assets
}

// testServerSite is testServer that also returns the site it serves.
func testServerSite(t *testing.T) (*httptest.Server, *Site) {
	t.Helper()
	site := testSite(t)
	srv := httptest.NewServer(site.Handler(slog.New(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(srv.Close)
	return srv, site
}

func get(t *testing.T, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	// A bare transport: no automatic gzip, so the test sees what the server sends.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func TestStaticFiles(t *testing.T) {
	srv, assets := testServer(t)
	hashed := assets.URL("/web/engine.wasm")
	if !strings.Contains(hashed, "?v=") {
		t.Fatalf("URL %q has no content hash", hashed)
	}
	tests := []struct {
		name, path string
		header     map[string]string
		status     int
		ctype, enc string
		cache      string
	}{
		{"wasm, hashed", hashed, map[string]string{"Accept-Encoding": "gzip, br"}, 200, "application/wasm", "br", "public, max-age=31536000, immutable"},
		{"wasm, gzip only", hashed, map[string]string{"Accept-Encoding": "gzip"}, 200, "application/wasm", "gzip", "public, max-age=31536000, immutable"},
		{"wasm, plain", "/web/engine.wasm", nil, 200, "application/wasm", "", "no-cache"},
		{"script", "/web/bridge.js", map[string]string{"Accept-Encoding": "gzip"}, 200, "text/javascript; charset=utf-8", "gzip", "no-cache"},
		{"stale hash", "/web/engine.wasm?v=0000", nil, 200, "application/wasm", "", "no-cache"},
		{"missing", "/web/nothing.js", nil, 404, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, srv.URL+tt.path, tt.header)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.status != 200 {
				return
			}
			if got := resp.Header.Get("Content-Type"); got != tt.ctype {
				t.Errorf("type %q, want %q", got, tt.ctype)
			}
			if got := resp.Header.Get("Content-Encoding"); got != tt.enc {
				t.Errorf("encoding %q, want %q", got, tt.enc)
			}
			if got := resp.Header.Get("Cache-Control"); got != tt.cache {
				t.Errorf("cache %q, want %q", got, tt.cache)
			}
			if tt.enc == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			etag := resp.Header.Get("ETag")
			revalidate := map[string]string{"If-None-Match": etag}
			for k, v := range tt.header {
				revalidate[k] = v
			}
			again, _ := get(t, srv.URL+tt.path, revalidate)
			if again.StatusCode != http.StatusNotModified {
				t.Errorf("revalidation with %s: %d, want 304", etag, again.StatusCode)
			}
		})
	}
}

func TestPages(t *testing.T) {
	srv, assets := testServer(t)
	for _, p := range app.Pages {
		if p.Soon {
			continue
		}
		resp, body := get(t, srv.URL+p.Path, map[string]string{"Accept-Encoding": "gzip"})
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: %d %q", p.Path, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		zr, _ := gzip.NewReader(bytes.NewReader(body))
		html, _ := io.ReadAll(zr)
		for _, want := range []string{assets.URL("/web/bridge.js"), assets.URL("/web/style.css"), `data-testid="dataset-select"`, "apibankAssets"} {
			if !bytes.Contains(html, []byte(want)) {
				t.Errorf("%s lacks %q", p.Path, want)
			}
		}
	}
	resp, body := get(t, srv.URL+"/app.js", nil)
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(assets.URL("/web/app.wasm"))) {
		t.Fatalf("app.js does not load the hashed app.wasm")
	}
	resp, body = get(t, srv.URL+"/app-worker.js", nil)
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(assets.URL("/web/engine.wasm"))) || !bytes.Contains(body, []byte(`"/sandbox"`)) {
		t.Fatalf("the service worker does not cache the engine and the pages for offline use")
	}
	// cache.addAll fails on a duplicate, and then nothing is kept for offline use.
	_, list, _ := strings.Cut(string(body), "const resourcesToCache = ")
	list, _, _ = strings.Cut(list, ";")
	var urls []string
	if err := json.Unmarshal([]byte(list), &urls); err != nil {
		t.Fatalf("resourcesToCache: %v", err)
	}
	seen := map[string]bool{}
	for _, u := range urls {
		if seen[u] {
			t.Errorf("the service worker lists %s twice", u)
		}
		seen[u] = true
		// One address that does not answer fails the whole install (heldCacheFill): no offline use.
		if resp, _ := get(t, srv.URL+u, nil); resp.StatusCode != http.StatusOK {
			t.Errorf("the service worker precaches %s, which answers %d", u, resp.StatusCode)
		}
	}
}

func TestStaticExport(t *testing.T) {
	_, assets := testServer(t)
	dir := t.TempDir()
	if err := exportStatic(dir, NewHandler(assets), assets, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "sandbox.html", "app.js", "app-worker.js", "web/engine.wasm", "web/app.wasm", "web/bridge.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("static site lacks %s", f)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "web", "engine.wasm"))
	if err != nil || !bytes.Equal(b, assets.files["engine.wasm"].Body()) {
		t.Errorf("web/engine.wasm of the static site differs from web/'s (%v)", err)
	}
	// Beside each compressible file its brotli and gzip forms, decoding to the file's bytes.
	for _, f := range []string{"engine.wasm", "app.wasm", "bridge.js"} {
		r := serve.NewResource(assets.files[f].Body(), contentType(f))
		for coding, suffix := range precompressedSuffix {
			enc, err := os.ReadFile(filepath.Join(dir, "web", f+suffix))
			if err != nil {
				t.Errorf("static site lacks web/%s%s", f, suffix)
				continue
			}
			if err := r.UsePrecompressed(coding, enc); err != nil {
				t.Errorf("web/%s%s: %v", f, suffix, err)
			}
		}
	}
	// The static host applies _headers: the same security headers as the server's, on every path.
	headers, err := os.ReadFile(filepath.Join(dir, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(headers)), "\n")
	if lines[0] != "/*" {
		t.Errorf("_headers starts with %q, want /*", lines[0])
	}
	want := serve.SecurityHeaders(policy(assets))
	got := http.Header{}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ": ")
		if !ok || !strings.HasPrefix(l, "  ") {
			t.Fatalf("_headers line %q is not an indented 'Name: value'", l)
		}
		got.Add(k, v)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("_headers gives\n%v\nwant\n%v", got, want)
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	web := testWeb(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing build outputs", []string{"--web", t.TempDir()}, "app.wasm is missing"},
		{"missing folder", []string{"--web", filepath.Join(t.TempDir(), "none")}, "reading "},
		{"bad log format", []string{"--web", web, "--log", "xml"}, `--log "xml": want text or json`},
		{"no connections", []string{"--web", web, "--max-conns", "0"}, "--max-conns 0: must be at least 1"},
		{"unknown flag", []string{"--port", "80"}, "flag provided but not defined: -port"},
		{"bad address", []string{"--web", web, "--addr", "256.0.0.1:0"}, "256.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if !slices.Contains(args, "--addr") {
				args = append([]string{"--addr", "127.0.0.1:0"}, args...)
			}
			err := run(context.Background(), args, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestHelpExitsCleanly(t *testing.T) {
	var out, errs strings.Builder
	if err := run(context.Background(), []string{"--help"}, &out, &errs); err != nil {
		t.Fatalf("--help: %v", err)
	}
	if !strings.Contains(out.String(), "-addr") {
		t.Fatalf("--help printed no usage: %q", out.String())
	}
	if err := run(context.Background(), []string{"--nope"}, &out, &errs); err == nil || !strings.Contains(errs.String(), "-addr") {
		t.Fatalf("an unknown flag: %v, usage %q", err, errs.String())
	}
}

// TestLoadAssetsPrecompressed: a .br or .gz beside a file is that file's form, not a file of its own;
// a form that decodes to the file is sent as it is, a stale one is left out (the file is then
// compressed at start-up).
func TestLoadAssetsPrecompressed(t *testing.T) {
	dir := t.TempDir()
	body := bytes.Repeat([]byte("console.log('the bridge');\n"), 100)
	br, gz := serve.CompressBest(body)
	staleBr, _ := serve.CompressBest(append([]byte("// older\n"), body...))
	files := map[string][]byte{"a.js": body, "a.js.br": br, "a.js.gz": gz, "b.js": body, "b.js.br": staleBr, "lone.gz": gz}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := LoadAssets(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.Names(), []string{"a.js", "b.js", "lone.gz"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files %v, want %v (a form beside its file is no file; a .gz alone is)", got, want)
	}
	if !bytes.Equal(a.files["a.js"].Encoded(serve.Brotli), br) || !bytes.Equal(a.files["a.js"].Encoded(serve.Gzip), gz) {
		t.Errorf("a.js does not hold its precompressed forms")
	}
	if a.files["b.js"].Encoded(serve.Brotli) != nil {
		t.Errorf("b.js holds a stale brotli form")
	}
	serve.Precompress(a.resources()...)
	if enc := a.files["b.js"].Encoded(serve.Brotli); enc == nil || bytes.Equal(enc, staleBr) {
		t.Errorf("b.js's brotli form after start-up compression: stale or missing")
	}
}
