package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/protocol"
)

// readyPool is a pool that always has an engine: its transport answers nothing.
type readyPool struct{}

func (readyPool) Acquire(context.Context) (protocol.Transport, func(dead bool), error) {
	return func(context.Context, []byte) ([]byte, error) { return nil, nil }, func(bool) {}, nil
}

// TestStartingPoolWaits: a request that comes while the engine starts waits for it within its own
// time limit; past the limit it is told the engine is starting; once the start failed, it says why.
func TestStartingPoolWaits(t *testing.T) {
	t.Run("ready while waiting", func(t *testing.T) {
		p := &startingPool{}
		go func() {
			time.Sleep(50 * time.Millisecond)
			p.settle(readyPool{}, nil)
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, _, err := p.Acquire(ctx); err != nil {
			t.Fatalf("Acquire: %v", err)
		}
	})
	t.Run("past the request's limit", func(t *testing.T) {
		p := &startingPool{}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if _, _, err := p.Acquire(ctx); err == nil || !strings.Contains(err.Error(), "starting") {
			t.Fatalf("Acquire before the start ended: %v, want the engine is starting", err)
		}
	})
	t.Run("the start failed", func(t *testing.T) {
		p := &startingPool{}
		p.settle(nil, errors.New("no module"))
		if _, _, err := p.Acquire(context.Background()); err == nil || !strings.Contains(err.Error(), "could not start: no module") {
			t.Fatalf("Acquire after a failed start: %v", err)
		}
	})
}
