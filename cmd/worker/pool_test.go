package main

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// Every Acquire is a new session: a call that changes one session's sandbox is not seen by the next.
func TestFreshSessionsShareNoState(t *testing.T) {
	ctx := context.Background()
	var pool freshSessions
	first, release, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	call := goldCall(t, ctx, first, "AddAlarm")
	res, err := protocol.Call[protocol.CallResult](ctx, first, protocol.Request{Op: protocol.OpCall, Call: call})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changed) == 0 || res.History != 1 {
		t.Fatalf("the call changed nothing (%+v): the test needs a call that writes", res)
	}
	release(false)
	for i := range 3 {
		next, release, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		w, err := protocol.Call[protocol.World](ctx, next, protocol.Request{Op: protocol.OpWorld})
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Changed) != 0 || len(w.History) != 0 {
			t.Errorf("session %d starts with changed %v and %d calls of history", i+2, w.Changed, len(w.History))
		}
		release(false)
	}
}

// goldCall finds the first gold call of tool in the builtin dialogues and returns it as a native call.
func goldCall(t *testing.T, ctx context.Context, do protocol.Transport, tool string) json.RawMessage {
	t.Helper()
	list, err := protocol.Call[[]protocol.DialogueSummary](ctx, do, protocol.Request{Op: protocol.OpDialogues})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		if !slices.Contains(s.Tools, tool) {
			continue
		}
		d, err := protocol.Call[protocol.Dialogue](ctx, do, protocol.Request{Op: protocol.OpDialogue, Level: s.Level, File: s.File})
		if err != nil {
			t.Fatal(err)
		}
		for _, turn := range d.Turns {
			if turn.APIName == tool {
				b, err := json.Marshal(map[string]any{"name": tool, "arguments": turn.Params})
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
		}
	}
	t.Fatalf("no builtin dialogue calls %s", tool)
	return nil
}

func TestFreshSessionsHonourContext(t *testing.T) {
	var pool freshSessions
	ctx, cancel := context.WithCancel(context.Background())
	transport, _, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := transport(ctx, []byte(`{"v":1,"op":"hello"}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("a call after cancel: err %v, want context.Canceled", err)
	}
	if _, _, err := pool.Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Acquire after cancel: err %v, want context.Canceled", err)
	}
}
