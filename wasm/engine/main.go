//go:build wasip1

// Command engine is the engine as a WebAssembly reactor (GOOS=wasip1, -buildmode=c-shared), built by
// `make wasm` to web/engine.wasm: the same bytes the browser tab and wazero run. A host calls
// _initialize once, then for each request: alloc(n) for a buffer, writes the request JSON there,
// calls handle(ptr, n), reads the response at the returned position, and calls free on both buffers.
package main

//lint:file-ignore U1000 the //go:wasmexport functions (and what only they use) are called by the host, not from Go.

import (
	"runtime/debug"
	"unsafe"

	"github.com/apibank-playground/apibank/engine"
)

// memoryLimit is the heap size at which the collector runs (see handle).
const memoryLimit = 192 << 20

// session is this instance's engine session: one instance per tab or host session.
var session *engine.Session

// live keeps the buffers handed to the host reachable until it frees them.
var live = map[uint32][]byte{}

//go:wasmexport alloc
func alloc(size uint32) uint32 {
	if size == 0 {
		size = 1
	}
	b := make([]byte, size)
	p := uint32(uintptr(unsafe.Pointer(&b[0])))
	live[p] = b
	return p
}

//go:wasmexport free
func free(ptr uint32) {
	delete(live, ptr)
}

// handle answers the request of size bytes at ptr. The result packs the response's position and size
// as ptr<<32 | size; the host frees the response buffer with free(ptr) after reading it.
//
//go:wasmexport handle
func handle(ptr, size uint32) uint64 {
	req, ok := live[ptr]
	if !ok || uint32(len(req)) < size {
		req = nil
	} else {
		req = req[:size]
	}
	if session == nil {
		// The instance is single-threaded, so the collector cannot run beside the work, and marking the
		// loaded data over and over dominated the time of a batch. Collect only when the heap nears a
		// memory limit instead: fewer, larger cycles for a bounded footprint.
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(memoryLimit)
		session = engine.New()
	}
	resp := session.Handle(req)
	if len(resp) == 0 {
		resp = []byte("{}")
	}
	p := uint32(uintptr(unsafe.Pointer(&resp[0])))
	live[p] = resp
	return uint64(p)<<32 | uint64(len(resp))
}

func main() {}
