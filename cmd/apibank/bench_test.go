package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// build is a CLI to measure: this checkout's (built, with web/engine.wasm) or another build's
// binary and module (APIBANK_BENCH_BASELINE, see baseline).
type build struct {
	name  string
	exe   string
	wasm  string
	cache string // its own compilation cache and memos: the cache keeps one build only
}

// current is this checkout's CLI, built as a user builds it: run as this test binary in its child
// mode, it started 10-30 ms slower than the baseline's real binary (a larger executable, the tests'
// packages to initialise), which the start-up figures counted against this build.
func current(b *testing.B) build {
	exe := filepath.Join(b.TempDir(), "apibank")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build ./cmd/apibank: %v\n%s", err, out)
	}
	return build{name: "", exe: exe, wasm: filepath.Join("..", "..", "web", "engine.wasm"), cache: b.TempDir()}
}

// baseline is the build in $APIBANK_BENCH_BASELINE (a folder with bin/apibank and web/engine.wasm,
// as `make bench BASELINE=rev` makes it), measured beside this one so that before and after are
// figures of one run on one machine; ok is false when it is not set.
func baseline(b *testing.B) (build, bool) {
	dir := os.Getenv("APIBANK_BENCH_BASELINE")
	if dir == "" {
		return build{}, false
	}
	bl := build{name: "base-", exe: filepath.Join(dir, "bin", "apibank"), wasm: filepath.Join(dir, "web", "engine.wasm"), cache: b.TempDir()}
	for _, p := range []string{bl.exe, bl.wasm} {
		if _, err := os.Stat(p); err != nil {
			b.Fatalf("APIBANK_BENCH_BASELINE: %v", err)
		}
	}
	return bl, true
}

// runUsage is what one CLI run took.
type runUsage struct {
	wall, cpu time.Duration
	rss       int64
}

// run runs the CLI of bl in a child process and returns its wall time, CPU time (user and system)
// and peak RSS.
func (bl build) run(b *testing.B, args ...string) runUsage {
	b.Helper()
	cmd := exec.Command(bl.exe, args...)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+bl.cache)
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if cmd.ProcessState == nil {
		b.Fatalf("apibank %v: %v", args, err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		b.Fatalf("%s apibank %v: exit %d", bl.exe, args, code)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return runUsage{wall: wall, cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), rss: ru.Maxrss * 1024}
}

// startupRuns is how many runs a start-up figure is the median of: one run moved by a third from
// one to the next on this shared machine.
const startupRuns = 5

// startup runs the CLI of each build startupRuns times, the builds in turn (so that a slow spell of
// the machine falls on all of them), with the arguments args gives it, and returns each one's median
// CPU time of a run, in seconds. With noMemo set, each run finds no folder memo (see dataset/memo):
// a first run on a folder.
func startup(b *testing.B, builds []build, noMemo bool, args func(bl build) []string) []float64 {
	b.Helper()
	cpu := make([][]float64, len(builds))
	for range startupRuns {
		for i, bl := range builds {
			if noMemo {
				os.RemoveAll(filepath.Join(bl.cache, "apibank-memo"))
			}
			cpu[i] = append(cpu[i], bl.run(b, args(bl)...).cpu.Seconds())
		}
	}
	med := make([]float64, len(builds))
	for i := range cpu {
		slices.Sort(cpu[i])
		med[i] = cpu[i][len(cpu[i])/2]
	}
	return med
}

// engine returns the flags that choose mode's engine in bl: "wazero" or "native".
func (bl build) engine(mode string) []string {
	if mode == "native" {
		return []string{"--native"}
	}
	return []string{"--wasm", bl.wasm}
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

// onePrediction writes the files of a start-up run into dir: one prediction of a sample of the
// builtin data, and one of the original's (for --data), each a sample that exists, so that the run
// judges it and its report computes the level's gold ceiling as any real run does.
func onePrediction(b *testing.B, dir string) (builtin, shared string) {
	b.Helper()
	builtin, shared = filepath.Join(dir, "one-builtin.jsonl"), filepath.Join(dir, "one-shared.jsonl")
	for path, line := range map[string]string{
		builtin: `{"level":"level-1-given-desc","file":"acct-agenda-add-28.jsonl","id":0,"pred":"[GetUserToken(username='PriyaSharma', password='Monsoon@19')]"}`,
		shared:  `{"level":"level-1-given-desc","file":"AddAgenda-AddAlarm-GetUserToken-level-2-1.jsonl","id":0,"pred":"[GetUserToken(username='JaneSmith', password='password')]"}`,
	} {
		if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return builtin, shared
}

func perPred(d time.Duration, n int) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(n) }

// BenchmarkCLIOracle runs `apibank score` end to end on the oracle's predictions (--data the
// original's folder, --out a file), under wazero and natively, in one run: the time a prediction in
// the whole run (start-up included) and at the margin (the run on the predictions ten times over
// minus the run on them once, a prediction), each as wall time and as CPU time (the machine is
// shared: CPU time is the steadier figure); the two engines' ratio; and the start-up of a run on one
// prediction (the median CPU time of startupRuns runs), with and without --data (under wazero with
// --data both on a later run, which finds the folder's memo, and on a first one, which does not). With
// APIBANK_BENCH_BASELINE set, the baseline build's figures (base-...) and this build's speed-up over
// it (...-speedup, base time / this time) too.
func BenchmarkCLIOracle(b *testing.B) {
	shared := filepath.Join("..", "..", "..", "shared", "apibank")
	dir := b.TempDir()
	once, n := repeated(b, filepath.Join(shared, "oracle", "verdicts.jsonl"), 1, dir)
	ten, n10 := repeated(b, filepath.Join(shared, "oracle", "verdicts.jsonl"), 10, dir)
	one, oneShared := onePrediction(b, dir)
	out := filepath.Join(dir, "out.jsonl")
	builds := []build{current(b)}
	if bl, ok := baseline(b); ok {
		builds = append(builds, bl)
	}
	for _, bl := range builds {
		bl.run(b, append([]string{"score", "--preds", one}, bl.engine("wazero")...)...) // fill the compilation cache
		// and the folder's memo, as any run on the folder after the first finds it (with its fresh
		// ceilings): else the run on the predictions once would pay what the run on them ten times
		// over does not, and the margin would come out too small.
		bl.run(b, append([]string{"score", "--data", shared, "--state", "fresh", "--preds", once, "--out", out}, bl.engine("wazero")...)...)
	}
	b.ResetTimer()
	for range b.N {
		figures := map[string]float64{}
		report := func(name string, v float64, unit string) {
			figures[name] = v
			b.ReportMetric(v, name+unit)
		}
		// Each figure of every build is measured before the next figure, the builds side by side:
		// measured one build after the other, the second one's margin came out 1.35x off in two runs
		// where interleaved runs of the same binaries differed by nothing.
		for _, mode := range []string{"wazero", "native"} {
			score := func(bl build, preds string) runUsage {
				return bl.run(b, append([]string{"score", "--data", shared, "--state", "fresh", "--preds", preds, "--out", out, "--json"}, bl.engine(mode)...)...)
			}
			for _, bl := range builds {
				u1, u10 := score(bl, once), score(bl, ten)
				p := bl.name + mode
				report(p, perPred(u1.wall, n), "-µs/pred")
				report(p+"-cpu", perPred(u1.cpu, n), "-µs/pred")
				report(p+"-marginal", perPred(u10.wall-u1.wall, n10-n), "-µs/pred")
				report(p+"-marginal-cpu", perPred(u10.cpu-u1.cpu, n10-n), "-µs/pred")
			}
			plain := startup(b, builds, false, func(bl build) []string {
				return append([]string{"score", "--preds", one, "--json"}, bl.engine(mode)...)
			})
			dataArgs := func(bl build) []string {
				return append([]string{"score", "--data", shared, "--preds", oneShared, "--json"}, bl.engine(mode)...)
			}
			withData := startup(b, builds, false, dataArgs)
			for i, bl := range builds {
				report(bl.name+mode+"-startup-cpu", plain[i], "-s")
				report(bl.name+mode+"-startup-data-cpu", withData[i], "-s")
			}
			if mode == "wazero" { // natively there is no memo
				first := startup(b, builds, true, dataArgs)
				for i, bl := range builds {
					report(bl.name+mode+"-startup-data-first-cpu", first[i], "-s")
				}
			}
		}
		for _, bl := range builds {
			b.ReportMetric(figures[bl.name+"wazero-cpu"]/figures[bl.name+"native-cpu"], bl.name+"wazero/native")
			b.ReportMetric(figures[bl.name+"wazero-marginal-cpu"]/figures[bl.name+"native-marginal-cpu"], bl.name+"marginal-wazero/native")
		}
		if len(builds) > 1 {
			for _, f := range []string{"wazero-cpu", "native-cpu", "wazero-marginal-cpu", "native-marginal-cpu", "wazero-startup-cpu", "wazero-startup-data-cpu", "wazero-startup-data-first-cpu", "native-startup-cpu", "native-startup-data-cpu"} {
				b.ReportMetric(figures["base-"+f]/figures[f], f+"-speedup")
			}
		}
	}
}

// BenchmarkCLIMillion streams 1,000,000 predictions (the oracle's, over and over) through `apibank
// score` under wazero, and 1,000,000 ROUGE-L pairs through `apibank rouge`: wall and CPU time and
// the process's peak RSS, which must not grow with the input (the budget: 30 s and 300 MB), each
// with the compilation cache filled first. With APIBANK_BENCH_BASELINE set, the baseline build's
// figures too (base-...).
func BenchmarkCLIMillion(b *testing.B) {
	shared := filepath.Join("..", "..", "..", "shared", "apibank")
	dir := b.TempDir()
	_, per := repeated(b, filepath.Join(shared, "oracle", "verdicts.jsonl"), 1, dir)
	preds, n := repeated(b, filepath.Join(shared, "oracle", "verdicts.jsonl"), (1_000_000+per-1)/per, dir)
	_, perPair := repeated(b, filepath.Join(shared, "oracle", "rouge-l.jsonl"), 1, dir)
	pairs, np := repeated(b, filepath.Join(shared, "oracle", "rouge-l.jsonl"), (1_000_000+perPair-1)/perPair, dir)
	builds := []build{current(b)}
	if bl, ok := baseline(b); ok {
		builds = append(builds, bl)
	}
	one, _ := onePrediction(b, dir)
	for _, bl := range builds {
		// Fill the compilation cache, as any run after the first finds it: compiling (3 s, and the
		// compiler's memory in the peak RSS) is not a cost of the stream.
		bl.run(b, "score", "--preds", one, "--wasm", bl.wasm)
	}
	b.ResetTimer()
	for range b.N {
		b.ReportMetric(float64(n), "preds")
		b.ReportMetric(float64(np), "pairs")
		for _, bl := range builds {
			u := bl.run(b, "score", "--wasm", bl.wasm, "--data", shared, "--state", "fresh", "--preds", preds, "--out", filepath.Join(dir, "out.jsonl"))
			b.ReportMetric(u.wall.Seconds(), bl.name+"score-s")
			b.ReportMetric(u.cpu.Seconds(), bl.name+"score-cpu-s")
			b.ReportMetric(float64(u.rss)/1e6, bl.name+"score-peak-MB")
			u = bl.run(b, "rouge", "--wasm", bl.wasm, "--pairs", pairs)
			b.ReportMetric(u.wall.Seconds(), bl.name+"rouge-s")
			b.ReportMetric(u.cpu.Seconds(), bl.name+"rouge-cpu-s")
			b.ReportMetric(float64(u.rss)/1e6, bl.name+"rouge-peak-MB")
		}
	}
}
