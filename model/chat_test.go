package model

import (
	"reflect"
	"testing"
)

// TestResponseMessage: an answer goes back into the conversation as an assistant turn with its
// text and tool calls; usage and bookkeeping fields stay out of it.
func TestResponseMessage(t *testing.T) {
	calls := []ToolCall{{ID: "call_0", Name: "F", Arguments: `{"x":1}`}}
	tests := []struct {
		name string
		in   Response
		want Message
	}{
		{"text", Response{Content: "hi", FinishReason: "stop", Usage: Usage{1, 2}, Attempts: 2}, Message{Role: RoleAssistant, Content: "hi"}},
		{"tool calls", Response{ToolCalls: calls, Streamed: true}, Message{Role: RoleAssistant, ToolCalls: calls}},
		{"empty", Response{}, Message{Role: RoleAssistant}},
	}
	for _, tt := range tests {
		if got := tt.in.Message(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Message() = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
