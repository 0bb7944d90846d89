package app

import (
	"errors"
	"syscall/js"
)

// deflateRaw compresses b as raw deflate data (RFC 1951) with the browser's CompressionStream, so
// app.wasm links no compressor of its own (see RATIONALE, "First visit on a phone network: bytes
// first"). It waits for a promise: call it from a goroutine of its own (ctx.Async), never from an
// event handler.
func deflateRaw(b []byte) ([]byte, error) {
	g := js.Global()
	cs := g.Get("CompressionStream")
	if cs.IsUndefined() {
		return nil, errors.New("this browser cannot compress (no CompressionStream): update it")
	}
	u8 := g.Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	stream := g.Get("Blob").New([]any{u8}).Call("stream").Call("pipeThrough", cs.New("deflate-raw"))
	done := make(chan js.Value, 1)
	fail := make(chan error, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any { done <- args[0]; return nil })
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		fail <- errors.New("compressing failed: " + args[0].Call("toString").String())
		return nil
	})
	defer then.Release()
	defer catch.Release()
	g.Get("Response").New(stream).Call("arrayBuffer").Call("then", then, catch)
	select {
	case ab := <-done:
		out := g.Get("Uint8Array").New(ab)
		buf := make([]byte, out.Length())
		js.CopyBytesToGo(buf, out)
		return buf, nil
	case err := <-fail:
		return nil, err
	}
}
