package model

import (
	"sort"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	const key = "sk-AbC/def+1"
	tests := []struct{ in, want string }{
		{"key sk-AbC/def+1 here", "key [api key] here"},
		{"lowered sk-abc/def+1", "lowered [api key]"},
		{"escaped ?k=sk-AbC%2Fdef%2B1&x", "escaped ?k=[api key]&x"},
		{"twice sk-AbC/def+1sk-AbC/def+1", "twice [api key][api key]"},
		{"none", "none"},
	}
	for _, tt := range tests {
		if got := redact(tt.in, []string{key}); got != tt.want {
			t.Errorf("redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := redact("text", nil); got != "text" {
		t.Errorf("no secret changed the text: %q", got)
	}
	s := Settings{APIKey: "k1", Headers: map[string]string{"api-key": "k2", "X-Auth-Token": "Bearer k3", "anthropic-dangerous-direct-browser-access": "true"}}
	got := s.secrets()
	sort.Strings(got)
	if strings.Join(got, ",") != "k1,k2,k3" {
		t.Errorf("secrets %q, want the key and the two secret headers", got)
	}
}
