package api

import (
	"context"

	"github.com/apibank-playground/apibank/protocol"
)

// unboundedKey marks the context of a request whose work is not bounded by its size.
type unboundedKey struct{}

// Unbounded reports whether the request behind ctx (as handed to Pool.Acquire) may cost far more
// than its size: ROUGE-L of texts the client chose (quadratic: two 16k-token texts take about a
// second, and a body holds many), or a dataset sent with it (its gold replay). The other requests
// judge predictions against data of ours, in time about linear in their bytes, so their size limits
// bound them. A pool can give unbounded requests an engine whose calls a deadline stops (on wazero
// that costs about half the speed) and the rest a faster one; see Split.
func Unbounded(ctx context.Context) bool {
	u, _ := ctx.Value(unboundedKey{}).(bool)
	return u
}

func markUnbounded(ctx context.Context) context.Context {
	return context.WithValue(ctx, unboundedKey{}, true)
}

// Split is a Pool that sends Unbounded requests to one pool and the others to another.
type Split struct {
	Bounded, Unbounded Pool
}

// Acquire asks the pool the request's kind goes to.
func (s Split) Acquire(ctx context.Context) (protocol.Transport, func(dead bool), error) {
	if Unbounded(ctx) {
		return s.Unbounded.Acquire(ctx)
	}
	return s.Bounded.Acquire(ctx)
}
