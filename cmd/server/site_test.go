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
// import map that maps each module's plain address to its hashed one, a modulepreload of each (at a
// low priority, so app.wasm's download is not queued behind them), the
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
			{"modulepreload, at a low priority", `<link rel="modulepreload" href="` + hashed + `" fetchpriority="low">`},
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

// TestModuleFetches: every page's first script, right after the charset and before any style sheet
// (which an inline script would wait for), starts app.wasm's download at the very address go-app's
// loader (app.js) fetches, and the loader takes that response instead of fetching again; nothing is
// preloaded (a preload cannot skip the HTTP cache on a first visit, and would download the module a
// second time beside the script's fetch). The page writes its copies into the cache the service
// worker installs from. engine.wasm's download waits for app.wasm's last byte (announceAppBytes).
func TestModuleFetches(t *testing.T) {
	srv, assets := testServer(t)
	_, page := get(t, srv.URL+"/", nil)
	_, loader := get(t, srv.URL+"/app.js", nil)
	_, worker := get(t, srv.URL+"/app-worker.js", nil)
	boot := "<script>" + bootScript(assets) + "</script>"
	if !bytes.HasPrefix(page[bytes.Index(page, []byte(charsetMeta)):], []byte(charsetMeta+boot)) {
		t.Errorf("the page's boot script does not follow its charset")
	}
	if at, css := bytes.Index(page, []byte(boot)), bytes.Index(page, []byte(`rel="stylesheet"`)); css < 0 || at > css {
		t.Errorf("the boot script (at %d) must come before the style sheets (at %d)", at, css)
	}
	for _, want := range []string{`app:"` + assets.URL("/web/app.wasm") + `"`, `cache:"` + workerCache(assets) + `"`, "a.appResponse=a.fetch(a.app)"} {
		if !strings.Contains(bootScript(assets), want) {
			t.Errorf("the boot script has no %s", want)
		}
	}
	if !bytes.Contains(loader, []byte(`"`+assets.URL("/web/app.wasm")+`"`)) {
		t.Errorf("go-app's loader does not fetch app.wasm at %s, the address the boot script starts", assets.URL("/web/app.wasm"))
	}
	if !bytes.Contains(loader, []byte(earlyFetch)) || bytes.Contains(loader, []byte(loaderFetch)) {
		t.Errorf("go-app's loader does not take the boot script's response for app.wasm: the line loaderTakesEarlyFetch changes is gone")
	}
	if want := `const cacheName = "app-" + "` + assets.Version + `";`; workerCache(assets) != "app-"+assets.Version || !bytes.Contains(worker, []byte(want)) {
		t.Errorf("the service worker's cache is not %s, the one the page writes the modules into (want %s)", workerCache(assets), want)
	}
	if bytes.Contains(page, []byte(`rel="preload"`)) {
		t.Errorf("the page preloads a file: app.wasm's download is the boot script's, engine.wasm's waits for app.wasm's bytes")
	}
	if !bytes.Contains(loader, []byte(`window.dispatchEvent(new Event("`+appBytesEvent+`"))`)) {
		t.Errorf("go-app's loader does not announce app.wasm's bytes (%s): the lines announceAppBytes changes are gone", appBytesEvent)
	}
	if at, in := bytes.Index(loader, []byte(`new Event("`+appBytesEvent+`")`)), bytes.Index(loader, []byte(appBytesIn)); in < 0 || at < in {
		t.Errorf("go-app's loader announces app.wasm's bytes before its last byte is read")
	}
}
