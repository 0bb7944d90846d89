// Package host runs the engine's WebAssembly module (web/engine.wasm) under wazero: the module is
// compiled once per Runtime and instantiated once per Session, so sessions never share state.
package host

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

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
	// so a CLI run skips the ~2 s compilation after the first. It keeps the current build only: the
	// code goes to a folder named by the module's hash, and the folders of other builds (24 MB each)
	// are removed.
	CacheDir string
	// Stderr receives what the module writes to stderr (nothing in normal operation); nil discards it.
	Stderr io.Writer
	// Interruptible makes a call stop when its context ends (deadline or cancel): the instance is
	// closed mid-call, so its session dies (ErrSessionDead) and its owner starts a new one. A server
	// needs it to bound a request's time; it costs a check at every function entry and loop.
	Interruptible bool
}

// New compiles the module bytes.
func New(ctx context.Context, wasm []byte, cfg Config) (*Runtime, error) {
	rc := wazero.NewRuntimeConfig().WithCloseOnContextDone(cfg.Interruptible)
	if cfg.CacheDir != "" {
		dir, err := buildCache(cfg.CacheDir, wasm)
		if err != nil {
			return nil, fmt.Errorf("compilation cache %s: %w", cfg.CacheDir, err)
		}
		cache, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return nil, fmt.Errorf("compilation cache %s: %w", dir, err)
		}
		rc = rc.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("wasi: %w", err)
	}
	// Compiling (a cache miss: a first run, a new build) on every core the process may use: 4.0-4.5 s
	// of wall time for a first `apibank score` became 2.4-2.6 s on two cores, for the same CPU.
	compiled, err := rt.CompileModule(experimental.WithCompilationWorkers(ctx, runtime.GOMAXPROCS(0)), wasm)
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

// cachePrefix starts the name of a build's folder in a cache directory.
const cachePrefix = "engine-"

// castagnoli is the CRC-32C table (computed by an instruction on amd64 and arm64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// keptBuilds is how many builds' compiled code a cache directory keeps: the current one and the
// most recently used others. Two checkouts of different builds on one machine (two branches, a
// clean clone beside a working one) share the user's cache; keeping only the current build made each
// remove the other's code, so every start of either compiled the module afresh.
const keptBuilds = 4

// buildCache returns the folder of this build's compiled code under parent, creating it and marking
// it used now; it removes the folders of builds beyond the keptBuilds most recently used (and the
// layout of older versions, wazero's own folder at the top). The folder is named by the module's
// size and CRC-32C, which the processor computes (a SHA-256 of the 6 MB module cost 5 ms of a 0.2 s
// start-up, and wazero hashes it again anyway): inside, wazero keys the code by its own SHA-256, so
// two builds that shared a name would only share a folder, never each other's code.
func buildCache(parent string, wasm []byte) (string, error) {
	name := fmt.Sprintf("%s%08x%08x", cachePrefix, uint32(len(wasm)), crc32.Checksum(wasm, castagnoli))
	dir := filepath.Join(parent, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	now := time.Now()
	_ = os.Chtimes(dir, now, now) // the mark of its last use; a read-only folder is still used
	entries, err := os.ReadDir(parent)
	if err != nil {
		return "", err
	}
	type build struct {
		name string
		used time.Time
	}
	var builds []build
	for _, e := range entries {
		switch {
		case !e.IsDir() || e.Name() == name:
		case strings.HasPrefix(e.Name(), "wazero-"):
			_ = os.RemoveAll(filepath.Join(parent, e.Name()))
		case strings.HasPrefix(e.Name(), cachePrefix):
			if info, err := e.Info(); err == nil {
				builds = append(builds, build{e.Name(), info.ModTime()})
			}
		}
	}
	sort.Slice(builds, func(i, j int) bool { return builds[i].used.After(builds[j].used) })
	for i, b := range builds {
		if i >= keptBuilds-1 {
			_ = os.RemoveAll(filepath.Join(parent, b.name)) // another process may hold it: it recompiles
		}
	}
	return dir, nil
}

// Close releases the runtime and every session made from it.
func (r *Runtime) Close(ctx context.Context) error { return r.rt.Close(ctx) }

// ErrSessionDead is matched (errors.Is) by every error of a Session whose instance trapped or exited:
// its state is lost, and the owner starts a fresh session (Runtime.NewSession) to go on. The error
// also wraps the cause, the first failure met.
var ErrSessionDead = errors.New("engine session is dead")

// deadError is the error of a dead session: it matches ErrSessionDead and wraps the cause.
type deadError struct{ cause error }

func (e *deadError) Error() string {
	return "engine session is dead (start a new session): " + e.cause.Error()
}

func (e *deadError) Unwrap() []error { return []error{ErrSessionDead, e.cause} }

// Session is one engine instance: its own memory, dataset and sandbox world.
//
// A trap or an exit inside the instance (the Go runtime in the module aborts on a fatal error, such
// as running out of its 4 GiB) kills the session: the module's state can no longer be trusted, so
// the instance is closed and its memory released once the failing call has returned, and every later
// Handle answers an error matching ErrSessionDead without entering the module again. Entering a
// closed module would run its code against released memory.
type Session struct {
	mu     sync.Mutex
	mod    api.Module
	mem    *sessionMemory
	alloc  api.Function
	free   api.Function
	handle api.Function
	dead   error
}

// NewSession instantiates the module and initialises it (the reactor's _initialize).
func (r *Runtime) NewSession(ctx context.Context) (*Session, error) {
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
	if r.stderr != nil {
		cfg = cfg.WithStderr(r.stderr)
	}
	mem := &sessionMemory{}
	if a := memoryAllocator(mem); a != nil {
		ctx = experimental.WithMemoryAllocator(ctx, a)
	}
	mem.enter()
	mod, err := r.rt.InstantiateModule(ctx, r.compiled, cfg)
	mem.leave()
	if err != nil {
		return nil, fmt.Errorf("instantiate engine: %w", err)
	}
	return &Session{mod: mod, mem: mem, alloc: mod.ExportedFunction("alloc"), free: mod.ExportedFunction("free"), handle: mod.ExportedFunction("handle")}, nil
}

// Err returns nil while the session is usable, and the error matching ErrSessionDead once it is not.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dead
}

// call calls an export of the module; a failure (trap, exit) kills the session.
func (s *Session) call(ctx context.Context, f api.Function, what string, params ...uint64) ([]uint64, error) {
	s.mem.enter()
	res, err := f.Call(ctx, params...)
	s.mem.leave()
	if err != nil {
		return nil, s.kill(ctx, fmt.Errorf("engine %s: %w", what, err))
	}
	return res, nil
}

// kill marks the session dead with cause, closes the instance and releases its memory. It runs only
// between calls into the module.
func (s *Session) kill(ctx context.Context, cause error) error {
	if s.dead == nil {
		s.dead = &deadError{cause: cause}
		_ = s.mod.Close(ctx)
		s.mem.release()
	}
	return s.dead
}

// Handle sends one engine request and returns the response JSON. After a trap or an exit inside the
// module, it and every later call return an error matching ErrSessionDead.
func (s *Session) Handle(ctx context.Context, req []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead != nil {
		return nil, s.dead
	}
	res, err := s.call(ctx, s.alloc, "alloc", uint64(len(req)))
	if err != nil {
		return nil, err
	}
	ptr := uint32(res[0])
	if !s.mod.Memory().Write(ptr, req) {
		return nil, s.kill(ctx, fmt.Errorf("engine alloc returned %d bytes at %#x, outside its memory", len(req), ptr))
	}
	res, err = s.call(ctx, s.handle, "handle", uint64(ptr), uint64(len(req)))
	if err != nil {
		return nil, err
	}
	if _, err := s.call(ctx, s.free, "free", uint64(ptr)); err != nil {
		return nil, err
	}
	rp, rn := uint32(res[0]>>32), uint32(res[0])
	b, ok := s.mod.Memory().Read(rp, rn)
	if !ok {
		return nil, s.kill(ctx, fmt.Errorf("engine response of %d bytes at %#x is outside its memory", rn, rp))
	}
	out := make([]byte, len(b))
	copy(out, b)
	if _, err := s.call(ctx, s.free, "free", uint64(rp)); err != nil {
		return nil, err
	}
	return out, nil
}

// MemorySize is the size of the instance's linear memory in bytes (0 once the session is dead): it
// only grows, so a pool replaces an instance that has grown too large.
func (s *Session) MemorySize() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead != nil {
		return 0
	}
	return uint64(s.mod.Memory().Size())
}

// Close releases the session's instance. Closing a dead session (already released) is not an error.
func (s *Session) Close(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead != nil {
		return nil
	}
	err := s.mod.Close(ctx)
	s.mem.release()
	s.dead = &deadError{cause: errors.New("closed")}
	return err
}

// sessionMemory is the linear memory of one instance when the host reserves it (memory_linux.go). It
// defers releasing the reservation while a call into the module runs: wazero closes a module that
// exits from inside the exit call itself, and releasing the memory there would pull it from under
// code that is still on the stack.
type sessionMemory struct {
	mu     sync.Mutex
	inCall bool
	unmap  func() // set when wazero is done with the memory and it is not yet released
}

// enter and leave bracket a call into the module.
func (m *sessionMemory) enter() {
	m.mu.Lock()
	m.inCall = true
	m.mu.Unlock()
}

func (m *sessionMemory) leave() {
	m.mu.Lock()
	m.inCall = false
	m.mu.Unlock()
	m.release()
}

// done is what the allocator's Free calls: release now, or after the call in flight.
func (m *sessionMemory) done(unmap func()) {
	m.mu.Lock()
	m.unmap = unmap
	m.mu.Unlock()
	m.release()
}

// release releases the reservation if wazero is done with it and no call runs (once).
func (m *sessionMemory) release() {
	m.mu.Lock()
	var f func()
	if !m.inCall {
		f, m.unmap = m.unmap, nil
	}
	m.mu.Unlock()
	if f != nil {
		f()
	}
}
