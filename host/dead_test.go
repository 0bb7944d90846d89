package host

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// leb is the unsigned LEB128 encoding of n.
func leb(n int) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// vec is a WebAssembly vector: the count, then the items.
func vec(items ...[]byte) []byte {
	b := leb(len(items))
	for _, it := range items {
		b = append(b, it...)
	}
	return b
}

// section is a WebAssembly section: its id, its size, its contents.
func section(id byte, contents []byte) []byte {
	return append(append([]byte{id}, leb(len(contents))...), contents...)
}

// name is a WebAssembly name: its length, then its bytes.
func name(s string) []byte { return append(leb(len(s)), s...) }

// fakeEngine is a tiny module with the engine's exports, written in bytes here: alloc always answers
// 1024, handle echoes the request, except that a request starting with 't' traps (unreachable) and
// one starting with 'x' calls WASI proc_exit(3), which makes wazero close the module during the call.
func fakeEngine() []byte {
	const (
		i32, i64 = 0x7f, 0x7e
		fn       = 0x60
	)
	types := section(1, vec(
		[]byte{fn, 1, i32, 0},           // 0: (i32) -> ()         proc_exit, free
		[]byte{fn, 1, i32, 1, i32},      // 1: (i32) -> i32        alloc
		[]byte{fn, 2, i32, i32, 1, i64}, // 2: (i32, i32) -> i64 handle
		[]byte{fn, 0, 0},                // 3: () -> ()            _initialize
	))
	imports := section(2, vec(append(append(name("wasi_snapshot_preview1"), name("proc_exit")...), 0x00, 0)))
	funcs := section(3, vec([]byte{1}, []byte{0}, []byte{2}, []byte{3})) // alloc, free, handle, _initialize
	memory := section(5, vec([]byte{0x00, 1}))                           // one memory, at least one page
	exports := section(7, vec(
		append(name("memory"), 0x02, 0),
		append(name("alloc"), 0x00, 1),
		append(name("free"), 0x00, 2),
		append(name("handle"), 0x00, 3),
		append(name("_initialize"), 0x00, 4),
	))
	body := func(code ...byte) []byte {
		b := append([]byte{0}, code...) // no locals
		return append(leb(len(b)), b...)
	}
	firstIs := func(c byte) []byte { // local.get 0; i32.load8_u; i32.const c (two-byte signed LEB128); i32.eq
		return []byte{0x20, 0, 0x2d, 0, 0, 0x41, c&0x7f | 0x80, c >> 7, 0x46}
	}
	handle := append(firstIs('t'), 0x04, 0x40, 0x00, 0x0b) // if: unreachable
	handle = append(handle, firstIs('x')...)
	handle = append(handle, 0x04, 0x40, 0x41, 3, 0x10, 0, 0x0b) // if: proc_exit(3)
	handle = append(handle,
		0x20, 0, 0xad, 0x42, 32, 0x86, // i64(ptr) << 32
		0x20, 1, 0xad, 0x84, // | i64(len)
		0x0b)
	code := section(10, vec(
		body(0x41, 0x80, 0x08, 0x0b), // alloc: 1024
		body(0x0b),                   // free
		body(handle...),
		body(0x0b), // _initialize
	))
	module := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	for _, s := range [][]byte{types, imports, funcs, memory, exports, code} {
		module = append(module, s...)
	}
	return module
}

// TestDeadSession: a trap or an exit inside the module kills the session; every later call answers
// ErrSessionDead wrapping the cause, without entering the module (which would crash the process);
// Close still works, and a fresh session of the same runtime answers normally.
func TestDeadSession(t *testing.T) {
	ctx := context.Background()
	rt, err := New(ctx, fakeEngine(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	tests := []struct {
		name, kill string
		cause      string // in the error
	}{
		{"trap", "trap", "unreachable"},
		{"exit inside a call", "x marks the exit", "exit_code(3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := rt.NewSession(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if out, err := s.Handle(ctx, []byte("hello")); err != nil || string(out) != "hello" {
				t.Fatalf("echo = %q, %v", out, err)
			}
			_, err = s.Handle(ctx, []byte(tt.kill))
			if !errors.Is(err, ErrSessionDead) || !strings.Contains(err.Error(), tt.cause) {
				t.Fatalf("killing request: %v, want ErrSessionDead with %q", err, tt.cause)
			}
			for i := range 5 {
				if _, err := s.Handle(ctx, []byte("hello")); !errors.Is(err, ErrSessionDead) || !strings.Contains(err.Error(), tt.cause) {
					t.Fatalf("call %d after death: %v, want ErrSessionDead with %q", i, err, tt.cause)
				}
			}
			if err := s.Err(); !errors.Is(err, ErrSessionDead) {
				t.Fatalf("Err() = %v", err)
			}
			if err := s.Close(ctx); err != nil {
				t.Fatalf("Close of a dead session: %v", err)
			}
			fresh, err := rt.NewSession(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close(ctx)
			if out, err := fresh.Handle(ctx, []byte("again")); err != nil || string(out) != "again" || fresh.Err() != nil {
				t.Fatalf("fresh session: %q, %v", out, err)
			}
		})
	}
	// A closed session is dead too, not a crash.
	s, err := rt.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Handle(ctx, []byte("hello")); !errors.Is(err, ErrSessionDead) {
		t.Fatalf("Handle after Close: %v", err)
	}
}

// TestEngineTrap traps the real engine (an allocation beyond its 4 GiB makes the Go runtime inside
// abort) and keeps calling: the session answers ErrSessionDead, and a new one judges as before.
func TestEngineTrap(t *testing.T) {
	ctx := context.Background()
	var stderr bytes.Buffer
	rt, err := New(ctx, loadWasm(t), Config{Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	s, err := rt.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hello := `{"v":1,"op":"hello"}`
	want := send(t, s, hello)
	if _, err := s.call(ctx, s.alloc, "alloc", 0xffff_ff00); !errors.Is(err, ErrSessionDead) {
		t.Fatalf("huge alloc: %v, want ErrSessionDead", err)
	}
	for i := range 5 {
		if _, err := s.Handle(ctx, []byte(hello)); !errors.Is(err, ErrSessionDead) || !strings.Contains(err.Error(), "engine alloc") {
			t.Fatalf("call %d after the trap: %v", i, err)
		}
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	fresh, err := rt.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close(ctx)
	if got := send(t, fresh, hello); got["ok"] != true || got["result"].(map[string]any)["engine"] != want["result"].(map[string]any)["engine"] {
		t.Fatalf("fresh session: %v, want %v", got, want)
	}
	if !strings.Contains(stderr.String(), "out of memory") {
		t.Logf("the module's stderr: %q", stderr.String())
	}
}
