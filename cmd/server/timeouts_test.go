package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/serve"
)

// closedWithin reads c until the server closes it and returns how long that took from start, or
// fails when it is still open after limit.
func closedWithin(t *testing.T, c net.Conn, start time.Time, limit time.Duration) (time.Duration, []byte) {
	t.Helper()
	c.SetReadDeadline(start.Add(limit))
	b, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the connection is still open after %v", limit)
	}
	return time.Since(start), b
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestTimeouts: each way of holding a connection without finishing a request is cut by its limit.
func TestTimeouts(t *testing.T) {
	limits := shortLimits()
	big := strings.Repeat("x", 32<<20) // far more than loopback's socket buffers hold
	live := startLive(t, limits,
		Route{"POST /test/upload", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, err := io.Copy(io.Discard, r.Body); err != nil {
				// The write deadline runs from the end of the headers, as the read deadline does
				// here: a handler that answers after a slow body gives itself time to (through the
				// access log's writer, which must let ResponseController reach the connection).
				serve.ExtendWrite(w, time.Second)
				http.Error(w, "408 the body came too slowly", http.StatusRequestTimeout)
				return
			}
			w.Write([]byte("whole body read"))
		})},
		Route{"GET /test/big", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, big)
		})},
	)
	slack := 1500 * time.Millisecond
	tests := []struct {
		name  string
		limit time.Duration
		run   func(c net.Conn) (start time.Time)
		check func(t *testing.T, took time.Duration, got []byte)
	}{
		{"half a header, then nothing", limits.ReadHeader, func(c net.Conn) time.Time {
			start := time.Now()
			io.WriteString(c, "GET / HTTP/1.1\r\nHost: test\r\nX-Slow: ")
			return start
		}, nil},
		{"a header trickled a byte at a time", limits.ReadHeader, func(c net.Conn) time.Time {
			start := time.Now()
			go func() {
				for _, b := range []byte("GET / HTTP/1.1\r\nHost: test\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaa") {
					if _, err := c.Write([]byte{b}); err != nil {
						return
					}
					time.Sleep(100 * time.Millisecond)
				}
			}()
			return start
		}, nil},
		{"nothing at all", limits.ReadHeader, func(c net.Conn) time.Time { return time.Now() }, nil},
		{"a body sent too slowly", limits.Read, func(c net.Conn) time.Time {
			start := time.Now()
			io.WriteString(c, "POST /test/upload HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\nonly a little")
			return start
		}, func(t *testing.T, took time.Duration, got []byte) {
			if !strings.Contains(string(got), "408") || strings.Contains(string(got), "whole body read") {
				t.Errorf("the answer %q is not the handler's 408", got)
			}
		}},
		{"idle after one request", limits.Idle, func(c net.Conn) time.Time {
			io.WriteString(c, "GET / HTTP/1.1\r\nHost: test\r\n\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			return time.Now()
		}, nil},
		{"a response never read", limits.Write, func(c net.Conn) time.Time {
			io.WriteString(c, "GET /test/big HTTP/1.1\r\nHost: test\r\n\r\n")
			start := time.Now()
			time.Sleep(limits.Write + slack/2) // read nothing until the server has given up
			return start
		}, func(t *testing.T, took time.Duration, got []byte) {
			if len(got) >= len(big) {
				t.Errorf("the whole %d bytes arrived though the client read nothing for %v", len(big), limits.Write)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := dial(t, live.addr)
			start := tt.run(c)
			took, got := closedWithin(t, c, start, tt.limit+slack+time.Second)
			if took > tt.limit+slack {
				t.Errorf("closed after %v, limit %v", took, tt.limit)
			}
			if tt.check != nil {
				tt.check(t, took, got)
			}
			t.Logf("closed after %v (limit %v)", took.Round(time.Millisecond), tt.limit)
		})
	}
}

func TestHeaderTooLarge(t *testing.T) {
	live := startLive(t, shortLimits())
	req, _ := http.NewRequest("GET", live.url("/"), nil)
	req.Header.Set("X-Big", strings.Repeat("a", 2*shortLimits().MaxHeaderBytes))
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a %d-byte header got %d, want 431", 2*shortLimits().MaxHeaderBytes, resp.StatusCode)
	}
	// A header just under the limit is served.
	req.Header.Set("X-Big", strings.Repeat("a", shortLimits().MaxHeaderBytes-1024))
	resp, err = http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("a header under the limit got %d", resp.StatusCode)
	}
}
