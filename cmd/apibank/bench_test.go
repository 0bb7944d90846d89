package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a benchmark run the CLI in a child process of its own (APIBANK_CLI_CHILD set: the
// arguments follow "--"), so its peak memory is measured alone.
func TestMain(m *testing.M) {
	if os.Getenv("APIBANK_CLI_CHILD") != "" {
		for i, a := range os.Args {
			if a == "--" {
				code := 0
				if err := cli(os.Args[i+1:], io.Discard, io.Discard); err != nil {
					code = 1
				}
				os.Exit(code)
			}
		}
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// child runs the CLI in a child process and returns its wall time, CPU time and peak RSS.
func child(b *testing.B, args ...string) (wall, cpu time.Duration, rss int64) {
	b.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "APIBANK_CLI_CHILD=1")
	t0 := time.Now()
	err := cmd.Run()
	wall = time.Since(t0)
	if cmd.ProcessState == nil {
		b.Fatalf("apibank %v: %v", args, err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		b.Fatalf("apibank %v: exit %d", args, code)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return wall, cpu, ru.Maxrss * 1024
}

// repeated writes the lines of src k times into a file of dir and returns its path and line count.
func repeated(b *testing.B, src string, k int, dir string) (string, int) {
	b.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		b.Skip("../shared/apibank not found: the CLI benchmarks need the reference data beside the repository")
	}
	lines := 0
	for _, c := range data {
		if c == '\n' {
			lines++
		}
	}
	path := filepath.Join(dir, fmt.Sprintf("%dx-%s", k, filepath.Base(src)))
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for range k {
		w.Write(data)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return path, lines * k
}

// BenchmarkCLIOracle runs `apibank score` end to end on the oracle's predictions (--data the
// original's folder, --out a file), under wazero and natively, in one run: the time a prediction in
// the whole run (start-up included) and at the margin (the run on the predictions ten times over
// minus the run on them once, a prediction), and the two engines' ratio; and the start-up of a run
// on one prediction (CPU), with and without --data.
func BenchmarkCLIOracle(b *testing.B) {
	shared := filepath.Join("..", "..", "..", "shared", "apibank")
	wasm := filepath.Join("..", "..", "web", "engine.wasm")
	dir := b.TempDir()
	once, n := repeated(b, filepath.Join(shared, "oracle", "verdicts.jsonl"), 1, dir)
	ten, n10 := repeated(b, filepath.Join(shared, "oracle", "verdicts.jsonl"), 10, dir)
	one := filepath.Join(dir, "one.jsonl")
	os.WriteFile(one, []byte(`{"level":"level-1-given-desc","file":"x.jsonl","id":0,"pred":"[GetToday()]"}`+"\n"), 0o644)
	out := filepath.Join(dir, "out.jsonl")
	modes := map[string][]string{"wazero": {"--wasm", wasm}, "native": {"--native"}}
	child(b, append([]string{"score", "--preds", one}, modes["wazero"]...)...) // fill the compilation cache
	per := map[string]float64{}
	for range b.N {
		for _, mode := range []string{"wazero", "native"} {
			score := func(preds string) time.Duration {
				w, _, _ := child(b, append([]string{"score", "--data", shared, "--state", "fresh", "--preds", preds, "--out", out, "--json"}, modes[mode]...)...)
				return w
			}
			w1, w10 := score(once), score(ten)
			per[mode] = float64(w1.Microseconds()) / float64(n)
			b.ReportMetric(per[mode], mode+"-µs/pred")
			b.ReportMetric(float64((w10-w1).Microseconds())/float64(n10-n), mode+"-marginal-µs/pred")
			_, cpu, _ := child(b, append([]string{"score", "--preds", one, "--json"}, modes[mode]...)...)
			b.ReportMetric(cpu.Seconds(), mode+"-startup-cpu-s")
			_, cpu, _ = child(b, append([]string{"score", "--data", shared, "--preds", one, "--json"}, modes[mode]...)...)
			b.ReportMetric(cpu.Seconds(), mode+"-startup-data-cpu-s")
		}
	}
	b.ReportMetric(per["wazero"]/per["native"], "wazero/native")
}

// BenchmarkCLIMillion streams 1,000,000 predictions (the oracle's, over and over) through `apibank
// score` under wazero, and 1,000,000 ROUGE-L pairs through `apibank rouge`: wall time and the
// process's peak RSS, which must not grow with the input (the budget: 30 s and 300 MB).
func BenchmarkCLIMillion(b *testing.B) {
	shared := filepath.Join("..", "..", "..", "shared", "apibank")
	wasm := filepath.Join("..", "..", "web", "engine.wasm")
	dir := b.TempDir()
	_, per := repeated(b, filepath.Join(shared, "oracle", "verdicts.jsonl"), 1, dir)
	preds, n := repeated(b, filepath.Join(shared, "oracle", "verdicts.jsonl"), (1_000_000+per-1)/per, dir)
	_, perPair := repeated(b, filepath.Join(shared, "oracle", "rouge-l.jsonl"), 1, dir)
	pairs, np := repeated(b, filepath.Join(shared, "oracle", "rouge-l.jsonl"), (1_000_000+perPair-1)/perPair, dir)
	for range b.N {
		w, _, rss := child(b, "score", "--wasm", wasm, "--data", shared, "--state", "fresh", "--preds", preds, "--out", filepath.Join(dir, "out.jsonl"))
		b.ReportMetric(w.Seconds(), "score-s")
		b.ReportMetric(float64(rss)/1e6, "score-peak-MB")
		b.ReportMetric(float64(n), "preds")
		w, _, rss = child(b, "rouge", "--wasm", wasm, "--pairs", pairs)
		b.ReportMetric(w.Seconds(), "rouge-s")
		b.ReportMetric(float64(rss)/1e6, "rouge-peak-MB")
		b.ReportMetric(float64(np), "pairs")
	}
}
