package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// asset is one file of web/, read once, with its content hash and (when worth it) its gzip form.
type asset struct {
	body  []byte
	gz    []byte
	hash  string
	ctype string
}

// Assets serves the files of a web/ folder under /web/. Every response carries an ETag made of the
// content hash; a URL whose ?v= is that hash is cached for a year (immutable), any other must be
// revalidated (no-cache), so a new build is never hidden behind a stale copy. Text and wasm files are
// sent gzipped to clients that accept it.
type Assets struct {
	dir   string
	files map[string]*asset // by path under web/, slash-separated
	// Version is the hash of all files: it changes whenever any file does.
	Version string
}

// LoadAssets reads and compresses every file of dir.
func LoadAssets(dir string) (*Assets, error) {
	a := &Assets{dir: dir, files: map[string]*asset{}}
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	sort.Strings(names)
	var wg sync.WaitGroup
	errs := make([]error, len(names))
	assets := make([]*asset, len(names))
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assets[i], errs[i] = readAsset(filepath.Join(dir, filepath.FromSlash(n)))
		}()
	}
	wg.Wait()
	all := sha256.New()
	for i, n := range names {
		if errs[i] != nil {
			return nil, errs[i]
		}
		a.files[n] = assets[i]
		fmt.Fprintf(all, "%s %s\n", n, assets[i].hash)
	}
	a.Version = hex.EncodeToString(all.Sum(nil))[:16]
	return a, nil
}

func readAsset(p string) (*asset, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	a := &asset{body: b, hash: hex.EncodeToString(sum[:])[:16], ctype: contentType(p)}
	if compressible(a.ctype) && len(b) > 512 {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		if buf.Len() < len(b) {
			a.gz = buf.Bytes()
		}
	}
	return a, nil
}

func contentType(p string) string {
	switch path.Ext(p) {
	case ".wasm":
		return "application/wasm"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".json", ".webmanifest":
		return "application/json"
	}
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		return t
	}
	return "application/octet-stream"
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || ctype == "application/wasm" || ctype == "application/json" || ctype == "image/svg+xml"
}

// URL returns the address of a web/ file with its content hash, e.g. "/web/app.wasm?v=1a2b…".
// A path outside web/ comes back as it is.
func (a *Assets) URL(p string) string {
	rel := strings.TrimPrefix(p, "/web/")
	if rel == p {
		return p
	}
	if f, ok := a.files[rel]; ok {
		return "/web/" + rel + "?v=" + f.hash
	}
	return p
}

// Resolve makes Assets a go-app ResourceResolver: the pages link web/ files by hashed URLs.
func (a *Assets) Resolve(p string) string {
	if p == "" || p == "/" {
		return "/"
	}
	return a.URL(p)
}

// Size returns the raw size of a web/ file (0 when missing).
func (a *Assets) Size(rel string) int {
	if f, ok := a.files[rel]; ok {
		return len(f.body)
	}
	return 0
}

// Names lists the files.
func (a *Assets) Names() []string {
	out := make([]string, 0, len(a.files))
	for n := range a.files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ServeHTTP serves /web/<file>.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rel := strings.TrimPrefix(r.URL.Path, "/web/")
	f, ok := a.files[rel]
	if !ok || rel == r.URL.Path {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	etag := `"` + f.hash + `"`
	h.Set("ETag", etag)
	h.Set("Vary", "Accept-Encoding")
	if r.URL.Query().Get("v") == f.hash {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && (match == etag || match == "W/"+etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", f.ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	body := f.body
	if f.gz != nil && acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" && strings.TrimSpace(q) != "q=0" {
			return true
		}
	}
	return false
}
