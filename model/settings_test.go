package model

import (
	"testing"
	"time"
)

// TestWithDefaults: zero fields take the defaults, set fields stay, and a negative retry count
// means no retries at all.
func TestWithDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   Settings
		want Settings
	}{
		{"all zero", Settings{}, Settings{Timeout: DefaultTimeout, Retries: DefaultRetries, MaxResponseBytes: DefaultMaxResponseBytes}},
		{"set fields kept", Settings{Model: "m", Timeout: 5 * time.Second, Retries: 2, MaxResponseBytes: 10},
			Settings{Model: "m", Timeout: 5 * time.Second, Retries: 2, MaxResponseBytes: 10}},
		{"negative retries are none", Settings{Retries: -1}, Settings{Timeout: DefaultTimeout, Retries: 0, MaxResponseBytes: DefaultMaxResponseBytes}},
		{"negative timeout and cap take the defaults", Settings{Timeout: -time.Second, Retries: 1, MaxResponseBytes: -5},
			Settings{Timeout: DefaultTimeout, Retries: 1, MaxResponseBytes: DefaultMaxResponseBytes}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.withDefaults()
			if got.Model != tt.want.Model || got.Timeout != tt.want.Timeout || got.Retries != tt.want.Retries || got.MaxResponseBytes != tt.want.MaxResponseBytes {
				t.Errorf("withDefaults(%+v) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}
