package fakemodel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// answer writes one reply, plain or streamed as the request asked.
type answer struct {
	w     http.ResponseWriter
	ctx   context.Context
	req   *ChatRequest
	reply Reply
	chunk int
	// nest, when set, is sent as every answer's and event's "nest" member (FaultDeep).
	nest json.RawMessage
}

// Limits of an endless answer, so that no test can leave one running for ever.
const (
	endlessBytes = 64 << 20
	endlessTime  = time.Minute
)

// fixedCreated is the "created" time of every answer: answers are deterministic.
const fixedCreated = 1700000000

type wireCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string  `json:"name,omitempty"`
		Arguments *string `json:"arguments,omitempty"`
	} `json:"function"`
}

type wireMessage struct {
	Role      string     `json:"role,omitempty"`
	Content   *string    `json:"content,omitempty"`
	ToolCalls []wireCall `json:"tool_calls,omitempty"`
}

type wireChoice struct {
	Index        int          `json:"index"`
	Message      *wireMessage `json:"message,omitempty"`
	Delta        *wireMessage `json:"delta,omitempty"`
	FinishReason *string      `json:"finish_reason"`
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type wireAnswer struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage,omitempty"`
	// Nest is FaultDeep's extra member: lists nested deep, which a client must read past.
	Nest json.RawMessage `json:"nest,omitempty"`
}

// args is a call's arguments as sent: a JSON string verbatim, anything else as its compact text.
func (c Call) args() string {
	if len(c.Arguments) == 0 {
		return "{}"
	}
	var s string
	if json.Unmarshal(c.Arguments, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if err := json.Compact(&b, c.Arguments); err != nil {
		return string(c.Arguments)
	}
	return b.String()
}

func (c Call) id(i int) string {
	if c.ID != "" {
		return c.ID
	}
	return "call_" + strconv.Itoa(i)
}

func (r Reply) finish() string {
	switch {
	case r.FinishReason != "":
		return r.FinishReason
	case len(r.ToolCalls) > 0:
		return "tool_calls"
	}
	return "stop"
}

// tokens is a deterministic stand-in for a token count: a token per four bytes, rounded up.
func tokens(n int) int { return (n + 3) / 4 }

func (a *answer) usage() *wireUsage {
	in := 0
	for _, m := range a.req.Messages {
		in += len(m.text()) + 4
	}
	out := len(a.reply.Content)
	for _, c := range a.reply.ToolCalls {
		out += len(c.Name) + len(c.args())
	}
	u := &wireUsage{PromptTokens: tokens(in), CompletionTokens: tokens(out)}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

func (a *answer) envelope(object string) wireAnswer {
	model := a.req.Model
	if model == "" {
		model = "fake-model"
	}
	return wireAnswer{ID: "chatcmpl-fake", Object: object, Created: fixedCreated, Model: model, Nest: a.nest}
}

// whole is the plain answer.
func (a *answer) whole() wireAnswer {
	env := a.envelope("chat.completion")
	msg := &wireMessage{Role: "assistant"}
	if a.reply.Content != "" || len(a.reply.ToolCalls) == 0 {
		c := a.reply.Content
		msg.Content = &c
	}
	for i, c := range a.reply.ToolCalls {
		wc := wireCall{ID: c.id(i), Type: "function"}
		wc.Function.Name = c.Name
		args := c.args()
		wc.Function.Arguments = &args
		msg.ToolCalls = append(msg.ToolCalls, wc)
	}
	fin := a.reply.finish()
	env.Choices = []wireChoice{{Message: msg, FinishReason: &fin}}
	env.Usage = a.usage()
	return env
}

// send writes the reply.
func (a *answer) send() {
	if !a.req.Stream {
		writeJSON(a.w, http.StatusOK, a.whole())
		return
	}
	a.startStream()
	for _, ev := range a.events() {
		if !a.event(ev) {
			return
		}
	}
	a.done()
}

// events are the stream events of the reply: a role, the text in pieces, each call's id and name
// and then its arguments in pieces, the finish reason, and the usage when asked for.
func (a *answer) events() []wireAnswer {
	var out []wireAnswer
	delta := func(d *wireMessage, fin *string) {
		env := a.envelope("chat.completion.chunk")
		env.Choices = []wireChoice{{Delta: d, FinishReason: fin}}
		out = append(out, env)
	}
	empty := ""
	delta(&wireMessage{Role: "assistant", Content: &empty}, nil)
	for _, piece := range pieces(a.reply.Content, a.chunk) {
		p := piece
		delta(&wireMessage{Content: &p}, nil)
	}
	for i, c := range a.reply.ToolCalls {
		idx := i
		first := wireCall{Index: &idx, ID: c.id(i), Type: "function"}
		first.Function.Name = c.Name
		first.Function.Arguments = &empty
		delta(&wireMessage{ToolCalls: []wireCall{first}}, nil)
		for _, piece := range pieces(c.args(), a.chunk) {
			p := piece
			frag := wireCall{Index: &idx}
			frag.Function.Arguments = &p
			delta(&wireMessage{ToolCalls: []wireCall{frag}}, nil)
		}
	}
	fin := a.reply.finish()
	delta(&wireMessage{}, &fin)
	if a.req.StreamOptions != nil && a.req.StreamOptions.IncludeUsage {
		env := a.envelope("chat.completion.chunk")
		env.Choices = []wireChoice{}
		env.Usage = a.usage()
		out = append(out, env)
	}
	return out
}

// pieces cuts s into parts of about n bytes, never inside a UTF-8 sequence.
func pieces(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		end := min(n, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

func (a *answer) startStream() {
	h := a.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	a.w.WriteHeader(http.StatusOK)
	a.raw(": fakemodel\n\n") // a comment, as some servers send, that a client must skip
}

// raw writes text to the stream and flushes it; it says whether the client is still there.
func (a *answer) raw(s string) bool {
	if _, err := a.w.Write([]byte(s)); err != nil {
		return false
	}
	if f, ok := a.w.(http.Flusher); ok {
		f.Flush()
	}
	return a.ctx.Err() == nil
}

func (a *answer) event(v any) bool {
	b, _ := json.Marshal(v)
	return a.raw("data: " + string(b) + "\n\n")
}

func (a *answer) done() { a.raw("data: [DONE]\n\n") }

// fault serves a failure instead of the reply.
func (a *answer) fault(f *Fault, auth string) {
	h := a.w.Header()
	if f.RetryAfter != "" {
		h.Set("Retry-After", f.RetryAfter)
	}
	switch f.Kind {
	case FaultRateLimit:
		writeError(a.w, http.StatusTooManyRequests, "fakemodel: rate limit reached, slow down", "rate_limit_exceeded")
	case FaultServerError:
		writeError(a.w, http.StatusInternalServerError, "fakemodel: the server had an error", "server_error")
	case FaultStatus:
		msg := f.Message
		if msg == "" {
			msg = http.StatusText(f.Status)
		}
		writeError(a.w, f.Status, msg, "scripted")
	case FaultLeakKey:
		writeError(a.w, http.StatusUnauthorized, "Incorrect API key provided: "+auth, "invalid_api_key")
	case FaultSlow:
		if sleep(a.ctx, time.Duration(f.DelayMS)*time.Millisecond) {
			a.send()
		}
	case FaultMalformed:
		a.malformed()
	case FaultOversize:
		size := f.Size
		if size == 0 {
			size = 2 << 20
		}
		a.reply = Reply{Content: filler(size), FinishReason: "stop"}
		a.chunk = 4096
		a.send()
	case FaultDrop:
		a.drop()
	case FaultEndless:
		a.endless(time.Duration(f.DelayMS) * time.Millisecond)
	case FaultCut:
		a.cut()
	case FaultTrickle:
		pause := time.Duration(f.DelayMS) * time.Millisecond
		if pause <= 0 {
			pause = time.Second
		}
		a.trickle(pause)
	case FaultDeep:
		depth := f.Size
		if depth <= 0 {
			depth = 5000
		}
		a.deep(depth)
	}
}

// filler is n bytes of readable text: "0123456789" over and over.
func filler(n int) string {
	return strings.Repeat("0123456789", n/10+1)[:n]
}

// malformed answers 200 with broken JSON: a whole body, or in a stream one good event and one bad.
func (a *answer) malformed() {
	if !a.req.Stream {
		a.w.Header().Set("Content-Type", "application/json")
		a.w.WriteHeader(http.StatusOK)
		_, _ = a.w.Write([]byte(`{"id":"chatcmpl-fake","choices":[{"message":{"content":"hi"}}]]]` + "\n"))
		return
	}
	a.startStream()
	evs := a.events()
	if a.event(evs[0]) {
		a.raw("data: {\"choices\":[{\"delta\":{\"content\":\"oops\"\n\n")
		a.done()
	}
}

// drop starts the answer and breaks the connection off: the client sees an unexpected end.
func (a *answer) drop() {
	if !a.req.Stream {
		body, _ := json.Marshal(a.whole())
		a.w.Header().Set("Content-Type", "application/json")
		a.w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		a.w.WriteHeader(http.StatusOK)
		_, _ = a.w.Write(body[:len(body)/2])
		if f, ok := a.w.(http.Flusher); ok {
			f.Flush()
		}
		panic(http.ErrAbortHandler)
	}
	a.startStream()
	evs := a.events()
	for _, ev := range evs[:min(2, len(evs))] {
		a.event(ev)
	}
	panic(http.ErrAbortHandler)
}

// endless sends text until the client leaves, or the limits.
func (a *answer) endless(pause time.Duration) {
	deadline := time.Now().Add(endlessTime)
	sent := 0
	more := func() bool { return sent < endlessBytes && time.Now().Before(deadline) && a.ctx.Err() == nil }
	if !a.req.Stream {
		a.w.Header().Set("Content-Type", "application/json")
		a.w.WriteHeader(http.StatusOK)
		a.raw(`{"id":"chatcmpl-fake","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"`)
		piece := filler(4096)
		for more() {
			if !a.raw(piece) || !sleep(a.ctx, pause) {
				return
			}
			sent += len(piece)
		}
		panic(http.ErrAbortHandler)
	}
	a.startStream()
	for n := 0; more(); n++ {
		env := a.envelope("chat.completion.chunk")
		p := fmt.Sprintf("%d ", n)
		env.Choices = []wireChoice{{Delta: &wireMessage{Content: &p}}}
		b, _ := json.Marshal(env)
		if !a.raw("data: "+string(b)+"\n\n") || !sleep(a.ctx, pause) {
			return
		}
		sent += len(b) + 8
	}
	panic(http.ErrAbortHandler)
}

// text is the whole answer as it goes on the wire: the plain body, or every line of the stream.
func (a *answer) text() []byte {
	if !a.req.Stream {
		b, _ := json.Marshal(a.whole())
		return b
	}
	var b bytes.Buffer
	b.WriteString(": fakemodel\n\n")
	for _, ev := range a.events() {
		e, _ := json.Marshal(ev)
		b.WriteString("data: ")
		b.Write(e)
		b.WriteString("\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// head writes the status and content type of the answer the request asked for.
func (a *answer) head() {
	if a.req.Stream {
		a.w.Header().Set("Content-Type", "text/event-stream")
	} else {
		a.w.Header().Set("Content-Type", "application/json")
	}
	a.w.WriteHeader(http.StatusOK)
}

// cut sends the first half of the answer and ends it cleanly (no error, no [DONE]).
func (a *answer) cut() {
	if !a.req.Stream {
		body := a.text()
		a.head()
		a.raw(string(body[:len(body)/2]))
		return
	}
	a.startStream()
	evs := a.events()
	for _, ev := range evs[:len(evs)/2] {
		if !a.event(ev) {
			return
		}
	}
}

// trickle sends the answer a byte at a time, pause apart, for at most a minute.
func (a *answer) trickle(pause time.Duration) {
	body := a.text()
	a.head()
	deadline := time.Now().Add(endlessTime)
	for i := 0; i < len(body) && time.Now().Before(deadline); i++ {
		if !a.raw(string(body[i:i+1])) || !sleep(a.ctx, pause) {
			return
		}
	}
}

// deep answers with JSON nested depth deep: in the body (an extra member) and in the reply (its
// text, or its first call's arguments).
func (a *answer) deep(depth int) {
	nest := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	a.nest = json.RawMessage(nest)
	if len(a.reply.ToolCalls) > 0 {
		c := a.reply.ToolCalls[0]
		args, _ := json.Marshal(strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth))
		c.Arguments = args
		a.reply.ToolCalls = []Call{c}
	} else {
		a.reply.Content = "[Tool(a=" + nest + ")]"
	}
	a.chunk = 4096
	a.send()
}
