package fakemodel

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Server is the fake endpoint, an http.Handler. It serves, under any path prefix:
// POST …/chat/completions, GET …/models, and for test harnesses GET /_fake/requests (what was
// recorded, as JSON), POST /_fake/script (a new script; counts restart), POST /_fake/reset
// (forget requests and counts) and POST /_fake/batch (a batch input file in, its output file out:
// see AnswerBatch).
type Server struct {
	mu       sync.Mutex
	script   Script
	oracle   Oracle
	counts   []int // requests matched per rule
	requests []Request

	srv *http.Server
	url string
}

// Request is one request the server received, as recorded.
type Request struct {
	// Method and Path are the request line's.
	Method string `json:"method"`
	Path   string `json:"path"`
	// Header is the request's headers, with Authorization's value replaced by "[redacted]".
	Header http.Header `json:"header"`
	// Auth says how the request authenticated: "none" (no Authorization header), "ok" (the
	// script's Key, or any bearer token when the script has none) or "wrong".
	Auth string `json:"auth"`
	// Body is the request's body (never holding the key: the key travels in a header).
	Body []byte `json:"body,omitempty"`
	// Chat is the decoded body of a chat request; nil for others or an undecodable body.
	Chat *ChatRequest `json:"chat,omitempty"`
	// Rule is the index of the rule that answered, -1 for none.
	Rule int `json:"rule"`
	// Fault is the fault kind served, empty for a normal answer.
	Fault string `json:"fault,omitempty"`
	// Generated is the kind of candidate or verdict the script's Generator served, or what the
	// server's Oracle served ("gold" or a behaviour's name); "" for none.
	Generated string `json:"generated,omitempty"`
}

// ChatRequest is a chat-completions request body as the server reads it, for tests to inspect.
type ChatRequest struct {
	// Model is the model named.
	Model string `json:"model"`
	// Messages is the conversation sent.
	Messages []ChatMessage `json:"messages"`
	// Temperature is nil when none was sent.
	Temperature *float64 `json:"temperature"`
	// MaxTokens is 0 when none was sent.
	MaxTokens int `json:"max_tokens"`
	// Tools and ToolChoice are kept as sent (nil when absent).
	Tools      json.RawMessage `json:"tools"`
	ToolChoice json.RawMessage `json:"tool_choice"`
	// Stream says a stream was asked for; StreamOptions is what came with it.
	Stream        bool           `json:"stream"`
	StreamOptions *StreamOptions `json:"stream_options"`
}

// StreamOptions is a request's stream_options.
type StreamOptions struct {
	// IncludeUsage asks for a last event carrying the token usage.
	IncludeUsage bool `json:"include_usage"`
}

// ChatMessage is one message of a ChatRequest.
type ChatMessage struct {
	// Role is the message's role.
	Role string `json:"role"`
	// Content is nil when the message's content was null (an assistant turn with tool calls).
	Content *string `json:"content"`
	// ToolCalls are an assistant turn's calls.
	ToolCalls []SentCall `json:"tool_calls,omitempty"`
	// ToolCallID is what a tool turn answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// SentCall is a tool call inside a sent assistant message.
type SentCall struct {
	// ID, Type ("function") and Function are as the client sent them.
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// text is the message's content, "" when null.
func (m ChatMessage) text() string {
	if m.Content == nil {
		return ""
	}
	return *m.Content
}

// New returns a server for the script.
func New(s Script) (*Server, error) {
	srv := &Server{}
	if err := srv.SetScript(s); err != nil {
		return nil, err
	}
	return srv, nil
}

// Start returns a server for the script listening on 127.0.0.1 at a free port.
func Start(s Script) (*Server, error) {
	srv, err := New(s)
	if err != nil {
		return nil, err
	}
	if err := srv.Listen("127.0.0.1:0"); err != nil {
		return nil, err
	}
	return srv, nil
}

// Listen serves at addr (host:port; port 0 picks a free one) until Close.
func (s *Server) Listen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.url = "http://" + ln.Addr().String() + "/v1"
	go func() { _ = s.srv.Serve(ln) }()
	return nil
}

// URL is the base URL a client should use ("http://127.0.0.1:PORT/v1"), once listening.
func (s *Server) URL() string { return s.url }

// Close stops listening and ends the answers in progress.
func (s *Server) Close() error {
	if s.srv == nil {
		return nil
	}
	return s.srv.Close()
}

// An Oracle answers the chat requests it recognises in place of the script's replies: the
// gold-answering model of the tests (testkit/goldmodel) is one. A rule that matches the request and
// has a fault to serve still serves it first, so a script can put 429s and 500s on an oracle's way.
type Oracle interface {
	// Answer returns the reply to req, or a fault to serve instead of it, and a name for what it
	// served (recorded as Request.Generated); ok is false for a request it does not recognise,
	// which the rules then answer.
	Answer(req *ChatRequest) (reply Reply, fault *Fault, kind string, ok bool)
}

// SetOracle makes o answer the requests it recognises (nil: the rules answer all).
func (s *Server) SetOracle(o Oracle) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oracle = o
}

// SetScript replaces the script; the rules' counts restart.
func (s *Server) SetScript(sc Script) error {
	if err := sc.Validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = sc
	s.counts = make([]int, len(sc.Rules))
	return nil
}

// Requests returns a copy of what was received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Reset forgets the requests received and restarts the rules' counts.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
	s.counts = make([]int, len(s.script.Rules))
}

// maxRecorded bounds the record, so that an endless client cannot grow it without end.
const maxRecorded = 100000

// maxBody bounds a request body.
const maxBody = 8 << 20

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	sc, oracle := s.script, s.oracle
	s.mu.Unlock()

	rec := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Rule: -1}
	rec.Auth = authOf(r.Header.Get("Authorization"), sc.Key)
	if rec.Header.Get("Authorization") != "" {
		rec.Header.Set("Authorization", "[redacted]")
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return
	}
	rec.Body = body

	cors(w, r, sc.NoCORS)
	switch {
	case r.Method == http.MethodOptions:
		s.record(rec)
		if sc.NoCORS {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case r.URL.Path == "/_fake/requests" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Requests())
	case r.URL.Path == "/_fake/script" && r.Method == http.MethodPost:
		next, err := ParseScript(body, "script")
		if err == nil {
			err = s.SetScript(next)
		}
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error(), "invalid_script")
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case r.URL.Path == "/_fake/batch" && r.Method == http.MethodPost:
		out, err := s.AnswerBatch(body)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error(), "invalid_batch")
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		_, _ = w.Write(out)
	case r.URL.Path == "/_fake/reset" && r.Method == http.MethodPost:
		s.Reset()
		w.WriteHeader(http.StatusNoContent)
	case sc.Key != "" && rec.Auth != "ok":
		s.record(rec)
		writeError(w, http.StatusUnauthorized, "Incorrect API key provided.", "invalid_api_key")
	case strings.HasSuffix(r.URL.Path, "/models") && r.Method == http.MethodGet:
		s.record(rec)
		s.models(w, sc)
	case strings.HasSuffix(r.URL.Path, "/chat/completions") && r.Method == http.MethodPost:
		s.chat(w, r, sc, oracle, rec)
	default:
		s.record(rec)
		writeError(w, http.StatusNotFound, fmt.Sprintf("fakemodel: no route for %s %s", r.Method, r.URL.Path), "not_found")
	}
}

// authOf classifies an Authorization header against the expected key.
func authOf(h, key string) string {
	token, ok := strings.CutPrefix(h, "Bearer ")
	switch {
	case h == "":
		return "none"
	case !ok:
		return "wrong"
	case key == "" || token == key:
		return "ok"
	}
	return "wrong"
}

// cors writes what a browser needs to let a page read the answer.
func cors(w http.ResponseWriter, r *http.Request, off bool) {
	if off {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	allow := "Authorization, Content-Type, Accept"
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		allow += ", " + req
	}
	h.Set("Access-Control-Allow-Headers", allow)
	h.Set("Access-Control-Expose-Headers", "Retry-After, Retry-After-Ms")
	h.Set("Access-Control-Max-Age", "600")
}

func (s *Server) record(rec Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) < maxRecorded {
		s.requests = append(s.requests, rec)
	}
}

func (s *Server) models(w http.ResponseWriter, sc Script) {
	if sc.NoModels {
		writeError(w, http.StatusNotFound, "fakemodel: this server offers no model list", "not_found")
		return
	}
	names := sc.Models
	if len(names) == 0 {
		names = []string{"fake-model"}
	}
	type entry struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []entry `json:"data"`
	}{Object: "list"}
	for _, n := range names {
		list.Data = append(list.Data, entry{ID: n, Object: "model", OwnedBy: "fakemodel"})
	}
	writeJSON(w, http.StatusOK, list)
}

// match finds the first rule for the request and counts it; it returns -1 when none matches.
func (s *Server) match(sc Script, req *ChatRequest) (int, *Fault) {
	for i, rule := range sc.Rules {
		if !rule.Match.matches(req) {
			continue
		}
		s.mu.Lock()
		n := 0
		if i < len(s.counts) {
			s.counts[i]++
			n = s.counts[i]
		}
		s.mu.Unlock()
		if f := rule.Fault; f != nil && (f.Times == 0 || n <= f.Times) {
			return i, f
		}
		return i, nil
	}
	return -1, nil
}

func (m Match) matches(req *ChatRequest) bool {
	msgs := req.Messages
	if m.Model != "" && req.Model != m.Model {
		return false
	}
	if m.Stream != nil && *m.Stream != req.Stream {
		return false
	}
	if m.Tools != nil && *m.Tools != hasTools(req.Tools) {
		return false
	}
	if m.Role != "" && (len(msgs) == 0 || msgs[len(msgs)-1].Role != m.Role) {
		return false
	}
	if m.Last != "" {
		last := ""
		for i := len(msgs) - 1; i >= 0; i-- {
			if msgs[i].Role == "user" || msgs[i].Role == "tool" {
				last = msgs[i].text()
				break
			}
		}
		if !strings.Contains(last, m.Last) {
			return false
		}
	}
	if m.Any != "" {
		found := false
		for _, msg := range msgs {
			if strings.Contains(msg.text(), m.Any) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func hasTools(raw json.RawMessage) bool {
	var tools []json.RawMessage
	return json.Unmarshal(raw, &tools) == nil && len(tools) > 0
}

// chat answers a chat request from the script.
func (s *Server) chat(w http.ResponseWriter, r *http.Request, sc Script, oracle Oracle, rec Request) {
	var req ChatRequest
	if err := json.Unmarshal(rec.Body, &req); err != nil {
		s.record(rec)
		writeError(w, http.StatusBadRequest, "fakemodel: the request body is not a chat request: "+err.Error(), "invalid_request_error")
		return
	}
	rec.Chat = &req
	if sc.Generator != nil {
		if reply, kind, ok := sc.Generator.answer(&req); ok {
			rec.Generated = kind
			s.record(rec)
			a := newAnswer(w, r, &req, reply, sc)
			a.send()
			return
		}
	}
	i, fault := s.match(sc, &req)
	rec.Rule = i
	if fault == nil && oracle != nil {
		if reply, f, kind, ok := oracle.Answer(&req); ok {
			rec.Generated = kind
			if f != nil {
				rec.Fault = f.Kind
			}
			s.record(rec)
			a := newAnswer(w, r, &req, reply, sc)
			if f == nil {
				a.send()
			} else {
				a.fault(f, r.Header.Get("Authorization"))
			}
			return
		}
	}
	if fault != nil {
		rec.Fault = fault.Kind
	}
	s.record(rec)
	if i < 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("fakemodel: no rule matches (last message %.80q)", lastText(req.Messages)), "no_rule")
		return
	}
	a := newAnswer(w, r, &req, sc.Rules[i].Reply, sc)
	if fault == nil {
		a.send()
		return
	}
	a.fault(fault, r.Header.Get("Authorization"))
}

// newAnswer is the answer of reply to req, in the script's stream chunks (5 bytes when unset).
func newAnswer(w http.ResponseWriter, r *http.Request, req *ChatRequest, reply Reply, sc Script) *answer {
	a := &answer{w: w, ctx: r.Context(), req: req, reply: reply, chunk: sc.Chunk}
	if a.chunk <= 0 {
		a.chunk = 5
	}
	return a
}

func lastText(msgs []ChatMessage) string {
	if len(msgs) == 0 {
		return ""
	}
	return msgs[len(msgs)-1].text()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes an error in the OpenAI shape, {"error":{"message","type","code"}}.
func writeError(w http.ResponseWriter, status int, msg, code string) {
	var body struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    string `json:"code"`
		} `json:"error"`
	}
	body.Error.Message, body.Error.Code = msg, code
	body.Error.Type = "invalid_request_error"
	if status == http.StatusTooManyRequests {
		body.Error.Type = "rate_limit_error"
	} else if status >= 500 {
		body.Error.Type = "server_error"
	}
	writeJSON(w, status, body)
}

// sleep waits d or until ctx ends; it says whether the wait completed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
