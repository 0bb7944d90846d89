package host_test

import (
	"context"
	"fmt"
	"os"

	"github.com/apibank-playground/apibank/host"
	"github.com/apibank-playground/apibank/protocol"
)

// Embedding the engine: compile web/engine.wasm once (New), start a session per user or request
// (NewSession: its own dataset and sandbox world), and speak the engine protocol to it through the
// typed client of package protocol. A server that answers many requests at once keeps a Pool of
// sessions instead.
//
// This example needs the built module (make wasm), so go test compiles it but does not run it; the
// package's tests run the same steps.
func Example() {
	ctx := context.Background()
	wasm, err := os.ReadFile("web/engine.wasm")
	if err != nil {
		fmt.Println("build the engine module first (make wasm):", err)
		return
	}
	rt, err := host.New(ctx, wasm, host.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)
	s, err := rt.NewSession(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close(ctx)
	do := func(ctx context.Context, req []byte) ([]byte, error) { return s.Handle(ctx, req) }

	hello, err := protocol.Call[protocol.Hello](ctx, do, protocol.Request{Op: protocol.OpHello})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("protocol %d, data %s, %d tools at level 1\n", hello.Protocol, hello.Data, hello.Catalogs["apis"])

	preds := `{"file": "acct-agenda-add-28.jsonl", "id": 0, "pred": "[GetUserToken(username='x', password='y')]"}`
	batch, err := protocol.Call[protocol.Batch](ctx, do, protocol.Request{Op: protocol.OpScore, Preds: preds})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range batch.Results {
		fmt.Println(v.File, v.ID, v.Call().Category)
	}
	for _, e := range batch.Errors {
		fmt.Println("line", e.Line, e.Message)
	}
}

// A session runs any module that has the engine's exports (alloc, free, handle, _initialize):
// Handle writes the request into memory alloc gives, calls handle, and copies the answer out. This
// tiny module, assembled below, answers each request with its own bytes; the real engine answers
// with the protocol's JSON (see the package example).
func ExampleSession_Handle() {
	ctx := context.Background()
	rt, err := host.New(ctx, echoModule(), host.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)
	s, err := rt.NewSession(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close(ctx)
	for _, req := range []string{`{"v":1,"op":"hello"}`, `{"v":1,"op":"catalog","catalog":"apis"}`} {
		resp, err := s.Handle(ctx, []byte(req))
		fmt.Printf("%s %v\n", resp, err)
	}
	// Output:
	// {"v":1,"op":"hello"} <nil>
	// {"v":1,"op":"catalog","catalog":"apis"} <nil>
}

// echoModule assembles a WebAssembly module with the engine's exports whose handle(ptr, n) answers
// the request in place: ptr<<32 | n. Its alloc hands out memory from a bump pointer; free does
// nothing.
func echoModule() []byte {
	section := func(id byte, content ...byte) []byte { return append([]byte{id, byte(len(content))}, content...) }
	name := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	const i32, i64 = 0x7f, 0x7e
	var exports []byte
	for i, e := range []string{"_initialize", "alloc", "free", "handle"} {
		exports = append(append(exports, name(e)...), 0x00, byte(i)) // a function, by index
	}
	exports = append(append(exports, name("memory")...), 0x02, 0x00)
	body := func(code ...byte) []byte { return append([]byte{byte(len(code) + 1), 0x00}, code...) } // no locals
	var codes []byte
	codes = append(codes, body(0x0b)...)                                                     // _initialize: nothing
	codes = append(codes, body(0x23, 0, 0x23, 0, 0x20, 0, 0x6a, 0x24, 0, 0x0b)...)           // alloc: next; next += n
	codes = append(codes, body(0x0b)...)                                                     // free: nothing
	codes = append(codes, body(0x20, 0, 0xad, 0x42, 32, 0x86, 0x20, 1, 0xad, 0x84, 0x0b)...) // handle: ptr<<32 | n

	m := []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}
	m = append(m, section(1, 4, // types: () ; (i32) -> i32 ; (i32) ; (i32, i32) -> i64
		0x60, 0, 0,
		0x60, 1, i32, 1, i32,
		0x60, 1, i32, 0,
		0x60, 2, i32, i32, 1, i64)...)
	m = append(m, section(3, 4, 0, 1, 2, 3)...)                        // functions, by type
	m = append(m, section(5, 1, 0x00, 1)...)                           // one memory of one page
	m = append(m, section(6, 1, i32, 0x01, 0x41, 0x80, 0x08, 0x0b)...) // next = 1024, mutable
	m = append(m, section(7, append([]byte{5}, exports...)...)...)
	m = append(m, section(10, append([]byte{4}, codes...)...)...)
	return m
}
