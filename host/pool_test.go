package host

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/protocol"
)

// interruptible compiles the module once for the pool tests, with calls stopped by their context.
var interruptible struct {
	once sync.Once
	rt   *Runtime
	err  error
}

func poolRuntime(t *testing.T) *Runtime {
	t.Helper()
	wasm := loadWasm(t)
	interruptible.once.Do(func() {
		interruptible.rt, interruptible.err = New(context.Background(), wasm, Config{Interruptible: true})
	})
	if interruptible.err != nil {
		t.Fatal(interruptible.err)
	}
	return interruptible.rt
}

func newPool(t *testing.T, cfg PoolConfig) *Pool {
	t.Helper()
	p, err := NewPool(context.Background(), poolRuntime(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

func must[T any](t *testing.T, do protocol.Transport, req protocol.Request) T {
	t.Helper()
	got, err := protocol.Call[T](context.Background(), do, req)
	if err != nil {
		t.Fatalf("%s: %v", req.Op, err)
	}
	return got
}

// TestPoolRequestsShareNothing: with one instance, so every request meets the same one, a request
// that changes the sandbox, starts an episode and loads other data leaves the next request a
// session exactly like a new instance's.
func TestPoolRequestsShareNothing(t *testing.T) {
	p := newPool(t, PoolConfig{Size: 1})
	do, release, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pristine := must[protocol.World](t, do, protocol.Request{Op: protocol.OpWorld})
	res := must[protocol.CallResult](t, do, protocol.Request{Op: protocol.OpCall, Call: json.RawMessage(`"[RegisterUser(username='zed', password='pw', email='zed@example.com')]"`)})
	if len(res.Changed) == 0 {
		t.Fatalf("the sandbox call changed nothing (%s): the test would prove nothing", res.Error)
	}
	scenes := must[[]protocol.DialogueSummary](t, do, protocol.Request{Op: protocol.OpDialogues, Level: "level-3"})
	ep := must[protocol.EpisodeStarted](t, do, protocol.Request{Op: protocol.OpEpisodeStart, File: scenes[0].File})
	tiny := `{"role":"User","text":"2+2?"}
{"role":"API","api_name":"Calculator","param_dict":{"formula":"2+2"},"result":{"api_name":"Calculator","input":{"formula":"2+2"},"output":4.0,"exception":null}}
{"role":"AI","text":"4."}`
	must[protocol.Loaded](t, do, protocol.Request{Op: protocol.OpLoad, Name: "tiny", Files: map[string]string{"level-1-given-desc/calc.jsonl": tiny}})
	release(false)
	if _, err := do(context.Background(), []byte(`{"v":1,"op":"hello"}`)); err == nil {
		t.Error("the transport still works after release")
	}

	next, release2, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release2(false)
	if p.Replaced() != 0 {
		t.Fatalf("the instance was replaced (%d): the next request did not meet the same instance", p.Replaced())
	}
	hello := must[protocol.Hello](t, next, protocol.Request{Op: protocol.OpHello})
	world := must[protocol.World](t, next, protocol.Request{Op: protocol.OpWorld})
	if hello.Data != "builtin" {
		t.Errorf("the next request sees data %q", hello.Data)
	}
	if len(world.History) != 0 || len(world.Changed) != 0 || string(world.Databases) != string(pristine.Databases) {
		t.Errorf("the next request sees the sandbox call: history %d, changed %v", len(world.History), world.Changed)
	}
	_, err = protocol.Call[protocol.Outcome](context.Background(), next, protocol.Request{Op: protocol.OpEpisodeFinish, Episode: ep.Episode})
	if pe := (*protocol.Error)(nil); !errors.As(err, &pe) || pe.Code != protocol.CodeNotFound {
		t.Errorf("the next request finds the episode of the previous one: %v", err)
	}
}

// TestPoolDiscardsDeadInstances: a call stopped by its deadline kills the instance; the pool
// replaces it and the next request is judged normally. An instance reported dead, or grown past
// MaxMemory, is replaced too.
func TestPoolDiscardsDeadInstances(t *testing.T) {
	var mu sync.Mutex
	var reasons []string
	p := newPool(t, PoolConfig{Size: 1, OnReplace: func(reason string, err error) {
		mu.Lock()
		defer mu.Unlock()
		reasons = append(reasons, reason)
	}})
	do, release, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// A ROUGE-L of two 16k-token texts: about a second of work, stopped after 50 ms.
	long := strings.Repeat("alpha beta gamma delta ", 4000)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = protocol.Call[[]protocol.Rouge](ctx, do, protocol.Request{Op: protocol.OpRouge, Pairs: []protocol.Pair{{Ref: long, Hyp: long + "x"}}})
	if !errors.Is(err, ErrSessionDead) {
		t.Fatalf("a call past its deadline: %v, want ErrSessionDead", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the call was stopped after %s", took)
	}
	release(true)

	for _, step := range []string{"after the deadline", "after a reported death"} {
		do, release, err = p.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if h := must[protocol.Hello](t, do, protocol.Request{Op: protocol.OpHello}); h.Data != "builtin" {
			t.Fatalf("%s: replacement answers data %q", step, h.Data)
		}
		release(step == "after the deadline") // the first replacement is reported dead in turn
	}
	if p.Replaced() != 2 {
		t.Errorf("replaced %d instances, want 2", p.Replaced())
	}

	small := newPool(t, PoolConfig{Size: 1, MaxMemory: 1})
	do, release, err = small.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	must[protocol.Hello](t, do, protocol.Request{Op: protocol.OpHello})
	release(false)
	if small.Replaced() != 1 {
		t.Errorf("an instance over MaxMemory was kept (replaced %d)", small.Replaced())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reasons) != 2 || reasons[0] != "instance died" || reasons[1] != "reported dead by its user" {
		t.Errorf("OnReplace was told %q", reasons)
	}
}

// TestPoolWaitsThenGivesUp: with every instance busy, Acquire waits until its context ends; a
// release lets a waiting Acquire through; after Close, Acquire fails at once.
func TestPoolWaitsThenGivesUp(t *testing.T) {
	p := newPool(t, PoolConfig{Size: 1})
	_, release, err := p.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, _, err := p.Acquire(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire with every instance busy: %v, want the deadline", err)
	}
	got := make(chan error, 1)
	go func() {
		_, rel, err := p.Acquire(context.Background())
		if err == nil {
			rel(false)
		}
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	release(false)
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a waiting Acquire was not let through by a release")
	}
	p.Close(context.Background())
	if _, _, err := p.Acquire(context.Background()); !errors.Is(err, ErrPoolClosed) {
		t.Fatalf("Acquire after Close: %v", err)
	}
}
