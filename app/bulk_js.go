//go:build js && wasm

package app

import (
	"encoding/json"
	"errors"
	"syscall/js"

	"github.com/apibank-playground/apibank/protocol"
)

// bulkReply is what the bridge's bulk promise resolves to.
type bulkReply struct {
	OK         bool    `js:"ok"`
	Error      string  `js:"error"`
	Report     string  `js:"report"`
	Errors     string  `js:"errors"`
	ErrorCount int     `js:"errorCount"`
	Verdicts   int     `js:"verdicts"`
	MS         float64 `js:"ms"`
}

// BulkScore scores a textarea's predictions in chunks in the worker (see BulkScorer).
func (b *BrowserEngine) BulkScore(opts BulkOptions) (BulkResult, error) {
	o := js.Global().Get("Object").New()
	o.Set("element", opts.Element)
	o.Set("progress", opts.Progress)
	o.Set("level", opts.Level)
	o.Set("state", opts.State)
	var r bulkReply
	if err := await(b.bridge.Call("bulk", o), &r); err != nil {
		return BulkResult{}, err
	}
	if !r.OK {
		return BulkResult{}, errors.New(r.Error)
	}
	rep, err := protocol.Decode[protocol.Report](protocol.OpScoreFinish, []byte(r.Report))
	if err != nil {
		return BulkResult{}, err
	}
	res := BulkResult{Report: rep, ErrorCount: r.ErrorCount, Verdicts: r.Verdicts, MS: r.MS}
	if err := json.Unmarshal([]byte(r.Errors), &res.Errors); err != nil {
		return BulkResult{}, err
	}
	return res, nil
}

// Rows returns verdict rows of the last bulk run.
func (b *BrowserEngine) Rows(from, count int) ([]protocol.Verdict, error) {
	var out []protocol.Verdict
	err := json.Unmarshal([]byte(b.bridge.Call("rows", from, count).String()), &out)
	return out, err
}

// Pred returns the prediction of input line n of the last bulk run.
func (b *BrowserEngine) Pred(line int) string {
	v := b.bridge.Call("pred", line)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}
