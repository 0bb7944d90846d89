package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/protocol"
)

// countingPool counts its acquisitions and hands out native sessions.
type countingPool struct {
	n    int
	next nativePool
}

func (p *countingPool) Acquire(ctx context.Context) (protocol.Transport, func(bool), error) {
	p.n++
	return p.next.Acquire(ctx)
}

// TestSplit: ROUGE-L and score requests that bring data go to the unbounded pool, the rest to the
// bounded one.
func TestSplit(t *testing.T) {
	tests := []struct {
		x         exchange
		unbounded bool
	}{
		{exchange{method: "POST", path: "/api/v1/rouge", body: `{"ref":"a","hyp":"a"}`}, true},
		{exchange{method: "POST", path: "/api/v1/score", header: map[string]string{"Content-Type": "application/json"},
			body: `{"data":{"files":{"level-1-given-desc/a.jsonl":"{\"role\":\"User\",\"text\":\"hi\"}"}},"predictions":[]}`}, true},
		{exchange{method: "POST", path: "/api/v1/score", body: `{"file":"x","id":0,"pred":""}`}, false},
		{exchange{method: "GET", path: "/api/v1/catalog"}, false},
		{exchange{method: "GET", path: "/api/v1/dataset"}, false},
	}
	for _, tt := range tests {
		bounded, unbounded := &countingPool{}, &countingPool{}
		rec := do(t, New(Split{Bounded: bounded, Unbounded: unbounded}, Limits{}), tt.x)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", tt.x.path, rec.Code, rec.Body.String())
		}
		if got := unbounded.n == 1 && bounded.n == 0; got != tt.unbounded || bounded.n+unbounded.n != 1 {
			t.Errorf("%s %s: bounded %d, unbounded %d acquisitions", tt.x.method, tt.x.path, bounded.n, unbounded.n)
		}
	}
}

// TestLateAnswerIsATimeout: an engine that a deadline does not stop answers after it; the client
// gets 408 all the same.
func TestLateAnswerIsATimeout(t *testing.T) {
	pool := poolFunc(func(ctx context.Context) (protocol.Transport, func(bool), error) {
		var inner nativePool
		do, release, _ := inner.Acquire(ctx)
		return func(ctx context.Context, b []byte) ([]byte, error) {
			time.Sleep(60 * time.Millisecond)
			return do(ctx, b)
		}, release, nil
	})
	rec := do(t, New(pool, Limits{Timeout: 20 * time.Millisecond}), exchange{method: "GET", path: "/api/v1/dataset"})
	if rec.Code != http.StatusRequestTimeout || !strings.Contains(rec.Body.String(), "timeout") {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
}
