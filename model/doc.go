// Package model is a small client for OpenAI-compatible chat-completions endpoints: OpenAI itself,
// OpenRouter, Groq, Together, Anthropic's compatibility layer, and local servers (Ollama, vLLM,
// llama.cpp, LM Studio).
//
// The same code runs natively (the CLI) and under GOOS=js GOARCH=wasm (the browser tab): a run of
// the tab and a run of the CLI send the same requests and read the answers the same way. Only the
// last step differs, behind the small [Transport] interface: net/http natively, the page's fetch
// in the tab (net/http's Client would add about 5 MB to the tab's download).
//
// A [Client] sends one [Request] (messages, optional tools) and returns one [Response] (text,
// tool calls, finish reason, token usage), streamed over server-sent events or not. It retries
// rate limits, server errors and network failures with exponential backoff and jitter, honouring
// Retry-After; it bounds what it reads of an answer (an oversized or endless answer is cut and
// marked, never an error); and its errors carry the HTTP status and the provider's message but
// never the API key.
package model
