package host

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apibank-playground/apibank/testkit/oracle"
)

// BenchmarkScoreOracleWazero scores all oracle predictions (one engine op) under wazero: the same
// work as engine.BenchmarkScoreOracleNative, through the WebAssembly module.
func BenchmarkScoreOracleWazero(b *testing.B) {
	load, score, n, ok, err := oracle.Requests(filepath.Join("..", "..", "shared", "apibank"))
	if !ok {
		b.Skip("../shared/apibank not found: the oracle benchmark needs the reference data beside the repository")
	}
	if err != nil {
		b.Fatal(err)
	}
	rt := newRuntime(b)
	ctx := context.Background()
	s, err := rt.NewSession(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Handle(ctx, load); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Handle(ctx, score); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "verdicts/s")
}

// BenchmarkInstantiate measures a new session: instantiating the compiled module and initialising it.
func BenchmarkInstantiate(b *testing.B) {
	rt := newRuntime(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := rt.NewSession(ctx)
		if err != nil {
			b.Fatal(err)
		}
		s.Close(ctx)
	}
}

// BenchmarkCompile measures compiling the module (done once per process).
func BenchmarkCompile(b *testing.B) {
	wasm := loadWasm(b)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		rt, err := New(ctx, wasm, Config{})
		if err != nil {
			b.Fatal(err)
		}
		rt.Close(ctx)
	}
}

// BenchmarkRougeOracleWazero scores all 3,450 ROUGE-L pairs of the oracle in one rouge op under wazero.
func BenchmarkRougeOracleWazero(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "shared", "apibank", "oracle", "rouge-l.jsonl"))
	if err != nil {
		b.Skip("../shared/apibank not found: the oracle benchmark needs the reference data beside the repository")
	}
	var pairs []map[string]string
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var p struct{ Ref, Hyp string }
		if err := json.Unmarshal(line, &p); err != nil {
			b.Fatal(err)
		}
		pairs = append(pairs, map[string]string{"ref": p.Ref, "hyp": p.Hyp})
	}
	req, _ := json.Marshal(map[string]any{"v": 1, "op": "rouge", "pairs": pairs})
	rt := newRuntime(b)
	ctx := context.Background()
	s, err := rt.NewSession(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Handle(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(pairs))*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}
