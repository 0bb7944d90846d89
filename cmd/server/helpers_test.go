package main

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/internal/serve"
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
