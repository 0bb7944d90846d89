package fakemodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseScriptErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"syntax", "{\n  \"rules\": [\n    {\"reply\": {\"content\": \"x\"},}\n  ]\n}", "s.json:3:32: invalid character '}'"},
		{"type", "{\"rules\": [{\"fault\": {\"kind\": \"drop\", \"times\": \"2\"}}]}", "s.json:1:50: rules.fault.times must be int, not string"},
		{"unknown field", `{"rulez": []}`, `s.json: json: unknown field "rulez"`},
		{"unknown fault", `{"rules": [{}, {"fault": {"kind": "explode"}}]}`, `s.json: rule 1: unknown fault kind "explode"`},
		{"status out of range", `{"rules": [{"fault": {"kind": "status", "status": 200}}]}`, "s.json: rule 0: fault status must be 400-599, not 200"},
		{"negative times", `{"rules": [{"fault": {"kind": "drop", "times": -1}}]}`, "s.json: rule 0: fault times is negative (-1)"},
		{"call without name", `{"rules": [{"reply": {"tool_calls": [{"arguments": {}}]}}]}`, "s.json: rule 0: tool call 0 has no name"},
		{"two values", `{} {}`, "s.json: more than one JSON value"},
		{"negative chunk", `{"chunk": -2}`, "s.json: chunk is negative (-2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseScript([]byte(tt.src), "s.json")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := LoadScript(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestLoadScript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	src := `{"rules": [{"match": {"last": "hi", "tools": false}, "reply": {"content": "hello"}},
	  {"reply": {"tool_calls": [{"name": "F", "arguments": {"a": [1, 2]}}, {"name": "G", "arguments": "not json"}]}}],
	 "models": ["m1"], "chunk": 3}`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := LoadScript(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rules) != 2 || *s.Rules[0].Match.Tools || s.Chunk != 3 || s.Models[0] != "m1" {
		t.Fatalf("script %+v", s)
	}
	calls := s.Rules[1].Reply.ToolCalls
	if calls[0].args() != `{"a":[1,2]}` || calls[1].args() != "not json" || calls[0].id(0) != "call_0" {
		t.Errorf("arguments %q %q", calls[0].args(), calls[1].args())
	}
}

// post sends a chat request body to srv and returns the answer.
func post(t *testing.T, srv *Server, body string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", srv.URL()+"/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func start(t *testing.T, s Script) *Server {
	t.Helper()
	srv, err := Start(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

func chatBody(model string, stream bool, tools bool, msgs ...[2]string) string {
	type m struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	body := map[string]any{"model": model, "stream": stream}
	var list []m
	for _, x := range msgs {
		list = append(list, m{x[0], x[1]})
	}
	body["messages"] = list
	if tools {
		body["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "F"}}}
	}
	b, _ := json.Marshal(body)
	return string(b)
}

func TestMatching(t *testing.T) {
	yes, no := true, false
	srv := start(t, Script{Rules: []Rule{
		{Match: Match{Model: "special"}},
		{Match: Match{Any: "[sample:L1/7]"}},
		{Match: Match{Role: "tool", Last: "token"}},
		{Match: Match{Last: "hello", Tools: &yes}},
		{Match: Match{Last: "hello", Stream: &no}},
		{Match: Match{Last: "hello"}},
	}})
	tests := []struct {
		name string
		body string
		rule int
	}{
		{"model", chatBody("special", false, false, [2]string{"user", "hello"}), 0},
		{"sample key anywhere", chatBody("m", false, false, [2]string{"system", "x [sample:L1/7] y"}, [2]string{"user", "hello"}), 1},
		{"last tool message", chatBody("m", false, false, [2]string{"user", "log in"}, [2]string{"tool", `{"token":"t"}`}), 2},
		{"last user message before an assistant turn", chatBody("m", true, false, [2]string{"user", "say hello"}, [2]string{"assistant", "token"}), 5},
		{"tools offered", chatBody("m", false, true, [2]string{"user", "hello"}), 3},
		{"not streamed", chatBody("m", false, false, [2]string{"user", "hello"}), 4},
		{"streamed", chatBody("m", true, false, [2]string{"user", "hello"}), 5},
		{"nothing matches", chatBody("m", false, false, [2]string{"user", "bye"}), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.Reset()
			res := post(t, srv, tt.body, nil)
			wantStatus := 200
			if tt.rule < 0 {
				wantStatus = 400
			}
			if res.StatusCode != wantStatus {
				t.Errorf("status %d, want %d", res.StatusCode, wantStatus)
			}
			r := srv.Requests()
			if len(r) != 1 || r[0].Rule != tt.rule {
				t.Fatalf("recorded %+v, want rule %d", r, tt.rule)
			}
		})
	}
}

func TestFaultTimes(t *testing.T) {
	srv := start(t, Script{Rules: []Rule{{Reply: Reply{Content: "ok"}, Fault: &Fault{Kind: FaultStatus, Status: 503, Times: 2, RetryAfter: "4"}}}})
	var got []int
	for range 4 {
		res := post(t, srv, chatBody("m", false, false, [2]string{"user", "x"}), nil)
		got = append(got, res.StatusCode)
		if res.StatusCode == 503 && res.Header.Get("Retry-After") != "4" {
			t.Errorf("Retry-After %q", res.Header.Get("Retry-After"))
		}
	}
	if want := []int{503, 503, 200, 200}; !equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	faults := []string{}
	for _, r := range srv.Requests() {
		faults = append(faults, r.Fault)
	}
	if strings.Join(faults, ",") != "status,status,," {
		t.Errorf("recorded faults %q", faults)
	}
	srv.Reset()
	if res := post(t, srv, chatBody("m", false, false, [2]string{"user", "x"}), nil); res.StatusCode != 503 {
		t.Errorf("after Reset: status %d, want the fault again", res.StatusCode)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCORS(t *testing.T) {
	tests := []struct {
		name   string
		noCORS bool
		status int
	}{
		{"allowed", false, http.StatusNoContent},
		{"refused", true, http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, Script{NoCORS: tt.noCORS, Rules: []Rule{{Reply: Reply{Content: "ok"}}}})
			req, _ := http.NewRequest("OPTIONS", srv.URL()+"/chat/completions", nil)
			req.Header.Set("Origin", "http://localhost:8080")
			req.Header.Set("Access-Control-Request-Method", "POST")
			req.Header.Set("Access-Control-Request-Headers", "authorization,content-type,anthropic-dangerous-direct-browser-access")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tt.status {
				t.Errorf("preflight status %d, want %d", res.StatusCode, tt.status)
			}
			h := res.Header
			if tt.noCORS {
				if h.Get("Access-Control-Allow-Origin") != "" {
					t.Errorf("CORS headers on a server without CORS: %v", h)
				}
				return
			}
			allow := strings.ToLower(h.Get("Access-Control-Allow-Headers"))
			for _, want := range []string{"authorization", "content-type", "anthropic-dangerous-direct-browser-access"} {
				if !strings.Contains(allow, want) {
					t.Errorf("Allow-Headers %q lacks %s", allow, want)
				}
			}
			if h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") {
				t.Errorf("preflight headers %v", h)
			}
			if !strings.Contains(h.Get("Access-Control-Expose-Headers"), "Retry-After") {
				t.Errorf("Retry-After not exposed to pages: %v", h)
			}
			res = post(t, srv, chatBody("m", false, false, [2]string{"user", "x"}), map[string]string{"Origin": "http://localhost:8080"})
			if res.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("answer without Allow-Origin: %v", res.Header)
			}
			if r := srv.Requests(); len(r) != 2 || r[0].Method != "OPTIONS" {
				t.Errorf("preflight not recorded: %+v", r)
			}
		})
	}
}

func TestAuth(t *testing.T) {
	const key = "sk-fake-key-12345"
	tests := []struct {
		name   string
		key    string // the script's
		header string
		status int
		auth   string
	}{
		{"no key expected, none sent", "", "", 200, "none"},
		{"no key expected, one sent", "", "Bearer anything", 200, "ok"},
		{"right key", key, "Bearer " + key, 200, "ok"},
		{"wrong key", key, "Bearer nope", 401, "wrong"},
		{"no key", key, "", 401, "none"},
		{"not a bearer token", key, "Basic " + key, 401, "wrong"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, Script{Key: tt.key, Rules: []Rule{{Reply: Reply{Content: "ok"}}}})
			h := map[string]string{}
			if tt.header != "" {
				h["Authorization"] = tt.header
			}
			res := post(t, srv, chatBody("m", false, false, [2]string{"user", "x"}), h)
			if res.StatusCode != tt.status {
				t.Errorf("status %d, want %d", res.StatusCode, tt.status)
			}
			r := srv.Requests()[0]
			if r.Auth != tt.auth {
				t.Errorf("auth %q, want %q", r.Auth, tt.auth)
			}
			all, _ := json.Marshal(srv.Requests())
			if bytes.Contains(all, []byte(key)) || (tt.header != "" && r.Header.Get("Authorization") != "[redacted]") {
				t.Errorf("the record holds the key: %s", all)
			}
		})
	}
}

// events reads a stream answer: its comment lines and the JSON of its data lines.
func events(t *testing.T, body io.Reader) (comments int, evs []map[string]any, done bool) {
	t.Helper()
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
		case strings.HasPrefix(line, ":"):
			comments++
		case line == "data: [DONE]":
			done = true
		case strings.HasPrefix(line, "data: "):
			var ev map[string]any
			if err := json.Unmarshal([]byte(line[6:]), &ev); err != nil {
				t.Fatalf("event %q: %v", line, err)
			}
			evs = append(evs, ev)
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	return comments, evs, done
}

func TestStreamFormat(t *testing.T) {
	srv := start(t, Script{Rules: []Rule{{Reply: Reply{Content: "héllo wörld", ToolCalls: []Call{
		{Name: "F", Arguments: json.RawMessage(`{"city": "Paris", "n": 2}`)},
	}}}}})
	body := `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"x"}]}`
	res := post(t, srv, body, nil)
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	comments, evs, done := events(t, res.Body)
	if comments == 0 || !done {
		t.Errorf("comments %d, done %v", comments, done)
	}
	var content, args strings.Builder
	argPieces := 0
	var finish string
	var usage map[string]any
	for _, ev := range evs {
		if u, ok := ev["usage"].(map[string]any); ok {
			usage = u
		}
		choices, _ := ev["choices"].([]any)
		if len(choices) == 0 {
			continue
		}
		ch := choices[0].(map[string]any)
		if f, ok := ch["finish_reason"].(string); ok {
			finish = f
		}
		delta := ch["delta"].(map[string]any)
		if c, ok := delta["content"].(string); ok {
			content.WriteString(c)
		}
		if tcs, ok := delta["tool_calls"].([]any); ok {
			fn := tcs[0].(map[string]any)["function"].(map[string]any)
			if a, _ := fn["arguments"].(string); a != "" {
				args.WriteString(a)
				argPieces++
			}
		}
	}
	if content.String() != "héllo wörld" || args.String() != `{"city":"Paris","n":2}` {
		t.Errorf("content %q, arguments %q", content.String(), args.String())
	}
	if argPieces < 3 || finish != "tool_calls" || usage == nil {
		t.Errorf("%d argument pieces, finish %q, usage %v", argPieces, finish, usage)
	}
}

func TestHarnessEndpoints(t *testing.T) {
	srv := start(t, Script{})
	res := post(t, srv, chatBody("m", false, false, [2]string{"user", "x"}), nil)
	if res.StatusCode != 400 {
		t.Errorf("an empty script answered %d, want 400", res.StatusCode)
	}
	script := `{"rules":[{"reply":{"content":"now scripted"}}]}`
	r, err := http.Post(srv.URL()[:len(srv.URL())-3]+"/_fake/script", "application/json", strings.NewReader(script))
	if err != nil || r.StatusCode != 204 {
		t.Fatalf("posting a script: %v %v", r, err)
	}
	r.Body.Close()
	res = post(t, srv, chatBody("m", false, false, [2]string{"user", "x"}), nil)
	b, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(b), "now scripted") {
		t.Errorf("answer %s", b)
	}
	r, _ = http.Post(srv.URL()[:len(srv.URL())-3]+"/_fake/script", "application/json", strings.NewReader(`{"rules":[{"fault":{"kind":"nope"}}]}`))
	b, _ = io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != 400 || !strings.Contains(string(b), "unknown fault kind") {
		t.Errorf("a bad script: %d %s", r.StatusCode, b)
	}
	r, _ = http.Get(srv.URL()[:len(srv.URL())-3] + "/_fake/requests")
	var recs []Request
	_ = json.NewDecoder(r.Body).Decode(&recs)
	r.Body.Close()
	if len(recs) != 2 || recs[1].Chat == nil || recs[1].Rule != 0 {
		t.Errorf("requests %+v", recs)
	}
	r, _ = http.Post(srv.URL()[:len(srv.URL())-3]+"/_fake/reset", "", nil)
	r.Body.Close()
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests after reset", n)
	}
}

func TestPieces(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want []string
	}{
		{"abcdefg", 3, []string{"abc", "def", "g"}},
		{"héllo", 2, []string{"hé", "ll", "o"}},
		{"✓✓", 1, []string{"✓", "✓"}},
		{"", 4, nil},
	}
	for _, tt := range tests {
		got := pieces(tt.s, tt.n)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("pieces(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
