package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/app"
	"github.com/apibank-playground/apibank/serve"
)

// shortLimits are the server's limits scaled down so the timeout tests take seconds.
func shortLimits() serve.Limits {
	return serve.Limits{ReadHeader: time.Second, Read: 2 * time.Second, Write: 2 * time.Second, Idle: 2 * time.Second,
		MaxHeaderBytes: serve.MaxHeaderBytes, MaxConns: 4096, Grace: 2 * time.Second}
}

// syncBuffer is a log destination safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// liveServer is a test site served on 127.0.0.1 exactly as run serves it (NewServer, LimitListener,
// Run), with limits of the test's choosing and a JSON log.
type liveServer struct {
	addr  string
	logs  *syncBuffer
	srv   *http.Server
	conns *connCounter
}

// connCounter follows how many connections the server holds open, and the most it ever held.
type connCounter struct {
	mu        sync.Mutex
	open, max int
}

func (c *connCounter) track(_ net.Conn, s http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch s {
	case http.StateNew:
		c.open++
		c.max = max(c.max, c.open)
	case http.StateClosed, http.StateHijacked:
		c.open--
	}
}

func (c *connCounter) peak() int { c.mu.Lock(); defer c.mu.Unlock(); return c.max }

func startLive(t testing.TB, limits serve.Limits, routes ...Route) *liveServer {
	t.Helper()
	site := testSite(t)
	logs := &syncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.NewServer(site.Handler(logger, routes...), limits, logger)
	counter := &connCounter{}
	srv.ConnState = counter.track
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve.Run(ctx, srv, serve.LimitListener(ln, limits.MaxConns), limits.Grace, logger) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(limits.Grace + 5*time.Second):
			t.Errorf("the test server did not stop")
		}
	})
	return &liveServer{addr: ln.Addr().String(), logs: logs, srv: srv, conns: counter}
}

func (l *liveServer) url(p string) string { return "http://" + l.addr + p }

// testWeb makes a small web/ folder with every file the server needs.
func testWeb(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"app.wasm":         "\x00asm" + strings.Repeat("app", 400),
		"engine.wasm":      "\x00asm" + strings.Repeat("engine", 400),
		"bridge.js":        strings.Repeat("// bridge\n", 100),
		"bridge/engine.js": "// the engine's state machine",
		"bridge/files.js":  "// files",
		"engine-worker.js": "// worker",
		"wasi.js":          "// wasi",
		"style.css":        strings.Repeat("body{}\n", 100),
		// The icons the handler names (go-app precaches them: one missing fails the worker's install).
		"icon-192.png": "\x89PNG 192",
		"icon-512.png": "\x89PNG 512",
		"icon.svg":     "<svg/>",
	}
	if err := os.Mkdir(filepath.Join(dir, "bridge"), 0o755); err != nil {
		t.Fatal(err)
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(n)), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// testSite loads a web/ folder made by testWeb and renders the site.
func testSite(t testing.TB) *Site {
	t.Helper()
	assets, err := LoadAssets(testWeb(t))
	if err != nil {
		t.Fatal(err)
	}
	routesOnce.Do(app.Routes)
	site, err := NewSite(NewHandler(assets), assets)
	if err != nil {
		t.Fatal(err)
	}
	return site
}

// testServer serves a test site on 127.0.0.1 with the whole handler chain (its access log discarded).
func testServer(t *testing.T) (*httptest.Server, *Assets) {
	t.Helper()
	srv, site := testServerSite(t)
	return srv, site.assets
}

// testServerSite is testServer that also returns the site it serves.
func testServerSite(t *testing.T) (*httptest.Server, *Site) {
	t.Helper()
	site := testSite(t)
	srv := httptest.NewServer(site.Handler(slog.New(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(srv.Close)
	return srv, site
}

func get(t *testing.T, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	// A bare transport: no automatic gzip, so the test sees what the server sends.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}
