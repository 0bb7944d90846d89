package host

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/testkit/oracle"
)

// best runs f once to warm up, then three times, and returns the least CPU time (user and system, of
// the whole process: the collector's threads count) a run took. CPU time, not wall time: the
// machine is shared, and a busy neighbour stretches the wall clock far more than the CPU time.
func best(f func()) time.Duration {
	f()
	var min time.Duration
	for range 3 {
		t0 := cpuTime()
		f()
		if d := cpuTime() - t0; min == 0 || d < min {
			min = d
		}
	}
	return min
}

// cpuTime is the process's CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ratioSessions returns a native engine session and a wazero one, both with the original's data
// loaded (the oracle's load request).
func ratioSessions(b *testing.B, load []byte) (*engine.Session, *Session) {
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
	return native, s
}

// reportRatio reports each engine's CPU time a verdict and their ratio (the budget: wazero at most 3x
// native).
func reportRatio(b *testing.B, nat, wz time.Duration, n int) {
	b.ReportMetric(float64(nat.Microseconds())/float64(n), "native-µs/verdict")
	b.ReportMetric(float64(wz.Microseconds())/float64(n), "wazero-µs/verdict")
	b.ReportMetric(float64(wz)/float64(nat), "wazero/native")
}

// BenchmarkScoreRatio scores all oracle predictions in the engine with one score op, natively and
// under wazero, in one run. Only the score op is timed: the load is done before.
func BenchmarkScoreRatio(b *testing.B) {
	load, score, n, ok, err := oracle.Requests(filepath.Join("..", "..", "shared", "apibank"))
	if !ok {
		b.Skip("../shared/apibank not found: the oracle benchmark needs the reference data beside the repository")
	}
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	native, s := ratioSessions(b, load)
	b.ResetTimer()
	for range b.N {
		nat := best(func() { native.Handle(score) })
		wz := best(func() {
			if _, err := s.Handle(ctx, score); err != nil {
				b.Fatal(err)
			}
		})
		reportRatio(b, nat, wz, n)
	}
}

// BenchmarkStreamRatio scores all oracle predictions the way the CLI streams a file (score_lines
// chunks of 1,024 lines sent as raw bodies), natively and under wazero, in one run: the in-engine
// cost of a streamed verdict, transport into and out of the module included.
func BenchmarkStreamRatio(b *testing.B) {
	load, start, chunks, n := oracleStream(b)
	ctx := context.Background()
	native, s := ratioSessions(b, load)
	native.Handle(start)
	if _, err := s.Handle(ctx, start); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		nat := best(func() {
			for _, c := range chunks {
				native.Handle(c)
			}
		})
		wz := best(func() {
			for _, c := range chunks {
				if _, err := s.Handle(ctx, c); err != nil {
					b.Fatal(err)
				}
			}
		})
		reportRatio(b, nat, wz, n)
	}
}

// oracleStream returns the oracle's load request and its predictions as a stream's start request
// and score_lines chunks (n predictions), as the CLI would send them; it skips the benchmark when
// ../shared/apibank is absent.
func oracleStream(b *testing.B) (load, start []byte, chunks [][]byte, n int) {
	dir := filepath.Join("..", "..", "shared", "apibank")
	load, _, _, ok, err := oracle.Requests(dir)
	if !ok {
		b.Skip("../shared/apibank not found: the oracle benchmark needs the reference data beside the repository")
	}
	if err != nil {
		b.Fatal(err)
	}
	start, chunks, n, _, err = oracle.Stream(dir)
	if err != nil {
		b.Fatal(err)
	}
	return load, start, chunks, n
}
