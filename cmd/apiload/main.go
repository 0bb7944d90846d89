// Command apiload is the scoring API's load test (make bench): it serves api with the
// server's wazero pool on 127.0.0.1 (loopback only), warms it up, then sends a fixed number of score
// requests of 10 predictions each from a few concurrent clients, and prints requests per second,
// the latency percentiles, errors, and the resident memory before and after. It exits 1 when a goal
// is missed (--min-rps, --max-p99, no errors, RSS growth within --max-rss-growth).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apibank-playground/apibank/api"
	"github.com/apibank-playground/apibank/host"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/serve"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "apiload:", err)
		os.Exit(1)
	}
}

func run() error {
	wasmPath := flag.String("wasm", "web/engine.wasm", "the engine module")
	requests := flag.Int("requests", 20_000, "score requests measured (after the warm-up)")
	warmup := flag.Int("warmup", 1_000, "requests sent before measuring")
	clients := flag.Int("clients", 8, "concurrent clients")
	instances := flag.Int("instances", runtime.GOMAXPROCS(0), "engine instances")
	minRPS := flag.Float64("min-rps", 500, "goal: requests a second at least")
	maxP99 := flag.Duration("max-p99", 100*time.Millisecond, "goal: 99th percentile latency at most")
	maxGrowth := flag.Float64("max-rss-growth", 0.10, "goal: resident memory growth over the measured requests at most (fraction)")
	interruptible := flag.Bool("interruptible", false, "let a deadline stop engine calls (the server does so only for ROUGE-L and data sent, not for these score requests)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the measured requests here")
	limit := flag.Duration("time-limit", 3*time.Minute, "stop the run after this long whatever remains")
	flag.Parse()

	ctx := context.Background()
	module, err := os.ReadFile(*wasmPath)
	if err != nil {
		return fmt.Errorf("%v (run make wasm)", err)
	}
	rt, err := host.New(ctx, module, host.Config{Interruptible: *interruptible})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	pool, err := host.NewPool(ctx, rt, host.PoolConfig{Size: *instances})
	if err != nil {
		return err
	}
	defer pool.Close(ctx)
	bodies, err := scoreBodies(ctx, pool)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := serve.NewServer(api.New(pool, api.Limits{}), serve.Defaults(4096), logger)
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/api/v1/score"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *clients, MaxConnsPerHost: *clients}, Timeout: 30 * time.Second}

	deadline := time.Now().Add(*limit)
	if _, errs, _ := load(client, url, bodies, *warmup, *clients, deadline); errs > 0 {
		return fmt.Errorf("%d errors during the warm-up", errs)
	}
	runtime.GC()
	before := rss()
	cpuBefore := cpuTime()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	lat, errs, firstErr := load(client, url, bodies, *requests, *clients, deadline)
	took := time.Since(start)
	cpu := cpuTime() - cpuBefore
	runtime.GC()
	after := rss()

	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	rps := float64(len(lat)) / took.Seconds()
	growth := float64(after-before) / float64(before)
	load1, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("score API load: %d requests (10 predictions each) in %.2f s from %d clients, %d engine instances\n", len(lat), took.Seconds(), *clients, *instances)
	fmt.Printf("  %.0f requests/s, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms, errors %d\n", rps,
		ms(pct(0.50)), ms(pct(0.90)), ms(pct(0.99)), ms(pct(1)), errs)
	fmt.Printf("  CPU %.2f ms a request (server, engine and client together): %.0f requests per CPU-second\n", ms(cpu)/float64(max(len(lat), 1)), float64(len(lat))/cpu.Seconds())
	fmt.Printf("  RSS %.1f MiB before, %.1f MiB after (%+.1f%%); instances replaced %d; load average %s", float64(before)/(1<<20), float64(after)/(1<<20), 100*growth, pool.Replaced(), load1)
	var failed []string
	if len(lat) < *requests {
		failed = append(failed, fmt.Sprintf("only %d of %d requests within the time limit", len(lat), *requests))
	}
	if errs > 0 {
		failed = append(failed, fmt.Sprintf("%d errors (first: %v)", errs, firstErr))
	}
	if rps < *minRPS {
		failed = append(failed, fmt.Sprintf("%.0f requests/s is under %.0f", rps, *minRPS))
	}
	if pct(0.99) > *maxP99 {
		failed = append(failed, fmt.Sprintf("p99 %s is over %s", pct(0.99), *maxP99))
	}
	if growth > *maxGrowth {
		failed = append(failed, fmt.Sprintf("RSS grew %.1f%%, over %.0f%%", 100*growth, 100**maxGrowth))
	}
	if failed != nil {
		return errors.New(strings.Join(failed, "; "))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// scoreBodies makes request bodies of 10 prediction lines each over the builtin data's call and
// reply samples (answers of several kinds: right, wrong, replies), so requests differ.
func scoreBodies(ctx context.Context, pool *host.Pool) ([][]byte, error) {
	do, release, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release(false)
	ss, err := protocol.Call[[]protocol.SampleView](ctx, do, protocol.Request{Op: protocol.OpSamples})
	if err != nil {
		return nil, err
	}
	var lines [][]byte
	for i, s := range ss {
		if s.Kind == protocol.KindSkip {
			continue
		}
		pred := "[Calculator(formula='(1+2)*3')]"
		switch {
		case s.Kind == protocol.KindReply:
			pred = "I have done that for you."
		case i%3 == 0:
			id := s.ID
			p, err := protocol.Call[protocol.Prompt](ctx, do, protocol.Request{Op: protocol.OpPrompt, Level: s.Level, File: s.File, Sample: &id})
			if err != nil {
				return nil, err
			}
			pred = p.Gold
		}
		b, _ := json.Marshal(map[string]any{"level": s.Level, "file": s.File, "id": s.ID, "pred": pred})
		lines = append(lines, b)
	}
	var bodies [][]byte
	for i := 0; i+10 <= len(lines) && len(bodies) < 200; i += 10 {
		bodies = append(bodies, append(bytes.Join(lines[i:i+10], []byte("\n")), '\n'))
	}
	if len(bodies) == 0 {
		return nil, errors.New("the builtin data has too few samples")
	}
	return bodies, nil
}

// load sends n requests from c clients (stopping at deadline) and returns each one's latency.
func load(client *http.Client, url string, bodies [][]byte, n, c int, deadline time.Time) ([]time.Duration, int, error) {
	var next, errs atomic.Int64
	var mu sync.Mutex
	var first error
	lat := make([]time.Duration, 0, n)
	var wg sync.WaitGroup
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, n/c+1)
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || time.Now().After(deadline) {
					break
				}
				start := time.Now()
				err := post(client, url, bodies[i%int64(len(bodies))])
				mine = append(mine, time.Since(start))
				if err != nil {
					errs.Add(1)
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return lat, int(errs.Load()), first
}

// post sends one score request and checks that the answer is a 200 with ten lines and the report.
func post(client *http.Client, url string, body []byte) error {
	resp, err := client.Post(url, "application/x-ndjson", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("status %d: %.200s", resp.StatusCode, b)
	}
	if !bytes.Contains(b, []byte(`"report":{`)) || bytes.Count(b, []byte(`"line":`)) < 10 {
		return fmt.Errorf("an answer without ten lines and a report: %.200s", b)
	}
	return nil
}

// cpuTime is the CPU time the process has used (Linux; 0 elsewhere).
func cpuTime() time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	// The fields after the command name (which is in parentheses): utime is the 12th, stime the 13th.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * time.Second / 100 // clock ticks of 1/100 s
}

// rss is the process's resident set size in bytes (Linux; 0 elsewhere).
func rss() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
