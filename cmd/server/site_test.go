package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/serve"
)

// TestBridgeModules: every page loads the bridge as ES modules by content-hashed addresses (an
// import map that maps each module's plain address to its hashed one, a modulepreload of each, the
// entry as a module script after go-app's loader), the policy allows the import map by its hash,
// and the service worker keeps every module for offline use.
func TestBridgeModules(t *testing.T) {
	srv, assets := testServer(t)
	resp, body := get(t, srv.URL+"/sandbox", map[string]string{"Accept-Encoding": "gzip"})
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(zr)
	modules := []string{"bridge/engine.js", "bridge/files.js"}
	if got := bridgeModules(assets); strings.Join(got, " ") != strings.Join(modules, " ") {
		t.Fatalf("bridge modules %v, want %v", got, modules)
	}

	m := regexp.MustCompile(`<script type="importmap">(.*?)</script>`).FindSubmatch(page)
	if m == nil {
		t.Fatal("the page has no import map")
	}
	var im struct {
		Imports map[string]string `json:"imports"`
	}
	if err := json.Unmarshal(m[1], &im); err != nil {
		t.Fatalf("import map %s: %v", m[1], err)
	}
	if len(im.Imports) != len(modules) {
		t.Errorf("import map %v: want an entry per module of %v", im.Imports, modules)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, serve.ScriptHash(string(m[1]))) {
		t.Errorf("the policy %q does not allow the page's import map", csp)
	}

	_, sw := get(t, srv.URL+"/app-worker.js", nil)
	for _, n := range modules {
		hashed := assets.URL("/web/" + n)
		tests := []struct{ what, want string }{
			{"import map entry", `"/web/` + n + `":"` + hashed + `"`},
			{"modulepreload", `<link rel="modulepreload" href="` + hashed + `">`},
		}
		for _, tt := range tests {
			if !bytes.Contains(page, []byte(tt.want)) {
				t.Errorf("%s: the page has no %s %s", n, tt.what, tt.want)
			}
		}
		if !strings.Contains(hashed, "?v=") {
			t.Errorf("%s is not addressed by its hash: %s", n, hashed)
		}
		if !bytes.Contains(sw, []byte(`"`+hashed+`"`)) {
			t.Errorf("the service worker does not keep %s for offline use", hashed)
		}
	}

	entry := `<script type="module" src="` + assets.URL("/web/bridge.js") + `"></script>`
	at, loader, imap := bytes.Index(page, []byte(entry)), bytes.Index(page, []byte(`src="/app.js"`)), bytes.Index(page, []byte(`type="importmap"`))
	if at < 0 {
		t.Fatalf("the page has no %s", entry)
	}
	if loader < 0 || loader > at || imap > at {
		t.Errorf("the bridge's entry must come after go-app's loader and the import map (at %d, loader %d, import map %d)", at, loader, imap)
	}
}

// TestModulePreloads: every page preloads app.wasm from its head, at the very address go-app's loader
// (app.js) fetches it, in the mode its fetch uses (crossorigin: a fetch() is a CORS request); an
// address or mode that differed would download the module twice. engine.wasm is not preloaded: the
// bridge fetches it once most of app.wasm's bytes are in, and the loader says when (announceAppBytes).
func TestModulePreloads(t *testing.T) {
	srv, assets := testServer(t)
	_, page := get(t, srv.URL+"/", nil)
	_, loader := get(t, srv.URL+"/app.js", nil)
	tests := []struct {
		module  string
		fetcher []byte // where the page's code names the address it fetches
	}{
		{"app.wasm", loader},
	}
	if engine := `<link rel="preload" href="` + assets.URL("/web/engine.wasm"); bytes.Contains(page, []byte(engine)) {
		t.Errorf("the page preloads engine.wasm, whose download must wait for app.wasm's bytes")
	}
	if !bytes.Contains(loader, []byte(`window.dispatchEvent(new Event("`+appBytesEvent+`"))`)) {
		t.Errorf("go-app's loader does not announce app.wasm's bytes (%s): the lines announceAppBytes changes are gone", appBytesEvent)
	}
	if !bytes.Contains(loader, []byte("loaded >= total * "+appBytesShare)) {
		t.Errorf("go-app's loader does not announce app.wasm's bytes once %s of them are in", appBytesShare)
	}
	for _, tt := range tests {
		url := assets.URL("/web/" + tt.module)
		link := `<link rel="preload" href="` + url + `" as="fetch" crossorigin>`
		if !bytes.Contains(page, []byte(link)) {
			t.Errorf("%s: the page has no %s", tt.module, link)
		}
		if !bytes.Contains(tt.fetcher, []byte(`"`+url+`"`)) {
			t.Errorf("%s: the preloaded %s is not the address the page fetches", tt.module, url)
		}
		if head := bytes.Index(page, []byte("</head>")); bytes.Index(page, []byte(link)) > head {
			t.Errorf("%s: the preload is not in the head", tt.module)
		}
	}
}
