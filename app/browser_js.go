//go:build js && wasm

package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/norunners/vert"

	"github.com/apibank-playground/apibank/protocol"
)

// BrowserEngine is the engine of this tab: web/engine.wasm in a dedicated Web Worker, reached through
// web/bridge.js (window.apibankEngine). Values cross the Go/JS boundary with vert.
type BrowserEngine struct {
	bridge js.Value
}

// bridgeReply is what the bridge's promises resolve to.
type bridgeReply struct {
	OK        bool    `js:"ok"`
	Text      string  `js:"text"`
	MS        float64 `js:"ms"`
	Error     string  `js:"error"`
	Restarted bool    `js:"restarted"`
}

// bridgeWait bounds how long NewBrowserEngine waits for web/bridge.js where the page gives no sign
// of being done with its scripts.
const bridgeWait = 30 * time.Second

// NewBrowserEngine returns the tab's engine, or an error when bridge.js is not on the page. It waits
// for bridge.js when this module runs first (see waitForBridge).
func NewBrowserEngine() (*BrowserEngine, error) {
	b := waitForBridge(bridgeWait)
	if b.IsUndefined() {
		return nil, errors.New("web/bridge.js is not loaded: the engine cannot start")
	}
	return &BrowserEngine{bridge: b}, nil
}

// waitForBridge returns window.apibankEngine (undefined when bridge.js never defines it). go-app
// starts this module from its own deferred script, which the page lists before web/bridge.js (a
// module script, deferred too); the module is fetched and compiled while the event loop waits for
// bridge.js, so on a loaded machine it can run first (and then said "Engine starting" for good, had it
// not waited). bridge.js then
// fires "apibank-engine"; DOMContentLoaded comes after every deferred script, so it ends the wait
// when bridge.js failed to load.
func waitForBridge(limit time.Duration) js.Value {
	win := js.Global()
	if b := win.Get("apibankEngine"); !b.IsUndefined() {
		return b
	}
	doc := win.Get("document")
	if doc.Get("readyState").String() == "complete" {
		return js.Undefined()
	}
	done := make(chan struct{}, 1)
	signal := js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case done <- struct{}{}:
		default:
		}
		return nil
	})
	listen := []struct {
		target js.Value
		event  string
	}{{win, "apibank-engine"}, {doc, "DOMContentLoaded"}, {win, "load"}}
	for _, l := range listen {
		l.target.Call("addEventListener", l.event, signal)
	}
	select {
	case <-done:
	case <-time.After(limit):
	}
	for _, l := range listen {
		l.target.Call("removeEventListener", l.event, signal)
	}
	signal.Release()
	return win.Get("apibankEngine")
}

// await waits for a promise and assigns what it resolves to into out.
func await(p js.Value, out any) error {
	done := make(chan error, 1)
	var then, catch js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		var v js.Value
		if len(args) > 0 {
			v = args[0]
		}
		done <- vert.ValueOf(v).AssignTo(out)
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "promise rejected"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		done <- errors.New(msg)
		return nil
	})
	p.Call("then", then, catch)
	err := <-done
	then.Release()
	catch.Release()
	return err
}

// Do sends one encoded request to the worker and waits for its encoded answer.
func (b *BrowserEngine) Do(_ context.Context, req []byte) ([]byte, error) {
	var r bridgeReply
	if err := await(b.bridge.Call("request", string(req)), &r); err != nil {
		return nil, err
	}
	if !r.OK {
		return nil, errors.New(r.Error)
	}
	return []byte(r.Text), nil
}

// LoadImported loads again the folder imported earlier in this tab (kept by the bridge) and returns
// the engine's load answer.
func (b *BrowserEngine) LoadImported() (protocol.Loaded, error) {
	var r bridgeReply
	if err := await(b.bridge.Call("loadImported"), &r); err != nil {
		return protocol.Loaded{}, err
	}
	if !r.OK {
		return protocol.Loaded{}, errors.New(r.Error)
	}
	return protocol.Decode[protocol.Loaded](protocol.OpLoad, []byte(r.Text))
}

// ImportedName returns the name of the folder the bridge keeps for this tab ("" when none).
func (b *BrowserEngine) ImportedName() string {
	v := b.bridge.Call("saved").Get("importedName")
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// Status returns the worker's state.
func (b *BrowserEngine) Status() EngineStatus {
	var s EngineStatus
	_ = vert.ValueOf(b.bridge.Call("status")).AssignTo(&s)
	return s
}

// Watch calls f at every change of the worker's state.
func (b *BrowserEngine) Watch(f func(EngineStatus)) {
	cb := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var s EngineStatus
		if len(args) > 0 && vert.ValueOf(args[0]).AssignTo(&s) == nil {
			f(s)
		}
		return nil
	})
	b.bridge.Call("onStatus", cb)
}

// Retry starts the engine again after its start failed (state "failed").
func (b *BrowserEngine) Retry() {
	b.bridge.Call("retry")
}

// ClearSaved forgets what the bridge keeps for this tab (imported folder, sandbox history).
func (b *BrowserEngine) ClearSaved() {
	b.bridge.Call("clearSaved")
}

// localStorage is an app.BrowserStorage over window.localStorage that reports a refused write (the
// quota) as an error instead of a panic.
type localStorage struct{ s js.Value }

// NewLocalStorage returns the tab's localStorage.
func NewLocalStorage() app.BrowserStorage {
	return localStorage{s: js.Global().Get("localStorage")}
}

func (l localStorage) Set(k string, v any) (err error) {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("localStorage refused %s: %v", k, r)
		}
	}()
	l.s.Call("setItem", k, string(b))
	return nil
}

func (l localStorage) Get(k string, v any) error {
	item := l.s.Call("getItem", k)
	if item.IsNull() {
		return nil
	}
	return json.Unmarshal([]byte(item.String()), v)
}

func (l localStorage) Del(k string) { l.s.Call("removeItem", k) }

func (l localStorage) Len() int { return l.s.Get("length").Int() }

func (l localStorage) Clear() { l.s.Call("clear") }

func (l localStorage) ForEach(f func(k string)) {
	n := l.Len()
	keys := make([]string, 0, n)
	for i := 0; i < n; i++ {
		if k := l.s.Call("key", i); k.Type() == js.TypeString {
			keys = append(keys, k.String())
		}
	}
	for _, k := range keys {
		f(k)
	}
}

func (l localStorage) Contains(k string) bool { return !l.s.Call("getItem", k).IsNull() }
