package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/serve"
)

var slowConns = flag.Int("slow.conns", 200, "half-open connections TestSlowConnections opens (BenchmarkSlowConnections: 1000)")

// slowResult is what a flood of half-open connections did to the server.
type slowResult struct {
	conns      int
	lastClosed time.Duration // the slowest close, from the connection's partial header
	served     int           // normal requests answered 200 meanwhile
	failed     int           // normal requests that failed
	p50, p99   time.Duration // their latencies
	peak       int           // most connections the server held at once
}

func (r slowResult) String() string {
	return fmt.Sprintf("%d half-open connections all closed by %v; meanwhile %d requests served (%d failed), p50 %v, p99 %v; peak %d open",
		r.conns, r.lastClosed.Round(time.Millisecond), r.served, r.failed, r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), r.peak)
}

// flood opens n connections to live that each send half a request header and stall, and while they
// stall, sends normal requests (one at a time, for during) on a connection of their own. It returns
// when every stalled connection has been closed by the server, or after limit.
func flood(t testing.TB, live *liveServer, n int, during, limit time.Duration) slowResult {
	t.Helper()
	conns := make([]net.Conn, 0, n)
	sent := make([]time.Time, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		c, err := net.DialTimeout("tcp", live.addr, 5*time.Second)
		if err != nil {
			t.Fatalf("dialling connection %d: %v", len(conns)+1, err)
		}
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: test\r\nUser-Agent: slow\r\nX-Stall: "); err != nil {
			t.Fatalf("writing to connection %d: %v", len(conns)+1, err)
		}
		conns = append(conns, c)
		sent = append(sent, time.Now())
	}
	res := slowResult{conns: n}
	// The normal client, meanwhile.
	var lat []time.Duration
	normal := make(chan struct{})
	go func() {
		defer close(normal)
		client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{}}
		defer client.CloseIdleConnections()
		for end := time.Now().Add(during); time.Now().Before(end); {
			start := time.Now()
			resp, err := client.Get(live.url("/"))
			if err != nil {
				res.failed++
				continue
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				res.failed++
				continue
			}
			res.served++
			lat = append(lat, time.Since(start))
		}
	}()
	// Every stalled connection must be closed by the server (EOF), not by us.
	var mu sync.Mutex
	var wg sync.WaitGroup
	var open int
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(sent[i].Add(limit))
			_, err := io.Copy(io.Discard, c)
			took := time.Since(sent[i])
			mu.Lock()
			defer mu.Unlock()
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				open++
				return
			}
			res.lastClosed = max(res.lastClosed, took)
		}()
	}
	wg.Wait()
	<-normal
	if open > 0 {
		t.Errorf("%d of %d half-open connections were still open after %v", open, n, limit)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		res.p50, res.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	}
	res.peak = live.conns.peak()
	return res
}

// TestSlowConnections: half-open connections are closed within the header timeout while normal
// requests keep being served, quickly.
func TestSlowConnections(t *testing.T) {
	limits := shortLimits()
	live := startLive(t, limits)
	res := flood(t, live, *slowConns, limits.ReadHeader, limits.ReadHeader+2*time.Second)
	t.Log(res)
	if res.lastClosed > limits.ReadHeader+time.Second {
		t.Errorf("the last half-open connection was closed after %v, header timeout %v", res.lastClosed, limits.ReadHeader)
	}
	if res.failed > 0 || res.served < 10 {
		t.Errorf("%d normal requests failed and %d were served during the flood", res.failed, res.served)
	}
	if res.p99 > 250*time.Millisecond {
		t.Errorf("normal requests slowed to p99 %v during the flood", res.p99)
	}
}

// TestConnectionCap: with more stalled connections than the cap, the server never holds more than
// the cap open, and a normal client is still served once the header timeout frees the slots.
func TestConnectionCap(t *testing.T) {
	limits := shortLimits()
	limits.MaxConns = 40
	limits.ReadHeader = 500 * time.Millisecond
	live := startLive(t, limits)
	n := 100 // two and a half caps: the last ones wait in the kernel's queue for two header timeouts
	res := flood(t, live, n, 4*limits.ReadHeader, 4*limits.ReadHeader+2*time.Second)
	t.Log(res)
	if res.peak > limits.MaxConns+1 { // +1: the normal client's own connection may hold a slot
		t.Errorf("the server held %d connections open, cap %d", res.peak, limits.MaxConns)
	}
	if res.served == 0 || res.failed > 0 {
		t.Errorf("%d normal requests served, %d failed, while %d connections stalled against a cap of %d", res.served, res.failed, n, limits.MaxConns)
	}
}

// BenchmarkSlowConnections floods the server with 1,000 half-open connections (or -slow.conns) under
// the production header timeout, and reports how long the last took to be closed and how normal
// requests fared meanwhile. One run takes about ReadHeaderTimeout.
func BenchmarkSlowConnections(b *testing.B) {
	n := max(*slowConns, 1000)
	limits := serve.Defaults(4096)
	for range b.N {
		live := startLive(b, limits)
		res := flood(b, live, n, limits.ReadHeader, limits.ReadHeader+5*time.Second)
		b.ReportMetric(res.lastClosed.Seconds(), "s-last-closed")
		b.ReportMetric(float64(res.served), "served")
		b.ReportMetric(float64(res.failed), "failed")
		b.ReportMetric(float64(res.p99.Microseconds())/1000, "ms-p99")
		b.Log(res)
	}
}
