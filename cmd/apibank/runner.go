package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/host"
)

// runner sends engine requests: to the WebAssembly module under wazero (the default), or to the same
// engine code in-process (--native).
type runner interface {
	handle(req []byte) ([]byte, error)
	close()
}

type nativeRunner struct{ s *engine.Session }

func (n nativeRunner) handle(req []byte) ([]byte, error) { return n.s.Handle(req), nil }
func (n nativeRunner) close()                            {}

type wasmRunner struct {
	rt *host.Runtime
	s  *host.Session
}

func (w wasmRunner) handle(req []byte) ([]byte, error) { return w.s.Handle(context.Background(), req) }
func (w wasmRunner) close()                            { w.rt.Close(context.Background()) }

// newRunner starts an engine. The module is found at --wasm, $APIBANK_WASM, ./web/engine.wasm, or
// web/engine.wasm beside the executable's parent folder.
func newRunner(native bool, wasmPath string) (runner, error) {
	if native {
		return nativeRunner{engine.New()}, nil
	}
	path, err := findWasm(wasmPath)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cache := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(dir, "apibank-wazero")
	}
	ctx := context.Background()
	rt, err := host.New(ctx, b, host.Config{CacheDir: cache, Stderr: os.Stderr})
	if err != nil && cache != "" {
		// An unusable cache folder must not stop the run.
		rt, err = host.New(ctx, b, host.Config{Stderr: os.Stderr})
	}
	if err != nil {
		return nil, err
	}
	s, err := rt.NewSession(ctx)
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	return wasmRunner{rt: rt, s: s}, nil
}

func findWasm(flagPath string) (string, error) {
	candidates := []string{flagPath, os.Getenv("APIBANK_WASM"), filepath.Join("web", "engine.wasm")}
	if exe, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(exe), "..", "web", "engine.wasm"))
	}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, nil
		}
		if c == flagPath {
			return "", fmt.Errorf("--wasm %s: no such file", c)
		}
	}
	return "", errors.New("web/engine.wasm not found: run `make wasm`, pass --wasm PATH, or use --native")
}

// call sends one request and decodes the result into out. An engine error is returned as an error.
func call(r runner, req map[string]any, out any) error {
	req["v"] = engine.Version
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	resp, err := r.handle(b)
	if err != nil {
		return err
	}
	var env struct {
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
		Error  *engine.Error   `json:"error"`
	}
	if err := json.Unmarshal(resp, &env); err != nil {
		return fmt.Errorf("engine answered invalid JSON: %v", err)
	}
	if !env.OK {
		if env.Error == nil {
			return errors.New("engine failed without an error")
		}
		return env.Error
	}
	if out == nil {
		return nil
	}
	if raw, ok := out.(*json.RawMessage); ok {
		*raw = env.Result
		return nil
	}
	return json.Unmarshal(env.Result, out)
}

// loadData loads --data DIR into the engine (nothing to do for the builtin data). Problems in files are
// printed as file:line: what; it reports whether there were any.
func loadData(r runner, dir string) (bool, error) {
	if dir == "" {
		return false, nil
	}
	raw, err := dataset.ReadDir(dir)
	if err != nil {
		return false, err
	}
	files := make(map[string]string, len(raw))
	for p, b := range raw {
		files[p] = string(b)
	}
	var res engine.LoadResult
	if err := call(r, map[string]any{"op": "load", "name": filepath.Base(filepath.Clean(dir)), "files": files}, &res); err != nil {
		return false, err
	}
	for _, e := range res.Errors {
		fmt.Fprintln(os.Stderr, filepath.Join(dir, e.Error()))
	}
	return len(res.Errors) > 0, nil
}
