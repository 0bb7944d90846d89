package main

import (
	"bytes"
	"strings"
)

// keepModules is the part of every page's inline script (bootScript) that fetches the two modules
// for the tab. It starts app.wasm's download at once, as a preload would (the loader takes that
// response: loaderTakesEarlyFetch), and gives the bridge the same fetch for engine.wasm
// (apibankAssets.fetch). On a first visit (no service worker controls the page yet, and the browser
// has Cache Storage) each module is fetched past the HTTP cache and its one copy is written, beside
// the download, into the cache the service worker installs from (apibankAssets.cache); the worker's
// install then finds it there (heldCacheFill) and the page's loader waits for those writes before
// registering it (laterWorker). Otherwise (a controlled page, an origin without service workers) the
// fetches are plain ones and the HTTP cache keeps the modules as before. Why: an HTTP cache entry is
// written in the response's path, and on a slow link a module arrived about a tenth later for it
// (RATIONALE.md "First visit on a phone network: bytes first").
const keepModules = `(function(a){` +
	`var first=!!(window.caches&&navigator.serviceWorker&&!navigator.serviceWorker.controller);` +
	`a.kept=[];` +
	`a.fetch=function(url,init){` +
	`return fetch(url,first?Object.assign({},init,{cache:"no-store"}):init).then(function(r){` +
	`if(first&&r.ok){var copy=r.clone();a.kept.push(caches.open(a.cache).then(function(c){return c.put(url,copy)}).catch(function(){}))}` +
	`return r})};` +
	`a.appResponse=a.fetch(a.app);` +
	`a.appResponse.catch(function(){});` + // a failed download is the loader's to report, once it takes it
	`})(window.apibankAssets);`

// loaderFetch is the line of go-app's loader (app.js) that fetches app.wasm.
const loaderFetch = "  const response = await fetch(url);\n"

// earlyFetch is what the loader runs instead: it takes the response the page's inline script
// started (keepModules) when it is for the same address, else fetches as go-app does.
const earlyFetch = "  const early = window.apibankAssets;\n" +
	"  const response = await (early && early.app === url && early.appResponse ? early.appResponse : fetch(url));\n"

// loaderTakesEarlyFetch is go-app's loader reading app.wasm from the download the page's inline
// script started. ok is false when the loader no longer has the line (a test fails then, and the
// module would be fetched twice).
func loaderTakesEarlyFetch(loader string) (patched string, ok bool) {
	if strings.Count(loader, loaderFetch) != 1 {
		return loader, false
	}
	return strings.Replace(loader, loaderFetch, earlyFetch, 1), true
}

// charsetMeta is the first element of every page's head as go-app renders it.
const charsetMeta = `<meta charset="UTF-8">`

// bootFirst moves a page's inline boot script (bootScript, which go-app writes among the head's raw
// headers, after the style sheets) to right after the charset: an inline script waits for every
// style sheet above it to arrive, and app.wasm's download, which it starts, would wait with it.
// ok is false when the page has not the script or the charset once each (the page is then as it was).
func bootFirst(page []byte, boot string) (moved []byte, ok bool) {
	script := []byte("<script>" + boot + "</script>")
	if bytes.Count(page, script) != 1 || bytes.Count(page, []byte(charsetMeta)) != 1 {
		return page, false
	}
	rest := bytes.Replace(page, script, nil, 1)
	at := bytes.Index(rest, []byte(charsetMeta)) + len(charsetMeta)
	out := make([]byte, 0, len(page))
	out = append(out, rest[:at]...)
	out = append(out, script...)
	return append(out, rest[at:]...), true
}
