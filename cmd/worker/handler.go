package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"strings"

	"github.com/apibank-playground/apibank/api"
	"github.com/apibank-playground/apibank/serve"
)

// newHandler routes /healthz and /api/ to apiRoutes (which answers its own 404s and 405s there), a GET of
// anything else (that the static assets did not answer) to a JSON 404 and other methods there to
// 405; under the security headers of every response and a panic guard, with an access log to logger
// (no header, no body, no query) that also says the memory the instance holds, of the requests that
// failed or after which the instance held more memory than ever (see notable).
func newHandler(logger *slog.Logger, apiRoutes http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", notFound)
	// The API takes every method on its paths and answers 405 itself; a mux pattern for them would
	// clash with "GET /" (neither is more specific), so they are split off before the mux.
	routes := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == apiHealth || strings.HasPrefix(r.URL.Path, apiPrefix) {
			apiRoutes.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
	headers := serve.SecurityHeaders(serve.ContentSecurityPolicy())
	return readRest(serve.AccessLog(keepNotable(logger), serve.Secure(headers, serve.Recover(logger, routes)), memory))
}

// restMax bounds how much of a request body readRest reads after the handler (the API's largest
// body limit, api's default MaxBody); what is over it is cut off by closing the body.
const restMax = 16 << 20

// readRest reads what the handler left of a request body (up to restMax bytes) and closes it, as
// net/http's server does with a little of it. A 413 stops reading at the limit, and under wrangler
// dev a body left unread kept the Worker from answering its next requests for minutes (cancelling
// it, by closing, did not help); read to its end, it costs nothing more. Only a request that says
// it has a body (Content-Length) is read: reading the stream of one without a body (a DELETE)
// ended the Go instance before its answer was sent.
func readRest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r)
		if r.Body != nil && r.ContentLength > 0 {
			io.Copy(io.Discard, io.LimitReader(r.Body, restMax))
			r.Body.Close()
		}
	})
}

// The API's paths (api's HealthPath and Prefix).
const (
	apiHealth = api.HealthPath
	apiPrefix = api.Prefix
)

// notFound answers a path that is neither a static file nor a route, in the API's error shape.
func notFound(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, errorBody{Error: api.Error{Code: api.CodeNotFound, Message: "no page, file or API route at " + r.URL.Path}})
}

// errorBody is the API's error shape: {"error":{"code","message"}}.
type errorBody struct {
	Error api.Error `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil { // only our own fixed types pass through here
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// sysKey is the access line's attribute that says the memory the Go runtime holds (memory writes
// it, notable reads it).
const sysKey = "sys_bytes"

// memory is what the access log says, after each request, of the memory the Go runtime holds (on
// Workers: about the instance's linear memory, which counts against the isolate's 128 MB) and of
// all the heap it allocated, so a request that comes near the limit shows in the logs before it
// fails.
func memory() []slog.Attr {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return []slog.Attr{slog.Uint64(sysKey, m.Sys), slog.Uint64("heap_sys_bytes", m.HeapSys), slog.Uint64("total_alloc_bytes", m.TotalAlloc)}
}
