package model

import (
	"encoding/json"
	"strings"
	"testing"
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
