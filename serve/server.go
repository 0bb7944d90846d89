package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// The server's limits. RATIONALE.md ("Served for real: the hardened server") says why these values.
const (
	// ReadHeaderTimeout bounds how long a connection may take to send its request line and headers,
	// counted from its first byte: a client that sends half a header and stalls (slowloris) is
	// closed after it, however slowly it trickles.
	ReadHeaderTimeout = 5 * time.Second
	// ReadTimeout bounds reading a whole request, body included, from its first byte; a handler that
	// takes large bodies may lengthen its own with ExtendRead. It is shorter than WriteTimeout, so a
	// handler whose body read timed out still has time to answer 408.
	ReadTimeout = 20 * time.Second
	// WriteTimeout bounds writing a response, from the end of its headers; a handler that streams
	// (NDJSON) or sends a large body lengthens its own with ExtendWrite.
	WriteTimeout = 30 * time.Second
	// IdleTimeout closes a keep-alive connection that has not started a new request.
	IdleTimeout = 60 * time.Second
	// MaxHeaderBytes bounds the request line and headers (net/http answers 431 above it). Our pages
	// and API need no cookies; 16 KiB leaves room for long URLs and proxies' headers.
	MaxHeaderBytes = 16 << 10
	// ShutdownGrace is how long Run lets requests in flight finish after a stop signal.
	ShutdownGrace = 10 * time.Second
)

// Limits are the timeouts and sizes of a server; Defaults gives the constants above. Tests shorten
// them to keep their run time small.
type Limits struct {
	ReadHeader, Read, Write, Idle time.Duration
	MaxHeaderBytes                int
	// MaxConns caps open connections (LimitListener); 0 means no cap.
	MaxConns int
	// Grace is the shutdown deadline.
	Grace time.Duration
}

// Defaults are the production limits; maxConns is the connection cap.
func Defaults(maxConns int) Limits {
	return Limits{
		ReadHeader: ReadHeaderTimeout, Read: ReadTimeout, Write: WriteTimeout, Idle: IdleTimeout,
		MaxHeaderBytes: MaxHeaderBytes, MaxConns: maxConns, Grace: ShutdownGrace,
	}
}

// NewServer makes an http.Server with every timeout set (a zero-value server has none, and holds a
// stalled connection for ever). Its own error log (a client that misbehaves at the protocol level)
// goes to logger at level Warn.
func NewServer(h http.Handler, l Limits, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// Run serves srv on ln until ctx ends (main ties ctx to SIGINT and SIGTERM), then stops accepting,
// lets the requests in flight finish within grace, and returns. It returns nil after a clean stop,
// an error when serving failed or when grace ran out and the remaining connections were cut.
func Run(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration, logger *slog.Logger) error {
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serving %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	logger.Info("shutting down", "grace", grace.String())
	stop, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(stop)
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		return fmt.Errorf("serving %s: %w", ln.Addr(), serr)
	}
	if err != nil {
		srv.Close()
		return fmt.Errorf("shutdown: requests still running after %s were cut: %w", grace, err)
	}
	logger.Info("stopped")
	return nil
}

// ExtendWrite sets the write deadline of w's connection to d from now: a streaming handler calls it
// before each chunk, a large body once. Writers that have no connection (tests' recorders) ignore it.
func ExtendWrite(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d))
}

// ExtendRead sets the read deadline of w's request body to d from now, for a handler that takes a
// large upload. Writers that have no connection ignore it.
func ExtendRead(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
}
