package app

import "testing"

func TestAnswersWaiting(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{1, "1 answer waits"},
		{2, "2 answers wait"},
		{12, "12 answers wait"},
	}
	for _, tt := range tests {
		if got := answersWaiting(tt.n); got != tt.want {
			t.Errorf("answersWaiting(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
