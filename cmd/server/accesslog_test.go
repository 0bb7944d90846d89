package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestAccessLog: one JSON line per request with method, path (no query), status, bytes, duration,
// remote and coding, and never a header or a body: an API key sent in Authorization, a cookie, a
// key in the query or in the body appear nowhere in the log.
func TestAccessLog(t *testing.T) {
	live := startLive(t, shortLimits(), Route{"POST /test/echo", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Write([]byte(fmt.Sprintf(`{"read":%d}`, len(b))))
	})})
	const secret = "sk-proj-TOPSECRET-4242"
	tests := []struct {
		method, target, body, accept string
		status                       int
		path, encoding               string
	}{
		{"GET", "/?key=" + secret, "", "br", 200, "/", "br"},
		{"GET", "/web/engine.wasm?v=" + secret, "", "gzip", 200, "/web/engine.wasm", "gzip"},
		{"HEAD", "/sandbox", "", "", 200, "/sandbox", ""},
		{"GET", "/nothing?token=" + secret, "", "", 404, "/nothing", ""},
		{"POST", "/?api_key=" + secret, `{"api_key":"` + secret + `"}`, "", 405, "/", ""},
		{"POST", "/test/echo", `{"authorization":"Bearer ` + secret + `"}`, "", 200, "/test/echo", ""},
	}
	client := &http.Transport{DisableCompression: true}
	defer client.CloseIdleConnections()
	for i, tt := range tests {
		req, _ := http.NewRequest(tt.method, live.url(tt.target), strings.NewReader(tt.body))
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Cookie", "session="+secret)
		req.Header.Set("X-Api-Key", secret)
		req.Header.Set("User-Agent", "agent-"+secret)
		if tt.accept != "" {
			req.Header.Set("Accept-Encoding", tt.accept)
		}
		resp, err := client.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Fatalf("%s %s: status %d, want %d", tt.method, tt.target, resp.StatusCode, tt.status)
		}
		// The line is written after the response; wait for it.
		var line map[string]any
		for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			if lines := requestLines(t, live.logs.String()); len(lines) > i {
				line = lines[i]
				break
			}
		}
		if line == nil {
			t.Fatalf("%s %s: no access line", tt.method, tt.target)
		}
		want := map[string]any{"method": tt.method, "path": tt.path, "status": float64(tt.status)}
		if tt.method != "HEAD" {
			want["bytes"] = float64(n)
		}
		if tt.encoding != "" {
			want["encoding"] = tt.encoding
		}
		for k, v := range want {
			if line[k] != v {
				t.Errorf("%s %s: %s = %v, want %v", tt.method, tt.target, k, line[k], v)
			}
		}
		if _, ok := line["encoding"]; ok && tt.encoding == "" {
			t.Errorf("%s %s: encoding %v logged for an identity answer", tt.method, tt.target, line["encoding"])
		}
		if r, _ := line["remote"].(string); !strings.HasPrefix(r, "127.0.0.1:") {
			t.Errorf("%s %s: remote %q", tt.method, tt.target, r)
		}
		if _, ok := line["duration"].(float64); !ok {
			t.Errorf("%s %s: duration %v is not a number of nanoseconds", tt.method, tt.target, line["duration"])
		}
	}
	if logs := live.logs.String(); strings.Contains(logs, secret) || strings.Contains(logs, "TOPSECRET") {
		t.Errorf("the log holds the secret:\n%s", logs)
	}
}

func requestLines(t *testing.T, logs string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if m["msg"] == "request" {
			out = append(out, m)
		}
	}
	return out
}
