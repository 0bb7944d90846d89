package host

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"
)

// BenchmarkLoadVariant loads a variant of the builtin data (the load op with a seed: variant.Make,
// its guard, the engine's load and index) under wazero, a new seed each time. "first" is the first
// variant of a fresh instance (what a tab or a CLI run pays: the data's discovery included; the
// instance is made outside the timer), "later" a variant of an instance that made one before. Besides
// the wall time, cpu-ms/op is the process's CPU time per load (the collector's threads included).
func BenchmarkLoadVariant(b *testing.B) {
	rt := newRuntime(b)
	ctx := context.Background()
	load := func(s *Session, seed int) {
		out, err := s.Handle(ctx, []byte(`{"v":1,"op":"load","builtin":true,"seed":`+strconv.Itoa(seed)+`}`))
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Contains(out, []byte(`"ok":true`)) {
			b.Fatalf("load of seed %d: %s", seed, out[:min(len(out), 300)])
		}
	}
	b.Run("first", func(b *testing.B) {
		var cpu time.Duration
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			s, err := rt.NewSession(ctx)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			t0 := cpuTime()
			load(s, 1000+i)
			cpu += cpuTime() - t0
			b.StopTimer()
			s.Close(ctx)
			b.StartTimer()
		}
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	})
	b.Run("later", func(b *testing.B) {
		s, err := rt.NewSession(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close(ctx)
		load(s, 999)
		var cpu time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			t0 := cpuTime()
			load(s, 2000+i)
			cpu += cpuTime() - t0
		}
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	})
}
