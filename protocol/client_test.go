package protocol

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// canned is a transport that answers every request with one response and remembers the request.
func canned(resp string, sent *[]byte) Transport {
	return func(_ context.Context, req []byte) ([]byte, error) {
		*sent = req
		return []byte(resp), nil
	}
}

func TestCall(t *testing.T) {
	tests := []struct {
		name, resp string
		want       Reset
		err        string // "" for success
		code       string // the engine error's code, when one
	}{
		{"ok", `{"v":1,"ok":true,"result":{"reset":true}}`, Reset{Reset: true}, "", ""},
		{"engine error", `{"v":1,"ok":false,"error":{"code":"not_found","message":"no dialogue \"x\""}}`, Reset{}, `no dialogue "x"`, CodeNotFound},
		{"unknown member in the result", `{"v":1,"ok":true,"result":{"reset":true,"renamed":1}}`, Reset{}, `unknown field "renamed"`, ""},
		{"unknown member in the envelope", `{"v":1,"ok":true,"result":{},"extra":0}`, Reset{}, "not a protocol response", ""},
		{"another version", `{"v":2,"ok":true,"result":{}}`, Reset{}, "protocol version 2", ""},
		{"not JSON", `<html>`, Reset{}, "not a protocol response", ""},
		{"failed without a reason", `{"v":1,"ok":false}`, Reset{}, "without saying why", ""},
		{"text after the answer", `{"v":1,"ok":true,"result":{}} {}`, Reset{}, "text after", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sent []byte
			got, err := Call[Reset](context.Background(), canned(tt.resp, &sent), Request{Op: OpReset})
			if !strings.Contains(string(sent), `"v":1`) || !strings.Contains(string(sent), `"op":"reset"`) {
				t.Errorf("request %s lacks the version or the op", sent)
			}
			if tt.err == "" {
				if err != nil || got != tt.want {
					t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want one saying %q", err, tt.err)
			}
			var e *Error
			if tt.code != "" && (!errors.As(err, &e) || e.Code != tt.code) {
				t.Fatalf("error %v is not an engine error of code %s", err, tt.code)
			}
		})
	}
}

func TestCallTransportError(t *testing.T) {
	dead := errors.New("engine instance is dead")
	_, err := Call[Hello](context.Background(), func(context.Context, []byte) ([]byte, error) { return nil, dead }, Request{Op: OpHello})
	if !errors.Is(err, dead) {
		t.Fatalf("error %v does not wrap the transport's", err)
	}
	if _, err := Call[Hello](context.Background(), nil, Request{Op: OpHello}); err == nil {
		t.Fatal("no error without a transport")
	}
}

func TestLineError(t *testing.T) {
	tests := []struct {
		e    LineError
		want string
	}{
		{LineError{File: "preds.jsonl", Line: 3, Message: "not JSON"}, "preds.jsonl:3: not JSON"},
		{LineError{File: "init_database/Alarm.json", Message: "want an object"}, "init_database/Alarm.json: want an object"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.e, got, tt.want)
		}
	}
}

func TestEncodeBody(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want string // "" for an error
	}{
		{"no body", Request{Op: OpScoreLines, Stream: 2, Lines: "a\n"}, `{"v":1,"op":"score_lines","stream":2,"lines":"a\n"}`},
		{"a body after a line break, unescaped", Request{Op: OpRougeLines, Body: []byte("{\"ref\":\"a\"}\n\"x\"\n")}, "{\"v\":1,\"op\":\"rouge_lines\"}\n{\"ref\":\"a\"}\n\"x\"\n"},
		{"an empty body", Request{Op: OpRougeLines, Body: []byte{}}, "{\"v\":1,\"op\":\"rouge_lines\"}\n"},
		{"lines and a body", Request{Op: OpRougeLines, Lines: "a", Body: []byte("b")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.req)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("Encode = %q, want an error", got)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("Encode = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
