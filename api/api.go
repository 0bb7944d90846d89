// Package api is the playground's HTTP API, /api/v1: scoring prediction files, ROUGE-L, the tool
// catalogs as function-calling schemas, the prompts of every sample, the dataset's sizes, a health
// check and the OpenAPI document that describes them all.
//
// It is a translation and nothing more: each handler turns an HTTP request into engine protocol
// requests and the engine's answers into HTTP responses, so the API judges exactly as the CLI and
// the browser tab do. The engine comes from a Pool (wazero instances on the server, the engine
// compiled in on the Cloudflare Worker), so this package imports no runtime and builds for GOOS=js.
package api

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/protocol"
)

// Pool hands out engine sessions for one request each.
type Pool interface {
	// Acquire returns a transport to a fresh engine session (one no earlier request touched) and the
	// function to call when the request is done with it: dead is true when the transport failed, so
	// the pool discards what is behind it. Acquire waits for a session until ctx ends.
	Acquire(ctx context.Context) (protocol.Transport, func(dead bool), error)
}

// Limits bound what one request may cost; a zero field takes its default (DefaultLimits).
type Limits struct {
	// MaxBody is the largest request body in bytes (413 above it).
	MaxBody int64
	// MaxLines is the most prediction lines (or ROUGE pairs) of one request (413 above it).
	MaxLines int
	// Timeout bounds a request's work from the end of its body (408 past it; the engine call is
	// stopped). Waiting for a free engine counts, and ends in 503 instead.
	Timeout time.Duration
	// MaxConcurrent is the most requests the API works on or queues at once (503 above it).
	MaxConcurrent int
	// RetryAfter is what a 503 tells the client to wait.
	RetryAfter time.Duration
}

// DefaultLimits are the production limits: a 16 MiB body holds the original benchmark's whole data
// folder and its 4,311 oracle predictions with room to spare.
func DefaultLimits() Limits {
	return Limits{MaxBody: 16 << 20, MaxLines: 50_000, Timeout: 20 * time.Second, MaxConcurrent: 64, RetryAfter: time.Second}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBody <= 0 {
		l.MaxBody = d.MaxBody
	}
	if l.MaxLines <= 0 {
		l.MaxLines = d.MaxLines
	}
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	if l.MaxConcurrent <= 0 {
		l.MaxConcurrent = d.MaxConcurrent
	}
	if l.RetryAfter <= 0 {
		l.RetryAfter = d.RetryAfter
	}
	return l
}

// Paths are the URL paths the handler answers (anything under Prefix is its too, with 404 for the
// unknown ones), for a host that mounts it beside other routes.
const (
	Prefix     = "/api/"
	HealthPath = "/healthz"
)

//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the OpenAPI 3.1 document of the API (what GET /api/v1/openapi.json answers).
func OpenAPI() []byte { return append([]byte(nil), openAPI...) }

// handler is the API: its routes, the pool and the limits.
type handler struct {
	pool   Pool
	limits Limits
	gate   chan struct{}
	routes map[string]map[string]http.HandlerFunc // path -> method -> handler
	// classes serves ClassesPath and below when a store is given (WithClasses).
	classes *classes
	// board serves BoardPath and below when a store is given (WithBoard).
	board *boardAPI
}

// New returns the API's handler. It answers Health and every path under Prefix; mount it for both.
func New(pool Pool, limits Limits, opts ...Option) http.Handler {
	h := &handler{pool: pool, limits: limits.withDefaults()}
	for _, o := range opts {
		o(h)
	}
	h.gate = make(chan struct{}, h.limits.MaxConcurrent)
	h.routes = map[string]map[string]http.HandlerFunc{
		HealthPath:             {http.MethodGet: h.health},
		"/api/v1/openapi.json": {http.MethodGet: h.openapi},
		"/api/v1/score":        {http.MethodPost: h.gated(h.score)},
		"/api/v1/rouge":        {http.MethodPost: h.gated(h.rouge)},
		"/api/v1/catalog":      {http.MethodGet: h.gated(h.catalog)},
		"/api/v1/prompts":      {http.MethodGet: h.gated(h.prompts)},
		"/api/v1/dataset":      {http.MethodGet: h.gated(h.dataset)},
	}
	return h
}

// ServeHTTP routes by path and method: 404 for an unknown path, 405 with Allow for a method the
// path does not take (HEAD goes where GET does).
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.classes != nil && (r.URL.Path == ClassesPath || strings.HasPrefix(r.URL.Path, ClassesPath+"/")) {
		h.serveClasses(w, r)
		return
	}
	if h.board != nil && (r.URL.Path == BoardPath || strings.HasPrefix(r.URL.Path, BoardPath+"/")) {
		h.serveBoard(w, r)
		return
	}
	methods, ok := h.routes[r.URL.Path]
	if !ok {
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no API endpoint %s (the endpoints are listed at /api/v1/openapi.json)", r.URL.Path), 0)
		return
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	f, ok := methods[method]
	if !ok {
		allow := make([]string, 0, len(methods)+1)
		for m := range methods {
			allow = append(allow, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
		sort.Strings(allow)
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, http.StatusMethodNotAllowed, CodeMethodNotAllowed, fmt.Sprintf("%s takes %s, not %s", r.URL.Path, strings.Join(allow, ", "), r.Method), 0)
		return
	}
	f(w, r)
}

// gated admits a request while fewer than MaxConcurrent are in, else answers 503 at once, and gives
// it the time limit.
func (h *handler) gated(f http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case h.gate <- struct{}{}:
			defer func() { <-h.gate }()
		default:
			h.busy(w, fmt.Sprintf("the API is working on %d requests, its limit", h.limits.MaxConcurrent))
			return
		}
		f(w, r)
	}
}

// busy answers 503 with Retry-After.
func (h *handler) busy(w http.ResponseWriter, why string) {
	secs := int((h.limits.RetryAfter + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", fmt.Sprint(secs))
	writeError(w, http.StatusServiceUnavailable, CodeBusy, fmt.Sprintf("%s; try again in %d s", why, secs), 0)
}

// Error codes of the API's answers ({"error": {"code", "message", "line"?}}).
const (
	// CodeBadRequest (400): the request is malformed; the message says what and where.
	CodeBadRequest = protocol.CodeBadRequest
	// CodeNotFound (404): no such endpoint, or the engine found no such dialogue or sample.
	CodeNotFound = protocol.CodeNotFound
	// CodeMethodNotAllowed (405): the endpoint takes other methods (see Allow).
	CodeMethodNotAllowed = "method_not_allowed"
	// CodeTimeout (408): the body did not arrive, or the work did not finish, within the limit.
	CodeTimeout = "timeout"
	// CodeTooLarge (413): the body or its number of lines is over the limit.
	CodeTooLarge = "too_large"
	// CodeBusy (503): too many requests at once, or no engine free in time; see Retry-After.
	CodeBusy = "busy"
	// CodeInternal (500): the engine failed; the message locates the defect.
	CodeInternal = protocol.CodeInternal
)

// Error is the body of every error answer.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Line is the line of the body the error is about, when it is about one.
	Line int `json:"line,omitempty"`
}

// writeError answers {"error": {...}} with status.
func writeError(w http.ResponseWriter, status int, code, message string, line int) {
	writeJSON(w, status, struct {
		Error Error `json:"error"`
	}{Error{Code: code, Message: message, Line: line}})
}

// writeJSON answers v as JSON (no HTML escaping: the answers carry code and texts as they are).
func writeJSON(w http.ResponseWriter, status int, v any) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		b.Reset()
		fmt.Fprintf(&b, `{"error":{"code":%q,"message":%q}}`+"\n", CodeInternal, "answer not encodable: "+err.Error())
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(b.String()))
}

// engineError answers an error of an engine call: the engine's refusal with its own status, a
// deadline as 408, anything else (a dead instance) as 500.
func (h *handler) engineError(w http.ResponseWriter, ctx context.Context, err error) {
	var pe *protocol.Error
	switch {
	case errors.As(err, &pe) && pe.Code == protocol.CodeBadRequest:
		writeError(w, http.StatusBadRequest, CodeBadRequest, pe.Message, 0)
	case errors.As(err, &pe) && pe.Code == protocol.CodeNotFound:
		writeError(w, http.StatusNotFound, CodeNotFound, pe.Message, 0)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		writeError(w, http.StatusRequestTimeout, CodeTimeout, fmt.Sprintf("the work took longer than the %s limit and was stopped", h.limits.Timeout), 0)
	case errors.As(err, &pe):
		writeError(w, http.StatusInternalServerError, CodeInternal, pe.Message, 0)
	default:
		writeError(w, http.StatusInternalServerError, CodeInternal, "the engine failed: "+err.Error(), 0)
	}
}

// session is one request's engine: its transport, released once.
type session struct {
	do      protocol.Transport
	release func(dead bool)
	dead    bool
}

// acquire gets a fresh engine session for the request, or answers 503.
func (h *handler) acquire(w http.ResponseWriter, ctx context.Context) (*session, bool) {
	do, release, err := h.pool.Acquire(ctx)
	if err != nil {
		h.busy(w, "no engine is free: "+err.Error())
		return nil, false
	}
	return &session{do: do, release: release}, true
}

// call sends one request; a transport failure marks the session dead. An answer that came after
// the deadline (from an engine a deadline does not stop) is the deadline's error all the same.
func call[T any](ctx context.Context, s *session, req protocol.Request) (T, error) {
	out, err := protocol.Call[T](ctx, s.transport, req)
	if err == nil && ctx.Err() != nil {
		var zero T
		return zero, ctx.Err()
	}
	return out, err
}

// transport is the session's transport, marking it dead when it fails.
func (s *session) transport(ctx context.Context, b []byte) ([]byte, error) {
	resp, err := s.do(ctx, b)
	if err != nil {
		s.dead = true
	}
	return resp, err
}

// done releases the session (once).
func (s *session) done() {
	if s.release != nil {
		s.release(s.dead)
		s.release = nil
	}
}

// answerTime is what work leaves for writing its answer after the work's time limit.
const answerTime = 10 * time.Second

// work runs f with a fresh engine session within the time limit, answering errors itself;
// unbounded marks the request for the pool (see Unbounded).
func (h *handler) work(w http.ResponseWriter, r *http.Request, unbounded bool, f func(ctx context.Context, s *session) error) {
	ctx := r.Context()
	if unbounded {
		ctx = markUnbounded(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, h.limits.Timeout)
	defer cancel()
	// The connection's write deadline (the server's, 30 s by default) must not end the answer before
	// the work's own limit does: a limit set above it (--api-timeout) would otherwise cut a slow
	// answer off with no word, where the client is owed the result or a 408.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(h.limits.Timeout + answerTime))
	s, ok := h.acquire(w, ctx)
	if !ok {
		return
	}
	defer s.done()
	if err := f(ctx, s); err != nil {
		h.engineError(w, ctx, err)
	}
}

func (h *handler) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(openAPI)
}

// health answers 200 when an engine session can be had and says hello within two seconds.
func (h *handler) health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	s, ok := h.acquire(w, ctx)
	if !ok {
		return
	}
	defer s.done()
	hello, err := call[protocol.Hello](ctx, s, protocol.Request{Op: protocol.OpHello})
	if err != nil {
		s.done()
		h.busy(w, "the engine did not answer: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, Health{Status: "ok", Engine: hello.Engine, Protocol: hello.Protocol, Data: hello.Data})
}

// Health is the answer of GET /healthz.
type Health struct {
	Status   string `json:"status"`
	Engine   string `json:"engine"`
	Protocol int    `json:"protocol"`
	Data     string `json:"data"`
}

func (h *handler) dataset(w http.ResponseWriter, r *http.Request) {
	h.work(w, r, false, func(ctx context.Context, s *session) error {
		st, err := call[protocol.Stats](ctx, s, protocol.Request{Op: protocol.OpStats})
		if err != nil {
			return err
		}
		s.done()
		writeJSON(w, http.StatusOK, st)
		return nil
	})
}

// CatalogAnswer is what GET /api/v1/catalog answers: a catalog's tools as the `tools` array of an
// OpenAI-compatible chat request.
type CatalogAnswer struct {
	Catalog string          `json:"catalog"`
	Tools   json.RawMessage `json:"tools"`
}

func (h *handler) catalog(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	if name == "" {
		name = "apis"
	}
	h.work(w, r, false, func(ctx context.Context, s *session) error {
		c, err := call[protocol.Catalog](ctx, s, protocol.Request{Op: protocol.OpCatalog, Catalog: name, Form: "native"})
		if err != nil {
			return err
		}
		s.done()
		writeJSON(w, http.StatusOK, CatalogAnswer{Catalog: c.Catalog, Tools: c.Schemas})
		return nil
	})
}
