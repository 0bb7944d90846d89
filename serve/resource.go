package serve

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// Resource is one response body known at start-up, kept in every form worth sending: identity and,
// for compressible types, brotli and gzip made once (Precompress), never per request. Each form has
// its own strong ETag (the content hash, suffixed with the coding), because a gzip body and a brotli
// body are different representations and a cache must not mix them up.
type Resource struct {
	// Type is the Content-Type.
	Type string
	// Hash is the hex SHA-256 prefix of the identity body: it names the content in URLs and ETags.
	Hash  string
	forms []form // smallest first; identity always present and last
}

type form struct {
	coding string // Identity, Brotli or Gzip
	body   []byte
	etag   string // quoted
}

// NewResource holds body, uncompressed until Precompress runs.
func NewResource(body []byte, ctype string) *Resource {
	sum := sha256.Sum256(body)
	h := hex.EncodeToString(sum[:])[:16]
	return &Resource{Type: ctype, Hash: h, forms: []form{{coding: Identity, body: body, etag: `"` + h + `"`}}}
}

// Body returns the identity (uncompressed) body.
func (r *Resource) Body() []byte { return r.forms[len(r.forms)-1].body }

// Codings lists the forms held, smallest first (identity last).
func (r *Resource) Codings() []string {
	out := make([]string, len(r.forms))
	for i, f := range r.forms {
		out[i] = f.coding
	}
	return out
}

// Encoded returns the body in one coding, or nil when that form is not held.
func (r *Resource) Encoded(coding string) []byte {
	for _, f := range r.forms {
		if f.coding == coding {
			return f.body
		}
	}
	return nil
}

// Compressible tells whether a Content-Type is worth compressing (text, JSON, JavaScript, SVG and
// WebAssembly; images and archives are compressed already).
func Compressible(ctype string) bool {
	t, _, _ := strings.Cut(ctype, ";")
	t = strings.TrimSpace(t)
	return strings.HasPrefix(t, "text/") || t == "application/wasm" || t == "application/json" ||
		t == "application/manifest+json" || t == "image/svg+xml" || strings.HasSuffix(t, "javascript")
}

// minCompress is the smallest body worth compressing: below it the coding's own overhead and the
// extra request header cost more than they save.
const minCompress = 512

// largeBody is the size above which compression trades a little size for start-up time: brotli at
// quality 7 instead of 11 and gzip at 6 instead of 9. On this project's 6 and 9 MB wasm modules,
// brotli 11 is 11% smaller than 7 but takes 20 and 35 s instead of under 1 s each (brotli 9: 1%
// smaller, twice the time); gzip 9 is 0.5% smaller than 6 at 2.5 times the time. Below it the best
// settings cost milliseconds.
const largeBody = 1 << 20

func (r *Resource) compress() {
	id := r.forms[len(r.forms)-1]
	if !Compressible(r.Type) || len(id.body) < minCompress {
		return
	}
	brQuality, gzLevel := brotli.BestCompression, gzip.BestCompression
	if len(id.body) > largeBody {
		brQuality, gzLevel = 7, gzip.DefaultCompression
	}
	if r.Encoded(Gzip) == nil {
		r.add(Gzip, gzipBytes(id.body, gzLevel))
	}
	if r.Encoded(Brotli) == nil {
		r.add(Brotli, brotliBytes(id.body, brQuality, 22))
	}
}

// add holds body as the coding's form when it is smaller than the identity, keeping the forms
// smallest first and identity last.
func (r *Resource) add(coding string, body []byte) {
	id := r.forms[len(r.forms)-1]
	if len(body) >= len(id.body) {
		return
	}
	tag := map[string]string{Brotli: "-br", Gzip: "-gz"}[coding]
	f := form{coding: coding, body: body, etag: `"` + r.Hash + tag + `"`}
	forms := append([]form{}, r.forms[:len(r.forms)-1]...)
	i := 0
	for i < len(forms) && len(forms[i].body) <= len(body) {
		i++
	}
	forms = append(forms[:i], append([]form{f}, forms[i:]...)...)
	r.forms = append(forms, id)
}

func gzipBytes(b []byte, level int) []byte {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, level)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// brotliBytes compresses b with a window of 2^lgwin bytes: 22 (4 MB) at start-up, where the larger
// window costs a third more time at quality 7; 24 (16 MB, the largest browsers accept) in a build step.
func brotliBytes(b []byte, quality, lgwin int) []byte {
	var out bytes.Buffer
	bw := brotli.NewWriterOptions(&out, brotli.WriterOptions{Quality: quality, LGWin: lgwin})
	bw.Write(b)
	bw.Close()
	return out.Bytes()
}

// CompressBest returns body in brotli (quality 11, the largest window browsers accept) and gzip (level
// 9): the slow best settings that start-up skips for large bodies (see largeBody), for a build step to
// make once and keep beside the file (see UsePrecompressed).
func CompressBest(body []byte) (br, gz []byte) {
	return brotliBytes(body, brotli.BestCompression, 24), gzipBytes(body, gzip.BestCompression)
}

// UsePrecompressed holds body, a brotli or gzip form of the resource made ahead of time (a .br or .gz
// file beside it), instead of the one Precompress would make: but only when it decodes to the
// identity body, so a form left over from an older build is never sent. The error says why a form
// was refused.
func (r *Resource) UsePrecompressed(coding string, body []byte) error {
	var rd io.Reader
	switch coding {
	case Brotli:
		rd = brotli.NewReader(bytes.NewReader(body))
	case Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		rd = zr
	default:
		return fmt.Errorf("unknown coding %q", coding)
	}
	got, err := io.ReadAll(io.LimitReader(rd, int64(len(r.Body()))+1)) // no further than a mismatch shows
	if err != nil {
		return fmt.Errorf("%s: %w", coding, err)
	}
	if !bytes.Equal(got, r.Body()) {
		return fmt.Errorf("%s form decodes to other bytes than the file (made from an older build?)", coding)
	}
	if r.Encoded(coding) != nil {
		return fmt.Errorf("%s form already held", coding)
	}
	r.add(coding, body)
	return nil
}

// Precompress makes the brotli and gzip forms of every resource, as many at a time as there are
// CPUs. It is meant to run once, before the server listens.
func Precompress(rs ...*Resource) {
	work := make(chan *Resource)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(rs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range work {
				r.compress()
			}
		}()
	}
	for _, r := range rs {
		work <- r
	}
	close(work)
	wg.Wait()
}

// MinWriteRate is the slowest client a large body is written for: the write deadline of a response
// grows by one second for every MinWriteRate bytes, on top of the server's WriteTimeout, so a 1.4 MB
// brotli module on a slow mobile link is not cut off while a stalled reader still is.
const MinWriteRate = 32 << 10

// ServeHTTP answers GET and HEAD with the form Accept-Encoding asks for: Content-Type,
// Content-Length, Content-Encoding, ETag and Vary, or 304 when If-None-Match names that form's ETag,
// or 406 when the client refuses every form held. Cache-Control is the caller's to set.
func (r *Resource) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	h := w.Header()
	if len(r.forms) > 1 {
		h.Add("Vary", "Accept-Encoding")
	}
	coding, ok := Negotiate(req.Header.Get("Accept-Encoding"), r.Codings())
	if !ok {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotAcceptable)
		w.Write([]byte("406 not acceptable: this resource is available as " + strings.Join(r.Codings(), ", ") + "\n"))
		return
	}
	var f form
	for _, f = range r.forms {
		if f.coding == coding {
			break
		}
	}
	h.Set("ETag", f.etag)
	if etagMatch(req.Header.Get("If-None-Match"), f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", r.Type)
	if coding != Identity {
		h.Set("Content-Encoding", coding)
	}
	h.Set("Content-Length", strconv.Itoa(len(f.body)))
	if req.Method == http.MethodHead {
		return
	}
	if extra := time.Duration(len(f.body)/MinWriteRate) * time.Second; extra > 0 {
		ExtendWrite(w, WriteTimeout+extra)
	}
	w.Write(f.body)
}

// etagMatch is If-None-Match's weak comparison (RFC 9110, 13.1.2): "*" or any listed tag whose
// opaque part equals etag's.
func etagMatch(header, etag string) bool {
	header = strings.TrimSpace(header)
	if header == "" {
		return false
	}
	if header == "*" {
		return true
	}
	for _, t := range strings.Split(header, ",") {
		if strings.TrimPrefix(strings.TrimSpace(t), "W/") == etag {
			return true
		}
	}
	return false
}
