//go:build js && wasm

package app

import (
	"encoding/json"
	"errors"
	"syscall/js"

	"github.com/apibank-playground/apibank/protocol"
)

func init() {
	browserTurns = true
	nextTask = func() {
		waitCallback(func(f js.Func) { js.Global().Call("setTimeout", f, 0) })
	}
	idleTask = func() {
		if js.Global().Get("requestIdleCallback").Type() != js.TypeFunction {
			nextTask()
			return
		}
		waitCallback(func(f js.Func) { js.Global().Call("requestIdleCallback", f, map[string]any{"timeout": 1000}) })
	}
}

// waitCallback hands schedule a one-time callback and waits, in a goroutine, until it is called.
func waitCallback(schedule func(js.Func)) {
	done := make(chan struct{})
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		close(done)
		return nil
	})
	schedule(f)
	<-done
}

// bulkReply is what the bridge's bulk promise resolves to.
type bulkReply struct {
	OK         bool    `js:"ok"`
	Error      string  `js:"error"`
	Report     string  `js:"report"`
	Errors     string  `js:"errors"`
	ErrorCount int     `js:"errorCount"`
	Verdicts   int     `js:"verdicts"`
	MS         float64 `js:"ms"`
	Episodes   string  `js:"episodes"`
}

// BulkScore scores a textarea's predictions in chunks in the worker (see BulkScorer).
func (b *BrowserEngine) BulkScore(opts BulkOptions) (BulkResult, error) {
	o := js.Global().Get("Object").New()
	o.Set("element", opts.Element)
	o.Set("text", opts.Text)
	o.Set("scratch", opts.Scratch)
	o.Set("progress", opts.Progress)
	o.Set("level", opts.Level)
	o.Set("state", opts.State)
	o.Set("episodes", opts.Episodes)
	var r bulkReply
	if err := await(b.bridge.Call("bulk", o), &r); err != nil {
		return BulkResult{}, err
	}
	if !r.OK {
		return BulkResult{}, errors.New(r.Error)
	}
	nextTask() // the answer came in a task of its own; decoding it is the next one
	rep, err := protocol.Decode[protocol.Report](protocol.OpScoreFinish, []byte(r.Report))
	if err != nil {
		return BulkResult{}, err
	}
	res := BulkResult{Report: rep, ErrorCount: r.ErrorCount, Verdicts: r.Verdicts, MS: r.MS}
	if err := json.Unmarshal([]byte(r.Errors), &res.Errors); err != nil {
		return BulkResult{}, err
	}
	if r.Episodes != "" {
		if err := json.Unmarshal([]byte(r.Episodes), &res.Episodes); err != nil {
			return BulkResult{}, err
		}
	}
	nextTask() // and rendering it the one after
	return res, nil
}

// rowsReply is what the bridge's rows promise resolves to.
type rowsReply struct {
	OK    bool     `js:"ok"`
	Error string   `js:"error"`
	Rows  string   `js:"rows"`
	Preds []string `js:"preds"`
}

// Rows returns verdict rows of the last bulk run and their predictions.
func (b *BrowserEngine) Rows(from, count int) ([]protocol.Verdict, []string, error) {
	var r rowsReply
	if err := await(b.bridge.Call("rows", from, count), &r); err != nil {
		return nil, nil, err
	}
	if !r.OK {
		return nil, nil, errors.New(r.Error)
	}
	var out []protocol.Verdict
	if err := json.Unmarshal([]byte(r.Rows), &out); err != nil {
		return nil, nil, err
	}
	if len(r.Preds) != len(out) {
		return nil, nil, errors.New("the bridge gave rows and predictions of different lengths")
	}
	return out, r.Preds, nil
}

// held is window.apibankHeld (web/bridge.js), the texts kept out of text boxes.
func held() js.Value { return js.Global().Get("apibankHeld") }

// Held says what text the bridge holds for a textarea.
func (b *BrowserEngine) Held(element string) (int, string, bool) {
	h := held()
	if !h.Truthy() {
		return 0, "", false
	}
	info := h.Call("info", element)
	if !info.Truthy() {
		return 0, "", false
	}
	return info.Get("size").Int(), info.Get("name").String(), true
}

// Hold keeps text for a textarea in the bridge.
func (b *BrowserEngine) Hold(element, text, name string) {
	if h := held(); h.Truthy() {
		h.Call("hold", element, text, name)
	}
}

// DropHeld forgets the text held for a textarea.
func (b *BrowserEngine) DropHeld(element string) {
	if h := held(); h.Truthy() {
		h.Call("drop", element)
	}
}
