package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/serve"
)

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

// TestLoadAssetsThroughALink: a web folder given as a symbolic link (a deployment's current/ link)
// serves the files where it leads.
func TestLoadAssetsThroughALink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "release-1")
	if err := os.MkdirAll(filepath.Join(real, "icons"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"bridge.js", "icons/app.svg"} {
		if err := os.WriteFile(filepath.Join(real, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "web")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	a, err := LoadAssets(link)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.Names(), []string{"bridge.js", "icons/app.svg"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files through the link %v, want %v", got, want)
	}
}

// TestAssetNames: a .br or .gz name is the precompressed form of the name without it, and a file's
// type comes from its extension (the web's own types first, then the system's, else bytes).
func TestAssetNames(t *testing.T) {
	forms := []struct{ name, base, coding string }{
		{"app.wasm.br", "app.wasm", serve.Brotli},
		{"bridge/files.js.gz", "bridge/files.js", serve.Gzip},
		{"app.wasm", "", ""},
		{"notes.brx", "", ""},
	}
	for _, tt := range forms {
		if base, coding := precompressedOf(tt.name); base != tt.base || coding != tt.coding {
			t.Errorf("precompressedOf(%q) = %q, %q; want %q, %q", tt.name, base, coding, tt.base, tt.coding)
		}
	}
	types := []struct{ name, want string }{
		{"engine.wasm", "application/wasm"},
		{"bridge/engine.js", "text/javascript; charset=utf-8"},
		{"wasi.mjs", "text/javascript; charset=utf-8"},
		{"style.css", "text/css; charset=utf-8"},
		{"icon.svg", "image/svg+xml"},
		{"manifest.webmanifest", "application/json"},
		{"icon-192.png", "image/png"},
		{"blob.no-such-extension", "application/octet-stream"},
	}
	for _, tt := range types {
		if got := contentType(tt.name); got != tt.want {
			t.Errorf("contentType(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestPrecompress: the build step writes brotli and gzip forms beside each compressible file of at
// least minBest bytes, and nothing beside a small file or a picture; LoadAssets then serves them.
func TestPrecompress(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("console.log('big');\n"), 50)
	files := map[string][]byte{"big.js": big, "small.js": []byte("x()"), "pic.png": bytes.Repeat([]byte{0x89}, 2000)}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	if err := Precompress(dir, 100, &out); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		want bool
	}{{"big.js.br", true}, {"big.js.gz", true}, {"small.js.br", false}, {"small.js.gz", false}, {"pic.png.br", false}, {"pic.png.gz", false}} {
		if _, err := os.Stat(filepath.Join(dir, tt.name)); (err == nil) != tt.want {
			t.Errorf("%s written: %v, want %v", tt.name, err == nil, tt.want)
		}
	}
	if !strings.HasPrefix(out.String(), "big.js: 1000 bytes") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("Precompress reported %q, want one line for big.js", out.String())
	}
	a, err := LoadAssets(dir)
	if err != nil {
		t.Fatal(err)
	}
	br, _ := os.ReadFile(filepath.Join(dir, "big.js.br"))
	if got := a.files["big.js"].Encoded(serve.Brotli); len(br) == 0 || !bytes.Equal(got, br) {
		t.Errorf("LoadAssets does not serve the written brotli form")
	}
}
