package model

import (
	"testing"
	"time"
)

// TestHTTPDate reads the three date forms HTTP allows in Retry-After, and nothing else.
func TestHTTPDate(t *testing.T) {
	want := time.Date(1994, 11, 6, 8, 49, 37, 0, time.UTC)
	tests := []struct {
		in string
		ok bool
	}{
		{"Sun, 06 Nov 1994 08:49:37 GMT", true},  // IMF-fixdate
		{"Sunday, 06-Nov-94 08:49:37 GMT", true}, // RFC 850
		{"Sun Nov  6 08:49:37 1994", true},       // asctime
		{"120", false},
		{"1994-11-06T08:49:37Z", false},
		{"", false},
	}
	for _, tt := range tests {
		got, ok := httpDate(tt.in)
		if ok != tt.ok || (ok && !got.Equal(want)) {
			t.Errorf("httpDate(%q) = %v, %v; want ok %v (%v)", tt.in, got, ok, tt.ok, want)
		}
	}
}

// TestStatusText names the common statuses and numbers the others.
func TestStatusText(t *testing.T) {
	tests := []struct {
		status int
		want   string
	}{
		{401, "Unauthorized"},
		{413, "Content Too Large"},
		{429, "Too Many Requests"},
		{503, "Service Unavailable"},
		{418, "HTTP status 418"},
		{599, "HTTP status 599"},
	}
	for _, tt := range tests {
		if got := statusText(tt.status); got != tt.want {
			t.Errorf("statusText(%d) = %q, want %q", tt.status, got, tt.want)
		}
	}
}
