package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// logLines decodes JSON log lines.
func logLines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func TestAccessLog(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	mux := http.NewServeMux()
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		b.ReadFrom(r.Body)
		w.Header().Set("Content-Encoding", "identity-test")
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte("12345"))
	})
	mux.HandleFunc("GET /implicit", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("abc")) })
	mux.HandleFunc("GET /empty", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("GET /panic", func(w http.ResponseWriter, r *http.Request) { panic("the secret is not in here") })
	h := AccessLog(logger, Recover(logger, mux))
	const secret = "sk-SECRET-0123456789"
	tests := []struct {
		method, target, body string
		status, bytes        int
		path                 string
	}{
		{"POST", "/echo?api_key=" + secret, `{"key":"` + secret + `"}`, 201, 5, "/echo"},
		{"GET", "/implicit?token=" + secret, "", 200, 3, "/implicit"},
		{"GET", "/empty", "", 200, 0, "/empty"},
		{"GET", "/missing", "", 404, 19, "/missing"},
		{"GET", "/panic", "", 500, -1, "/panic"},
	}
	for _, tt := range tests {
		buf.Reset()
		req := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Cookie", "session="+secret)
		req.Header.Set("X-Api-Key", secret)
		req.RemoteAddr = "192.0.2.7:5555"
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		took := time.Since(start)
		if strings.Contains(buf.String(), secret) {
			t.Errorf("%s %s: the log holds the secret:\n%s", tt.method, tt.target, buf.String())
		}
		lines := logLines(t, buf.Bytes())
		var access map[string]any
		for _, l := range lines {
			if l["msg"] == "request" {
				access = l
			}
		}
		if access == nil {
			t.Fatalf("%s %s: no access line in %s", tt.method, tt.target, buf.String())
		}
		want := map[string]any{"method": tt.method, "path": tt.path, "status": float64(tt.status), "remote": "192.0.2.7:5555", "level": "INFO"}
		if tt.bytes >= 0 {
			want["bytes"] = float64(tt.bytes)
		}
		for k, v := range want {
			if access[k] != v {
				t.Errorf("%s %s: %s = %v, want %v", tt.method, tt.target, k, access[k], v)
			}
		}
		if d, ok := access["duration"].(float64); !ok || d < 0 || time.Duration(d) > took {
			t.Errorf("%s %s: duration %v not within the request's %v", tt.method, tt.target, access["duration"], took)
		}
		for k := range access {
			switch k {
			case "time", "level", "msg", "method", "path", "status", "bytes", "duration", "remote", "encoding":
			default:
				t.Errorf("%s %s: unexpected field %s in the access line", tt.method, tt.target, k)
			}
		}
		if tt.status == 500 {
			if len(lines) != 2 || lines[0]["msg"] != "handler panicked" || lines[0]["level"] != "ERROR" {
				t.Errorf("a panic logs an error line before the access line: %v", lines)
			}
			if !strings.Contains(rec.Body.String(), "500") {
				t.Errorf("the panic's answer %q is not a 500 text", rec.Body.String())
			}
		}
	}
}

func TestStatusWriterPassesThrough(t *testing.T) {
	// Through the log, http.ResponseController reaches the real connection (deadlines and flushes),
	// which a streaming handler needs.
	var got []error
	done := make(chan struct{})
	h := AccessLog(slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		rc := http.NewResponseController(w)
		w.Write([]byte("line 1\n"))
		got = append(got, rc.Flush(), rc.SetWriteDeadline(time.Now().Add(time.Second)), rc.SetReadDeadline(time.Now().Add(time.Second)))
		if _, ok := w.(http.Flusher); !ok {
			got = append(got, errNotFlusher)
		}
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	<-done // the client may have its answer before the handler returns
	for i, err := range got {
		if err != nil {
			t.Errorf("call %d through the log: %v", i, err)
		}
	}
	if len(got) != 3 {
		t.Errorf("%d results, want 3", len(got))
	}
}

var errNotFlusher = errors.New("the writer is not an http.Flusher")

func TestRecoverAfterWrite(t *testing.T) {
	// A panic after the response started cannot change its status; the process survives and logs it.
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	h := Recover(logger, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("partial"))
		panic("late")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 200 || rec.Body.String() != "partial" {
		t.Errorf("got %d %q, want the partial 200", rec.Code, rec.Body.String())
	}
	if !strings.Contains(buf.String(), `"panic":"late"`) {
		t.Errorf("the panic is not logged: %s", buf.String())
	}
	defer func() {
		if v := recover(); v != http.ErrAbortHandler {
			t.Errorf("ErrAbortHandler was not passed on: %v", v)
		}
	}()
	Recover(logger, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) })).
		ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
}

// Extra attributes join the request's one line, read after the handler has answered.
func TestAccessLogExtra(t *testing.T) {
	var logs bytes.Buffer
	served := 0
	h := AccessLog(slog.New(slog.NewJSONHandler(&logs, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served++
		w.WriteHeader(http.StatusTeapot)
	}), func() []slog.Attr { return []slog.Attr{slog.Int("served", served)} })
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil))
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	var rec struct {
		Msg            string
		Status, Served int
	}
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &rec) != nil || rec.Msg != "request" || rec.Status != http.StatusTeapot || rec.Served != 1 {
		t.Errorf("log = %q, want one request line with status 418 and served 1", logs.String())
	}
}
