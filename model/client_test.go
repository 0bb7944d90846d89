package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

var weatherTool = model.Tool{
	Name:        "GetWeather",
	Description: "The weather of a city.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
}

// TestChatAnswers checks text and tool-call answers, plain and streamed, come back whole.
func TestChatAnswers(t *testing.T) {
	srv := start(t, fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Last: "weather"}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{
			{ID: "call_a", Name: "GetWeather", Arguments: json.RawMessage(`{"city": "Zürich, \"Altstadt\""}`)},
			{Name: "GetTime", Arguments: json.RawMessage(`{"zone":"Europe/Zurich","format":"24h"}`)},
		}}},
		{Match: fakemodel.Match{Last: "broken"}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{
			{Name: "GetWeather", Arguments: json.RawMessage(`"{\"city\": \"Par"`)},
		}}},
		{Match: fakemodel.Match{Last: "empty"}, Reply: fakemodel.Reply{}},
		{Reply: fakemodel.Reply{Content: "[ToolSearcher(keywords='weather')] — ünïcödé ✓ and a long tail to split"}},
	}})
	tests := []struct {
		name    string
		prompt  string
		content string
		calls   []model.ToolCall
		finish  string
	}{
		{"text", "hello", "[ToolSearcher(keywords='weather')] — ünïcödé ✓ and a long tail to split", nil, "stop"},
		{"tool calls", "what is the weather", "", []model.ToolCall{
			{ID: "call_a", Name: "GetWeather", Arguments: `{"city":"Zürich, \"Altstadt\""}`},
			{ID: "call_1", Name: "GetTime", Arguments: `{"zone":"Europe/Zurich","format":"24h"}`},
		}, "tool_calls"},
		{"invalid arguments kept as sent", "broken", "", []model.ToolCall{
			{ID: "call_0", Name: "GetWeather", Arguments: `{"city": "Par`},
		}, "tool_calls"},
		{"empty answer", "empty", "", nil, "stop"},
	}
	for _, stream := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(tt.name+map[bool]string{false: "/plain", true: "/stream"}[stream], func(t *testing.T) {
				s := settingsFor(srv)
				s.Stream = stream
				c := model.New(s)
				resp, err := c.Chat(context.Background(), model.Request{Messages: user(tt.prompt), Tools: []model.Tool{weatherTool}})
				if err != nil {
					t.Fatal(err)
				}
				if resp.Content != tt.content {
					t.Errorf("content %q, want %q", resp.Content, tt.content)
				}
				if !reflect.DeepEqual(resp.ToolCalls, tt.calls) {
					t.Errorf("tool calls %+v, want %+v", resp.ToolCalls, tt.calls)
				}
				if resp.FinishReason != tt.finish {
					t.Errorf("finish %q, want %q", resp.FinishReason, tt.finish)
				}
				if resp.Streamed != stream || resp.Truncated || resp.Attempts != 1 || resp.Model != "fake-model" {
					t.Errorf("streamed %v truncated %v attempts %d model %q", resp.Streamed, resp.Truncated, resp.Attempts, resp.Model)
				}
				if resp.Usage.PromptTokens == 0 {
					t.Errorf("no usage: %+v", resp.Usage)
				}
			})
		}
	}
}

// TestRequestSent checks the body and headers the endpoint receives.
func TestRequestSent(t *testing.T) {
	srv := start(t, fakemodel.Script{Rules: []fakemodel.Rule{{Reply: fakemodel.Reply{Content: "ok"}}}})
	conversation := []model.Message{
		{Role: model.RoleSystem, Content: "You call tools."},
		{Role: model.RoleUser, Content: "weather in Paris?"},
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c1", Name: "GetWeather", Arguments: `{"city":"Paris"}`}}},
		{Role: model.RoleTool, ToolCallID: "c1", Content: `{"sky":"clear"}`},
	}
	tests := []struct {
		name     string
		settings func(*model.Settings)
		req      model.Request
		check    func(t *testing.T, r fakemodel.Request)
	}{
		{"defaults", nil, model.Request{Messages: user("hi")}, func(t *testing.T, r fakemodel.Request) {
			if r.Chat.Temperature == nil || *r.Chat.Temperature != 0 {
				t.Errorf("temperature %v, want 0 sent", r.Chat.Temperature)
			}
			if r.Chat.Model != "fake-model" || r.Chat.MaxTokens != 0 || r.Chat.Stream || r.Chat.Tools != nil || r.Chat.ToolChoice != nil {
				t.Errorf("body %s", r.Body)
			}
			if r.Auth != "ok" || r.Header.Get("Authorization") != "[redacted]" {
				t.Errorf("auth %q header %q", r.Auth, r.Header.Get("Authorization"))
			}
			if r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("content type %q", r.Header.Get("Content-Type"))
			}
		}},
		{"settings", func(s *model.Settings) {
			s.Temperature, s.MaxTokens, s.Stream = 0.7, 256, true
			s.Headers = map[string]string{"anthropic-dangerous-direct-browser-access": "true"}
		}, model.Request{Messages: user("hi")}, func(t *testing.T, r fakemodel.Request) {
			if *r.Chat.Temperature != 0.7 || r.Chat.MaxTokens != 256 || !r.Chat.Stream {
				t.Errorf("body %s", r.Body)
			}
			if r.Chat.StreamOptions == nil || !r.Chat.StreamOptions.IncludeUsage {
				t.Errorf("no stream_options.include_usage: %s", r.Body)
			}
			if r.Header.Get("Anthropic-Dangerous-Direct-Browser-Access") != "true" {
				t.Errorf("extra header missing: %v", r.Header)
			}
			if r.Header.Get("Accept") != "text/event-stream" {
				t.Errorf("accept %q", r.Header.Get("Accept"))
			}
		}},
		{"omit temperature, no key", func(s *model.Settings) { s.OmitTemperature, s.APIKey = true, "" },
			model.Request{Messages: user("hi")}, func(t *testing.T, r fakemodel.Request) {
				if strings.Contains(string(r.Body), "temperature") {
					t.Errorf("temperature sent: %s", r.Body)
				}
				if r.Auth != "none" {
					t.Errorf("auth %q, want none", r.Auth)
				}
			}},
		{"tools and a tool loop", nil, model.Request{Messages: conversation, Tools: []model.Tool{weatherTool}, ToolChoice: model.ToolChoiceRequired},
			func(t *testing.T, r fakemodel.Request) {
				var tools []struct {
					Type     string `json:"type"`
					Function struct {
						Name        string          `json:"name"`
						Description string          `json:"description"`
						Parameters  json.RawMessage `json:"parameters"`
					} `json:"function"`
				}
				if err := json.Unmarshal(r.Chat.Tools, &tools); err != nil || len(tools) != 1 {
					t.Fatalf("tools %s: %v", r.Chat.Tools, err)
				}
				f := tools[0].Function
				if tools[0].Type != "function" || f.Name != "GetWeather" || f.Description != weatherTool.Description || string(f.Parameters) != string(weatherTool.Parameters) {
					t.Errorf("tool %+v", tools[0])
				}
				if string(r.Chat.ToolChoice) != `"required"` {
					t.Errorf("tool_choice %s", r.Chat.ToolChoice)
				}
				m := r.Chat.Messages
				if len(m) != 4 || m[0].Role != "system" || m[2].Role != "assistant" || m[3].Role != "tool" {
					t.Fatalf("messages %s", r.Body)
				}
				if m[2].Content != nil {
					t.Errorf("assistant content %q, want null beside tool calls", *m[2].Content)
				}
				tc := m[2].ToolCalls
				if len(tc) != 1 || tc[0].ID != "c1" || tc[0].Type != "function" || tc[0].Function.Name != "GetWeather" || tc[0].Function.Arguments != `{"city":"Paris"}` {
					t.Errorf("assistant tool calls %+v", tc)
				}
				if m[3].ToolCallID != "c1" || m[3].Content == nil || *m[3].Content != `{"sky":"clear"}` {
					t.Errorf("tool message %+v", m[3])
				}
			}},
		{"tool choice without tools is not sent", nil, model.Request{Messages: user("hi"), ToolChoice: model.ToolChoiceRequired},
			func(t *testing.T, r fakemodel.Request) {
				if r.Chat.ToolChoice != nil || r.Chat.Tools != nil {
					t.Errorf("body %s", r.Body)
				}
			}},
		{"forced function", nil, model.Request{Messages: user("hi"), Tools: []model.Tool{weatherTool}, ToolChoice: "GetWeather"},
			func(t *testing.T, r fakemodel.Request) {
				if string(r.Chat.ToolChoice) != `{"type":"function","function":{"name":"GetWeather"}}` {
					t.Errorf("tool_choice %s", r.Chat.ToolChoice)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.Reset()
			s := settingsFor(srv)
			if tt.settings != nil {
				tt.settings(&s)
			}
			if _, err := model.New(s).Chat(context.Background(), tt.req); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Chat == nil {
				t.Fatalf("%d requests recorded", len(reqs))
			}
			if reqs[0].Path != "/v1/chat/completions" {
				t.Errorf("path %q", reqs[0].Path)
			}
			tt.check(t, reqs[0])
		})
	}
}

// TestFaults drives the client through every failure the fake serves.
func TestFaults(t *testing.T) {
	const cap = model.DefaultMaxResponseBytes
	s := 1 * time.Second
	tests := []struct {
		name     string
		fault    fakemodel.Fault
		stream   bool
		settings func(*model.Settings)
		// Expectations: an error with this status, or an answer with this text prefix.
		wantErr    bool
		status     int
		attempts   int
		waits      []time.Duration
		prefix     string
		truncated  string
		minContent int
	}{
		{name: "429 twice, Retry-After 3", fault: fakemodel.Fault{Kind: fakemodel.FaultRateLimit, Times: 2, RetryAfter: "3"},
			attempts: 3, waits: []time.Duration{3 * s, 3 * s}, prefix: "hello"},
		{name: "429 Retry-After shorter than the backoff", fault: fakemodel.Fault{Kind: fakemodel.FaultRateLimit, Times: 3, RetryAfter: "0"},
			attempts: 4, waits: []time.Duration{s / 2, s, 2 * s}, prefix: "hello"},
		{name: "429 always, no Retry-After", fault: fakemodel.Fault{Kind: fakemodel.FaultRateLimit},
			wantErr: true, status: 429, attempts: 5, waits: []time.Duration{s / 2, s, 2 * s, 4 * s}},
		{name: "429 asking for more than the longest wait", fault: fakemodel.Fault{Kind: fakemodel.FaultRateLimit, RetryAfter: "3600"},
			wantErr: true, status: 429, attempts: 1},
		{name: "429 with Retry-After as a date", fault: fakemodel.Fault{Kind: fakemodel.FaultRateLimit, Times: 1, RetryAfter: "Sat, 01 Mar 2025 12:00:07 GMT"},
			attempts: 2, waits: []time.Duration{7 * s}, prefix: "hello"},
		{name: "500 once", fault: fakemodel.Fault{Kind: fakemodel.FaultServerError, Times: 1}, attempts: 2, waits: []time.Duration{s / 2}, prefix: "hello"},
		{name: "503 until the last retry", fault: fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 503, Times: 4}, stream: true,
			attempts: 5, waits: []time.Duration{s / 2, s, 2 * s, 4 * s}, prefix: "hello"},
		{name: "503 without retries", fault: fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 503}, settings: func(s *model.Settings) { s.Retries = -1 },
			wantErr: true, status: 503, attempts: 1},
		{name: "408 once", fault: fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 408, Times: 1}, attempts: 2, waits: []time.Duration{s / 2}, prefix: "hello"},
		{name: "409 once", fault: fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 409, Times: 1}, attempts: 2, waits: []time.Duration{s / 2}, prefix: "hello"},
		{name: "400 is not retried", fault: fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 400, Message: "tools are not supported", Times: 1},
			wantErr: true, status: 400, attempts: 1},
		{name: "401 is not retried", fault: fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 401, Times: 1}, wantErr: true, status: 401, attempts: 1},
		{name: "404 is not retried", fault: fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 404, Times: 1}, stream: true, wantErr: true, status: 404, attempts: 1},
		{name: "422 is not retried", fault: fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 422, Times: 1}, wantErr: true, status: 422, attempts: 1},
		{name: "malformed JSON", fault: fakemodel.Fault{Kind: fakemodel.FaultMalformed, Times: 1}, wantErr: true, status: 200, attempts: 1},
		{name: "malformed stream event", fault: fakemodel.Fault{Kind: fakemodel.FaultMalformed, Times: 1}, stream: true, wantErr: true, status: 200, attempts: 1},
		{name: "dropped once", fault: fakemodel.Fault{Kind: fakemodel.FaultDrop, Times: 1}, attempts: 2, waits: []time.Duration{s / 2}, prefix: "hello"},
		{name: "stream dropped once", fault: fakemodel.Fault{Kind: fakemodel.FaultDrop, Times: 1}, stream: true, attempts: 2, waits: []time.Duration{s / 2}, prefix: "hello"},
		{name: "dropped always", fault: fakemodel.Fault{Kind: fakemodel.FaultDrop}, wantErr: true, status: 0, attempts: 5, waits: []time.Duration{s / 2, s, 2 * s, 4 * s}},
		{name: "slow, within the timeout", fault: fakemodel.Fault{Kind: fakemodel.FaultSlow, DelayMS: 30}, attempts: 1, prefix: "hello"},
		{name: "slow, past the timeout", fault: fakemodel.Fault{Kind: fakemodel.FaultSlow, DelayMS: 5000},
			settings: func(s *model.Settings) { s.Timeout, s.Retries = 100*time.Millisecond, 1 },
			wantErr:  true, status: 0, attempts: 2, waits: []time.Duration{s / 2}},
		{name: "oversized answer", fault: fakemodel.Fault{Kind: fakemodel.FaultOversize}, attempts: 1,
			prefix: "0123456789", truncated: model.CutSize, minContent: cap - 512},
		{name: "oversized stream", fault: fakemodel.Fault{Kind: fakemodel.FaultOversize}, stream: true, attempts: 1,
			prefix: "0123456789", truncated: model.CutSize, minContent: cap * 9 / 10},
		{name: "large answer under the cap", fault: fakemodel.Fault{Kind: fakemodel.FaultOversize, Size: cap / 2}, attempts: 1,
			prefix: "0123456789", minContent: cap / 2},
		{name: "a lower cap", fault: fakemodel.Fault{Kind: fakemodel.FaultOversize, Size: 20000}, stream: true,
			settings: func(s *model.Settings) { s.MaxResponseBytes = 16384 }, attempts: 1, prefix: "0123456789", truncated: model.CutSize, minContent: 8000},
		{name: "endless answer", fault: fakemodel.Fault{Kind: fakemodel.FaultEndless}, attempts: 1,
			prefix: "0123456789", truncated: model.CutSize, minContent: cap - 512},
		{name: "endless stream", fault: fakemodel.Fault{Kind: fakemodel.FaultEndless}, stream: true, attempts: 1,
			prefix: "0 1 2 3 ", truncated: model.CutSize, minContent: 1000},
		{name: "endless slow stream, cut at the timeout", fault: fakemodel.Fault{Kind: fakemodel.FaultEndless, DelayMS: 10}, stream: true,
			settings: func(s *model.Settings) { s.Timeout = 300 * time.Millisecond }, attempts: 1,
			prefix: "0 1 2 ", truncated: model.CutTimeout, minContent: 6},
		// A trickle (a byte every 20 ms here) costs one attempt's time, never a retry, streamed or
		// not, even with no whole event by then.
		{name: "trickling answer, cut at the timeout", fault: fakemodel.Fault{Kind: fakemodel.FaultTrickle, DelayMS: 20},
			settings: func(s *model.Settings) { s.Timeout = 300 * time.Millisecond }, attempts: 1, truncated: model.CutTimeout},
		{name: "trickling stream, cut at the timeout", fault: fakemodel.Fault{Kind: fakemodel.FaultTrickle, DelayMS: 20}, stream: true,
			settings: func(s *model.Settings) { s.Timeout = 300 * time.Millisecond }, attempts: 1, truncated: model.CutTimeout},
		{name: "answer cut half-way", fault: fakemodel.Fault{Kind: fakemodel.FaultCut}, wantErr: true, status: 200, attempts: 1},
		{name: "stream cut half-way", fault: fakemodel.Fault{Kind: fakemodel.FaultCut}, stream: true, attempts: 1},
		{name: "JSON nested 5,000 deep", fault: fakemodel.Fault{Kind: fakemodel.FaultDeep}, attempts: 1, prefix: "[Tool(a=[[[[", minContent: 10000},
		{name: "stream nested 5,000 deep", fault: fakemodel.Fault{Kind: fakemodel.FaultDeep}, stream: true, attempts: 1, prefix: "[Tool(a=[[[[", minContent: 10000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.fault
			srv := start(t, fakemodel.Script{Rules: []fakemodel.Rule{{Reply: fakemodel.Reply{Content: "hello"}, Fault: &f}}})
			set := settingsFor(srv)
			set.Stream = tt.stream
			if tt.settings != nil {
				tt.settings(&set)
			}
			clock := newClock()
			c := model.New(set, model.WithClock(clock), model.WithRand(zeroJitter))
			resp, err := c.Chat(context.Background(), model.Request{Messages: user("hi")})
			if got := len(srv.Requests()); got != tt.attempts {
				t.Errorf("%d requests reached the server, want %d", got, tt.attempts)
			}
			if w := clock.waits(); !reflect.DeepEqual(w, tt.waits) && (len(w) > 0 || len(tt.waits) > 0) {
				t.Errorf("waits %v, want %v", w, tt.waits)
			}
			if tt.wantErr {
				var me *model.Error
				if !errors.As(err, &me) {
					t.Fatalf("error %v (%T), want *model.Error", err, err)
				}
				if me.Status != tt.status || me.Attempts != tt.attempts || me.Message == "" {
					t.Errorf("error %+v, want status %d after %d attempts", me, tt.status, tt.attempts)
				}
				if tt.fault.Message != "" && me.Message != tt.fault.Message {
					t.Errorf("message %q, want the provider's %q", me.Message, tt.fault.Message)
				}
				if me.Temporary() != (tt.status == 0 || tt.status == 429 || tt.status >= 500) {
					t.Errorf("Temporary() = %v for status %d", me.Temporary(), tt.status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(resp.Content, tt.prefix) || len(resp.Content) < tt.minContent || len(resp.Content) > cap {
				t.Errorf("content of %d bytes %.40q, want prefix %q and %d to %d bytes", len(resp.Content), resp.Content, tt.prefix, tt.minContent, cap)
			}
			if resp.Truncated != (tt.truncated != "") || resp.TruncatedBy != tt.truncated {
				t.Errorf("truncated %v by %q, want %q", resp.Truncated, resp.TruncatedBy, tt.truncated)
			}
			if want := map[string]string{model.CutSize: strconv.Itoa(set.MaxResponseBytes) + " bytes", model.CutTimeout: set.Timeout.String()}[tt.truncated]; tt.truncated != "" && want != "" &&
				(set.MaxResponseBytes > 0 || tt.truncated == model.CutTimeout) && resp.Limit != want {
				t.Errorf("limit %q, want %q", resp.Limit, want)
			}
			if resp.Attempts != tt.attempts {
				t.Errorf("attempts %d, want %d", resp.Attempts, tt.attempts)
			}
		})
	}
}

// TestErrorDetails checks what a failed request says: status, provider message, host, type, and
// that a timeout is a DeadlineExceeded.
func TestErrorDetails(t *testing.T) {
	srv := start(t, fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Last: "limit"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultRateLimit}},
		{Match: fakemodel.Match{Last: "slow"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultSlow, DelayMS: 2000}},
	}})
	c := model.New(func() model.Settings {
		s := settingsFor(srv)
		s.Retries, s.Timeout = -1, 50*time.Millisecond
		return s
	}())
	_, err := c.Chat(context.Background(), model.Request{Messages: user("limit")})
	var me *model.Error
	if !errors.As(err, &me) {
		t.Fatalf("%v", err)
	}
	host := strings.TrimSuffix(strings.TrimPrefix(srv.URL(), "http://"), "/v1")
	want := "model: HTTP 429 from " + host + ": fakemodel: rate limit reached, slow down (rate_limit_error)"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	_, err = c.Chat(context.Background(), model.Request{Messages: user("slow")})
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &me) || me.Status != 0 {
		t.Errorf("timeout error %v, want a *model.Error that is DeadlineExceeded", err)
	}
	_, err = c.Chat(context.Background(), model.Request{Messages: user("nothing matches")})
	if !errors.As(err, &me) || me.Status != 400 || !strings.Contains(me.Message, "no rule matches") {
		t.Errorf("unmatched request: %v", err)
	}
}

// TestKeyNeverInErrors makes requests fail every way there is, with the key where a careless
// server or URL would put it, and looks for the key in everything the error shows.
func TestKeyNeverInErrors(t *testing.T) {
	const headerKey = "gw-0a1b2c3d4e5f-SECRET"
	srv := start(t, fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Last: "leak"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultLeakKey}},
		{Match: fakemodel.Match{Last: "malformed"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultMalformed}},
		{Match: fakemodel.Match{Last: "drop"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultDrop}},
		{Match: fakemodel.Match{Last: "status"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 400, Message: "bad key " + testKey}},
		{Match: fakemodel.Match{Last: "header"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 403, Message: "gateway key " + headerKey + " refused"}},
	}})
	tests := []struct {
		name   string
		base   string
		prompt string
	}{
		{"provider message quotes a key sent in a header", srv.URL(), "header"},
		{"server echoes the Authorization header", srv.URL(), "leak"},
		{"provider message quotes the key", srv.URL(), "status"},
		{"malformed answer", srv.URL(), "malformed"},
		{"dropped connection", srv.URL(), "drop"},
		{"key in the base URL, nothing listening", "http://127.0.0.1:1/v1?api-key=" + testKey, "x"},
		{"key in the base URL, bad scheme", "ftp" + testKey + "://example.org", "x"},
		{"key in the URL's user info", "http://user:" + testKey + "@127.0.0.1:1/v1", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := model.Settings{BaseURL: tt.base, APIKey: testKey, Model: "m", Retries: 1, Headers: map[string]string{"Api-Key": headerKey}}
			_, err := model.New(s, model.WithClock(newClock())).Chat(context.Background(), model.Request{Messages: user(tt.prompt)})
			if err == nil {
				t.Fatal("no error")
			}
			js, _ := json.Marshal(err)
			shown := []string{err.Error(), string(js)}
			for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
				shown = append(shown, e.Error())
			}
			for _, text := range shown {
				if strings.Contains(text, testKey) || strings.Contains(text, "9f8e7d6c5b4a") || strings.Contains(text, "0a1b2c3d4e5f") {
					t.Errorf("the key shows in %q", text)
				}
			}
		})
	}
}

// TestCancel checks a cancel stops at once, in a request and in a backoff, and is not an *Error.
func TestCancel(t *testing.T) {
	srv := start(t, fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Last: "slow"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultSlow, DelayMS: 10000}},
		{Match: fakemodel.Match{Last: "limit"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultRateLimit, RetryAfter: "30"}},
	}})
	for _, prompt := range []string{"slow", "limit"} {
		t.Run(prompt, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			began := time.Now()
			_, err := model.New(settingsFor(srv)).Chat(ctx, model.Request{Messages: user(prompt)})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v, want context.Canceled", err)
			}
			var me *model.Error
			if errors.As(err, &me) {
				t.Errorf("a cancel is reported as a failed request: %v", me)
			}
			if d := time.Since(began); d > 3*time.Second {
				t.Errorf("cancel took %s", d)
			}
		})
	}
}

// TestModels checks the model list and its absence.
func TestModels(t *testing.T) {
	tests := []struct {
		name   string
		script fakemodel.Script
		want   []string
		status int
	}{
		{"default list", fakemodel.Script{}, []string{"fake-model"}, 0},
		{"scripted list", fakemodel.Script{Models: []string{"a", "b/c:latest"}}, []string{"a", "b/c:latest"}, 0},
		{"no list", fakemodel.Script{NoModels: true}, nil, 404},
		{"wrong key", fakemodel.Script{Key: "another"}, nil, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, tt.script)
			ids, err := model.New(settingsFor(srv), model.WithClock(newClock())).Models(context.Background())
			if tt.status != 0 {
				var me *model.Error
				if !errors.As(err, &me) || me.Status != tt.status || me.Attempts != 1 {
					t.Fatalf("error %v, want status %d at once", err, tt.status)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(ids, tt.want) {
				t.Fatalf("models %v, %v; want %v", ids, err, tt.want)
			}
			if r := srv.Requests(); len(r) != 1 || r[0].Method != "GET" || r[0].Path != "/v1/models" || r[0].Auth != "ok" {
				t.Errorf("requests %+v", r)
			}
		})
	}
}

// TestSettingsValidate checks settings that cannot work fail every call without a request.
func TestSettingsValidate(t *testing.T) {
	tests := []struct {
		name string
		s    model.Settings
		want string // substring of the error; "" for valid
	}{
		{"valid", model.Settings{BaseURL: "http://localhost:11434/v1", Model: "llama3.1"}, ""},
		{"pasted chat URL", model.Settings{BaseURL: " https://api.openai.com/v1/chat/completions/ ", Model: "m"}, ""},
		{"empty URL", model.Settings{Model: "m"}, "empty"},
		{"no scheme", model.Settings{BaseURL: "localhost:8000/v1", Model: "m"}, "http:// or https://"},
		{"no host", model.Settings{BaseURL: "http:///v1", Model: "m"}, "no host"},
		{"no model", model.Settings{BaseURL: "http://localhost/v1"}, "no model"},
		{"negative max tokens", model.Settings{BaseURL: "http://localhost/v1", Model: "m", MaxTokens: -1}, "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Validate()
			if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("Validate() = %v, want %q", err, tt.want)
			}
			if err == nil {
				return
			}
			_, chatErr := model.New(tt.s).Chat(context.Background(), model.Request{Messages: user("x")})
			var me *model.Error
			if !errors.As(chatErr, &me) || me.Attempts != 0 || !strings.Contains(me.Message, tt.want) {
				t.Errorf("Chat error %v, want the settings error without a request", chatErr)
			}
		})
	}
}

// TestBaseURLForms checks a pasted full URL and a trailing slash reach the same endpoint.
func TestBaseURLForms(t *testing.T) {
	srv := start(t, fakemodel.Script{Rules: []fakemodel.Rule{{Reply: fakemodel.Reply{Content: "ok"}}}})
	for _, base := range []string{srv.URL(), srv.URL() + "/", srv.URL() + "/chat/completions"} {
		s := settingsFor(srv)
		s.BaseURL = base
		if _, err := model.New(s).Chat(context.Background(), model.Request{Messages: user("x")}); err != nil {
			t.Errorf("%s: %v", base, err)
		}
	}
	for _, r := range srv.Requests() {
		if r.Path != "/v1/chat/completions" {
			t.Errorf("path %q", r.Path)
		}
	}
}

// TestConcurrent checks one client serves many goroutines (a run's concurrency).
func TestConcurrent(t *testing.T) {
	srv := start(t, fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Any: "sample-7"}, Reply: fakemodel.Reply{Content: "seven"}},
		{Reply: fakemodel.Reply{Content: "other"}},
	}})
	c := model.New(settingsFor(srv))
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			key := "sample-" + string(rune('0'+i%10))
			resp, err := c.Chat(context.Background(), model.Request{Messages: user("prompt of " + key)})
			want := map[bool]string{true: "seven", false: "other"}[i%10 == 7]
			if err == nil && resp.Content != want {
				err = errors.New(key + ": got " + resp.Content)
			}
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := len(srv.Requests()); n != 16 {
		t.Errorf("%d requests", n)
	}
}

// TestUnreached: only a request that got no HTTP answer at all, and not for want of time, says
// its endpoint was not reached.
func TestUnreached(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String() + "/v1"
	l.Close()
	srv := start(t, fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Last: "busy"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 503, Message: "overloaded"}},
		{Match: fakemodel.Match{Last: "drop"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultDrop}},
		{Match: fakemodel.Match{Last: "slow"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultSlow, DelayMS: 5000}},
	}})
	tests := []struct {
		name, url, prompt string
		unreached         bool
	}{
		{"nothing listens", refused, "hi", true},
		{"an error status", srv.URL(), "busy", false},
		{"an answer broken off", srv.URL(), "drop", false},
		{"no answer in time", srv.URL(), "slow", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := settingsFor(srv)
			s.BaseURL, s.Retries, s.Timeout = tt.url, -1, 200*time.Millisecond
			_, err := model.New(s).Chat(context.Background(), model.Request{Messages: user(tt.prompt)})
			var me *model.Error
			if !errors.As(err, &me) {
				t.Fatalf("error %v, want a *model.Error", err)
			}
			if me.Unreached() != tt.unreached {
				t.Errorf("Unreached() = %v, want %v (%v)", me.Unreached(), tt.unreached, me)
			}
		})
	}
}
