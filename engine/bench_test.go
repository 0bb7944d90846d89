package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"apibank/dataset"
)

// oracleRequests returns a load request for ../shared/apibank and a score request holding every
// prediction of its oracle, or skips.
func oracleRequests(b *testing.B) (load, score []byte, n int) {
	dir := filepath.Join("..", "..", "shared", "apibank")
	preds, err := os.ReadFile(filepath.Join(dir, "oracle", "verdicts.jsonl"))
	if err != nil {
		b.Skip("../shared/apibank not found: the oracle benchmark needs the reference data beside the repository")
	}
	files, err := dataset.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	m := map[string]string{}
	for p, c := range files {
		m[p] = string(c)
	}
	load, _ = json.Marshal(map[string]any{"v": 1, "op": "load", "files": m})
	score, _ = json.Marshal(map[string]any{"v": 1, "op": "score", "preds": string(preds), "state": "fresh"})
	for _, c := range preds {
		if c == '\n' {
			n++
		}
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
