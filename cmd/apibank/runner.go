package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/dataset/memo"
	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/host"
	"github.com/apibank-playground/apibank/protocol"
)

// runner is a started engine: the WebAssembly module under wazero (the default), or the same engine
// code in-process (--native, or when no module is found), reached through the protocol's typed client.
type runner struct {
	do    protocol.Transport
	close func()
	// module identifies the engine module (memo.Module) when a folder's memo is wanted ("" when
	// --native or no folder is loaded): part of the memo's key.
	module string
	// cache is the user's cache folder ("" when there is none).
	cache string
	// build names the engine that judges: board.Build of the module's bytes, or "in-process".
	build string
}

// newRunner starts an engine: the module under wazero when one is found (wasmSearch.find), else the
// same engine code compiled into this binary, run in-process, which gives the same verdicts byte for
// byte (the parity tests hold the two equal); the fallback is said once, on stderr, so that a CLI
// installed with `go install` works from any folder without a module beside it. forData says a
// --data folder will be loaded: only then is the module's identity computed for the folder's memo
// (its checksums cost ~0.7 ms).
func newRunner(native bool, wasmPath string, forData bool, stderr io.Writer) (runner, error) {
	if native {
		return inProcess(), nil
	}
	path, looked, err := defaultSearch(wasmPath).find()
	if err != nil {
		return runner{}, err
	}
	if path == "" {
		fmt.Fprintf(stderr, "apibank: engine.wasm not found (looked at %s): judging in-process with the engine built into this CLI (the same verdicts)\n", strings.Join(looked, ", "))
		return inProcess(), nil
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
	r := runner{do: s.Handle, close: func() { rt.Close(context.Background()) }, cache: userCache, build: board.Build(b)}
	if forData {
		r.module = memo.Module(b)
	}
	return r, nil
}

// inProcess is the engine compiled into the CLI, reached through the same protocol as the module.
func inProcess() runner {
	s := engine.New()
	return runner{do: func(_ context.Context, req []byte) ([]byte, error) { return s.Handle(req), nil }, close: func() {}, build: "in-process"}
}

// wasmSearch holds the places the engine module may be, in the order they are tried.
type wasmSearch struct {
	flag      string // --wasm
	env       string // $APIBANK_WASM
	exeDir    string // the folder of the running executable ("" when unknown)
	userCache string // os.UserCacheDir ("" when there is none)
}

// defaultSearch is the search for this process: the flag, its environment, its executable's folder
// and the user's cache folder.
func defaultSearch(flagPath string) wasmSearch {
	s := wasmSearch{flag: flagPath, env: os.Getenv("APIBANK_WASM")}
	if exe, err := os.Executable(); err == nil {
		s.exeDir = filepath.Dir(exe)
	}
	s.userCache, _ = os.UserCacheDir()
	return s
}

// find returns the engine module to run: --wasm, else $APIBANK_WASM, else web/engine.wasm in the
// working directory (a checkout), engine.wasm beside the executable (an install), web/engine.wasm
// beside the executable's folder (a checkout's bin/), and apibank/engine.wasm in the user's cache
// folder. A path the user named that is not a file is an error; when no place has a module the path
// is "" and looked lists the places, for the message that says the engine runs in-process.
func (s wasmSearch) find() (path string, looked []string, err error) {
	if s.flag != "" {
		if isFile(s.flag) {
			return s.flag, nil, nil
		}
		return "", nil, fmt.Errorf("--wasm %s: no such file", s.flag)
	}
	if s.env != "" {
		if isFile(s.env) {
			return s.env, nil, nil
		}
		return "", nil, fmt.Errorf("APIBANK_WASM=%s: no such file", s.env)
	}
	candidates := []string{filepath.Join("web", "engine.wasm")}
	if s.exeDir != "" {
		candidates = append(candidates, filepath.Join(s.exeDir, "engine.wasm"), filepath.Join(s.exeDir, "..", "web", "engine.wasm"))
	}
	if s.userCache != "" {
		candidates = append(candidates, filepath.Join(s.userCache, "apibank", "engine.wasm"))
	}
	for _, c := range candidates {
		if isFile(c) {
			return c, nil, nil
		}
	}
	return "", candidates, nil
}

// outFolder makes the folder an output file goes into, when it is not there yet: `--out runs/m.jsonl`
// in a fresh checkout writes runs/ rather than failing after the flags were all right.
func outFolder(path string) error {
	if dir := filepath.Dir(path); dir != "." {
		return os.MkdirAll(dir, 0o755)
	}
	return nil
}

// isFile says whether path names a file (not a folder).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
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

// loadVariant loads the variant of the builtin data that seed names, and says on stderr what moved
// and which files are served unchanged (their variant failed a check).
func loadVariant(r runner, seed int64, stderr io.Writer) error {
	res, err := call[protocol.Loaded](r, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed})
	if err != nil {
		return err
	}
	if v := res.Variant; v != nil {
		moved := 0
		for _, n := range v.Moved {
			moved += n
		}
		fmt.Fprintf(stderr, "variant %d of the builtin data: %d values moved, %d files varied, %d served unchanged\n", seed, moved, v.Varied, len(v.Unchanged))
	}
	return nil
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
	paths, total := dataset.Files(files).Paths()
	parts := make([]protocol.Part, len(paths))
	for i, p := range paths {
		parts[i] = protocol.Part{Path: p, Size: len(files[p])}
	}
	return parts, paths, total
}
