package model_test

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/model"
)

func TestPresets(t *testing.T) {
	ps := model.Presets()
	wantIDs := []string{"openai", "openrouter", "groq", "together", "ollama", "vllm", "llamacpp", "lmstudio", "anthropic"}
	if len(ps) != len(wantIDs) {
		t.Fatalf("%d presets, want %d", len(ps), len(wantIDs))
	}
	// What each note must tell the user, where it is the one thing that makes the endpoint work.
	mustSay := map[string][]string{
		"ollama":    {"OLLAMA_ORIGINS"},
		"vllm":      {"--enable-auto-tool-choice", "--tool-call-parser"},
		"llamacpp":  {"--jinja"},
		"lmstudio":  {"CORS"},
		"anthropic": {"anthropic-dangerous-direct-browser-access"},
	}
	for i, p := range ps {
		if p.ID != wantIDs[i] {
			t.Errorf("preset %d is %q, want %q", i, p.ID, wantIDs[i])
		}
		s := p.Settings()
		s.Model = "m"
		if err := s.Validate(); err != nil {
			t.Errorf("%s: %v", p.ID, err)
		}
		if p.Name == "" || len(p.Note) < 100 {
			t.Errorf("%s: name %q, note of %d bytes", p.ID, p.Name, len(p.Note))
		}
		if p.NeedsKey != (p.KeyEnv != "") {
			t.Errorf("%s: needs key %v but key env %q", p.ID, p.NeedsKey, p.KeyEnv)
		}
		if p.NeedsKey != strings.HasPrefix(p.BaseURL, "https://") {
			t.Errorf("%s: a hosted endpoint must be https and need a key: %s", p.ID, p.BaseURL)
		}
		for _, want := range mustSay[p.ID] {
			if !strings.Contains(p.Note, want) {
				t.Errorf("%s: the note does not say %q", p.ID, want)
			}
		}
	}
	anthropic, ok := model.FindPreset("ANTHROPIC")
	if !ok || anthropic.Settings().Headers["anthropic-dangerous-direct-browser-access"] != "true" {
		t.Errorf("Anthropic preset %+v lacks its browser header", anthropic)
	}
	if p, ok := model.FindPreset("llama.cpp server"); !ok || p.ID != "llamacpp" {
		t.Errorf("FindPreset by name: %+v %v", p, ok)
	}
	if _, ok := model.FindPreset("nope"); ok {
		t.Error("an unknown preset was found")
	}
	// The table is not the caller's to change.
	ps[8].Headers["anthropic-dangerous-direct-browser-access"] = "false"
	s := anthropic.Settings()
	s.Headers["x"] = "y"
	if again, _ := model.FindPreset("anthropic"); len(again.Headers) != 1 || again.Headers["anthropic-dangerous-direct-browser-access"] != "true" {
		t.Errorf("the preset table changed: %+v", again.Headers)
	}
}
