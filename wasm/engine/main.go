//go:build wasip1

// Command engine is the engine as a WebAssembly reactor (GOOS=wasip1, -buildmode=c-shared), built by
// `make wasm` to web/engine.wasm: the same bytes the browser tab and wazero run. A host calls
// _initialize once, then for each request: alloc(n) for a buffer, writes the request JSON there,
// calls handle(ptr, n), reads the response at the returned position, and calls free on both buffers.
// A host with nothing to ask may call idle, which collects the garbage now rather than in a request.
package main

//lint:file-ignore U1000 the //go:wasmexport functions (and what only they use) are called by the host, not from Go.

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"unsafe"

	"github.com/apibank-playground/apibank/engine"
)

// memoryLimit is a backstop: the heap size at which the runtime starts a collection of its own
// inside a request (see collect for the normal case).
const memoryLimit = 192 << 20

// gcSlack is how much garbage may pile up beyond the live heap before a request ends with a
// collection (see collect).
const gcSlack = 64 << 20

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
	collect()
	if len(resp) == 0 {
		resp = []byte("{}")
	}
	p := uint32(uintptr(unsafe.Pointer(&resp[0])))
	live[p] = resp
	return uint64(p)<<32 | uint64(len(resp))
}

// idle collects the garbage the requests so far left, if any: a host calls it when it has nothing
// to ask (a tab's warm-up, done), so the collection the next requests would have paid for in their
// own time is paid in idle time instead.
//
//go:wasmexport idle
func idle() {
	if session != nil {
		runtime.GC()
	}
}

// gcSample reads the live heap after the last collection and the heap's current size.
var gcSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}

// collect runs a full, blocking collection once the heap holds more than gcSlack of garbage beyond
// what was live after the last one. A reactor's goroutine never blocks while it judges, so the
// collector's background workers never run during a request: a cycle the runtime starts inside one
// (at the memory limit) advances only by the allocating goroutine's assists. Once those stop (most
// likely the GC CPU limiter, which measures time, and wazero fakes time by default) the cycle never
// ends, every allocation is kept, and the heap grows without bound: 1M streamed predictions reached
// 4 GiB. runtime.GC blocks, so the workers run and finish the cycle; doing it between requests keeps
// memory flat at the live data plus the slack whatever the input's size.
func collect() {
	metrics.Read(gcSample)
	live, heap := gcSample[0].Value, gcSample[1].Value
	if live.Kind() != metrics.KindUint64 || heap.Kind() != metrics.KindUint64 {
		return
	}
	if heap.Uint64() > live.Uint64()+gcSlack {
		runtime.GC()
	}
}

func main() {}
