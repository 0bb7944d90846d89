package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestErrorLines: the error lines of the lines form are the bytes encoding/json writes for them,
// members in order, whatever the message holds, each ending with "\n".
func TestErrorLines(t *testing.T) {
	for _, msg := range []string{"", "not JSON: invalid character 'x'", `a "quoted" <tag> & \ back`, "line\nbreak\r\ttab", "é € \u2028 \x01"} {
		want, _ := json.Marshal(struct {
			Error string `json:"error"`
			Line  int    `json:"line"`
		}{msg, 42})
		if got := ErrorLine(LineError{Line: 42, Message: msg}); string(got) != string(want)+"\n" {
			t.Errorf("ErrorLine(%q) = %s, want %s", msg, got, want)
		}
		want, _ = json.Marshal(map[string]string{"error": msg})
		if got := RougeErrorLine(msg); string(got) != string(want)+"\n" {
			t.Errorf("RougeErrorLine(%q) = %s, want %s", msg, got, want)
		}
	}
}

// TestDecodeLines: the envelope on the first line, then exactly the JSONL it announces; a short or
// long body, or one without its last line end, is an error; a refusal is the engine's *Error.
func TestDecodeLines(t *testing.T) {
	head := `{"v":1,"ok":true,"result":{"lines":2,"verdicts":1,"errors":[{"line":3,"message":"bad"}]}}`
	verdict := `{"line":1,"file":"a.jsonl","id":0}` + "\n"
	bad := string(ErrorLine(LineError{Line: 3, Message: "bad"}))
	tests := []struct {
		name, resp string
		err        string
	}{
		{"as announced", head + "\n" + verdict + bad, ""},
		{"a line short", head + "\n" + verdict, "2 lines announced, 1 lines sent"},
		{"a line more", head + "\n" + verdict + bad + bad, "2 lines announced, 3 lines sent"},
		{"no last line end", head + "\n" + verdict + strings.TrimSuffix(bad, "\n"), "2 lines announced"},
		{"no body at all", head, "2 lines announced, 0 lines sent"},
		{"a refusal", `{"v":1,"ok":false,"error":{"code":"bad_request","message":"no such stream 9"}}`, "bad_request: no such stream 9"},
	}
	for _, tt := range tests {
		la, body, err := DecodeLines[LinesAnswer](OpScoreLines, []byte(tt.resp))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if la.Lines != 2 || la.Verdicts != 1 || len(la.Errors) != 1 || la.Errors[0].Line != 3 || string(body) != verdict+bad {
			t.Errorf("%s: %+v, body %q", tt.name, la, body)
		}
	}
	var e *Error
	if _, _, err := DecodeLines[LinesAnswer](OpScoreLines, []byte(tests[len(tests)-1].resp)); !errors.As(err, &e) || e.Code != "bad_request" {
		t.Errorf("a refusal is not the engine's *Error: %#v", err)
	}
}

// TestCallLines: the request goes out encoded with its body after the JSON line, and the answer
// comes back split into its result and its JSONL.
func TestCallLines(t *testing.T) {
	if _, _, err := CallLines[LinesAnswer](context.Background(), nil, Request{Op: OpScoreLines}); err == nil {
		t.Error("no transport, no error")
	}
	var sent []byte
	do := func(_ context.Context, req []byte) ([]byte, error) {
		sent = req
		return []byte(`{"v":1,"ok":true,"result":{"lines":1,"verdicts":1,"errors":[]}}` + "\n" + `{"f":1}` + "\n"), nil
	}
	chunk := []byte("{\"ref\":\"a\",\"hyp\":\"a\"}\r\n")
	la, body, err := CallLines[LinesAnswer](context.Background(), do, Request{Op: OpRougeLines, Line: 5, Body: chunk})
	if err != nil || la.Lines != 1 || string(body) != "{\"f\":1}\n" {
		t.Fatalf("answer %+v %q %v", la, body, err)
	}
	head, rest, ok := bytes.Cut(sent, []byte("\n"))
	if !ok || !bytes.Equal(rest, chunk) {
		t.Fatalf("the request's body is not the chunk after its JSON line: %q", sent)
	}
	var req map[string]any
	if err := json.Unmarshal(head, &req); err != nil || req["op"] != string(OpRougeLines) || req["line"] != 5.0 || req["v"] != float64(Version) {
		t.Errorf("request line %s (%v)", head, err)
	}
}
