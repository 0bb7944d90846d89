//go:build js

package model

import (
	"context"
	"errors"
	"io"
	"syscall/js"
)

// fetchTransport sends through the page's fetch (the browser tab). The answer's body is read from
// its ReadableStream chunk by chunk, so a streamed answer is parsed as its events arrive. Cookies
// are never sent (credentials "omit") and no referrer is: the endpoint learns only what the request
// holds.
type fetchTransport struct{}

func defaultTransport() Transport { return fetchTransport{} }

func (fetchTransport) Send(ctx context.Context, r *HTTPRequest) (*HTTPResponse, error) {
	global := js.Global()
	fetch := global.Get("fetch")
	if fetch.Type() != js.TypeFunction {
		return nil, errors.New("this page cannot send requests (no fetch)")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ctrl := global.Get("AbortController").New()
	headers := global.Get("Headers").New()
	for _, h := range r.Header {
		headers.Call("set", h.Name, h.Value)
	}
	init := map[string]any{
		"method":         r.Method,
		"headers":        headers,
		"signal":         ctrl.Get("signal"),
		"credentials":    "omit",
		"referrerPolicy": "no-referrer",
	}
	if r.Body != nil {
		body := global.Get("Uint8Array").New(len(r.Body))
		js.CopyBytesToJS(body, r.Body)
		init["body"] = body
	}
	// A cancel or timeout aborts the fetch and any read of its body still to come.
	stop := context.AfterFunc(ctx, func() { ctrl.Call("abort") })
	res, err := await(fetch.Invoke(r.URL, init))
	if err != nil {
		stop()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	body := &fetchBody{ctx: ctx, stop: stop}
	if stream := res.Get("body"); stream.Truthy() {
		body.reader = stream.Call("getReader")
	} else {
		body.done = true // no body (204, HEAD)
	}
	return &HTTPResponse{Status: res.Get("status").Int(), Header: fetchHeader{res.Get("headers")}, Body: body}, nil
}

// fetchHeader reads a fetch Response's headers. A cross-origin answer shows only the headers its
// server exposes (Access-Control-Expose-Headers); the others read as absent.
type fetchHeader struct{ h js.Value }

func (f fetchHeader) Get(name string) string {
	v := f.h.Call("get", name)
	if v.IsNull() || v.IsUndefined() {
		return ""
	}
	return v.String()
}

// fetchBody reads a fetch Response's body stream.
type fetchBody struct {
	ctx    context.Context
	stop   func() bool
	reader js.Value
	done   bool
	chunk  []byte // what is left of the last chunk read
	store  []byte // the chunk's buffer, reused
}

func (b *fetchBody) Read(p []byte) (int, error) {
	for len(b.chunk) == 0 {
		if b.done {
			return 0, io.EOF
		}
		v, err := await(b.reader.Call("read"))
		if err != nil {
			if b.ctx.Err() != nil {
				return 0, b.ctx.Err()
			}
			return 0, err
		}
		if v.Get("done").Bool() {
			b.done = true
			continue
		}
		value := v.Get("value")
		n := value.Get("length").Int()
		if cap(b.store) < n {
			b.store = make([]byte, n)
		}
		b.chunk = b.store[:n]
		js.CopyBytesToGo(b.chunk, value)
	}
	n := copy(p, b.chunk)
	b.chunk = b.chunk[n:]
	return n, nil
}

// Close stops reading: the rest of the answer is not downloaded.
func (b *fetchBody) Close() error {
	b.stop()
	if !b.done {
		b.done = true
		// cancel's promise rejects when the fetch was aborted (a timeout): handled here, or the
		// page would report an unhandled rejection.
		b.reader.Call("cancel").Call("catch", ignoreRejection)
	}
	b.chunk = nil
	return nil
}

// ignoreRejection handles a promise's rejection that means nothing more (it lives as long as the page).
var ignoreRejection = js.FuncOf(func(js.Value, []js.Value) any { return nil })

// await waits for a JavaScript promise: its value, or its rejection as an error. It must not be
// called from a JavaScript callback (it would block the event loop that settles the promise); the
// client runs in its own goroutines.
func await(p js.Value) (js.Value, error) {
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	first := func(args []js.Value) js.Value {
		if len(args) == 0 {
			return js.Undefined()
		}
		return args[0]
	}
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{v: first(args)}
		return nil
	})
	fail := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{err: jsError(first(args))}
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	p.Call("then", ok, fail)
	s := <-ch
	return s.v, s.err
}

// jsError words a rejection: a TypeError from fetch ("Failed to fetch") means no answer reached
// the page (the server is down, or it does not allow this origin: the browser does not say which).
func jsError(v js.Value) error {
	if v.Type() == js.TypeObject {
		if msg := v.Get("message"); msg.Type() == js.TypeString {
			return errors.New("fetch failed: " + msg.String())
		}
	}
	return errors.New("fetch failed: " + js.Global().Get("String").Invoke(v).String())
}
