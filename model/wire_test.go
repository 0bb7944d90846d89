package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFlexText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`null`, ""},
		{`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, "ab"},
		{`{"city":"Paris"}`, `{"city":"Paris"}`},
		{`["not","parts"]`, `["not","parts"]`},
	}
	for _, tt := range tests {
		var f flexText
		if err := json.Unmarshal([]byte(tt.in), &f); err != nil || string(f) != tt.want {
			t.Errorf("flexText(%s) = %q, %v; want %q", tt.in, f, err, tt.want)
		}
	}
}

// TestPlainShapes reads plain answers the way various servers write them.
func TestPlainShapes(t *testing.T) {
	tests := []struct {
		name string
		body string
		want Response
		err  string
	}{
		{"content as parts, tool call without id",
			`{"model":"m2","choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],` +
				`"tool_calls":[{"type":"function","function":{"name":"F","arguments":{"x":1}}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`,
			Response{Model: "m2", Content: "ab", ToolCalls: []ToolCall{{ID: "call_0", Name: "F", Arguments: `{"x":1}`}}, FinishReason: "tool_calls", Usage: Usage{3, 2}}, ""},
		{"no choices", `{"choices":[]}`, Response{}, ""},
		{"an error inside a 200", `{"error":{"message":"overloaded","type":"overloaded_error"}}`, Response{},
			"model: HTTP 200 from example.test: overloaded (overloaded_error)"},
		{"not JSON", `<html>`, Response{}, `model: HTTP 200 from example.test: the answer is not valid JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCanned(t, Settings{BaseURL: "https://example.test/v1", Model: "m"}, tt.body, tt.want, tt.err)
		})
	}
}

// TestConversation: a conversation is written as a request sends its turns, and without tools the
// field is left out.
func TestConversation(t *testing.T) {
	msgs := []Message{{Role: RoleSystem, Content: "be brief"}, {Role: RoleAssistant}, {Role: RoleUser, Content: ""}}
	for _, tc := range []struct {
		name  string
		tools []Tool
		want  string
	}{
		{"no tools", nil, `{"messages":[{"role":"system","content":"be brief"},{"role":"assistant","content":""},{"role":"user","content":""}]}`},
		{"a tool", []Tool{{Name: "f"}}, `{"messages":[{"role":"system","content":"be brief"},{"role":"assistant","content":""},{"role":"user","content":""}],"tools":[{"type":"function","function":{"name":"f"}}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Conversation(msgs, tc.tools)
			if err != nil || string(got) != tc.want {
				t.Fatalf("Conversation = %s, %v; want %s", got, err, tc.want)
			}
			body, _ := json.Marshal(toWire(Settings{}, Request{Messages: msgs, Tools: tc.tools}, false))
			var req struct {
				Messages json.RawMessage `json:"messages"`
			}
			if err := json.Unmarshal(body, &req); err != nil || !strings.Contains(string(got), string(req.Messages)) {
				t.Fatalf("the request sends the turns as %s, the conversation writes %s", req.Messages, got)
			}
		})
	}
}
