package host

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/internal/oracle"
)

// BenchmarkScoreRatio scores all oracle predictions in the engine, natively and under wazero, in
// one run, and reports each engine's time a verdict and their ratio (the budget: wazero at most 3x
// native). Only the score op is timed: the load is done before.
func BenchmarkScoreRatio(b *testing.B) {
	load, score, n, ok, err := oracle.Requests(filepath.Join("..", "..", "shared", "apibank"))
	if !ok {
		b.Skip("../shared/apibank not found: the oracle benchmark needs the reference data beside the repository")
	}
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	native := engine.New()
	native.Handle(load)
	s, err := newRuntime(b).NewSession(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Handle(ctx, load); err != nil {
		b.Fatal(err)
	}
	// One warm-up round each, then the best of three (the machine is shared).
	best := func(f func()) time.Duration {
		f()
		var min time.Duration
		for range 3 {
			t0 := time.Now()
			f()
			if d := time.Since(t0); min == 0 || d < min {
				min = d
			}
		}
		return min
	}
	b.ResetTimer()
	for range b.N {
		nat := best(func() { native.Handle(score) })
		wz := best(func() {
			if _, err := s.Handle(ctx, score); err != nil {
				b.Fatal(err)
			}
		})
		b.ReportMetric(float64(nat.Microseconds())/float64(n), "native-µs/verdict")
		b.ReportMetric(float64(wz.Microseconds())/float64(n), "wazero-µs/verdict")
		b.ReportMetric(float64(wz)/float64(nat), "wazero/native")
	}
}
