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

	"github.com/apibank-playground/apibank/api"
	"github.com/apibank-playground/apibank/host"
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
	fs.IntVar(&f.instances, "api-instances", runtime.GOMAXPROCS(0), "engine instances for requests their size bounds (plus half as many, at least one, whose calls a deadline stops, for ROUGE-L and data sent)")
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

// warmRequests are what every engine instance answers before it serves: host.WarmRequests and, for
// a board of a season, the load of the season's variant. An engine instance keeps the variants it
// made across the sessions it serves, so a submission's load of the season (or a view's) finds it
// made: no visitor waits the seconds a variant takes to make and prove.
func warmRequests(season int64) []protocol.Request {
	warm := host.WarmRequests()
	if season != 0 {
		warm = append(warm, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: season})
	}
	return warm
}

// apiRoutes mounts the API for every method on its paths (it answers 405 itself, in its JSON form).
func apiRoutes(h http.Handler) []Route {
	var out []Route
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions} {
		out = append(out, Route{Pattern: m + " " + api.Prefix, Handler: h}, Route{Pattern: m + " " + api.HealthPath, Handler: h})
	}
	return out
}

// startingPool is the API's pool while the module compiles in the background (a few seconds): the
// pages are served already, and an API request that comes meanwhile waits for the engine, within its
// own time limit (a board opened, or a run submitted, just after the server started is answered a
// moment later, not refused); past that limit it gets 503 with Retry-After. Once ready it is an
// api.Split: requests whose work their size bounds go to instances compiled without termination
// checks (twice as fast), the unbounded ones (ROUGE-L, data sent) to instances whose calls the
// request's deadline stops.
type startingPool struct {
	mu    sync.Mutex
	ready api.Pool
	err   error
	// up is closed once ready or err is set (made on first use).
	up chan struct{}
}

// upChan returns the channel closed once the pool is ready or has failed.
func (p *startingPool) upChan() chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.up == nil {
		p.up = make(chan struct{})
	}
	return p.up
}

// settle records the outcome of the start (a pool, or the error it failed with) and wakes the
// requests waiting for it.
func (p *startingPool) settle(ready api.Pool, err error) {
	up := p.upChan()
	p.mu.Lock()
	p.ready, p.err = ready, err
	p.mu.Unlock()
	close(up)
}

func (p *startingPool) Acquire(ctx context.Context) (protocol.Transport, func(dead bool), error) {
	select {
	case <-p.upChan():
	case <-ctx.Done():
		return nil, nil, errors.New("the engine is starting")
	}
	p.mu.Lock()
	ready, err := p.ready, p.err
	p.mu.Unlock()
	if err != nil {
		return nil, nil, fmt.Errorf("the engine could not start: %w", err)
	}
	return ready.Acquire(ctx)
}

// start compiles web/engine.wasm twice (with and without the checks that let a deadline stop a
// call; each with its own compilation cache, as wazero's cache key does not tell them apart) and
// makes the instances: `instances` fast ones and half as many (at least one) interruptible ones.
// failed is called if it cannot; the returned stop closes what was made. Every instance answers warm
// before it joins a pool (nil: host.WarmRequests).
func (p *startingPool) start(wasmPath string, instances int, warm []protocol.Request, logger *slog.Logger, failed func(error)) (stop func()) {
	done := make(chan struct{})
	var closers []func()
	go func() {
		defer close(done)
		began := time.Now()
		pools, err := func() ([2]*host.Pool, error) {
			var out [2]*host.Pool
			wasm, err := os.ReadFile(wasmPath)
			if err != nil {
				return out, err
			}
			for i, interruptible := range []bool{false, true} {
				cfg := host.Config{Interruptible: interruptible, Stderr: os.Stderr}
				size := instances
				if dir, err := os.UserCacheDir(); err == nil {
					cfg.CacheDir = filepath.Join(dir, "apibank-wazero")
					if interruptible {
						cfg.CacheDir = filepath.Join(dir, "apibank-wazero-interruptible")
					}
				}
				if interruptible {
					size = max(1, instances/2)
				}
				ctx := context.Background()
				rt, err := host.New(ctx, wasm, cfg)
				if err != nil && cfg.CacheDir != "" {
					cfg.CacheDir = "" // an unusable cache folder must not stop the server
					rt, err = host.New(ctx, wasm, cfg)
				}
				if err != nil {
					return out, fmt.Errorf("%s: %w", wasmPath, err)
				}
				closers = append(closers, func() { rt.Close(context.Background()) })
				pool, err := host.NewPool(ctx, rt, host.PoolConfig{Size: size, Warm: warm, OnReplace: func(reason string, err error) {
					attrs := []any{"reason", reason, "interruptible", interruptible}
					if err != nil {
						attrs = append(attrs, "error", err.Error())
					}
					logger.Warn("engine instance replaced", attrs...)
				}})
				if err != nil {
					return out, err
				}
				closers = append(closers, func() { pool.Close(context.Background()) })
				out[i] = pool
			}
			return out, nil
		}()
		if err != nil {
			p.settle(nil, err)
			failed(err)
			return
		}
		p.settle(api.Split{Bounded: pools[0], Unbounded: pools[1]}, nil)
		logger.Info("api ready", "instances", pools[0].Size(), "interruptible_instances", pools[1].Size(), "took", time.Since(began).Round(time.Millisecond).String())
	}()
	return func() {
		<-done
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
}
