package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/host"
	"github.com/apibank-playground/apibank/internal/memo"
	"github.com/apibank-playground/apibank/protocol"
)

// runner is a started engine: the WebAssembly module under wazero (the default), or the same engine
// code in-process (--native), reached through the protocol's typed client.
type runner struct {
	do    protocol.Transport
	close func()
	// module identifies the engine module (memo.Module) when a folder's memo is wanted ("" when
	// --native or no folder is loaded): part of the memo's key.
	module string
	// cache is the user's cache folder ("" when there is none).
	cache string
}

// newRunner starts an engine. The module is found at --wasm, $APIBANK_WASM, ./web/engine.wasm, or
// web/engine.wasm beside the executable's parent folder. forData says a --data folder will be loaded:
// only then is the module's identity computed for the folder's memo (its checksums cost ~0.7 ms).
func newRunner(native bool, wasmPath string, forData bool, stderr io.Writer) (runner, error) {
	if native {
		s := engine.New()
		return runner{do: func(_ context.Context, req []byte) ([]byte, error) { return s.Handle(req), nil }, close: func() {}}, nil
	}
	path, err := findWasm(wasmPath)
	if err != nil {
		return runner{}, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return runner{}, err
	}
	userCache, _ := os.UserCacheDir()
	cache := ""
	if userCache != "" {
		cache = filepath.Join(userCache, "apibank-wazero")
	}
	ctx := context.Background()
	rt, err := host.New(ctx, b, host.Config{CacheDir: cache, Stderr: stderr})
	if err != nil && cache != "" {
		// An unusable cache folder must not stop the run.
		rt, err = host.New(ctx, b, host.Config{Stderr: stderr})
	}
	if err != nil {
		return runner{}, err
	}
	s, err := rt.NewSession(ctx)
	if err != nil {
		rt.Close(ctx)
		return runner{}, err
	}
	r := runner{do: s.Handle, close: func() { rt.Close(context.Background()) }, cache: userCache}
	if forData {
		r.module = memo.Module(b)
	}
	return r, nil
}

// findWasm is the engine module to run: --wasm, else $APIBANK_WASM, else web/engine.wasm in the
// working directory or beside the executable's folder (bin/../web, as in a checkout). When none is
// there the error names every place looked at, so that a user running the CLI outside the
// repository knows what to pass.
func findWasm(flagPath string) (string, error) {
	candidates := []string{flagPath, os.Getenv("APIBANK_WASM"), filepath.Join("web", "engine.wasm")}
	if exe, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(exe), "..", "web", "engine.wasm"))
	}
	var looked []string
	for i, c := range candidates {
		if c == "" {
			continue
		}
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, nil
		}
		switch i {
		case 0:
			return "", fmt.Errorf("--wasm %s: no such file", c)
		case 1:
			return "", fmt.Errorf("APIBANK_WASM=%s: no such file", c)
		}
		looked = append(looked, c)
	}
	return "", fmt.Errorf("engine.wasm not found (looked at %s): run `make wasm` in the repository, pass --wasm PATH or set APIBANK_WASM, or use --native", strings.Join(looked, ", "))
}

// call sends one request to the engine and decodes its result as T; an engine error is an error.
func call[T any](r runner, req protocol.Request) (T, error) {
	return protocol.Call[T](context.Background(), r.do, req)
}

// loadData loads --data DIR into the engine (nothing to do for the builtin data). Problems in files are
// printed as file:line: what; it reports whether there were any. Under wazero the engine's memo of
// the folder, kept from an earlier run of the same module on the same files, goes with the load,
// and keepMemo is to be called once the command is done: it keeps what the engine learned.
func loadData(r runner, dir string, stderr io.Writer) (bad bool, keepMemo func(), err error) {
	keepMemo = func() {}
	if dir == "" {
		return false, keepMemo, nil
	}
	raw, err := dataset.ReadDir(dir)
	if err != nil {
		return false, keepMemo, err
	}
	req := protocol.Request{Op: protocol.OpLoad, Name: filepath.Base(filepath.Clean(dir))}
	var store *memo.Store
	var key string
	if r.module != "" && r.cache != "" {
		if store, err = memo.Open(filepath.Join(r.cache, "apibank-memo")); err == nil {
			key = memo.Key(r.module, raw)
			req.Memo = store.Get(key)
		}
	}
	res, err := callWithFiles[protocol.Loaded](r, req, raw)
	if err != nil {
		return false, keepMemo, err
	}
	for _, e := range res.Errors {
		fmt.Fprintln(stderr, filepath.Join(dir, e.Error()))
	}
	if store != nil {
		keepMemo = func() {
			if m, err := call[protocol.Memo](r, protocol.Request{Op: protocol.OpMemo}); err == nil && m.Memo != "" {
				store.Put(key, m.Memo) // a cache: a run that cannot write it loses nothing
			}
		}
	}
	return len(res.Errors) > 0, keepMemo, nil
}

// callWithFiles is call for a request whose body is files (as asParts lays them out), written once
// into the request's buffer: a body made first would be copied by protocol.Encode, and a --data
// folder is megabytes.
func callWithFiles[T any](r runner, req protocol.Request, files map[string][]byte) (T, error) {
	var zero T
	parts, paths, total := partsOf(files)
	req.Parts = parts
	head, err := protocol.Encode(req) // no Body: the JSON alone
	if err != nil {
		return zero, err
	}
	text := append(make([]byte, 0, len(head)+1+total), head...)
	text = append(text, '\n') // the body follows the JSON's line, as protocol.Encode frames it
	for _, p := range paths {
		text = append(text, files[p]...)
	}
	resp, err := r.do(context.Background(), text)
	if err != nil {
		return zero, err
	}
	return protocol.Decode[T](req.Op, resp)
}

// asParts lays files out as a request body, in path order: their parts and their bytes one after the
// other (the engine reads them raw, without JSON escaping).
func asParts(files map[string][]byte) ([]protocol.Part, []byte) {
	parts, paths, total := partsOf(files)
	body := make([]byte, 0, total)
	for _, p := range paths {
		body = append(body, files[p]...)
	}
	return parts, body
}

// partsOf returns the parts of files in path order, the paths in that order, and their total size.
func partsOf(files map[string][]byte) ([]protocol.Part, []string, int) {
	paths := make([]string, 0, len(files))
	total := 0
	for p, b := range files {
		paths = append(paths, p)
		total += len(b)
	}
	sort.Strings(paths)
	parts := make([]protocol.Part, len(paths))
	for i, p := range paths {
		parts[i] = protocol.Part{Path: p, Size: len(files[p])}
	}
	return parts, paths, total
}
