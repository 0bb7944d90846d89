package model

import (
	"testing"
)

// TestStreamShapes reads stream bodies the way various servers write them.
func TestStreamShapes(t *testing.T) {
	tests := []struct {
		name string
		body string
		want Response
		err  string
	}{
		{"CRLF lines, comments, event and id fields, no space after data:",
			": keep-alive\r\n\r\nevent: message\r\nid: 1\r\ndata:{\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\r\n\r\n" +
				"data: {\"choices\":[{\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\r\n\r\ndata: [DONE]\r\n\r\n",
			Response{Content: "Hello", FinishReason: "stop", Streamed: true}, ""},
		{"ends without [DONE], last line without newline",
			"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"length\"}]}",
			Response{Content: "ab", FinishReason: "length", Streamed: true}, ""},
		{"tool calls without index, id once, name repeated, usage last",
			"data: {\"model\":\"m1\",\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"x\",\"function\":{\"name\":\"F\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"F\",\"arguments\":\":1}\"}}]}}]}\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"y\",\"function\":{\"name\":\"G\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n" +
				"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4}}\n" +
				"data: [DONE]\n",
			Response{Model: "m1", ToolCalls: []ToolCall{{ID: "x", Name: "F", Arguments: `{"a":1}`}, {ID: "y", Name: "G", Arguments: "{}"}},
				FinishReason: "tool_calls", Usage: Usage{PromptTokens: 9, CompletionTokens: 4}, Streamed: true}, ""},
		{"indexed fragments interleaved, name in pieces, arguments as an object",
			"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"Sec\"}},{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"First\"}}]}}]}\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"name\":\"ond\",\"arguments\":{\"k\":2}}}]}}]}\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}\n",
			Response{ToolCalls: []ToolCall{{ID: "a", Name: "First", Arguments: "{}"}, {ID: "b", Name: "Second", Arguments: `{"k":2}`}}, Streamed: true}, ""},
		{"a whole message in one chunk",
			"data: {\"choices\":[{\"message\":{\"content\":\"all at once\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n",
			Response{Content: "all at once", FinishReason: "stop", Streamed: true}, ""},
		{"nothing after [DONE] is read",
			"data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\ndata: [DONE]\ndata: {not json\n",
			Response{Content: "x", Streamed: true}, ""},
		{"an error event", "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\ndata: {\"error\":{\"message\":\"upstream died\",\"code\":502}}\n",
			Response{}, "model: HTTP 502 from example.test after 2 attempts: upstream died"},
		{"an error event with a text code", "data: {\"error\":{\"message\":\"context too long\",\"code\":\"context_length_exceeded\"}}\n",
			Response{}, "model: HTTP 200 from example.test: context too long (context_length_exceeded)"},
		{"plain JSON although a stream was asked", "  {\"choices\":[{\"message\":{\"content\":\"plain\"},\"finish_reason\":\"stop\"}]}",
			Response{Content: "plain", FinishReason: "stop"}, ""},
		{"an empty body", "", Response{Streamed: true}, ""},
		{"an unterminated event at the end", "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\ndata: {\"choi",
			Response{}, "model: HTTP 200 from example.test: stream event 2 is not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCanned(t, Settings{BaseURL: "https://example.test/v1", Model: "m", Stream: true, Retries: 1}, tt.body, tt.want, tt.err)
		})
	}
}
