package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/apibank-playground/apibank/serve"
)

// Assets serves the files of a web/ folder under /web/, read once at start-up. Every response carries
// an ETag made of the content hash (and the coding); a URL whose ?v= is that hash is cached for a
// year (immutable), any other must be revalidated (no-cache), so a new build is never hidden behind a
// stale copy. Text and wasm files are sent as brotli or gzip, compressed once (serve.Precompress).
type Assets struct {
	dir   string
	files map[string]*serve.Resource // by path under web/, slash-separated
	// Version is the hash of all files: it changes whenever any file does.
	Version string
}

// LoadAssets reads every file of dir (uncompressed: NewSite compresses them with the pages).
func LoadAssets(dir string) (*Assets, error) {
	// A web folder that is a symbolic link (a deployment's current/ link) is walked where it
	// leads: WalkDir does not follow its root.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	a := &Assets{dir: dir, files: map[string]*serve.Resource{}}
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
	// A .br or .gz file beside another is that file's precompressed form, not a file of its own.
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	pre := map[string]map[string]string{} // file -> coding -> the precompressed file's name
	kept := names[:0]
	for _, n := range names {
		if base, coding := precompressedOf(n); coding != "" && have[base] {
			if pre[base] == nil {
				pre[base] = map[string]string{}
			}
			pre[base][coding] = n
			continue
		}
		kept = append(kept, n)
	}
	names = kept
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	sort.Strings(names)
	var wg sync.WaitGroup
	errs := make([]error, len(names))
	files := make([]*serve.Resource, len(names))
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := filepath.Join(dir, filepath.FromSlash(n))
			b, err := os.ReadFile(p)
			if err != nil {
				errs[i] = err
				return
			}
			files[i] = serve.NewResource(b, contentType(p))
			for coding, name := range pre[n] {
				enc, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
				if err != nil {
					errs[i] = err
					return
				}
				// A stale form is left out: the file is then compressed at start-up as if it had none.
				_ = files[i].UsePrecompressed(coding, enc)
			}
		}()
	}
	wg.Wait()
	all := sha256.New()
	for i, n := range names {
		if errs[i] != nil {
			return nil, errs[i]
		}
		a.files[n] = files[i]
		fmt.Fprintf(all, "%s %s\n", n, files[i].Hash)
	}
	a.Version = hex.EncodeToString(all.Sum(nil))[:16]
	return a, nil
}

// precompressedOf tells whether a name is a precompressed form (name.br, name.gz) and of which file.
func precompressedOf(name string) (base, coding string) {
	if b, ok := strings.CutSuffix(name, ".br"); ok {
		return b, serve.Brotli
	}
	if b, ok := strings.CutSuffix(name, ".gz"); ok {
		return b, serve.Gzip
	}
	return "", ""
}

// precompressedSuffix is the file name suffix of a coding's precompressed form.
var precompressedSuffix = map[string]string{serve.Brotli: ".br", serve.Gzip: ".gz"}

// Precompress writes, beside every compressible file of dir over minBest bytes, its brotli and gzip
// forms at the best settings (name.br, name.gz), which LoadAssets then uses instead of the faster,
// larger forms start-up would make. It is a build step (make precompressed): brotli's best setting
// takes tens of seconds on a module.
func Precompress(dir string, minBest int, stdout io.Writer) error {
	a, err := LoadAssets(dir)
	if err != nil {
		return err
	}
	for _, n := range a.Names() {
		r := a.files[n]
		if !serve.Compressible(r.Type) || len(r.Body()) < minBest {
			continue
		}
		br, gz := serve.CompressBest(r.Body())
		for coding, b := range map[string][]byte{serve.Brotli: br, serve.Gzip: gz} {
			p := filepath.Join(dir, filepath.FromSlash(n)) + precompressedSuffix[coding]
			if err := os.WriteFile(p, b, 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "%s: %d bytes, brotli %d, gzip %d\n", n, len(r.Body()), len(br), len(gz))
	}
	return nil
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

// URL returns the address of a web/ file with its content hash, e.g. "/web/app.wasm?v=1a2b…".
// A path outside web/ comes back as it is.
func (a *Assets) URL(p string) string {
	rel := strings.TrimPrefix(p, "/web/")
	if rel == p {
		return p
	}
	if f, ok := a.files[rel]; ok {
		return "/web/" + rel + "?v=" + f.Hash
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
		return len(f.Body())
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

// resources lists the files' resources, for compression.
func (a *Assets) resources() []*serve.Resource {
	out := make([]*serve.Resource, 0, len(a.files))
	for _, n := range a.Names() {
		out = append(out, a.files[n])
	}
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
	if r.URL.Query().Get("v") == f.Hash {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	f.ServeHTTP(w, r)
}
