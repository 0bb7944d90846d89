package serve

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func decode(t *testing.T, coding string, b []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(b)
	switch coding {
	case Gzip:
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case Brotli:
		r = brotli.NewReader(r)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return out
}

func TestPrecompress(t *testing.T) {
	text := []byte(strings.Repeat("the tools really run; ", 200))
	noise := make([]byte, 4096)
	rand.Read(noise)
	tests := []struct {
		name  string
		body  []byte
		ctype string
		forms []string
	}{
		{"text", text, "text/html; charset=utf-8", []string{Brotli, Gzip, Identity}},
		{"wasm", append([]byte("\x00asm"), text...), "application/wasm", []string{Brotli, Gzip, Identity}},
		{"script", text, "application/javascript", []string{Brotli, Gzip, Identity}},
		{"manifest", text, "application/manifest+json", []string{Brotli, Gzip, Identity}},
		{"image", text, "image/png", []string{Identity}},
		{"tiny", []byte("body{}"), "text/css", []string{Identity}},
		{"incompressible", noise, "text/plain", []string{Identity}},
	}
	var rs []*Resource
	for _, tt := range tests {
		rs = append(rs, NewResource(tt.body, tt.ctype))
	}
	Precompress(rs...)
	Precompress(rs...) // a second run changes nothing
	for i, tt := range tests {
		r := rs[i]
		if got := r.Codings(); strings.Join(got, ",") != strings.Join(tt.forms, ",") {
			t.Errorf("%s: forms %v, want %v", tt.name, got, tt.forms)
		}
		etags := map[string]bool{}
		for _, c := range r.Codings() {
			if got := decode(t, c, r.Encoded(c)); !bytes.Equal(got, tt.body) {
				t.Errorf("%s: the %s form does not decode to the body", tt.name, c)
			}
			if c != Identity && len(r.Encoded(c)) >= len(tt.body) {
				t.Errorf("%s: the %s form (%d bytes) is not smaller than the body (%d)", tt.name, c, len(r.Encoded(c)), len(tt.body))
			}
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Encoding", c)
			r.ServeHTTP(rec, req)
			etags[rec.Header().Get("ETag")] = true
		}
		if len(etags) != len(tt.forms) {
			t.Errorf("%s: %d distinct ETags for %d forms", tt.name, len(etags), len(tt.forms))
		}
	}
	if rs[0].Encoded("zstd") != nil {
		t.Errorf("a form never made is not nil")
	}
}

func TestResourceServeHTTP(t *testing.T) {
	body := []byte(strings.Repeat("<p>a page</p>\n", 100))
	r := NewResource(body, "text/html; charset=utf-8")
	Precompress(r)
	etag := func(suffix string) string { return `"` + r.Hash + suffix + `"` }
	tests := []struct {
		name, method, accept, ifNoneMatch string
		status                            int
		coding, etag                      string
		bodyLen                           int
	}{
		{"identity", "GET", "", "", 200, "", etag(""), len(body)},
		{"brotli", "GET", "gzip, deflate, br", "", 200, "br", etag("-br"), len(r.Encoded(Brotli))},
		{"gzip", "GET", "gzip", "", 200, "gzip", etag("-gz"), len(r.Encoded(Gzip))},
		{"head", "HEAD", "br", "", 200, "br", etag("-br"), 0},
		{"revalidated", "GET", "br", etag("-br"), 304, "", etag("-br"), 0},
		{"weak tag", "GET", "br", "W/" + etag("-br"), 304, "", etag("-br"), 0},
		{"one of a list", "GET", "gzip", `"x", ` + etag("-gz"), 304, "", etag("-gz"), 0},
		{"any", "GET", "", "*", 304, "", etag(""), 0},
		{"another coding's tag", "GET", "br", etag("-gz"), 200, "br", etag("-br"), len(r.Encoded(Brotli))},
		{"stale tag", "GET", "br", `"0000000000000000-br"`, 200, "br", etag("-br"), len(r.Encoded(Brotli))},
		{"nothing acceptable", "GET", "identity;q=0, br;q=0, gzip;q=0", "", 406, "", "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "/", nil)
			if tt.accept != "" {
				req.Header.Set("Accept-Encoding", tt.accept)
			}
			if tt.ifNoneMatch != "" {
				req.Header.Set("If-None-Match", tt.ifNoneMatch)
			}
			rec := httptest.NewRecorder()
			r.ServeHTTP(rec, req)
			h := rec.Header()
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			if got := h.Get("Content-Encoding"); got != tt.coding {
				t.Errorf("Content-Encoding %q, want %q", got, tt.coding)
			}
			if got := h.Get("ETag"); got != tt.etag {
				t.Errorf("ETag %q, want %q", got, tt.etag)
			}
			if got := h.Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary %q, want Accept-Encoding", got)
			}
			if tt.bodyLen >= 0 && rec.Body.Len() != tt.bodyLen {
				t.Errorf("body %d bytes, want %d", rec.Body.Len(), tt.bodyLen)
			}
			if tt.status == 200 {
				if h.Get("Content-Type") != r.Type {
					t.Errorf("Content-Type %q, want %q", h.Get("Content-Type"), r.Type)
				}
				want := len(body)
				if tt.coding != "" {
					want = len(r.Encoded(tt.coding))
				}
				if h.Get("Content-Length") != strconv.Itoa(want) {
					t.Errorf("Content-Length %s, want %d", h.Get("Content-Length"), want)
				}
			}
			if tt.status == 406 && !strings.Contains(rec.Body.String(), "br, gzip, identity") {
				t.Errorf("406 body %q does not say which codings there are", rec.Body.String())
			}
		})
	}
}

// TestServeDoesNotCompress proves the bodies are made once: serving a 1 MB page allocates a few
// hundred bytes a request, not a compressor's buffers.
func TestServeDoesNotCompress(t *testing.T) {
	r := NewResource(bytes.Repeat([]byte("<p>a page of the playground</p>\n"), 32<<10), "text/html")
	Precompress(r)
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	w := &discardWriter{h: http.Header{}}
	allocs := testing.AllocsPerRun(100, func() {
		clear(w.h)
		r.ServeHTTP(w, req)
	})
	if allocs > 20 {
		t.Errorf("%.0f allocations per request: is the body compressed per request?", allocs)
	}
	if w.n != len(r.Encoded(Brotli)) {
		t.Errorf("wrote %d bytes, want the brotli form's %d", w.n, len(r.Encoded(Brotli)))
	}
}

type discardWriter struct {
	h http.Header
	n int
}

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) WriteHeader(int)             {}
func (d *discardWriter) Write(b []byte) (int, error) { d.n = len(b); return len(b), nil }

func TestEtagMatch(t *testing.T) {
	tests := []struct {
		header, etag string
		want         bool
	}{
		{"", `"a"`, false},
		{`"a"`, `"a"`, true},
		{`W/"a"`, `"a"`, true},
		{`"b", "a"`, `"a"`, true},
		{`"b"`, `"a"`, false},
		{`a`, `"a"`, false},
		{" * ", `"a"`, true},
		{`"a-gz"`, `"a"`, false},
	}
	for _, tt := range tests {
		if got := etagMatch(tt.header, tt.etag); got != tt.want {
			t.Errorf("etagMatch(%q, %q) = %v, want %v", tt.header, tt.etag, got, tt.want)
		}
	}
}

func TestCompressible(t *testing.T) {
	tests := map[string]bool{
		"text/html": true, "text/css; charset=utf-8": true, "application/wasm": true, "application/json": true,
		"text/javascript; charset=utf-8": true, "application/javascript": true, "image/svg+xml": true,
		"application/manifest+json": true, "image/png": false, "application/octet-stream": false, "application/zip": false,
	}
	for ctype, want := range tests {
		if got := Compressible(ctype); got != want {
			t.Errorf("Compressible(%q) = %v, want %v", ctype, got, want)
		}
	}
}

func TestUsePrecompressed(t *testing.T) {
	body := bytes.Repeat([]byte("the engine's module, compressible "), 100)
	br, gz := CompressBest(body)
	otherBr, otherGz := CompressBest(append([]byte("an older build "), body...))
	for _, c := range []struct {
		what   string
		coding string
		form   []byte
		want   string // "" when the form is taken
	}{
		{"brotli of the body", Brotli, br, ""},
		{"gzip of the body", Gzip, gz, ""},
		{"brotli of other bytes", Brotli, otherBr, "other bytes"},
		{"gzip of other bytes", Gzip, otherGz, "other bytes"},
		{"not gzip at all", Gzip, []byte("plain text"), "gzip"},
		{"not brotli at all", Brotli, []byte("plain text"), "br"},
		{"a coding we do not hold", "zstd", br, "unknown coding"},
	} {
		r := NewResource(body, "application/wasm")
		err := r.UsePrecompressed(c.coding, c.form)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.what, err)
		case c.want == "" && !bytes.Equal(r.Encoded(c.coding), c.form):
			t.Errorf("%s: not held as the %s form", c.what, c.coding)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.what, err, c.want)
		case c.want != "" && r.Encoded(c.coding) != nil:
			t.Errorf("%s: refused yet held", c.what)
		}
	}
	// Held forms are kept by Precompress, which makes only the missing one; smallest first, identity last.
	r := NewResource(body, "application/wasm")
	if err := r.UsePrecompressed(Brotli, br); err != nil {
		t.Fatal(err)
	}
	Precompress(r)
	if !bytes.Equal(r.Encoded(Brotli), br) || r.Encoded(Gzip) == nil {
		t.Fatalf("after Precompress: codings %v, the precompressed brotli form kept: %v", r.Codings(), bytes.Equal(r.Encoded(Brotli), br))
	}
	cs := r.Codings()
	if cs[len(cs)-1] != Identity || len(r.Encoded(cs[0])) > len(r.Encoded(cs[1])) {
		t.Errorf("codings %v are not smallest first with identity last", cs)
	}
	if err := r.UsePrecompressed(Brotli, br); err == nil || !strings.Contains(err.Error(), "already held") {
		t.Errorf("a second brotli form: error %v, want already held", err)
	}
}
