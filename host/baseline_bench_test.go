package host

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkStreamBaseline streams all oracle predictions (as BenchmarkStreamRatio) through this
// build's module and the baseline build's ($APIBANK_BENCH_BASELINE/web/engine.wasm, see make bench
// BASELINE=...) in one process, alternating, and reports each one's least CPU time a verdict over
// eight runs and the speed-up: the in-engine figure of a change, with the machine's noise shared by
// both sides.
func BenchmarkStreamBaseline(b *testing.B) {
	base := os.Getenv("APIBANK_BENCH_BASELINE")
	if base == "" {
		b.Skip("APIBANK_BENCH_BASELINE is not set: make bench BASELINE=<revision> sets it")
	}
	load, start, chunks, n := oracleStream(b)
	ctx := context.Background()
	var sessions []*Session
	for _, path := range []string{filepath.Join("..", "web", "engine.wasm"), filepath.Join(base, "web", "engine.wasm")} {
		wasm, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		rt, err := New(ctx, wasm, Config{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { rt.Close(ctx) })
		s, err := rt.NewSession(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for _, req := range [][]byte{load, start} {
			if _, err := s.Handle(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		sessions = append(sessions, s)
	}
	b.ResetTimer()
	for range b.N {
		least := make([]time.Duration, len(sessions))
		for round := range 9 { // the first round warms up
			for i, s := range sessions {
				t0 := cpuTime()
				for _, c := range chunks {
					if _, err := s.Handle(ctx, c); err != nil {
						b.Fatal(err)
					}
				}
				if d := cpuTime() - t0; round > 0 && (least[i] == 0 || d < least[i]) {
					least[i] = d
				}
			}
		}
		b.ReportMetric(float64(least[0].Nanoseconds())/1e3/float64(n), "wazero-µs/verdict")
		b.ReportMetric(float64(least[1].Nanoseconds())/1e3/float64(n), "base-wazero-µs/verdict")
		b.ReportMetric(float64(least[1])/float64(least[0]), "wazero-speedup")
	}
}
