package engine

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apibank-playground/apibank/testkit/oracle"
)

// oracleRequests returns the oracle's load and score requests (see package oracle), or skips.
func oracleRequests(b testing.TB) (load, score []byte, n int) {
	load, score, n, ok, err := oracle.Requests(filepath.Join("..", "..", "shared", "apibank"))
	if !ok {
		b.Skip("../shared/apibank not found: the oracle suites need the reference data beside the repository")
	}
	if err != nil {
		b.Fatal(err)
	}
	return load, score, n
}

// BenchmarkScoreOracleNative scores all oracle predictions (one op) with the engine in-process.
func BenchmarkScoreOracleNative(b *testing.B) {
	load, score, n := oracleRequests(b)
	s := New()
	if out := s.Handle(load); !json.Valid(out) {
		b.Fatal("load failed")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Handle(score)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "verdicts/s")
}

// BenchmarkSandboxCall measures one sandbox call through the protocol (parse, run, encode).
func BenchmarkSandboxCall(b *testing.B) {
	s := New()
	req := []byte(`{"v":1,"op":"call","call":"[Calculator(formula='(12+30)*4/7')]"}`)
	for i := 0; i < b.N; i++ {
		s.Handle(req)
	}
}

// BenchmarkStreamOracleNative scores all oracle predictions as the CLI streams them (score_lines
// chunks sent as raw bodies) with the engine in-process.
func BenchmarkStreamOracleNative(b *testing.B) {
	load, _, _ := oracleRequests(b)
	start, chunks, n, _, err := oracle.Stream(filepath.Join("..", "..", "shared", "apibank"))
	if err != nil {
		b.Fatal(err)
	}
	s := New()
	s.Handle(load)
	s.Handle(start)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range chunks {
			s.Handle(c)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "verdicts/s")
}

// BenchmarkLoadVariantNative loads a new variant of the builtin data with the engine in-process (the
// load op with a seed: variant.Make and its guard, the load and the index); host's
// BenchmarkLoadVariant measures the same under wazero.
func BenchmarkLoadVariantNative(b *testing.B) {
	s := New()
	s.Handle([]byte(`{"v":1,"op":"load","builtin":true,"seed":1}`))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := s.Handle([]byte(`{"v":1,"op":"load","builtin":true,"seed":` + strconv.Itoa(2000+i) + `}`))
		if !bytes.Contains(out, []byte(`"ok":true`)) {
			b.Fatalf("load: %.300s", out)
		}
	}
}
