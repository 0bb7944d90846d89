package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/apibank-playground/apibank/host"
	"github.com/apibank-playground/apibank/internal/api"
	"github.com/apibank-playground/apibank/protocol"
)

// apiFlags are the flags of the API (/api/v1 and /healthz, the engine under wazero).
type apiFlags struct {
	on        bool
	instances int
	limits    api.Limits
}

func (f *apiFlags) register(fs *flag.FlagSet) {
	d := api.DefaultLimits()
	fs.BoolVar(&f.on, "api", true, "serve the scoring API (/api/v1, /healthz) with web/engine.wasm under wazero")
	fs.IntVar(&f.instances, "api-instances", runtime.GOMAXPROCS(0), "engine instances: requests judged at once")
	fs.Int64Var(&f.limits.MaxBody, "api-max-body", d.MaxBody, "largest API request body in bytes (413 above)")
	fs.IntVar(&f.limits.MaxLines, "api-max-lines", d.MaxLines, "most prediction lines or pairs of one request (413 above)")
	fs.DurationVar(&f.limits.Timeout, "api-timeout", d.Timeout, "time limit of one API request's work (408 past it)")
	fs.IntVar(&f.limits.MaxConcurrent, "api-max-concurrent", d.MaxConcurrent, "API requests at once, working or waiting for an engine (503 above)")
}

func (f *apiFlags) check() error {
	switch {
	case f.instances < 1:
		return fmt.Errorf("--api-instances %d: must be at least 1", f.instances)
	case f.limits.MaxBody < 1 || f.limits.MaxLines < 1 || f.limits.Timeout <= 0 || f.limits.MaxConcurrent < 1:
		return errors.New("--api-max-body, --api-max-lines, --api-timeout and --api-max-concurrent must be positive")
	}
	return nil
}

// apiRoutes mounts the API for every method on its paths (it answers 405 itself, in its JSON form).
func apiRoutes(h http.Handler) []Route {
	var out []Route
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions} {
		out = append(out, Route{Pattern: m + " " + api.Prefix, Handler: h}, Route{Pattern: m + " " + api.HealthPath, Handler: h})
	}
	return out
}

// startingPool is the API's pool while the module compiles in the background (a few seconds): until
// then, requests get 503 with Retry-After and the pages are served already.
type startingPool struct {
	mu   sync.Mutex
	pool *host.Pool
	err  error
}

func (p *startingPool) Acquire(ctx context.Context) (protocol.Transport, func(dead bool), error) {
	p.mu.Lock()
	pool, err := p.pool, p.err
	p.mu.Unlock()
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("the engine could not start: %w", err)
	case pool == nil:
		return nil, nil, errors.New("the engine is starting")
	}
	return pool.Acquire(ctx)
}

// start compiles web/engine.wasm (with the server's own compilation cache: its code has the
// checks that let a deadline stop a call, which the CLI's has not) and makes the instances. failed
// is called if it cannot; the returned stop closes what was made.
func (p *startingPool) start(wasmPath string, instances int, logger *slog.Logger, failed func(error)) (stop func()) {
	done := make(chan struct{})
	var rt *host.Runtime
	go func() {
		defer close(done)
		fail := func(err error) {
			p.mu.Lock()
			p.err = err
			p.mu.Unlock()
			failed(err)
		}
		began := time.Now()
		wasm, err := os.ReadFile(wasmPath)
		if err != nil {
			fail(err)
			return
		}
		cfg := host.Config{Interruptible: true, Stderr: os.Stderr}
		if dir, err := os.UserCacheDir(); err == nil {
			cfg.CacheDir = filepath.Join(dir, "apibank-wazero-server")
		}
		ctx := context.Background()
		rt, err = host.New(ctx, wasm, cfg)
		if err != nil && cfg.CacheDir != "" {
			cfg.CacheDir = "" // an unusable cache folder must not stop the server
			rt, err = host.New(ctx, wasm, cfg)
		}
		if err != nil {
			fail(fmt.Errorf("%s: %w", wasmPath, err))
			return
		}
		pool, err := host.NewPool(ctx, rt, host.PoolConfig{Size: instances, OnReplace: func(reason string, err error) {
			attrs := []any{"reason", reason}
			if err != nil {
				attrs = append(attrs, "error", err.Error())
			}
			logger.Warn("engine instance replaced", attrs...)
		}})
		if err != nil {
			fail(err)
			return
		}
		p.mu.Lock()
		p.pool = pool
		p.mu.Unlock()
		logger.Info("api ready", "instances", instances, "took", time.Since(began).Round(time.Millisecond).String())
	}()
	return func() {
		<-done
		p.mu.Lock()
		pool := p.pool
		p.mu.Unlock()
		if pool != nil {
			pool.Close(context.Background())
		}
		if rt != nil {
			rt.Close(context.Background())
		}
	}
}
