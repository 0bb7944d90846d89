package main

import (
	"context"

	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/protocol"
)

// freshSessions is the Worker's engine pool: every Acquire starts a new in-process engine session
// (engine.New: the builtin data, parsed once an instance and read-only, with a world of its own),
// used by one request and then dropped. A session is never handed to a second request, so no state
// passes from one request to another although the instance serves many.
type freshSessions struct{}

// Acquire returns a new session's transport and a release that drops it (a dead session is simply
// not reused, as none is).
func (freshSessions) Acquire(ctx context.Context) (protocol.Transport, func(dead bool), error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	s := engine.New()
	transport := func(ctx context.Context, request []byte) ([]byte, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return s.Handle(request), nil
	}
	return transport, func(bool) {}, nil
}
