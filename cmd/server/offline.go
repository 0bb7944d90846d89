package main

import (
	"strings"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// cacheLookup is the line of go-app's service worker that finds a request in its cache.
const cacheLookup = "await caches.match(request)"

// pageLookup finds a page by its path alone: the cache holds /sample, and a full load of
// /sample?level=...&file=... (a reload, a bookmark, a shared link) must get it offline. Only page
// loads (navigations) ignore the query; the engine, the scripts and the styles are cached under
// their content-hash URLs and must match exactly.
const pageLookup = `await caches.match(request, { ignoreSearch: request.mode === "navigate" })`

// cacheFill is go-app's function that fills the worker's cache at install.
const cacheFill = `async function installWorker() {
  const cache = await caches.open(cacheName);
  await cache.addAll(resourcesToCache);
}
`

// heldCacheFill fills the cache once per install and holds the install event open until that is
// done. go-app's install handler does not (it awaits the fill without event.waitUntil), so the
// worker was active, and controlled the tab, while its cache was still being written; that was
// hidden while the worker started before app.wasm was fetched, and no longer is now that it starts
// after the app (workerAfterApp). A failed fill (the network dropped, the server went away during
// the first visit) fails the install: go-app's handler logs it, the worker is discarded, and the
// loader's next registration, on the next page load, installs it again. Kept installed, as go-app
// does, it would control every later visit with an empty cache and never fill it (its script, and
// so its install, is the same until the next release): no offline use, though the page says a
// first visit gives it.
const heldCacheFill = `let cacheFilled; // this install's one fill of the cache
function installWorker() {
  cacheFilled = cacheFilled || caches.open(cacheName).then((cache) => cache.addAll(resourcesToCache));
  return cacheFilled;
}
self.addEventListener("install", (event) => event.waitUntil(installWorker()));
`

// offlineWorker is go-app's service worker with pages found in the cache whatever their query,
// active only once its cache is filled, and only if it was filled (heldCacheFill). ok is false
// when go-app's template no longer has the lines this changes (a test fails then).
func offlineWorker() (template string, ok bool) {
	t := goapp.DefaultAppWorkerJS
	if strings.Count(t, cacheLookup) != 1 || strings.Count(t, cacheFill) != 1 {
		return t, false
	}
	t = strings.Replace(t, cacheFill, heldCacheFill, 1)
	return strings.Replace(t, cacheLookup, pageLookup, 1), true
}

// The lines of go-app's loader (app.js) that start the service worker and the app, in this order,
// before the download of app.wasm begins.
const (
	workerStart = "goappInitServiceWorker();\n"
	appStart    = "goappInitWebAssembly();\n"
)

// laterWorker is what the loader runs instead of appStart: the app first, then the service worker.
const laterWorker = "goappInitWebAssembly().finally(goappInitServiceWorker);\n"

// workerAfterApp is go-app's loader with the service worker registered once the app is on screen
// (go-app has run app.wasm's main and removed its loading screen, or found it cannot run it),
// instead of before app.wasm is fetched. On a first visit the worker's install copies every page,
// app.wasm and engine.wasm into its cache, and that work, done at once, competed with compiling
// and starting the app (see RATIONALE "app.wasm's size and the first load"); offline use is the
// same, the copies are made a moment later. ok is false when go-app's loader no longer has these
// lines (a test fails then, and the loader is served as go-app wrote it).
func workerAfterApp(loader string) (patched string, ok bool) {
	if strings.Count(loader, workerStart) != 1 || strings.Count(loader, appStart) != 1 ||
		strings.Index(loader, workerStart) > strings.Index(loader, appStart) {
		return loader, false
	}
	patched = strings.Replace(loader, workerStart, "", 1)
	return strings.Replace(patched, appStart, laterWorker, 1), true
}
