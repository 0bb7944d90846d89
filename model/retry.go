package model

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Backoff between attempts: the n-th retry waits a random time in [d/2, d] with
// d = backoffBase·2ⁿ, at most backoffMax, or what the server asked in Retry-After when that is
// longer.
const (
	backoffBase = time.Second
	backoffMax  = 30 * time.Second
	// MaxRetryAfter is the longest Retry-After the client waits for. A server asking for more (a
	// daily quota spent) gets no retry: the request fails at once with the server's message, rather
	// than a run that seems stuck.
	MaxRetryAfter = 60 * time.Second
)

// Clock is the time the client waits by. Tests pass a fake one (see [WithClock]) so that backoff
// takes no real time and its delays can be checked.
type Clock interface {
	// Now is the current time (to read a Retry-After given as an HTTP date).
	Now() time.Time
	// Sleep waits d, or less if ctx ends first, in which case it returns ctx's error.
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Option adjusts a Client for a test or a host.
type Option func(*Client)

// WithClock makes the client wait by c instead of the wall clock.
func WithClock(c Clock) Option { return func(cl *Client) { cl.clock = c } }

// WithRand makes the client draw its backoff jitter from f, which returns a number in [0, 1).
func WithRand(f func() float64) Option { return func(cl *Client) { cl.rand = f } }

// defaultRand is the jitter source when none is given.
func defaultRand() float64 { return rand.Float64() }

// backoff returns how long to wait before retry n (0 for the first retry), given what the server
// asked (retryAfter, negative when it asked nothing).
func (c *Client) backoff(n int, retryAfter time.Duration) time.Duration {
	d := backoffBase << min(n, 16)
	if d > backoffMax {
		d = backoffMax
	}
	d = d/2 + time.Duration(c.rand()*float64(d/2))
	if retryAfter > d {
		d = retryAfter
	}
	return d
}

// retryAfter reads how long the server asked to wait: retry-after-ms (milliseconds, as OpenAI
// sends), else Retry-After in seconds or as an HTTP date. It returns -1 when the answer asks
// nothing readable.
func retryAfter(h HeaderReader, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return -1
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 || s > 1e9 {
			return -1
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, ok := httpDate(v); ok {
		return max(t.Sub(now), 0)
	}
	return -1
}
