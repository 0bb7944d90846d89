//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"syscall/js"
	"time"

	"github.com/apibank-playground/apibank/api"
)

// bridge hands requests from the Worker's entry module (worker/src/worker.mjs) to handler, in the
// Go instance that module keeps for the isolate's life. It sets binding.serve and binding.maxBody on
// the runtime context's binding object; serve(method, url, headers, body) takes the request as
// plain values (headers as [name, value] pairs, the body as a Uint8Array or null) and returns a
// Promise of {status, headers, body}, the response whole.
//
// syumai/workers' own bridge ends the Go program with the first response (it closes a channel per
// program, not per request), so a Go runtime would start, and the builtin data load, for every
// request; this one leaves the instance running between requests. Each request still gets its own
// engine session (freshSessions): what an instance keeps across requests is only read-only data.
func bridge(binding js.Value, handler http.Handler) {
	promise := js.Global().Get("Promise")
	uint8Array := js.Global().Get("Uint8Array")
	serve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		req, err := fromJS(args)
		var executor js.Func
		executor = js.FuncOf(func(_ js.Value, p []js.Value) any {
			executor.Release()
			resolve := p[0]
			go func() {
				rec := newRecorder()
				start := time.Now()
				if err != nil {
					writeJSON(rec, http.StatusBadRequest, errorBody{Error: api.Error{Code: api.CodeBadRequest, Message: err.Error()}})
				} else {
					handler.ServeHTTP(rec, req)
				}
				// What the request cost in Go, for the client and the benchmarks (Server-Timing).
				rec.header.Add("Server-Timing", fmt.Sprintf("handler;dur=%.1f", float64(time.Since(start).Microseconds())/1000))
				resolve.Invoke(rec.toJS(uint8Array))
			}()
			return nil
		})
		return promise.New(executor)
	})
	binding.Set("serve", serve)
	binding.Set("maxBody", maxBody)
}

// fromJS makes the http.Request of serve's arguments: method, URL, header pairs, body.
func fromJS(args []js.Value) (*http.Request, error) {
	if len(args) < 4 {
		return nil, errBridge("serve takes method, url, headers and body")
	}
	u, err := url.Parse(args[1].String())
	if err != nil {
		return nil, err
	}
	var body []byte
	if b := args[3]; b.Truthy() {
		body = make([]byte, b.Get("length").Int())
		js.CopyBytesToGo(body, b)
	}
	req, err := http.NewRequestWithContext(context.Background(), args[0].String(), u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	pairs := args[2]
	for i, n := 0, pairs.Get("length").Int(); i < n; i++ {
		p := pairs.Index(i)
		req.Header.Add(p.Index(0).String(), p.Index(1).String())
	}
	req.Host = u.Host
	req.RequestURI = u.RequestURI()
	if args[3].Truthy() {
		req.ContentLength = int64(len(body))
	} else {
		req.Body = http.NoBody
	}
	return req, nil
}

// errBridge is a request the entry module could not hand over.
type errBridge string

func (e errBridge) Error() string { return "worker bridge: " + string(e) }

// recorder is the ResponseWriter of one bridged request: the whole response in memory, handed to
// the entry module when the handler returns (the API's answers are small; a streamed score comes
// whole, as a client reading it to its end sees it).
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// Flush does nothing: the response goes out whole.
func (r *recorder) Flush() {}

// toJS is the response as serve resolves it.
func (r *recorder) toJS(uint8Array js.Value) js.Value {
	r.WriteHeader(http.StatusOK)
	var pairs []any
	for k, vs := range r.header {
		for _, v := range vs {
			pairs = append(pairs, []any{k, v})
		}
	}
	out := map[string]any{"status": r.status, "headers": pairs}
	if n := r.body.Len(); n > 0 && !noBody(r.status) {
		b := uint8Array.New(n)
		js.CopyBytesToJS(b, r.body.Bytes())
		out["body"] = b
	}
	return js.ValueOf(out)
}

// noBody reports a status whose response has no body (a Response with one is an error in JS).
func noBody(status int) bool {
	return status == http.StatusNoContent || status == http.StatusNotModified || status < 200
}
