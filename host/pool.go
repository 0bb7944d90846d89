package host

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apibank-playground/apibank/protocol"
)

// PoolConfig configures a Pool; the zero value is usable.
type PoolConfig struct {
	// Size is the number of instances, hence of requests the engine works on at once (default
	// GOMAXPROCS: an instance is single-threaded, so more would only queue inside the CPU).
	Size int
	// MaxMemory replaces an instance, after the request it served, once its linear memory has grown
	// past this many bytes (wasm memory never shrinks; a request that loaded a large dataset leaves
	// its instance large). Default DefaultMaxMemory.
	MaxMemory uint64
	// Warm are the requests each new instance answers before it joins the pool (default
	// WarmRequests: the gold replays every score request's report needs), so that no visitor pays
	// for them.
	Warm []protocol.Request
	// OnReplace, when set, is told each time an instance is replaced and why (the cause, or the
	// error that made the new one fail); a server logs it.
	OnReplace func(reason string, err error)
}

// DefaultMaxMemory is PoolConfig.MaxMemory's default: well above the engine's steady size on the
// builtin data (its collector keeps the heap near the live data plus 64 MiB), well below its 4 GiB.
const DefaultMaxMemory = 512 << 20

// WarmRequests are the default warm-up: the gold replay of the builtin data in both state modes and
// both forms, the four ceilings a score report can show.
func WarmRequests() []protocol.Request {
	var out []protocol.Request
	for _, state := range []string{protocol.StateFresh, protocol.StateReplay} {
		for _, form := range []string{"text", "native"} {
			out = append(out, protocol.Request{Op: protocol.OpReplay, State: state, Form: form})
		}
	}
	return out
}

// Pool hands out engine sessions, one request each, from instances of one compiled module.
//
// An instance is made and warmed before anyone waits for it. Each Acquire restarts the instance's
// engine (protocol.OpRestart: a brand-new engine session, the builtin data, the initial sandbox, no
// episodes), so nothing a request did is visible to the next; what an engine session could leave
// behind is exactly what restart replaces. An instance that died (a trap, an exit, a call stopped by
// its deadline), that its user reports dead, or that has grown past MaxMemory is closed and never
// used again; a new one is made in the background to keep the pool at Size.
//
// It is safe for concurrent use; its methods match the API's Pool interface.
type Pool struct {
	rt   *Runtime
	cfg  PoolConfig
	free chan *Session

	mu     sync.Mutex
	closed bool
	busy   map[*Session]bool
	// making counts instances being made, so Close can wait for them.
	making sync.WaitGroup
	stop   chan struct{}

	// Replaced counts the instances replaced since the start.
	replaced atomic.Int64
}

// NewPool makes cfg.Size warm instances of rt's module (in parallel) and returns the pool; it fails
// if any of them cannot be made or warmed.
func NewPool(ctx context.Context, rt *Runtime, cfg PoolConfig) (*Pool, error) {
	if cfg.Size <= 0 {
		cfg.Size = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxMemory == 0 {
		cfg.MaxMemory = DefaultMaxMemory
	}
	if cfg.Warm == nil {
		cfg.Warm = WarmRequests()
	}
	p := &Pool{rt: rt, cfg: cfg, free: make(chan *Session, cfg.Size), busy: map[*Session]bool{}, stop: make(chan struct{})}
	errs := make([]error, cfg.Size)
	var wg sync.WaitGroup
	for i := range cfg.Size {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := p.make(ctx)
			if err != nil {
				errs[i] = err
				return
			}
			p.free <- s
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		p.Close(context.Background())
		return nil, err
	}
	return p, nil
}

// make instantiates the module and answers the warm-up requests.
func (p *Pool) make(ctx context.Context) (*Session, error) {
	s, err := p.rt.NewSession(ctx)
	if err != nil {
		return nil, err
	}
	for _, req := range p.cfg.Warm {
		text, err := protocol.Encode(req)
		if err == nil {
			var resp []byte
			if resp, err = s.Handle(ctx, text); err == nil {
				_, err = protocol.Result(resp)
			}
		}
		if err != nil {
			s.Close(ctx)
			return nil, fmt.Errorf("warming an engine instance (%s): %w", req.Op, err)
		}
	}
	return s, nil
}

// ErrPoolClosed is what Acquire answers once the pool is closed.
var ErrPoolClosed = errors.New("engine pool is closed")

// Acquire waits for a free instance (until ctx ends), restarts its engine, and returns its
// transport and the release function to call once the request is done: release(true) when the
// transport failed, so the instance is discarded. The transport refuses calls after release.
func (p *Pool) Acquire(ctx context.Context) (protocol.Transport, func(dead bool), error) {
	restart, err := protocol.Encode(protocol.Request{Op: protocol.OpRestart})
	if err != nil {
		return nil, nil, err
	}
	for {
		var s *Session
		select {
		case s = <-p.free:
		case <-p.stop:
			return nil, nil, ErrPoolClosed
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("no engine instance became free: %w", context.Cause(ctx))
		}
		if s == nil {
			return nil, nil, ErrPoolClosed
		}
		p.mu.Lock()
		p.busy[s] = true
		p.mu.Unlock()
		resp, err := s.Handle(ctx, restart)
		if err == nil {
			_, err = protocol.Result(resp)
		}
		if err != nil {
			// The instance cannot start a clean session: never hand it out.
			p.retire(s, "restart failed", err)
			if ctx.Err() != nil {
				return nil, nil, fmt.Errorf("no engine instance became free: %w", context.Cause(ctx))
			}
			continue
		}
		return p.lease(s)
	}
}

// lease wraps s for one request.
func (p *Pool) lease(s *Session) (protocol.Transport, func(dead bool), error) {
	var released atomic.Bool
	do := func(ctx context.Context, req []byte) ([]byte, error) {
		if released.Load() {
			return nil, errors.New("engine session used after its request ended")
		}
		return s.Handle(ctx, req)
	}
	release := func(dead bool) {
		if released.Swap(true) {
			return
		}
		switch {
		case s.Err() != nil:
			p.retire(s, "instance died", s.Err())
		case dead:
			p.retire(s, "reported dead by its user", nil)
		case s.MemorySize() > p.cfg.MaxMemory:
			p.retire(s, fmt.Sprintf("linear memory %d MiB over the %d MiB limit", s.MemorySize()>>20, p.cfg.MaxMemory>>20), nil)
		default:
			p.giveBack(s)
		}
	}
	return do, release, nil
}

// giveBack puts a usable instance (after its request, or newly made) in the free list, or closes it
// if the pool is closed. The check and the send happen under one lock: Close sets closed under it
// before it empties the list, so an instance is either in the list it empties or closed here, never
// left in the list unclosed. The send never blocks: at most Size instances exist, and the list holds
// Size.
func (p *Pool) giveBack(s *Session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.busy, s)
	if p.closed {
		s.Close(context.Background())
		return
	}
	p.free <- s
}

// retire closes s and makes a replacement in the background.
func (p *Pool) retire(s *Session, reason string, cause error) {
	s.Close(context.Background())
	p.replaced.Add(1)
	p.mu.Lock()
	delete(p.busy, s)
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.making.Add(1)
	p.mu.Unlock()
	if p.cfg.OnReplace != nil {
		p.cfg.OnReplace(reason, cause)
	}
	go p.replace()
}

// replace makes one instance and adds it to the pool, trying again each second while it fails
// (out of memory, say) until the pool is closed.
func (p *Pool) replace() {
	defer p.making.Done()
	for {
		s, err := p.make(context.Background())
		if err == nil {
			p.giveBack(s)
			return
		}
		if p.cfg.OnReplace != nil {
			p.cfg.OnReplace("making a replacement failed", err)
		}
		select {
		case <-p.stop:
			return
		case <-time.After(time.Second):
		}
	}
}

// Replaced is the number of instances replaced since the pool started.
func (p *Pool) Replaced() int64 { return p.replaced.Load() }

// Size is the number of instances the pool keeps.
func (p *Pool) Size() int { return p.cfg.Size }

// Close closes the free instances, waits for replacements being made, and makes Acquire fail; an
// instance in use is closed when its request releases it.
func (p *Pool) Close(ctx context.Context) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	close(p.stop)
	p.mu.Unlock()
	p.making.Wait()
	for {
		select {
		case s := <-p.free:
			s.Close(ctx)
		default:
			return nil
		}
	}
}
