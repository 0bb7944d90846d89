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

// offlineWorker is go-app's service worker with pages found in the cache whatever their query.
// ok is false when go-app's template no longer has the line this changes (a test fails then).
func offlineWorker() (template string, ok bool) {
	t := goapp.DefaultAppWorkerJS
	if strings.Count(t, cacheLookup) != 1 {
		return t, false
	}
	return strings.Replace(t, cacheLookup, pageLookup, 1), true
}
