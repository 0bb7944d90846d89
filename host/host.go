// Package host runs the engine's WebAssembly module (web/engine.wasm) under wazero: the module is
// compiled once per Runtime and instantiated once per Session, so sessions never share state.
package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// Runtime holds a compiled engine module. It is safe for concurrent use; sessions are not.
type Runtime struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	stderr   io.Writer
}

// Config configures a Runtime.
type Config struct {
	// CacheDir, when set, keeps compiled code on disk between processes (wazero's compilation cache),
	// so a CLI run skips the ~2 s compilation after the first.
	CacheDir string
	// Stderr receives what the module writes to stderr (nothing in normal operation); nil discards it.
	Stderr io.Writer
}

// New compiles the module bytes.
func New(ctx context.Context, wasm []byte, cfg Config) (*Runtime, error) {
	rc := wazero.NewRuntimeConfig()
	if cfg.CacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(cfg.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("compilation cache %s: %w", cfg.CacheDir, err)
		}
		rc = rc.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("wasi: %w", err)
	}
	compiled, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("compile engine module: %w", err)
	}
	for _, name := range []string{"alloc", "free", "handle", "_initialize"} {
		if _, ok := compiled.ExportedFunctions()[name]; !ok {
			rt.Close(ctx)
			return nil, fmt.Errorf("engine module does not export %s: is it built with -buildmode=c-shared from wasm/engine?", name)
		}
	}
	return &Runtime{rt: rt, compiled: compiled, stderr: cfg.Stderr}, nil
}

// Close releases the runtime and every session made from it.
func (r *Runtime) Close(ctx context.Context) error { return r.rt.Close(ctx) }

// Session is one engine instance: its own memory, dataset and sandbox world.
type Session struct {
	mu     sync.Mutex
	mod    api.Module
	alloc  api.Function
	free   api.Function
	handle api.Function
}

// NewSession instantiates the module and initialises it (the reactor's _initialize).
func (r *Runtime) NewSession(ctx context.Context) (*Session, error) {
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
	if r.stderr != nil {
		cfg = cfg.WithStderr(r.stderr)
	}
	if a := memoryAllocator(); a != nil {
		ctx = experimental.WithMemoryAllocator(ctx, a)
	}
	mod, err := r.rt.InstantiateModule(ctx, r.compiled, cfg)
	if err != nil {
		return nil, fmt.Errorf("instantiate engine: %w", err)
	}
	return &Session{mod: mod, alloc: mod.ExportedFunction("alloc"), free: mod.ExportedFunction("free"), handle: mod.ExportedFunction("handle")}, nil
}

// Handle sends one engine request and returns the response JSON.
func (s *Session) Handle(ctx context.Context, req []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, err := s.alloc.Call(ctx, uint64(len(req)))
	if err != nil {
		return nil, fmt.Errorf("engine alloc: %w", err)
	}
	ptr := uint32(res[0])
	if !s.mod.Memory().Write(ptr, req) {
		return nil, errors.New("engine memory write out of range")
	}
	res, err = s.handle.Call(ctx, uint64(ptr), uint64(len(req)))
	if err != nil {
		return nil, fmt.Errorf("engine handle: %w", err)
	}
	_, _ = s.free.Call(ctx, uint64(ptr))
	rp, rn := uint32(res[0]>>32), uint32(res[0])
	b, ok := s.mod.Memory().Read(rp, rn)
	if !ok {
		return nil, errors.New("engine response out of memory range")
	}
	out := make([]byte, len(b))
	copy(out, b)
	_, _ = s.free.Call(ctx, uint64(rp))
	return out, nil
}

// Close releases the session's instance.
func (s *Session) Close(ctx context.Context) error { return s.mod.Close(ctx) }
