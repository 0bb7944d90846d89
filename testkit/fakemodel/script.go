// Package fakemodel is a scripted OpenAI-compatible chat-completions server for tests: it answers
// from a list of rules, deterministically, streamed or not, with CORS as a browser needs it, and
// on demand fails the ways real endpoints fail (rate limits, server errors, slow, malformed,
// oversized or endless answers, dropped connections). It records what it was sent, without the
// API key, so that tests can check what a client sent.
//
// It speaks the wire format on its own, without the model package's code, so that a client test
// against it checks the client against the format, not against itself.
package fakemodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Script is what the server answers. Its JSON form is what cmd/fakemodel reads.
type Script struct {
	// Rules are tried in order; the first that matches a chat request answers it.
	Rules []Rule `json:"rules"`
	// Models is what GET /models lists; empty means ["fake-model"].
	Models []string `json:"models,omitempty"`
	// NoModels makes GET /models answer 404, as servers without the list do.
	NoModels bool `json:"no_models,omitempty"`
	// NoCORS leaves out every CORS header (and refuses preflights), as a server a browser cannot
	// call does.
	NoCORS bool `json:"no_cors,omitempty"`
	// Key, when set, is the API key every request must carry ("Authorization: Bearer <Key>"); a
	// request without it gets 401. Empty accepts any request.
	Key string `json:"key,omitempty"`
	// Chunk is how many bytes of text (content or arguments) one stream event carries; 0 means 5,
	// so that even short arguments arrive in several pieces.
	Chunk int `json:"chunk,omitempty"`
	// Generator, when set, answers synthesis and judge requests before the rules (see Generator).
	Generator *Generator `json:"generator,omitempty"`
}

// Rule answers the chat requests it matches.
type Rule struct {
	// Match says which requests the rule answers; the empty Match answers all.
	Match Match `json:"match"`
	// Reply is the answer, once the fault (if any) has had its turns.
	Reply Reply `json:"reply"`
	// Fault, when set, fails the rule's first Fault.Times requests (or all of them) instead of
	// answering.
	Fault *Fault `json:"fault,omitempty"`
}

// Match selects requests. Every condition that is set must hold.
type Match struct {
	// Last is a substring of the last user or tool message.
	Last string `json:"last,omitempty"`
	// Role is the role of the request's final message ("user", "tool", ...).
	Role string `json:"role,omitempty"`
	// Any is a substring of any message's content: a sample key a test planted in the prompt.
	Any string `json:"any,omitempty"`
	// Tools, when set, says whether the request must offer tools (native form) or not (text form).
	Tools *bool `json:"tools,omitempty"`
	// Stream, when set, says whether the request must ask for a stream.
	Stream *bool `json:"stream,omitempty"`
	// Model is the model the request must name.
	Model string `json:"model,omitempty"`
}

// Reply is an answer.
type Reply struct {
	// Content is the answer's text.
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls the answer makes.
	ToolCalls []Call `json:"tool_calls,omitempty"`
	// FinishReason is sent as is; empty means "tool_calls" when there are calls, else "stop".
	FinishReason string `json:"finish_reason,omitempty"`
}

// Call is a tool call of a reply.
type Call struct {
	// ID is the call's id; empty means "call_<i>" with i its position in the reply.
	ID string `json:"id,omitempty"`
	// Name is the function called.
	Name string `json:"name"`
	// Arguments is a JSON object (sent as its compact text) or a JSON string (sent verbatim, to
	// script invalid arguments).
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Fault kinds.
const (
	// FaultRateLimit answers 429, with Retry-After when Fault.RetryAfter is set.
	FaultRateLimit = "rate_limit"
	// FaultServerError answers 500.
	FaultServerError = "server_error"
	// FaultStatus answers Fault.Status with Fault.Message (and Retry-After when set).
	FaultStatus = "status"
	// FaultSlow waits Fault.DelayMS before answering normally.
	FaultSlow = "slow"
	// FaultMalformed answers 200 with a body (or a stream event) that is not valid JSON.
	FaultMalformed = "malformed"
	// FaultOversize answers normally but with Fault.Size bytes of text (default 2 MiB).
	FaultOversize = "oversize"
	// FaultDrop starts the answer and closes the connection in the middle of it.
	FaultDrop = "drop"
	// FaultEndless never finishes the answer: text keeps coming (Fault.DelayMS apart) until the
	// client goes away, 64 MiB or a minute.
	FaultEndless = "endless"
	// FaultCut starts the answer and ends it cleanly half-way: a plain body whose JSON stops in the
	// middle, or a stream without its second half and without "data: [DONE]".
	FaultCut = "cut"
	// FaultTrickle sends the answer one byte every Fault.DelayMS (default a second), until it is all
	// sent, the client goes away or a minute has passed.
	FaultTrickle = "trickle"
	// FaultDeep answers with JSON nested Fault.Size deep (default 5,000): the answer's body carries
	// an extra member of nested lists, and the reply itself (its text, or its call's arguments) is
	// nested as deep.
	FaultDeep = "deep"
	// FaultLeakKey answers 401 with the Authorization header it got inside the message, as a
	// careless proxy might: a client must not pass the key on.
	FaultLeakKey = "leak_key"
)

// Fault is a failure a rule serves instead of its reply.
type Fault struct {
	// Kind is one of the Fault* constants.
	Kind string `json:"kind"`
	// Times is how many of the rule's requests fail before the reply is given; 0 means all.
	Times int `json:"times,omitempty"`
	// Status and Message are FaultStatus's answer.
	Status  int    `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	// RetryAfter is sent as the Retry-After header (seconds or an HTTP date) with an error status.
	RetryAfter string `json:"retry_after,omitempty"`
	// DelayMS is FaultSlow's wait, FaultEndless's pause between pieces and FaultTrickle's between
	// bytes.
	DelayMS int `json:"delay_ms,omitempty"`
	// Size is FaultOversize's text length in bytes, and FaultDeep's depth.
	Size int `json:"size,omitempty"`
}

var faultKinds = map[string]bool{
	FaultRateLimit: true, FaultServerError: true, FaultStatus: true, FaultSlow: true,
	FaultMalformed: true, FaultOversize: true, FaultDrop: true, FaultEndless: true, FaultLeakKey: true,
	FaultCut: true, FaultTrickle: true, FaultDeep: true,
}

// Validate says what in the script cannot be served, naming the rule.
func (s Script) Validate() error {
	if s.Chunk < 0 {
		return fmt.Errorf("chunk is negative (%d)", s.Chunk)
	}
	if s.Generator != nil {
		if err := s.Generator.validate(); err != nil {
			return err
		}
	}
	for i, r := range s.Rules {
		for j, c := range r.Reply.ToolCalls {
			if c.Name == "" {
				return fmt.Errorf("rule %d: tool call %d has no name", i, j)
			}
			if len(c.Arguments) > 0 && !json.Valid(c.Arguments) {
				return fmt.Errorf("rule %d: tool call %d: arguments are not JSON", i, j)
			}
		}
		f := r.Fault
		if f == nil {
			continue
		}
		switch {
		case !faultKinds[f.Kind]:
			return fmt.Errorf("rule %d: unknown fault kind %q", i, f.Kind)
		case f.Times < 0:
			return fmt.Errorf("rule %d: fault times is negative (%d)", i, f.Times)
		case f.Kind == FaultStatus && (f.Status < 400 || f.Status > 599):
			return fmt.Errorf("rule %d: fault status must be 400-599, not %d", i, f.Status)
		case f.DelayMS < 0 || f.Size < 0:
			return fmt.Errorf("rule %d: fault delay and size must not be negative", i)
		}
	}
	return nil
}

// ParseScript reads a script from JSON; name (a file name) prefixes errors, which give the line
// and column of a syntax error and the rule of a bad value.
func ParseScript(data []byte, name string) (Script, error) {
	var s Script
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			line, col := position(data, syn.Offset)
			return Script{}, fmt.Errorf("%s:%d:%d: %v", name, line, col, err)
		case errors.As(err, &typ):
			line, col := position(data, typ.Offset)
			return Script{}, fmt.Errorf("%s:%d:%d: %s must be %s, not %s", name, line, col, typ.Field, typ.Type, typ.Value)
		default:
			return Script{}, fmt.Errorf("%s: %v", name, err)
		}
	}
	if dec.More() {
		return Script{}, fmt.Errorf("%s: more than one JSON value", name)
	}
	if err := s.Validate(); err != nil {
		return Script{}, fmt.Errorf("%s: %v", name, err)
	}
	return s, nil
}

// LoadScript reads a script file.
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, err
	}
	return ParseScript(data, path)
}

// position gives the 1-based line and column of the last byte the decoder read before it stopped
// (encoding/json's offsets count the bytes read up to and including the offending one).
func position(data []byte, offset int64) (line, col int) {
	offset = max(min(offset, int64(len(data))), 1)
	before := string(data[:offset-1])
	line = strings.Count(before, "\n") + 1
	col = len(before) - strings.LastIndex(before, "\n")
	return line, col
}
