package model

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestCloseJSON(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`{"choices":[{"message":{"content":"abc`, `{"choices":[{"message":{"content":"abc"}}]}`},
		{`{"choices":[{"message":{"content":"a\"b\`, `{"choices":[{"message":{"content":"a\"b"}}]}`},
		{`{"choices":[{"message":{"content":"x\u00e`, `{"choices":[{"message":{"content":"x"}}]}`},
		{"{\"c\":\"h\xc3", `{"c":"h"}`},
		{`{"a":1,"b":`, `{"a":1}`},
		{`{"a":1,"b"`, `{"a":1}`},
		{`{"a":1,"bc`, `{"a":1}`},
		{`{"a":12`, `{}`},
		{`{"a":tru`, `{}`},
		{`{"a":true,`, `{"a":true}`},
		{`{"a":[1,2,{"b":null}`, `{"a":[1,2,{"b":null}]}`},
		{`{"a":["x","y`, `{"a":["x","y"]}`},
		{`[`, `[]`},
		{`{"a":{}}`, `{"a":{}}`},
		{``, ``},
		{`  `, ``},
	}
	for _, tt := range tests {
		got := string(closeJSON([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("closeJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got != "" && !json.Valid([]byte(got)) {
			t.Errorf("closeJSON(%q) = %q is not valid JSON", tt.in, got)
		}
	}
}

// TestCloseJSONEveryCut cuts a real answer at every byte and checks the result is valid JSON
// whose text is a prefix of the whole text.
func TestCloseJSONEveryCut(t *testing.T) {
	whole := `{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"Ça va? \"ok\" \\ \u263a done",` +
		`"tool_calls":[{"id":"c","type":"function","function":{"name":"F","arguments":"{\"a\":[1,2.5e3,true,null]}"}}]},` +
		`"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":3}}`
	var full wireResponse
	if err := json.Unmarshal([]byte(whole), &full); err != nil {
		t.Fatal(err)
	}
	fullContent := string(full.Choices[0].Message.Content)
	for n := 1; n <= len(whole); n++ {
		got := closeJSON([]byte(whole[:n]))
		if got == nil {
			continue
		}
		var w wireResponse
		if err := json.Unmarshal(got, &w); err != nil {
			t.Fatalf("cut at %d: %q: %v", n, got, err)
		}
		if len(w.Choices) > 0 && !strings.HasPrefix(fullContent, string(w.Choices[0].Message.Content)) {
			t.Fatalf("cut at %d: content %q is not a prefix of %q", n, w.Choices[0].Message.Content, fullContent)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		header map[string]string
		want   time.Duration
	}{
		{nil, -1},
		{map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{map[string]string{"Retry-After": " 0 "}, 0},
		{map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After": "-3"}, -1},
		{map[string]string{"Retry-After": "Sat, 01 Mar 2025 12:00:30 GMT"}, 30 * time.Second},
		{map[string]string{"Retry-After": "Sat, 01 Mar 2025 11:00:00 GMT"}, 0},
		{map[string]string{"Retry-After": "Saturday, 01-Mar-25 12:00:10 GMT"}, 10 * time.Second},
		{map[string]string{"Retry-After": "Sat Mar  1 12:00:20 2025"}, 20 * time.Second},
		{map[string]string{"Retry-After": "soon"}, -1},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "junk", "Retry-After": "9"}, 9 * time.Second},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := retryAfter(h, now); got != tt.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		jitter     float64
		retry      int
		retryAfter time.Duration
		want       time.Duration
	}{
		{0, 0, -1, 500 * time.Millisecond},
		{0.5, 0, -1, 750 * time.Millisecond},
		{0, 1, -1, time.Second},
		{0, 3, -1, 4 * time.Second},
		{0.999999, 3, -1, 8*time.Second - 4*time.Microsecond},
		{0, 10, -1, 15 * time.Second},
		{0, 100, -1, 15 * time.Second},
		{0, 0, 5 * time.Second, 5 * time.Second},
		{0, 4, time.Second, 8 * time.Second},
	}
	for _, tt := range tests {
		c := &Client{rand: func() float64 { return tt.jitter }}
		if got := c.backoff(tt.retry, tt.retryAfter); got != tt.want {
			t.Errorf("backoff(%d, %v) with jitter %v = %v, want %v", tt.retry, tt.retryAfter, tt.jitter, got, tt.want)
		}
	}
}

func TestProviderMessage(t *testing.T) {
	tests := []struct {
		body, msg, kind string
	}{
		{`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, "Rate limit reached", "requests"},
		{`{"error":{"message":"Invalid key","code":"invalid_api_key"}}`, "Invalid key", "invalid_api_key"},
		{`{"error":{"message":"Upstream failed","code":502}}`, "Upstream failed", ""},
		{`{"error":"model 'x' not found"}`, "model 'x' not found", ""},
		{`{"message":"Not Found"}`, "Not Found", ""},
		{`{"detail":"Unauthorized"}`, "Unauthorized", ""},
		{`{"detail":[{"loc":["body","messages"],"msg":"field required"}]}`, `[{"loc":["body","messages"],"msg":"field required"}]`, ""},
		{"<html>\n  <body>502   Bad\tGateway</body></html>", "<html> <body>502 Bad Gateway</body></html>", ""},
		{"", "", ""},
		{strings.Repeat("x", 400), strings.Repeat("x", 300) + "…", ""},
	}
	for _, tt := range tests {
		msg, kind := providerMessage([]byte(tt.body))
		if msg != tt.msg || kind != tt.kind {
			t.Errorf("providerMessage(%.40q) = %q, %q; want %q, %q", tt.body, msg, kind, tt.msg, tt.kind)
		}
	}
}

func TestFlexText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`null`, ""},
		{`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, "ab"},
		{`{"city":"Paris"}`, `{"city":"Paris"}`},
		{`["not","parts"]`, `["not","parts"]`},
	}
	for _, tt := range tests {
		var f flexText
		if err := json.Unmarshal([]byte(tt.in), &f); err != nil || string(f) != tt.want {
			t.Errorf("flexText(%s) = %q, %v; want %q", tt.in, f, err, tt.want)
		}
	}
}

func TestRedact(t *testing.T) {
	const key = "sk-AbC/def+1"
	tests := []struct{ in, want string }{
		{"key sk-AbC/def+1 here", "key [api key] here"},
		{"lowered sk-abc/def+1", "lowered [api key]"},
		{"escaped ?k=sk-AbC%2Fdef%2B1&x", "escaped ?k=[api key]&x"},
		{"twice sk-AbC/def+1sk-AbC/def+1", "twice [api key][api key]"},
		{"none", "none"},
	}
	for _, tt := range tests {
		if got := redact(tt.in, []string{key}); got != tt.want {
			t.Errorf("redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := redact("text", nil); got != "text" {
		t.Errorf("no secret changed the text: %q", got)
	}
	s := Settings{APIKey: "k1", Headers: map[string]string{"api-key": "k2", "X-Auth-Token": "Bearer k3", "anthropic-dangerous-direct-browser-access": "true"}}
	got := s.secrets()
	sort.Strings(got)
	if strings.Join(got, ",") != "k1,k2,k3" {
		t.Errorf("secrets %q, want the key and the two secret headers", got)
	}
}

// canned answers every request with a canned body, through the Transport interface.
type canned struct {
	status int
	body   string
}

func (r canned) Send(context.Context, *HTTPRequest) (*HTTPResponse, error) {
	return &HTTPResponse{Status: r.status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(r.body))}, nil
}

// TestStreamShapes reads stream bodies the way various servers write them.
func TestStreamShapes(t *testing.T) {
	tests := []struct {
		name string
		body string
		want Response
		err  string
	}{
		{"CRLF lines, comments, event and id fields, no space after data:",
			": keep-alive\r\n\r\nevent: message\r\nid: 1\r\ndata:{\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\r\n\r\n" +
				"data: {\"choices\":[{\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\r\n\r\ndata: [DONE]\r\n\r\n",
			Response{Content: "Hello", FinishReason: "stop", Streamed: true}, ""},
		{"ends without [DONE], last line without newline",
			"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"length\"}]}",
			Response{Content: "ab", FinishReason: "length", Streamed: true}, ""},
		{"tool calls without index, id once, name repeated, usage last",
			"data: {\"model\":\"m1\",\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"x\",\"function\":{\"name\":\"F\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"F\",\"arguments\":\":1}\"}}]}}]}\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"y\",\"function\":{\"name\":\"G\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n" +
				"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4}}\n" +
				"data: [DONE]\n",
			Response{Model: "m1", ToolCalls: []ToolCall{{ID: "x", Name: "F", Arguments: `{"a":1}`}, {ID: "y", Name: "G", Arguments: "{}"}},
				FinishReason: "tool_calls", Usage: Usage{PromptTokens: 9, CompletionTokens: 4}, Streamed: true}, ""},
		{"indexed fragments interleaved, name in pieces, arguments as an object",
			"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"Sec\"}},{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"First\"}}]}}]}\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"name\":\"ond\",\"arguments\":{\"k\":2}}}]}}]}\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}\n",
			Response{ToolCalls: []ToolCall{{ID: "a", Name: "First", Arguments: "{}"}, {ID: "b", Name: "Second", Arguments: `{"k":2}`}}, Streamed: true}, ""},
		{"a whole message in one chunk",
			"data: {\"choices\":[{\"message\":{\"content\":\"all at once\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n",
			Response{Content: "all at once", FinishReason: "stop", Streamed: true}, ""},
		{"nothing after [DONE] is read",
			"data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\ndata: [DONE]\ndata: {not json\n",
			Response{Content: "x", Streamed: true}, ""},
		{"an error event", "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\ndata: {\"error\":{\"message\":\"upstream died\",\"code\":502}}\n",
			Response{}, "model: HTTP 502 from example.test after 2 attempts: upstream died"},
		{"an error event with a text code", "data: {\"error\":{\"message\":\"context too long\",\"code\":\"context_length_exceeded\"}}\n",
			Response{}, "model: HTTP 200 from example.test: context too long (context_length_exceeded)"},
		{"plain JSON although a stream was asked", "  {\"choices\":[{\"message\":{\"content\":\"plain\"},\"finish_reason\":\"stop\"}]}",
			Response{Content: "plain", FinishReason: "stop"}, ""},
		{"an empty body", "", Response{Streamed: true}, ""},
		{"an unterminated event at the end", "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\ndata: {\"choi",
			Response{}, "model: HTTP 200 from example.test: stream event 2 is not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(Settings{BaseURL: "https://example.test/v1", Model: "m", Stream: true, Retries: 1},
				WithTransport(canned{status: 200, body: tt.body}), WithClock(instant{}))
			got, err := c.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "x"}}})
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Attempts = 1
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestPlainShapes reads plain answers the way various servers write them.
func TestPlainShapes(t *testing.T) {
	tests := []struct {
		name string
		body string
		want Response
		err  string
	}{
		{"content as parts, tool call without id",
			`{"model":"m2","choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],` +
				`"tool_calls":[{"type":"function","function":{"name":"F","arguments":{"x":1}}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`,
			Response{Model: "m2", Content: "ab", ToolCalls: []ToolCall{{ID: "call_0", Name: "F", Arguments: `{"x":1}`}}, FinishReason: "tool_calls", Usage: Usage{3, 2}}, ""},
		{"no choices", `{"choices":[]}`, Response{}, ""},
		{"an error inside a 200", `{"error":{"message":"overloaded","type":"overloaded_error"}}`, Response{},
			"model: HTTP 200 from example.test: overloaded (overloaded_error)"},
		{"not JSON", `<html>`, Response{}, `model: HTTP 200 from example.test: the answer is not valid JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(Settings{BaseURL: "https://example.test/v1", Model: "m"},
				WithTransport(canned{status: 200, body: tt.body}), WithClock(instant{}))
			got, err := c.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "x"}}})
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Attempts = 1
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// instant is a clock whose waits take no time.
type instant struct{}

func (instant) Now() time.Time                                   { return time.Unix(0, 0) }
func (instant) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// TestConversation: a conversation is written as a request sends its turns, and without tools the
// field is left out.
func TestConversation(t *testing.T) {
	msgs := []Message{{Role: RoleSystem, Content: "be brief"}, {Role: RoleAssistant}, {Role: RoleUser, Content: ""}}
	for _, tc := range []struct {
		name  string
		tools []Tool
		want  string
	}{
		{"no tools", nil, `{"messages":[{"role":"system","content":"be brief"},{"role":"assistant","content":""},{"role":"user","content":""}]}`},
		{"a tool", []Tool{{Name: "f"}}, `{"messages":[{"role":"system","content":"be brief"},{"role":"assistant","content":""},{"role":"user","content":""}],"tools":[{"type":"function","function":{"name":"f"}}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Conversation(msgs, tc.tools)
			if err != nil || string(got) != tc.want {
				t.Fatalf("Conversation = %s, %v; want %s", got, err, tc.want)
			}
			body, _ := json.Marshal(toWire(Settings{}, Request{Messages: msgs, Tools: tc.tools}, false))
			var req struct {
				Messages json.RawMessage `json:"messages"`
			}
			if err := json.Unmarshal(body, &req); err != nil || !strings.Contains(string(got), string(req.Messages)) {
				t.Fatalf("the request sends the turns as %s, the conversation writes %s", req.Messages, got)
			}
		})
	}
}
