package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Transport carries one encoded request to an engine and returns its encoded response: the wazero
// host, the engine in-process, the browser tab's worker or an HTTP API. An error is a failure of the
// transport itself (a dead instance, a closed worker); the engine's own refusals come back as
// responses with an Error.
type Transport func(ctx context.Context, request []byte) ([]byte, error)

// Call sends req over do and decodes the result as T. It fills the protocol version, returns the
// engine's refusal as an *Error, and decodes strictly: an answer with a member T does not declare is
// an error, so a renamed field never silently decodes as zero.
func Call[T any](ctx context.Context, do Transport, req Request) (T, error) {
	var zero T
	if do == nil {
		return zero, errors.New("no engine to call")
	}
	text, err := Encode(req)
	if err != nil {
		return zero, err
	}
	resp, err := do(ctx, text)
	if err != nil {
		return zero, err
	}
	return Decode[T](req.Op, resp)
}

// Encode writes a request with the protocol version filled in: its JSON, and when it has a Body, a
// line break and the body's bytes after it.
func Encode(req Request) ([]byte, error) {
	req.V = Version
	text, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode %s request: %w", req.Op, err)
	}
	if req.Body != nil {
		if req.Lines != "" || len(req.Files) > 0 {
			return nil, fmt.Errorf("encode %s request: both a body and lines or files", req.Op)
		}
		out := make([]byte, 0, len(text)+1+len(req.Body))
		text = append(append(append(out, text...), '\n'), req.Body...)
	}
	return text, nil
}

// envelope is a response as read by a client: the result left encoded until its type is known.
type envelope struct {
	V      int             `json:"v"`
	ID     json.RawMessage `json:"id"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// Decode reads the response to an op request: its result as T, or the engine's *Error.
func Decode[T any](op Op, resp []byte) (T, error) {
	var zero T
	raw, err := Result(resp)
	if err != nil {
		return zero, err
	}
	var out T
	if err := decodeStrict(raw, &out); err != nil {
		return zero, fmt.Errorf("engine %s answer: %w", op, err)
	}
	return out, nil
}

// Result reads a response envelope and returns its result still encoded, or the engine's *Error.
func Result(resp []byte) (json.RawMessage, error) {
	var env envelope
	if err := decodeStrict(resp, &env); err != nil {
		return nil, fmt.Errorf("engine answered something that is not a protocol response: %w", err)
	}
	if env.V != Version {
		return nil, fmt.Errorf("engine speaks protocol version %d, this host %d", env.V, Version)
	}
	if !env.OK {
		if env.Error == nil {
			return nil, errors.New("engine failed without saying why")
		}
		return nil, env.Error
	}
	return env.Result, nil
}

// decodeStrict decodes one JSON value into out, refusing members out does not declare and any text
// after the value.
func decodeStrict(data []byte, out any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("text after the JSON value")
	}
	return nil
}
