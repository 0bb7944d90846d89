package main

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
)

// notable is the Worker's access log filter: it passes to the handler it wraps the access lines an
// operator needs beyond what the platform records of every request (Cloudflare's invocation logs
// give each one's method, address, status, CPU and wall time), and drops the rest. A line passes
// when its request failed (status 5xx), or when the memory it says the Go runtime holds
// (sys_bytes, see memory) is more than any line passed before said: the first request, then each
// new high on the way to the isolate's 128 MB. A log line is not free: under wrangler dev one costs
// workerd more CPU than a small request's Go code, and on Workers each counts against the logs' daily
// allowance.
type notable struct {
	next slog.Handler
	high *memoryHigh
}

// memoryHigh is the most memory an access line passed by notable has said, shared by the handlers
// derived from one notable (WithAttrs, WithGroup).
type memoryHigh struct {
	mu  sync.Mutex
	max uint64
}

// keepNotable wraps logger's handler in notable.
func keepNotable(logger *slog.Logger) *slog.Logger {
	return slog.New(&notable{next: logger.Handler(), high: &memoryHigh{}})
}

// Enabled reports whether the wrapped handler takes records of level l.
func (n *notable) Enabled(ctx context.Context, l slog.Level) bool { return n.next.Enabled(ctx, l) }

// Handle passes r on if it is notable (see notable).
func (n *notable) Handle(ctx context.Context, r slog.Record) error {
	var status int64
	var sys uint64
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "status":
			status = a.Value.Int64()
		case sysKey:
			sys = a.Value.Uint64()
		}
		return true
	})
	n.high.mu.Lock()
	grew := sys > n.high.max
	if grew {
		n.high.max = sys
	}
	n.high.mu.Unlock()
	if !grew && status < http.StatusInternalServerError {
		return nil
	}
	return n.next.Handle(ctx, r)
}

// WithAttrs returns a notable over the wrapped handler with as, sharing this one's memory high.
func (n *notable) WithAttrs(as []slog.Attr) slog.Handler {
	return &notable{next: n.next.WithAttrs(as), high: n.high}
}

// WithGroup returns a notable over the wrapped handler in group name, sharing this one's memory high.
func (n *notable) WithGroup(name string) slog.Handler {
	return &notable{next: n.next.WithGroup(name), high: n.high}
}
