package model

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		header map[string]string
		want   time.Duration
	}{
		{nil, -1},
		{map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{map[string]string{"Retry-After": " 0 "}, 0},
		{map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After": "-3"}, -1},
		{map[string]string{"Retry-After": "Sat, 01 Mar 2025 12:00:30 GMT"}, 30 * time.Second},
		{map[string]string{"Retry-After": "Sat, 01 Mar 2025 11:00:00 GMT"}, 0},
		{map[string]string{"Retry-After": "Saturday, 01-Mar-25 12:00:10 GMT"}, 10 * time.Second},
		{map[string]string{"Retry-After": "Sat Mar  1 12:00:20 2025"}, 20 * time.Second},
		{map[string]string{"Retry-After": "soon"}, -1},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "junk", "Retry-After": "9"}, 9 * time.Second},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := retryAfter(h, now); got != tt.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		jitter     float64
		retry      int
		retryAfter time.Duration
		want       time.Duration
	}{
		{0, 0, -1, 500 * time.Millisecond},
		{0.5, 0, -1, 750 * time.Millisecond},
		{0, 1, -1, time.Second},
		{0, 3, -1, 4 * time.Second},
		{0.999999, 3, -1, 8*time.Second - 4*time.Microsecond},
		{0, 10, -1, 15 * time.Second},
		{0, 100, -1, 15 * time.Second},
		{0, 0, 5 * time.Second, 5 * time.Second},
		{0, 4, time.Second, 8 * time.Second},
	}
	for _, tt := range tests {
		c := &Client{rand: func() float64 { return tt.jitter }}
		if got := c.backoff(tt.retry, tt.retryAfter); got != tt.want {
			t.Errorf("backoff(%d, %v) with jitter %v = %v, want %v", tt.retry, tt.retryAfter, tt.jitter, got, tt.want)
		}
	}
}
