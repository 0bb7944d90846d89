package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func loadWasm(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "web", "engine.wasm"))
	if err != nil {
		t.Fatalf("web/engine.wasm is missing: run `make wasm` (make test does): %v", err)
	}
	return b
}

func newRuntime(t testing.TB) *Runtime {
	t.Helper()
	ctx := context.Background()
	rt, err := New(ctx, loadWasm(t), Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(ctx) })
	return rt
}

func send(t testing.TB, s *Session, req string) map[string]any {
	t.Helper()
	out, err := s.Handle(context.Background(), []byte(req))
	if err != nil {
		t.Fatalf("%s: %v", req, err)
	}
	var r map[string]any
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, out)
	}
	return r
}

// TestSessionsIsolated: one compiled module, two instances; a sandbox change in one is not seen by the
// other, and a malformed request leaves the instance usable.
func TestSessionsIsolated(t *testing.T) {
	rt := newRuntime(t)
	ctx := context.Background()
	a, err := rt.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := rt.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(ctx)
	defer b.Close(ctx)

	if r := send(t, a, `{"v":1,"op":"hello"}`); r["ok"] != true {
		t.Fatalf("hello: %v", r)
	}
	if r := send(t, a, `not json`); r["ok"] != false {
		t.Fatalf("a malformed request must fail: %v", r)
	}
	// Register a user in a's world only.
	reg := `{"v":1,"op":"call","call":"[RegisterUser(username='wazero_probe', password='pw12345', email='probe@example.com')]"}`
	r := send(t, a, reg)
	res, _ := json.Marshal(r["result"])
	if !strings.Contains(string(res), `"exception":null`) {
		t.Fatalf("RegisterUser in a failed: %s", res)
	}
	has := func(s *Session) bool {
		r := send(t, s, `{"v":1,"op":"world","databases":["Account"]}`)
		b, _ := json.Marshal(r["result"])
		return strings.Contains(string(b), "wazero_probe")
	}
	if !has(a) {
		t.Fatal("the new account is missing from a's world")
	}
	if has(b) {
		t.Fatal("b sees a's new account: sessions share state")
	}
}

// TestLargeRequest: a request of several megabytes crosses the module boundary intact.
func TestLargeRequest(t *testing.T) {
	rt := newRuntime(t)
	s, err := rt.NewSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("word ", 400000)
	req, _ := json.Marshal(map[string]any{"v": 1, "op": "rouge", "pairs": []map[string]string{{"ref": long, "hyp": "word"}}})
	r := send(t, s, string(req))
	if r["ok"] != true {
		t.Fatalf("large rouge request failed: %v", r["error"])
	}
}

func TestNotAnEngine(t *testing.T) {
	// A valid module without the engine's exports is refused with a clear error.
	empty := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	_, err := New(context.Background(), empty, Config{})
	if err == nil || !strings.Contains(err.Error(), "does not export") {
		t.Fatalf("err = %v, want a missing-export error", err)
	}
}

// TestIdleKeepsState: the idle export (a tab calls it after its warm-up) collects garbage and nothing
// else: before the first request, and after a score and a sandbox change, the session answers as
// before and keeps its world.
func TestIdleKeepsState(t *testing.T) {
	rt := newRuntime(t)
	ctx := context.Background()
	s, err := rt.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	idle := s.mod.ExportedFunction("idle")
	if idle == nil {
		t.Fatal("the engine module exports no idle")
	}
	if _, err := idle.Call(ctx); err != nil {
		t.Fatalf("idle before any request: %v", err)
	}
	send(t, s, `{"v":1,"op":"call","call":"[RegisterUser(username='idle_probe', password='pw12345', email='idle@example.com')]"}`)
	before := send(t, s, `{"v":1,"op":"score","preds":"{\"level\":\"level-1-given-desc\",\"file\":\"acct-agenda-add-28.jsonl\",\"id\":0,\"pred\":\"no call\"}"}`)
	if _, err := idle.Call(ctx); err != nil {
		t.Fatalf("idle after requests: %v", err)
	}
	after := send(t, s, `{"v":1,"op":"score","preds":"{\"level\":\"level-1-given-desc\",\"file\":\"acct-agenda-add-28.jsonl\",\"id\":0,\"pred\":\"no call\"}"}`)
	if b, _ := json.Marshal(before["result"]); !strings.Contains(string(b), "NO_API_CALL") {
		t.Fatalf("the score judged no sample: %s", b)
	}
	b1, _ := json.Marshal(before)
	b2, _ := json.Marshal(after)
	if string(b1) != string(b2) {
		t.Fatalf("the same score answered differently after idle:\n%s\n%s", b1, b2)
	}
	world := send(t, s, `{"v":1,"op":"world","databases":["Account"]}`)
	if b, _ := json.Marshal(world["result"]); !strings.Contains(string(b), "idle_probe") {
		t.Fatal("the sandbox's new account is gone after idle")
	}
}
