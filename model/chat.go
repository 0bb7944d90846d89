package model

import "encoding/json"

// Message roles of the chat-completions API.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one turn of a conversation. Its JSON form (flat, as a transcript keeps it) is not
// the wire form; the client translates.
type Message struct {
	// Role is RoleSystem, RoleUser, RoleAssistant or RoleTool.
	Role string `json:"role"`
	// Content is the turn's text; for a tool turn, the tool's result as the model should read it.
	Content string `json:"content"`
	// ToolCalls are the calls an assistant turn made (native tool calling).
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID names the call a tool turn answers (the ID of one of the ToolCalls before it).
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// ToolCall is one function call an assistant asked for.
type ToolCall struct {
	// ID is the endpoint's name for the call, echoed back in the tool turn that answers it.
	ID string `json:"id"`
	// Name is the function called.
	Name string `json:"name"`
	// Arguments is the call's arguments as the model wrote them: JSON text in principle, but
	// untrusted (possibly invalid JSON, or cut when the answer was Truncated). Judging it is the
	// caller's business.
	Arguments string `json:"arguments"`
}

// Tool is a function the model may call, described by a JSON Schema of its parameters (the
// OpenAI "function" tool).
type Tool struct {
	// Name is the function's name.
	Name string `json:"name"`
	// Description says what the function does; models choose tools by it.
	Description string `json:"description,omitempty"`
	// Parameters is a JSON Schema object ({"type":"object","properties":{...}}); empty means a
	// function without parameters.
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// Tool choice modes for [Request.ToolChoice]. Any other non-empty value names a function the
// model must call.
const (
	ToolChoiceAuto     = "auto"
	ToolChoiceNone     = "none"
	ToolChoiceRequired = "required"
)

// Request is one chat-completions request. Model, temperature and the rest come from [Settings].
type Request struct {
	// Messages is the conversation so far.
	Messages []Message `json:"messages"`
	// Tools are offered for native tool calling; none means a text-only request.
	Tools []Tool `json:"tools,omitempty"`
	// ToolChoice is "" (not sent: the endpoint's default, "auto" when tools are offered),
	// ToolChoiceAuto, ToolChoiceNone, ToolChoiceRequired, or the name of a function to force. It is
	// not sent without Tools (endpoints refuse it there).
	ToolChoice string `json:"tool_choice,omitempty"`
}

// Usage is the token count an endpoint reported for one answer (zero when it reported none).
type Usage struct {
	// PromptTokens is the tokens the request's messages and tools took.
	PromptTokens int `json:"prompt_tokens"`
	// CompletionTokens is the tokens of the answer.
	CompletionTokens int `json:"completion_tokens"`
}

// Why an answer was cut, in [Response.TruncatedBy].
const (
	// CutSize: the answer's body reached Settings.MaxResponseBytes.
	CutSize = "size"
	// CutTimeout: the answer had begun (its status came) and was still coming at Settings.Timeout,
	// streamed or not: a trickle costs one attempt's time, never a retry.
	CutTimeout = "timeout"
)

// Response is a model's answer (the first choice).
type Response struct {
	// Content is the answer's text, untrusted and possibly empty.
	Content string `json:"content"`
	// ToolCalls are the calls the model asked for, in the order of their index.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// FinishReason is the endpoint's reason for stopping ("stop", "length", "tool_calls", ...);
	// empty when it gave none (a cut answer, a stream that just ended).
	FinishReason string `json:"finish_reason,omitempty"`
	// Usage is the reported token count.
	Usage Usage `json:"usage"`
	// Model is the model name the endpoint reported, which may differ from the one asked for.
	Model string `json:"model,omitempty"`
	// Truncated says the answer was cut (see TruncatedBy) and holds only what came before the
	// cut: text and arguments may end mid-word.
	Truncated bool `json:"truncated,omitempty"`
	// TruncatedBy is CutSize or CutTimeout when Truncated.
	TruncatedBy string `json:"truncated_by,omitempty"`
	// Limit states the limit that cut the answer when Truncated: "1048576 bytes" or a duration
	// ("2m0s"), for a report to say.
	Limit string `json:"limit,omitempty"`
	// Streamed says the answer came as server-sent events.
	Streamed bool `json:"streamed,omitempty"`
	// Attempts is how many requests this answer took (1 without retries).
	Attempts int `json:"attempts"`
}

// Message returns the response as the assistant turn to append to the conversation when it goes
// on (a tool loop).
func (r Response) Message() Message {
	return Message{Role: RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls}
}
