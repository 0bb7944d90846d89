package score

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

// oracleLines returns the oracle's prediction lines (../shared), or skips the benchmark.
func oracleLines(b *testing.B) []byte {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "shared", "apibank", "oracle", "verdicts.jsonl"))
	if err != nil {
		b.Skip("../shared/apibank/oracle/verdicts.jsonl not found: the oracle's predictions are reference data beside the repository")
	}
	return data
}

// BenchmarkParseOracleLines reads every oracle prediction line, as a stream does, without judging
// them: the cost of a line's parse alone.
func BenchmarkParseOracleLines(b *testing.B) {
	lines := oracleLines(b)
	fr := newPredictionReader()
	n := 0
	for b.Loop() {
		n = 0
		eachPrediction(fr, "oracle", lines, "", 1, nil, func(p Prediction, e *dataset.LineError) { n++ })
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/line")
}

// BenchmarkStreamOracleLines judges every oracle prediction line as a stream does, verdict lines
// written out included.
func BenchmarkStreamOracleLines(b *testing.B) {
	lines := oracleLines(b)
	files, err := dataset.ReadDir(filepath.Join("..", "..", "shared", "apibank"))
	if err != nil {
		b.Fatal(err)
	}
	data, _, err := dataset.Load("apibank", files)
	if err != nil {
		b.Fatal(err)
	}
	ix := NewIndex(data)
	var out bytes.Buffer
	n := 0
	for b.Loop() {
		st := NewStream(data, ix, Fresh, "oracle", "", false)
		out.Reset()
		_, v, _ := st.Lines(lines, 1, &out)
		n = v
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/verdict")
}
