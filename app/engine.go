package app

import (
	"context"
	"errors"

	"github.com/apibank-playground/apibank/protocol"
)

// Engine carries encoded engine protocol requests (package protocol) and returns the responses. Do
// blocks until the engine answers: call it from a goroutine (app.Context.Async), never from a render
// or event handler.
//
// In the browser the engine runs in this tab's Web Worker (see NewBrowserEngine); tests use the
// engine package in-process.
type Engine interface {
	Do(ctx context.Context, request []byte) ([]byte, error)
}

// call sends req to the engine and decodes the result as T with the protocol's typed client.
func call[T any](e Engine, req protocol.Request) (T, error) {
	if e == nil {
		var zero T
		return zero, errors.New("the engine is not running (it runs in the browser tab)")
	}
	if _, raw := e.(rawEngine); !raw {
		tab.settle() // a page left its variants: its successor's requests go to the builtin data
	}
	return protocol.Call[T](context.Background(), e.Do, req)
}

// EngineStatus is the bridge's view of the worker (web/bridge.js status()).
type EngineStatus struct {
	State     string  `js:"state"`
	Restarts  int     `js:"restarts"`
	ReadyMS   float64 `js:"readyMs"`
	LastError string  `js:"lastError"`
	EngineMS  float64 `js:"engineMs"`
}
