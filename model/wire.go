package model

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The wire format of the chat-completions API, kept apart from the public types so that those
// stay flat and readable in a transcript.

type wireRequest struct {
	Model         string         `json:"model"`
	Messages      []wireMessage  `json:"messages"`
	Temperature   *float64       `json:"temperature,omitempty"`
	MaxTokens     int            `json:"max_tokens,omitempty"`
	Tools         []wireTool     `json:"tools,omitempty"`
	ToolChoice    any            `json:"tool_choice,omitempty"`
	Stream        bool           `json:"stream,omitempty"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireMessage struct {
	Role string `json:"role"`
	// Content is null only in an assistant turn that has tool calls and no text, as the API
	// documents; everywhere else a string, because some servers' templates fail on null.
	Content    *string        `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireTool struct {
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type wireToolChoice struct {
	Type     string `json:"type"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

type wireToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function wireCallBody `json:"function"`
}

type wireCallBody struct {
	Name      string   `json:"name,omitempty"`
	Arguments flexText `json:"arguments"`
}

type wireResponse struct {
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   *Usage       `json:"usage"`
	Error   *wireError   `json:"error"`
}

type wireChoice struct {
	Message      wireAnswer `json:"message"`
	Delta        wireAnswer `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
}

type wireAnswer struct {
	Content   flexText       `json:"content"`
	ToolCalls []wireToolCall `json:"tool_calls"`
}

type wireModels struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
}

// flexText reads what servers put where text is expected: a string, null, a list of content parts
// ({"type":"text","text":...}, joined), or (for tool-call arguments) a JSON object, kept as its text.
type flexText string

func (t *flexText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*t = ""
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = flexText(s)
	case b[0] == '[':
		var parts []struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &parts); err != nil {
			*t = flexText(b)
			return nil
		}
		var sb bytes.Buffer
		for _, p := range parts {
			sb.WriteString(p.Text)
		}
		*t = flexText(sb.String())
	default:
		*t = flexText(b)
	}
	return nil
}

// wireError is the provider's error object: {"error":{"message","type","code"}}, or a bare
// string ({"error":"..."}) as some local servers send.
type wireError struct {
	Message string
	Type    string
	Code    string
}

func (e *wireError) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Message)
	}
	var v struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	e.Message, e.Type = v.Message, v.Type
	var code flexText
	if len(v.Code) > 0 && code.UnmarshalJSON(v.Code) == nil {
		e.Code = string(code)
	}
	return nil
}

// status returns the error's code when it is an HTTP status (OpenRouter reports upstream failures
// inside a 200 stream that way), else 0.
func (e *wireError) status() int {
	n, err := strconv.Atoi(e.Code)
	if err != nil || n < 400 || n > 599 {
		return 0
	}
	return n
}

// kind is the error's type, or its code when it has no type.
func (e *wireError) kind() string {
	if e.Type != "" {
		return e.Type
	}
	if e.status() == 0 {
		return e.Code
	}
	return ""
}

// toWire translates a request with the settings into the body to send.
func toWire(s Settings, r Request, stream bool) wireRequest {
	w := wireRequest{Model: s.Model, MaxTokens: s.MaxTokens, Stream: stream}
	if !s.OmitTemperature {
		t := s.Temperature
		w.Temperature = &t
	}
	if stream {
		w.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	w.Messages, w.Tools = wireMessages(r.Messages), wireTools(r.Tools)
	switch {
	case r.ToolChoice == "" || len(r.Tools) == 0: // endpoints refuse a tool choice without tools
	case r.ToolChoice == ToolChoiceAuto || r.ToolChoice == ToolChoiceNone || r.ToolChoice == ToolChoiceRequired:
		w.ToolChoice = r.ToolChoice
	default:
		var c wireToolChoice
		c.Type = "function"
		c.Function.Name = r.ToolChoice
		w.ToolChoice = c
	}
	return w
}

// Body encodes r with the settings s as the chat-completions request body Chat sends for them,
// byte for byte: the model, the temperature (unless omitted), max_tokens, the messages (assistant
// tool calls as {"id","type":"function","function":{"name","arguments"}} with the arguments as a
// JSON string, tool results as "tool" messages with their tool_call_id), the tools as
// {"type":"function","function":{...}}, the tool choice, and stream with stream_options when
// s.Stream is set. Exports of requests (a prompts file, a batch input file) use it so that what is
// written is what a run sends.
func Body(s Settings, r Request) ([]byte, error) {
	return json.Marshal(toWire(s, r, s.Stream))
}

// wireMessages translates the turns of a conversation.
func wireMessages(ms []Message) []wireMessage {
	out := make([]wireMessage, len(ms))
	for i, m := range ms {
		wm := wireMessage{Role: m.Role, ToolCallID: m.ToolCallID}
		if m.Content != "" || len(m.ToolCalls) == 0 || m.Role != RoleAssistant {
			c := m.Content
			wm.Content = &c
		}
		for _, c := range m.ToolCalls {
			wm.ToolCalls = append(wm.ToolCalls, wireToolCall{
				ID: c.ID, Type: "function",
				Function: wireCallBody{Name: c.Name, Arguments: flexText(c.Arguments)},
			})
		}
		out[i] = wm
	}
	return out
}

// wireTools translates the tools offered (nil for none, so that the field is left out).
func wireTools(ts []Tool) []wireTool {
	var out []wireTool
	for _, t := range ts {
		out = append(out, wireTool{Type: "function", Function: wireFunction(t)})
	}
	return out
}

// Conversation encodes a conversation and the tools it offered in the chat-completions wire form,
// {"messages":[...],"tools":[...]} without a request's settings: a line of a fine-tuning JSONL
// file, written exactly as a request would send those turns.
func Conversation(ms []Message, tools []Tool) ([]byte, error) {
	return json.Marshal(struct {
		Messages []wireMessage `json:"messages"`
		Tools    []wireTool    `json:"tools,omitempty"`
	}{wireMessages(ms), wireTools(tools)})
}

// MarshalJSON writes flexText as a plain JSON string (requests always send arguments as text).
func (t flexText) MarshalJSON() ([]byte, error) { return json.Marshal(string(t)) }
