package serve

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// testLimits are short limits for tests on loopback.
func testLimits() Limits {
	return Limits{ReadHeader: time.Second, Read: 2 * time.Second, Write: 2 * time.Second, Idle: 2 * time.Second,
		MaxHeaderBytes: 4 << 10, MaxConns: 64, Grace: 2 * time.Second}
}

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

func TestRunShutsDownGracefully(t *testing.T) {
	tests := []struct {
		name    string
		work    time.Duration // how long the request in flight takes after the stop
		grace   time.Duration
		wantErr string
		status  int
	}{
		{"in flight finishes", 300 * time.Millisecond, 3 * time.Second, "", 200},
		{"grace runs out", 3 * time.Second, 300 * time.Millisecond, "requests still running after 300ms were cut", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			started := make(chan struct{})
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				close(started)
				select {
				case <-time.After(tt.work):
				case <-r.Context().Done():
				}
				w.Write([]byte("done"))
			})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			var logs syncBuffer
			logger := slog.New(slog.NewTextHandler(&logs, nil))
			l := testLimits()
			l.Write = 10 * time.Second
			srv := NewServer(h, l, logger)
			ctx, cancel := context.WithCancel(context.Background())
			ran := make(chan error, 1)
			go func() { ran <- Run(ctx, srv, LimitListener(ln, 8), tt.grace, logger) }()
			type answer struct {
				status int
				body   string
				err    error
			}
			answered := make(chan answer, 1)
			go func() {
				resp, err := http.Get("http://" + ln.Addr().String() + "/")
				if err != nil {
					answered <- answer{err: err}
					return
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				answered <- answer{resp.StatusCode, string(b), err}
			}()
			<-started
			stopped := time.Now()
			cancel()
			var err2 error
			select {
			case err2 = <-ran:
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return")
			}
			took := time.Since(stopped)
			if tt.wantErr == "" && err2 != nil || tt.wantErr != "" && (err2 == nil || !strings.Contains(err2.Error(), tt.wantErr)) {
				t.Fatalf("Run: %v, want %q", err2, tt.wantErr)
			}
			if took > tt.grace+time.Second {
				t.Errorf("Run took %v after the stop, grace %v", took, tt.grace)
			}
			a := <-answered
			if tt.status == 200 && (a.err != nil || a.status != 200 || a.body != "done") {
				t.Errorf("the request in flight got %d %q %v, want 200 done", a.status, a.body, a.err)
			}
			if tt.status == 0 && a.err == nil && a.body == "done" {
				t.Errorf("the cut request still got its whole answer")
			}
			if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
				t.Errorf("the listener still accepts after Run returned")
			}
			if !strings.Contains(logs.String(), "shutting down") {
				t.Errorf("no shutdown line in the log: %s", logs.String())
			}
		})
	}
}

func TestRunReportsServeErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	err = Run(context.Background(), NewServer(http.NotFoundHandler(), testLimits(), logger), ln, time.Second, logger)
	if err == nil || !strings.Contains(err.Error(), "serving 127.0.0.1:") {
		t.Fatalf("Run on a closed listener: %v, want an error naming the address", err)
	}
}

func TestNewServerSetsEveryLimit(t *testing.T) {
	l := Defaults(100)
	srv := NewServer(http.NotFoundHandler(), l, slog.New(slog.NewTextHandler(io.Discard, nil)))
	tests := []struct {
		name string
		got  time.Duration
		want time.Duration
	}{
		{"ReadHeaderTimeout", srv.ReadHeaderTimeout, ReadHeaderTimeout},
		{"ReadTimeout", srv.ReadTimeout, ReadTimeout},
		{"WriteTimeout", srv.WriteTimeout, WriteTimeout},
		{"IdleTimeout", srv.IdleTimeout, IdleTimeout},
	}
	for _, tt := range tests {
		if tt.got != tt.want || tt.got <= 0 {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if srv.MaxHeaderBytes != MaxHeaderBytes || l.MaxConns != 100 || l.Grace != ShutdownGrace || srv.ErrorLog == nil {
		t.Errorf("MaxHeaderBytes %d, MaxConns %d, Grace %v, ErrorLog %v", srv.MaxHeaderBytes, l.MaxConns, l.Grace, srv.ErrorLog)
	}
}
