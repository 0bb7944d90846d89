package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// BenchmarkRunHostile runs `apibank run` on every level (text form, 8 requests at once, a 2 s
// request timeout) against a model that answers every kind of bad in turn (goldmodel.Hostile:
// garbage, answers of 5 MiB, answers cut half-way, dropped connections, JSON nested 5,000 deep,
// endless and trickling answers), served in this process: the CLI's peak RSS, which must stay
// under 300 MB and grow with the concurrency rather than with the samples (also measured: 30
// samples a level at 8 and at 32 requests at once), the predictions file's size and the wall time.
// With APIBANK_BENCH_BASELINE set, the baseline build's full run too (base-...).
func BenchmarkRunHostile(b *testing.B) {
	m, err := goldmodel.LoadWith("builtin", goldmodel.Hostile)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := fakemodel.Start(fakemodel.Script{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	srv.SetOracle(m)
	builds := []build{current(b)}
	if bl, ok := baseline(b); ok {
		builds = append(builds, bl)
	}
	dir := b.TempDir()
	for _, bl := range builds {
		// Fill the compilation cache: compiling is not a cost of the run.
		bl.run(b, "replay", "--wasm", bl.wasm)
	}
	run := func(bl build, concurrency, limit int) (runUsage, int64) {
		srv.Reset() // the fake records what it is sent: not a cost of the run
		out := filepath.Join(dir, bl.name+"preds.jsonl")
		u := bl.run(b, "run", "--wasm", bl.wasm, "--base-url", srv.URL(), "--model", "hostile", "--api-key-env", "NO_SUCH_KEY_VAR",
			"--concurrency", strconv.Itoa(concurrency), "--limit", strconv.Itoa(limit), "--timeout", "2s", "--out", out)
		st, err := os.Stat(out)
		if err != nil {
			b.Fatal(err)
		}
		return u, st.Size()
	}
	b.ResetTimer()
	for range b.N {
		for _, bl := range builds {
			u, size := run(bl, 8, 0)
			b.ReportMetric(float64(u.rss)/1e6, bl.name+"full-peak-MB")
			b.ReportMetric(float64(size)/1e6, bl.name+"full-preds-MB")
			b.ReportMetric(u.wall.Seconds(), bl.name+"full-s")
		}
		for _, c := range []int{8, 32} {
			u, _ := run(builds[0], c, 30)
			b.ReportMetric(float64(u.rss)/1e6, "limit30-c"+strconv.Itoa(c)+"-peak-MB")
		}
	}
}
