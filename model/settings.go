package model

import "time"

// Defaults applied by [New] to the zero values of [Settings].
const (
	// DefaultTimeout bounds one attempt (request, answer and, when streaming, the whole stream).
	DefaultTimeout = 120 * time.Second
	// DefaultRetries is how many times a failed request is tried again.
	DefaultRetries = 4
	// DefaultMaxResponseBytes caps what is read of one answer's body.
	DefaultMaxResponseBytes = 1 << 20
)

// Settings say which endpoint and model to talk to and how. The zero value of a field means its
// default where one is stated. Settings hold the user's API key: the key is sent only to BaseURL,
// in the Authorization header, and its JSON tag keeps it out of anything that marshals Settings
// (a saved run, an export, a share link).
type Settings struct {
	// BaseURL is the endpoint's OpenAI-compatible root, e.g. "https://api.openai.com/v1"; the
	// client appends "/chat/completions" and "/models". A trailing slash or a trailing
	// "/chat/completions" (a URL copied from a provider's curl example) is accepted and trimmed.
	BaseURL string `json:"base_url"`

	// APIKey is sent as "Authorization: Bearer <key>" when not empty (local servers need none).
	// It never appears in an error, a log line or JSON.
	APIKey string `json:"-"`

	// Model is the model's name as the endpoint knows it, e.g. "gpt-4o-mini" or "llama3.1:8b".
	Model string `json:"model"`

	// Temperature is sent with every request; 0 (the default) makes answers as repeatable as the
	// endpoint allows, which a benchmark wants.
	Temperature float64 `json:"temperature"`

	// OmitTemperature leaves temperature out of requests, for models that accept only their own
	// default (OpenAI's reasoning models answer 400 to temperature 0).
	OmitTemperature bool `json:"omit_temperature,omitempty"`

	// MaxTokens bounds the tokens of one answer (sent as max_tokens); 0 leaves it to the endpoint.
	MaxTokens int `json:"max_tokens,omitempty"`

	// Timeout bounds one attempt: connecting, sending, and reading the whole answer or stream.
	// 0 means DefaultTimeout. A stream still running at the timeout is cut and marked Truncated;
	// an attempt that got no answer by then fails and may be retried.
	Timeout time.Duration `json:"timeout,omitempty"`

	// Retries is how many times a failed request is tried again after the first attempt: on 408,
	// 409, 429, any 5xx and network errors, never on other 4xx. 0 means DefaultRetries; a negative
	// value means no retry at all (a connection test wants a quick answer).
	Retries int `json:"retries,omitempty"`

	// MaxResponseBytes caps the bytes read of one answer's body, streamed or not. 0 means
	// DefaultMaxResponseBytes. An answer over the cap is cut there and marked Truncated; the run
	// goes on. A stream spends bytes on its framing, so it carries less text within the same cap.
	MaxResponseBytes int `json:"max_response_bytes,omitempty"`

	// Headers are extra request headers, sent after the client's own (so they may override
	// Content-Type or even Authorization), e.g. Anthropic's
	// "anthropic-dangerous-direct-browser-access: true" that lets a browser page call its API.
	Headers map[string]string `json:"headers,omitempty"`

	// Stream asks for server-sent events ("stream": true, with usage in the last event). An
	// endpoint that answers with plain JSON anyway is read as such.
	Stream bool `json:"stream,omitempty"`
}

// withDefaults returns s with the defaults of its zero fields filled in.
func (s Settings) withDefaults() Settings {
	if s.Timeout <= 0 {
		s.Timeout = DefaultTimeout
	}
	switch {
	case s.Retries == 0:
		s.Retries = DefaultRetries
	case s.Retries < 0:
		s.Retries = 0
	}
	if s.MaxResponseBytes <= 0 {
		s.MaxResponseBytes = DefaultMaxResponseBytes
	}
	return s
}
