package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"sort"
	"strings"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/app"
	"github.com/apibank-playground/apibank/serve"
)

// goappFiles are the files go-app's handler makes (its loader, its service worker, the Go wasm
// runtime's glue, the manifest and its styles); they are served from the start-up cache like the pages.
var goappFiles = []string{"/app.js", "/app-worker.js", "/wasm_exec.js", "/manifest.webmanifest", "/app.css"}

// Site is everything the server hands out, made at start-up: the pages rendered once by go-app, go-app's
// own files, and web/; each compressed once. go-app's handler is never called on a request: a page is
// the same bytes for every visitor (the tab fills it in), and the handler's other behaviours (fetching
// robots.txt and the like from the request's own Host) are not ones a public server should have.
type Site struct {
	assets *Assets
	pages  map[string]*serve.Resource // by URL path
	// notFound is the "page not found" page, served with status 404 for every unknown path.
	notFound []byte
	// Headers are the security headers of every response (with the policy that allows the pages'
	// inline script).
	Headers http.Header
}

// NewSite renders the pages and go-app's files with h, then compresses them and every web/ file.
func NewSite(h *goapp.Handler, assets *Assets) (*Site, error) {
	s := &Site{assets: assets, pages: map[string]*serve.Resource{}, Headers: serve.SecurityHeaders(policy(assets))}
	for _, p := range append(pagePaths(), goappFiles...) {
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		req, err := http.NewRequest(http.MethodGet, p, nil)
		if err != nil {
			return nil, err
		}
		h.ServeHTTP(rec, req)
		if rec.status != http.StatusOK || rec.body.Len() == 0 {
			return nil, fmt.Errorf("rendering %s: go-app answered %d with %d bytes", p, rec.status, rec.body.Len())
		}
		ctype := rec.header.Get("Content-Type")
		if ctype == "text/html" {
			ctype = "text/html; charset=utf-8"
		}
		s.pages[p] = serve.NewResource(ourChanges(p, rec.body.Bytes(), bootScript(assets)), ctype)
	}
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	req, err := http.NewRequest(http.MethodGet, app.NotFoundPath, nil)
	if err != nil {
		return nil, err
	}
	h.ServeHTTP(rec, req)
	if rec.status != http.StatusOK || rec.body.Len() == 0 {
		return nil, fmt.Errorf("rendering the not-found page: go-app answered %d", rec.status)
	}
	s.notFound = ourChanges(app.NotFoundPath, rec.body.Bytes(), bootScript(assets))
	all := assets.resources()
	for _, p := range s.Paths() {
		all = append(all, s.pages[p])
	}
	serve.Precompress(all...)
	return s, nil
}

// ourChanges is what the site serves at path p for go-app's render body: the loader starts the
// service worker after the app (workerAfterApp), announces app.wasm's bytes (announceAppBytes) and
// takes the page's download of it (loaderTakesEarlyFetch); a page has the boot script boot first in
// its head (bootFirst); go-app's other files are as it wrote them.
func ourChanges(p string, body []byte, boot string) []byte {
	if p == "/app.js" {
		js, _ := workerAfterApp(string(body))
		js, _ = announceAppBytes(js)
		js, _ = loaderTakesEarlyFetch(js)
		return []byte(js)
	}
	page, _ := bootFirst(body, boot)
	return page
}

// appBytesIn is the line of go-app's loader that runs once app.wasm's last byte is read.
const appBytesIn = "            if (done) {\n              progressHandler(total, total);\n"

// appBytesEvent is the event the loader dispatches on window at that moment: the bridge starts
// engine.wasm's download on it (web/bridge/compile.js afterUIBytes). It comes synchronously from the
// loader's read loop, before app.wasm is instantiated and its Go code holds the page's thread.
const appBytesEvent = "apibank-app-bytes"

// announceAppBytes is go-app's loader dispatching appBytesEvent once it has read app.wasm's last
// byte: the UI's module has the link to itself until then (RATIONALE.md "First visit on a phone
// network: bytes first"). ok is false when the loader no longer has the line (a test fails then; the
// bridge still starts the engine when app.wasm's resource timing entry is written or the UI is up).
func announceAppBytes(loader string) (patched string, ok bool) {
	if strings.Count(loader, appBytesIn) != 1 {
		return loader, false
	}
	announce := `window.apibankAppBytes = true; window.dispatchEvent(new Event("` + appBytesEvent + `"));`
	return strings.Replace(loader, appBytesIn, appBytesIn+`              `+announce+"\n", 1), true
}

// pagePaths are the routed pages (the "soon" ones have no route yet).
func pagePaths() []string {
	var out []string
	for _, p := range app.Pages {
		if !p.Soon {
			out = append(out, p.Path)
		}
	}
	return out
}

// Paths lists the pages and go-app files, sorted.
func (s *Site) Paths() []string {
	out := make([]string, 0, len(s.pages))
	for p := range s.pages {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ServeHTTP serves a page or a go-app file (revalidated on every visit: no-cache with an ETag), or 404.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	res, ok := s.pages[r.URL.Path]
	if !ok {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusNotFound)
		if r.Method != http.MethodHead {
			_, _ = w.Write(s.notFound)
		}
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	res.ServeHTTP(w, r)
}

// Route is one more endpoint of the server (the API's): a ServeMux pattern that names its method,
// such as "POST /api/v1/score", and its handler.
type Route struct {
	Pattern string
	Handler http.Handler
}

// NewMux routes GET and HEAD of /web/ to the static files and of everything else to the pages, then
// the extra routes. Any other method on a known path gets 405 with an Allow header (ServeMux does it
// for patterns that name methods).
func NewMux(s *Site, routes ...Route) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /web/", s.assets)
	mux.Handle("GET /", s)
	for _, r := range routes {
		mux.Handle(r.Pattern, r.Handler)
	}
	return mux
}

// Handler is the whole server's handler: the access log around the security headers around the panic
// guard around the mux.
func (s *Site) Handler(logger *slog.Logger, routes ...Route) http.Handler {
	return serve.AccessLog(logger, serve.Secure(s.Headers, serve.Recover(logger, NewMux(s, routes...))))
}

// policy is the Content-Security-Policy of the site: the pages' inline scripts (bootScript and the
// import map) are allowed by their hashes.
// endpoints are connect-src sources added for model endpoints the operator named (--allow-endpoint).
func policy(assets *Assets, endpoints ...string) string {
	return serve.ContentSecurityPolicyAllowing(endpoints, serve.ScriptHash(bootScript(assets)), serve.ScriptHash(importMap(assets)))
}

// bridgeEntry is the bridge's entry module (web/bridge.js); bridgeDir holds the modules it imports.
const (
	bridgeEntry = "bridge.js"
	bridgeDir   = "bridge/"
)

// bridgeModules lists the modules web/bridge.js imports: the .js files under web/bridge/, sorted.
func bridgeModules(assets *Assets) []string {
	var out []string
	for _, n := range assets.Names() {
		if strings.HasPrefix(n, bridgeDir) && strings.HasSuffix(n, ".js") {
			out = append(out, n)
		}
	}
	return out
}

// importMap is the pages' import map: the address each bridge module is imported by (a relative
// import resolves without the importer's ?v=) mapped to its content-hashed address, so a module is
// cached for good, kept by the service worker for offline use, and fetched anew when it changes.
func importMap(assets *Assets) string {
	imports := map[string]string{}
	for _, n := range bridgeModules(assets) {
		imports["/web/"+n] = assets.URL("/web/" + n)
	}
	b, _ := json.Marshal(struct {
		Imports map[string]string `json:"imports"`
	}{imports}) // a map of strings always encodes; its keys come out sorted
	return string(b)
}

// moduleHeaders are the head elements that load the bridge: the import map, a modulepreload of every
// module the bridge imports (fetched at once, in parallel with the entry, rather than one round trip
// later when the entry has been parsed; at a low priority, as over HTTP/1.1 a browser opens six
// connections to a site and app.wasm's download queued behind them), and the entry as a module
// script (deferred: it runs after go-app's scripts, in document order, as a deferred classic script
// would). app.wasm has no preload: the boot script, first in the head (bootFirst), starts its
// download as early (keepModules), in the cache mode a first visit needs, which a preload cannot
// choose. engine.wasm's download starts once app.wasm's bytes are in, so the UI has the link to
// itself (RATIONALE.md "First visit on a phone network: bytes first").
func moduleHeaders(assets *Assets) []string {
	out := []string{`<script type="importmap">` + importMap(assets) + `</script>`}
	for _, n := range bridgeModules(assets) {
		out = append(out, `<link rel="modulepreload" href="`+html.EscapeString(assets.URL("/web/"+n))+`" fetchpriority="low">`)
	}
	return append(out, `<script type="module" src="`+html.EscapeString(assets.URL("/web/"+bridgeEntry))+`"></script>`)
}

// bootScript is the inline script of every page: where the tab finds the two modules and the engine's
// worker (hashed URLs, so a new build is fetched, not taken from a cache) and the service worker's
// cache, and the start of the modules' downloads (keepModules).
func bootScript(assets *Assets) string {
	return fmt.Sprintf(`window.apibankAssets={app:%q,engine:%q,worker:%q,cache:%q};`,
		assets.URL("/web/app.wasm"), assets.URL("/web/engine.wasm"), workerURL(assets), workerCache(assets)) + keepModules
}

// workerCache is the name of the cache the service worker installs into (go-app's template names it
// "app-" and the handler's Version).
func workerCache(assets *Assets) string { return "app-" + assets.Version }

// recorder keeps a response in memory (go-app's renders at start-up).
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(status int)      { r.status = status }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
