package model

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Client talks to one endpoint with one model. It is safe for concurrent use: a run sends its
// requests through one Client from several goroutines.
type Client struct {
	s         Settings
	chatURL   string
	modelsURL string
	host      string
	bad       error    // what is wrong with the settings, reported by every call
	secrets   []string // texts no error may show: the key, secret header values

	transport Transport
	clock     Clock
	rand      func() float64
}

// New returns a client for the settings, with defaults filled in (see [Settings]). Settings that
// cannot work (see [Settings.Validate]) make every call fail with an *Error saying why, without a
// request.
func New(s Settings, opts ...Option) *Client {
	c := &Client{s: s.withDefaults(), transport: defaultTransport(), clock: realClock{}, rand: defaultRand}
	for _, o := range opts {
		o(c)
	}
	c.bad = s.Validate()
	c.secrets = s.secrets()
	if c.bad == nil {
		base := endpointRoot(s.BaseURL)
		c.chatURL, c.modelsURL = base+"/chat/completions", base+"/models"
		u, _ := url.Parse(base)
		c.host = u.Host
	}
	return c
}

// Validate says what in the settings cannot work, or nil: the base URL must be an absolute http or
// https URL, the model must be named, limits must not be negative.
func (s Settings) Validate() error {
	u, err := url.Parse(strings.TrimSpace(s.BaseURL))
	switch {
	case strings.TrimSpace(s.BaseURL) == "":
		return errors.New("model: the base URL is empty")
	case err != nil:
		return fmt.Errorf("model: the base URL is not a URL: %v", scrubErr(err, s.secrets()))
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("model: the base URL must start with http:// or https://")
	case u.Host == "":
		return errors.New("model: the base URL has no host")
	case strings.TrimSpace(s.Model) == "":
		return errors.New("model: no model is named")
	case s.MaxTokens < 0:
		return fmt.Errorf("model: max tokens is negative (%d)", s.MaxTokens)
	}
	return nil
}

// BaseURL is the endpoint's root the client sends to, as its settings gave it.
func (c *Client) BaseURL() string { return c.s.BaseURL }

// endpointRoot trims what users paste after the root: spaces, a trailing slash, the chat path.
func endpointRoot(base string) string {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	base = strings.TrimSuffix(base, "/chat/completions")
	return strings.TrimRight(base, "/")
}

// Chat sends the request and returns the model's answer. A failed request returns an *Error once
// its retries are spent; when ctx ends first it returns ctx's error (context.Canceled after a
// cancel), so that a run can tell a stop from a failure.
func (c *Client) Chat(ctx context.Context, r Request) (Response, error) {
	if c.bad != nil {
		return Response{}, c.settingsError()
	}
	body, err := Body(c.s, r)
	if err != nil { // only a Tool's Parameters can fail: they are raw JSON
		return Response{}, &Error{Host: c.host, Message: "the request cannot be encoded: " + redact(err.Error(), c.secrets)}
	}
	resp, n, err := retrying(ctx, c, func(ctx context.Context) (Response, *failure) {
		return c.chatOnce(ctx, body)
	})
	resp.Attempts = n
	return resp, err
}

// Models lists the model names the endpoint offers (GET /models), to check a connection and a
// model name before a run. Not every server offers the list; a 404 is then an *Error like any other.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	if c.bad != nil {
		return nil, c.settingsError()
	}
	ids, _, err := retrying(ctx, c, c.modelsOnce)
	return ids, err
}

// settingsError reports invalid settings as an *Error, without a request.
func (c *Client) settingsError() error {
	return &Error{Message: strings.TrimPrefix(c.bad.Error(), "model: "), Host: c.host, cause: c.bad}
}

// failure is one failed attempt.
type failure struct {
	status  int
	message string
	kind    string
	cause   error
	retry   bool
	after   time.Duration // what the server asked to wait; -1 when nothing
	// unreached: the request got no HTTP answer at all, and not for want of time (see
	// Error.Unreached).
	unreached bool
}

// retrying runs attempt until it succeeds, fails for good, or ctx ends; it returns the result, the
// number of attempts and the error.
func retrying[T any](ctx context.Context, c *Client, attempt func(context.Context) (T, *failure)) (T, int, error) {
	var zero T
	for n := 0; ; n++ {
		v, f := attempt(ctx)
		if f == nil {
			return v, n + 1, nil
		}
		if err := ctx.Err(); err != nil {
			return zero, n + 1, err
		}
		if !f.retry || n >= c.s.Retries {
			return zero, n + 1, c.errorOf(f, n+1)
		}
		if f.after > MaxRetryAfter {
			f.message += fmt.Sprintf(" (the server asks to retry after %s, longer than %s)", f.after.Round(time.Second), MaxRetryAfter)
			return zero, n + 1, c.errorOf(f, n+1)
		}
		if err := c.clock.Sleep(ctx, c.backoff(n, f.after)); err != nil {
			return zero, n + 1, err
		}
	}
}

// errorOf turns the last failure into the *Error returned, scrubbed of the key.
func (c *Client) errorOf(f *failure, attempts int) *Error {
	e := &Error{
		Status:    f.status,
		Message:   redact(f.message, c.secrets),
		Type:      redact(f.kind, c.secrets),
		Host:      c.host,
		Attempts:  attempts,
		unreached: f.unreached,
	}
	if f.cause != nil {
		e.cause = scrubErr(f.cause, c.secrets)
	}
	return e
}

// newRequest builds one attempt's request with the client's headers.
func (c *Client) newRequest(method, target string, body []byte, accept string) *HTTPRequest {
	req := &HTTPRequest{Method: method, URL: target, Body: body}
	if body != nil {
		req.Header = append(req.Header, HeaderField{"Content-Type", "application/json"})
	}
	req.Header = append(req.Header, HeaderField{"Accept", accept})
	if c.s.APIKey != "" {
		req.Header = append(req.Header, HeaderField{"Authorization", "Bearer " + c.s.APIKey})
	}
	for k, v := range c.s.Headers {
		req.Header = append(req.Header, HeaderField{k, v})
	}
	return req
}

// send makes one attempt's request; a non-2xx answer or no answer is a failure.
func (c *Client) send(ctx context.Context, method, target string, body []byte, accept string) (*HTTPResponse, *failure) {
	res, err := c.transport.Send(ctx, c.newRequest(method, target, body, accept))
	if err != nil {
		f := c.noAnswer(ctx, err)
		f.unreached = ctx.Err() == nil && !errors.Is(f.cause, context.DeadlineExceeded)
		return nil, f
	}
	if res.Status < 200 || res.Status > 299 {
		defer res.Body.Close()
		return nil, c.statusFailure(res)
	}
	return res, nil
}

// noAnswer is a failure without an HTTP answer (or with an answer broken off): retried.
func (c *Client) noAnswer(ctx context.Context, err error) *failure {
	msg := err.Error()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		msg = fmt.Sprintf("no complete answer within %s", c.s.Timeout)
		err = context.DeadlineExceeded
	}
	return &failure{message: msg, cause: err, retry: true, after: -1}
}

// errorBodyBytes bounds what is read of an error answer.
const errorBodyBytes = 64 << 10

// statusFailure reads an error answer: its status, the provider's message and Retry-After.
func (c *Client) statusFailure(res *HTTPResponse) *failure {
	body, _ := io.ReadAll(io.LimitReader(res.Body, errorBodyBytes))
	msg, kind := providerMessage(body)
	if msg == "" {
		msg = statusText(res.Status)
	}
	return &failure{
		status:  res.Status,
		message: msg,
		kind:    kind,
		retry:   retryableStatus(res.Status),
		after:   retryAfter(res.Header, c.clock.Now()),
	}
}

// providerMessage finds the message in an error body: {"error":{"message"}} (OpenAI and most),
// {"error":"..."}, {"message":...} or {"detail":...} (FastAPI servers such as vLLM), else the
// body's text, shortened.
func providerMessage(body []byte) (msg, kind string) {
	var v struct {
		Error   *wireError      `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		switch {
		case v.Error != nil && v.Error.Message != "":
			return v.Error.Message, v.Error.kind()
		case v.Message != "":
			return v.Message, ""
		case len(v.Detail) > 0:
			var s string
			if json.Unmarshal(v.Detail, &s) == nil {
				return s, ""
			}
			return shorten(string(v.Detail)), ""
		}
	}
	return shorten(string(body)), ""
}

// shorten makes untrusted text fit an error line: control characters and runs of space become one
// space, and it is cut to 300 characters.
func shorten(s string) string {
	var b strings.Builder
	space := false
	n := 0
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if n == 300 {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// chatOnce is one attempt of a chat request, bounded by the timeout.
func (c *Client) chatOnce(ctx context.Context, body []byte) (Response, *failure) {
	actx, cancel := context.WithTimeout(ctx, c.s.Timeout)
	defer cancel()
	accept := "application/json"
	if c.s.Stream {
		accept = "text/event-stream"
	}
	res, f := c.send(actx, "POST", c.chatURL, body, accept)
	if f != nil {
		return Response{}, f
	}
	defer res.Body.Close()
	cr := &capReader{r: res.Body, left: c.s.MaxResponseBytes}
	br := bufio.NewReaderSize(cr, 32<<10)
	if c.s.Stream && !startsJSON(br) {
		return c.readStream(actx, br, cr)
	}
	return c.readJSON(actx, br, cr)
}

// startsJSON says whether the body begins (after white space) with a JSON object: an endpoint
// asked to stream may answer plain JSON, which is read as such.
func startsJSON(br *bufio.Reader) bool {
	for {
		b, err := br.ReadByte()
		if err != nil {
			return false
		}
		if b == ' ' || b == '\t' || b == '\r' || b == '\n' {
			continue
		}
		_ = br.UnreadByte()
		return b == '{'
	}
}

// readJSON reads a plain (not streamed) answer.
func (c *Client) readJSON(ctx context.Context, br *bufio.Reader, cr *capReader) (Response, *failure) {
	data, err := io.ReadAll(br)
	switch {
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return c.cutJSON(data, CutTimeout), nil // begun, still coming at the timeout: a trickle
	case err != nil:
		return Response{}, c.noAnswer(ctx, err)
	case cr.hit:
		return c.cutJSON(data, CutSize), nil
	}
	return decodeAnswer(data)
}

// cutJSON is the answer of a plain body cut by why: what of it can be read, marked as cut.
func (c *Client) cutJSON(data []byte, why string) Response {
	var w wireResponse
	resp := Response{}
	if json.Unmarshal(closeJSON(data), &w) == nil && w.Error == nil {
		resp = fromWire(w)
	}
	return c.markCut(resp, why)
}

// markCut marks an answer as cut by why, with the limit that cut it.
func (c *Client) markCut(r Response, why string) Response {
	r.Truncated, r.TruncatedBy = true, why
	if why == CutSize {
		r.Limit = strconv.Itoa(c.s.MaxResponseBytes) + " bytes"
	} else {
		r.Limit = c.s.Timeout.String()
	}
	return r
}

// decodeAnswer reads a whole plain answer body: the answer, or the failure its body reports (an
// error object inside it, or text that is not JSON).
func decodeAnswer(data []byte) (Response, *failure) {
	var w wireResponse
	if err := json.Unmarshal(data, &w); err != nil {
		return Response{}, malformed("the answer is not valid JSON", err, data)
	}
	if w.Error != nil {
		return Response{}, inBandError(w.Error)
	}
	return fromWire(w), nil
}

// DecodeResponse reads a chat-completions answer body that came by another way than Chat (a
// line of a batch output file) exactly as Chat reads a plain answer: the same translation, the
// same reading of an error object inside the body. An answer Chat would have failed is an *Error
// whose Status is the error's HTTP status when it gives one (else 200, the status the body came
// with), and whose Host is host.
func DecodeResponse(body []byte, host string) (Response, error) {
	r, f := decodeAnswer(body)
	if f != nil {
		return Response{}, &Error{Status: f.status, Message: f.message, Type: f.kind, Host: host, Attempts: 1}
	}
	r.Attempts = 1
	return r, nil
}

// malformed is an answer that is not JSON: not retried (the same server would say the same).
func malformed(what string, err error, data []byte) *failure {
	head := data
	if len(head) > 80 {
		head = head[:80]
	}
	return &failure{status: 200, message: fmt.Sprintf("%s (%v), it begins %q", what, err, head), after: -1}
}

// inBandError is an error object inside a 2xx answer or a stream. Its code, when it is an HTTP
// status, says whether to retry.
func inBandError(e *wireError) *failure {
	status := e.status()
	msg := e.Message
	if msg == "" {
		msg = "the endpoint reported an error without a message"
	}
	f := &failure{status: 200, message: msg, kind: e.kind(), after: -1}
	if status != 0 {
		f.status, f.retry = status, retryableStatus(status)
	}
	return f
}

// fromWire translates a plain answer.
func fromWire(w wireResponse) Response {
	r := Response{Model: w.Model}
	if w.Usage != nil {
		r.Usage = *w.Usage
	}
	if len(w.Choices) == 0 {
		return r
	}
	ch := w.Choices[0]
	r.Content = string(ch.Message.Content)
	if ch.FinishReason != nil {
		r.FinishReason = *ch.FinishReason
	}
	for i, tc := range ch.Message.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: callID(tc.ID, i), Name: tc.Function.Name, Arguments: string(tc.Function.Arguments)})
	}
	return r
}

// callID names a tool call the endpoint left unnamed (some local servers do), so that its result
// can still be sent back with a tool_call_id.
func callID(id string, i int) string {
	if id != "" {
		return id
	}
	return "call_" + strconv.Itoa(i)
}

// modelsOnce is one attempt of GET /models.
func (c *Client) modelsOnce(ctx context.Context) ([]string, *failure) {
	actx, cancel := context.WithTimeout(ctx, c.s.Timeout)
	defer cancel()
	res, f := c.send(actx, "GET", c.modelsURL, nil, "application/json")
	if f != nil {
		return nil, f
	}
	defer res.Body.Close()
	data, err := io.ReadAll(&capReader{r: res.Body, left: c.s.MaxResponseBytes})
	if err != nil {
		return nil, c.noAnswer(actx, err)
	}
	var w wireModels
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, malformed("the model list is not valid JSON", err, data)
	}
	ids := make([]string, 0, len(w.Data))
	for _, m := range w.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// capReader reads at most left bytes and then reports EOF; hit says the body had more.
type capReader struct {
	r    io.Reader
	left int
	hit  bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		if c.hit {
			return 0, io.EOF
		}
		var probe [1]byte
		n, err := io.ReadAtLeast(c.r, probe[:], 1)
		if n > 0 {
			c.hit = true
			return 0, io.EOF
		}
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		return 0, err
	}
	if len(p) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= n
	return n, err
}
