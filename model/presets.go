package model

import (
	"maps"
	"strings"
)

// Preset is a known kind of endpoint: where it is, what it needs, and what the user must do first.
type Preset struct {
	// ID is a short stable name ("openai", "ollama", ...), for a --preset flag or a saved choice.
	ID string `json:"id"`
	// Name is the endpoint's name as people know it.
	Name string `json:"name"`
	// BaseURL is the usual root (a local server's default port).
	BaseURL string `json:"base_url"`
	// Headers are extra headers the endpoint needs.
	Headers map[string]string `json:"headers,omitempty"`
	// NeedsKey says the endpoint refuses requests without an API key.
	NeedsKey bool `json:"needs_key"`
	// KeyEnv is the environment variable the provider's own tools read the key from, the natural
	// choice for the CLI's --api-key-env.
	KeyEnv string `json:"key_env,omitempty"`
	// Note says, in one paragraph, what the user must do before a run works.
	Note string `json:"note"`
}

// Settings returns settings that reach the preset's endpoint; the caller adds the key and model.
func (p Preset) Settings() Settings {
	return Settings{BaseURL: p.BaseURL, Headers: maps.Clone(p.Headers)}
}

// Presets returns the known endpoints, in the order a menu shows them. The slice is the caller's
// own copy.
func Presets() []Preset {
	out := make([]Preset, len(presets))
	for i, p := range presets {
		p.Headers = maps.Clone(p.Headers)
		out[i] = p
	}
	return out
}

// FindPreset returns the preset whose ID or name is name, ignoring case.
func FindPreset(name string) (Preset, bool) {
	for _, p := range Presets() {
		if strings.EqualFold(p.ID, name) || strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Preset{}, false
}

var presets = []Preset{
	{
		ID: "openai", Name: "OpenAI", BaseURL: "https://api.openai.com/v1",
		NeedsKey: true, KeyEnv: "OPENAI_API_KEY",
		Note: "Create a key under API keys on platform.openai.com; OpenAI accepts requests straight " +
			"from a browser tab. Name the model as the API does (for example gpt-4o-mini). Reasoning " +
			"models (the o-series, gpt-5) take only their default temperature and no max_tokens: tick " +
			"\"omit temperature\" and leave max tokens empty for them.",
	},
	{
		ID: "openrouter", Name: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1",
		NeedsKey: true, KeyEnv: "OPENROUTER_API_KEY",
		Note: "Create a key on openrouter.ai (Keys); browser requests are accepted. Models are named " +
			"vendor/model (for example meta-llama/llama-3.3-70b-instruct). The native form needs a " +
			"model that supports tools: filter the model list by tool support. Spending limits on the " +
			"key keep a long run's cost bounded.",
	},
	{
		ID: "groq", Name: "Groq", BaseURL: "https://api.groq.com/openai/v1",
		NeedsKey: true, KeyEnv: "GROQ_API_KEY",
		Note: "Create a key on console.groq.com. Free-tier rate limits are low: expect HTTP 429 and " +
			"keep concurrency at 1 or 2; the client waits as long as Groq's Retry-After asks, up to a " +
			"minute, and a request that still fails is listed and can be retried alone.",
	},
	{
		ID: "together", Name: "Together AI", BaseURL: "https://api.together.xyz/v1",
		NeedsKey: true, KeyEnv: "TOGETHER_API_KEY",
		Note: "Create a key in your Together account settings. Models are named as on its model page " +
			"(for example meta-llama/Llama-3.3-70B-Instruct-Turbo), and only some support function " +
			"calling, which the native form needs. If Test connection says the browser blocked the " +
			"request, run the same model from the command line (apibank run).",
	},
	{
		ID: "ollama", Name: "Ollama", BaseURL: "http://localhost:11434/v1",
		Note: "Pull the model first (ollama pull llama3.1); no key is needed. Ollama answers pages " +
			"served from localhost, but a page from any other origin gets 403 until OLLAMA_ORIGINS " +
			"names that origin (for example OLLAMA_ORIGINS=https://playground.example) in the " +
			"environment of ollama serve, restarted. Native tool calls need a model with tool support; " +
			"long level-3 prompts may need a larger context than the default (OLLAMA_CONTEXT_LENGTH).",
	},
	{
		ID: "vllm", Name: "vLLM", BaseURL: "http://localhost:8000/v1",
		Note: "Start the server with tool calling on: vllm serve MODEL --enable-auto-tool-choice " +
			"--tool-call-parser PARSER, with the parser of the model's family (hermes for Qwen and " +
			"Hermes, llama3_json for Llama 3.1 and later, mistral for Mistral); without those flags a " +
			"request with tools fails with HTTP 400. The key is the --api-key you started it with, if " +
			"any. vLLM allows every origin unless --allowed-origins says otherwise.",
	},
	{
		ID: "llamacpp", Name: "llama.cpp server", BaseURL: "http://localhost:8081/v1",
		Note: "Start llama-server -m MODEL.gguf --jinja --port 8081: --jinja applies the model's own " +
			"chat template, without which native tool calls do not work; port 8081 because the " +
			"server's default, 8080, is the playground's own. No key unless you gave --api-key. The " +
			"server allows browser requests from any origin by default.",
	},
	{
		ID: "lmstudio", Name: "LM Studio", BaseURL: "http://localhost:1234/v1",
		Note: "Load a model and start the server in LM Studio's Developer tab (or lms server start " +
			"--cors), with CORS enabled: it is off by default, and without it the browser blocks every " +
			"request (the command line needs no CORS). No key is needed; name the model by the " +
			"identifier LM Studio shows.",
	},
	{
		ID: "anthropic", Name: "Anthropic", BaseURL: "https://api.anthropic.com/v1",
		Headers:  map[string]string{"anthropic-dangerous-direct-browser-access": "true"},
		NeedsKey: true, KeyEnv: "ANTHROPIC_API_KEY",
		Note: "Uses Anthropic's OpenAI SDK compatibility layer (chat completions only) with a key from " +
			"console.anthropic.com and a Claude model name. The anthropic-dangerous-direct-browser-access " +
			"header is sent because Anthropic refuses browser requests without it: the key is then " +
			"visible to this page and its extensions, so use a key you can revoke. The layer ignores " +
			"strict tool schemas; Anthropic describes it as meant for testing and comparing models.",
	},
}
