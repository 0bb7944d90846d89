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
//
// A file the cache already holds is kept: on a first visit the page writes each module into this
// cache as it downloads it (keepModules), and the worker installs once those writes are done
// (workerAfterApp); a second download of a module during the first visit would cost a phone as much
// again as the first. The other content-hashed files (?v=, the same bytes for good) are copied from
// the HTTP cache whatever freshness the browser gives its entries (fromHTTPCache).
const heldCacheFill = `let cacheFilled; // this install's one fill of the cache
function installWorker() {
  cacheFilled = cacheFilled || caches.open(cacheName).then((cache) =>
    Promise.all(resourcesToCache.map((url) => cache.match(url).then((kept) => kept || cache.add(fromHTTPCache(url))))));
  return cacheFilled;
}
function fromHTTPCache(url) {
  return url.includes("?v=") ? new Request(url, { cache: "force-cache" }) : url;
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

// laterWorker is what the loader runs instead of appStart: the app first, then, once the tab's
// engine has started too (engineSettled) and the page has written its copies of the modules
// (modulesKept), the service worker.
const laterWorker = "goappInitWebAssembly().then(engineSettled).then(modulesKept).finally(goappInitServiceWorker);\n"

// engineSettled, added to the loader with modulesKept, resolves once this tab's engine
// (web/bridge.js) is ready or has given up, or after a bound whatever it does: a page without the
// bridge, or an engine that never settles, still gets its service worker, and so its offline copies.
const engineSettled = `
// engineSettled resolves once this tab's engine is ready or has failed (web/bridge.js), or after
// 15 s: the service worker's install waits for it so as not to compete with the first load.
function engineSettled() {
  return new Promise((resolve) => {
    setTimeout(resolve, 15000);
    const settled = (s) => s.state === "ready" || s.state === "failed";
    const watch = () => {
      const engine = window.apibankEngine;
      if (!engine) return false;
      if (settled(engine.status())) resolve();
      else engine.onStatus((s) => settled(s) && resolve());
      return true;
    };
    if (!watch()) window.addEventListener("apibank-engine", watch, { once: true });
  });
}

// modulesKept resolves once the copies of the modules this page writes into the service worker's
// cache on a first visit (apibankAssets.kept) are written or have failed, or after 15 s.
function modulesKept() {
  const kept = (window.apibankAssets && window.apibankAssets.kept) || [];
  return Promise.race([Promise.allSettled(kept), new Promise((resolve) => setTimeout(resolve, 15000))]);
}
`

// workerAfterApp is go-app's loader with the service worker registered once the app is on screen
// (go-app has run app.wasm's main and removed its loading screen, or found it cannot run it) and
// the engine has started (engineSettled), instead of before app.wasm is fetched. On a first visit
// the worker's install copies every page, app.wasm and engine.wasm into its cache, and that work,
// done at once, competed with downloading, compiling and starting the app and the engine (see
// RATIONALE "app.wasm's size and the first load"); offline use is the same, the copies are made a
// moment later, from the HTTP cache (heldCacheFill). ok is false when go-app's loader no longer has these
// lines (a test fails then, and the loader is served as go-app wrote it).
func workerAfterApp(loader string) (patched string, ok bool) {
	if strings.Count(loader, workerStart) != 1 || strings.Count(loader, appStart) != 1 ||
		strings.Index(loader, workerStart) > strings.Index(loader, appStart) {
		return loader, false
	}
	patched = strings.Replace(loader, workerStart, "", 1)
	return strings.Replace(patched, appStart, laterWorker, 1) + engineSettled, true
}
