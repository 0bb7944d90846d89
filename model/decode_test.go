package model_test

import (
	"errors"
	"testing"

	"github.com/apibank-playground/apibank/model"
)

// TestDecodeResponse reads answer bodies as Chat reads a plain answer: the text, the tool calls
// (arguments as the model wrote them, an unnamed call named), and an error inside the body or a
// body that is not JSON as an *Error with the status it gives.
func TestDecodeResponse(t *testing.T) {
	cases := []struct {
		name, body string
		want       model.Response
		status     int // of the *Error; 0: no error
	}{
		{"text", `{"model":"m","choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}`,
			model.Response{Content: "hi", FinishReason: "stop", Model: "m", Usage: model.Usage{PromptTokens: 3, CompletionTokens: 1}, Attempts: 1}, 0},
		{"tool calls", `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"A","arguments":"{\"x\":1}"}},{"type":"function","function":{"name":"B","arguments":{"y":2}}}]}}]}`,
			model.Response{ToolCalls: []model.ToolCall{{ID: "c1", Name: "A", Arguments: `{"x":1}`}, {ID: "call_1", Name: "B", Arguments: `{"y":2}`}}, Attempts: 1}, 0},
		{"an error in the body", `{"error":{"message":"upstream overloaded","code":503}}`, model.Response{}, 503},
		{"an error without a status", `{"error":{"message":"bad","type":"invalid_request_error"}}`, model.Response{}, 200},
		{"not JSON", `<html>`, model.Response{}, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := model.DecodeResponse([]byte(c.body), "batch")
			var me *model.Error
			switch {
			case c.status == 0 && err != nil:
				t.Fatalf("error %v", err)
			case c.status != 0 && (!errors.As(err, &me) || me.Status != c.status || me.Host != "batch"):
				t.Fatalf("error %#v, want an *Error with status %d", err, c.status)
			case c.status == 0 && !equalResponse(got, c.want):
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func equalResponse(a, b model.Response) bool {
	if a.Content != b.Content || a.FinishReason != b.FinishReason || a.Model != b.Model || a.Usage != b.Usage || a.Attempts != b.Attempts || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.ToolCalls {
		if a.ToolCalls[i] != b.ToolCalls[i] {
			return false
		}
	}
	return true
}
