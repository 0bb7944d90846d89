package serve

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"
)

// AccessLog logs one line per request to logger, after the response: method, path, status, bytes
// written, duration, remote address, and the content coding sent. The path is logged without its
// query (which may carry a token or a key), and no header and no body is ever logged: a user's API
// key travels in Authorization, and it must never reach a log. Each of extra adds attributes to the
// line, read after the response (the Worker's memory figures). A logger may drop lines: the
// Worker's keeps only the notable ones, as a log line is not free there.
func AccessLog(logger *slog.Logger, next http.Handler, extra ...func() []slog.Attr) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusWriter{ResponseWriter: w}
		defer func() {
			status := rec.status
			if status == 0 {
				status = http.StatusOK
			}
			attrs := []slog.Attr{
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", status),
				slog.Int64("bytes", rec.bytes),
				slog.Duration("duration", time.Since(start)),
				slog.String("remote", r.RemoteAddr),
			}
			if enc := w.Header().Get("Content-Encoding"); enc != "" {
				attrs = append(attrs, slog.String("encoding", enc))
			}
			for _, f := range extra {
				attrs = append(attrs, f()...)
			}
			logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
		}()
		next.ServeHTTP(rec, r)
	})
}

// statusWriter records the status and the body bytes written. It unwraps to the writer it wraps, so
// http.ResponseController (deadlines, flushes) reaches the connection through it.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 || s.status < 200 { // 1xx responses come before the final one
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Unwrap gives http.ResponseController the underlying writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// FlushError flushes the response through the log; http.ResponseController calls it.
func (s *statusWriter) FlushError() error {
	return http.NewResponseController(s.ResponseWriter).Flush()
}

// Flush lets streaming handlers that assert http.Flusher flush through the log.
func (s *statusWriter) Flush() { _ = s.FlushError() }

// wrote reports whether the response has started.
func (s *statusWriter) wrote() bool { return s.status != 0 }

// Recover turns a panic in next into a 500 (when nothing was sent yet) and an error line in logger
// with the stack, instead of a dropped connection: no request can take the process, or its
// neighbours, down. http.ErrAbortHandler is let through, as net/http expects.
func Recover(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec, ok := w.(*statusWriter)
		if !ok {
			rec = &statusWriter{ResponseWriter: w}
		}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			logger.Error("handler panicked", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if !rec.wrote() {
				h := rec.Header()
				for _, k := range []string{"Content-Length", "Content-Encoding", "ETag", "Cache-Control"} {
					h.Del(k)
				}
				h.Set("Content-Type", "text/plain; charset=utf-8")
				rec.WriteHeader(http.StatusInternalServerError)
				rec.Write([]byte("500 internal error: the server failed on this request; it is logged\n"))
			}
		}()
		next.ServeHTTP(rec, r)
	})
}
