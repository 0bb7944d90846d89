package app

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// statusEngine is an engine that only reports a state and can be retried (as the browser's bridge).
type statusEngine struct {
	status EngineStatus
}

func (e *statusEngine) Do(context.Context, []byte) ([]byte, error) {
	return nil, errors.New("not running")
}
func (e *statusEngine) Status() EngineStatus     { return e.status }
func (e *statusEngine) Watch(func(EngineStatus)) {}
func (e *statusEngine) Retry()                   {}

func TestEngineBadgeShowsAFailedStartWithRetry(t *testing.T) {
	tests := []struct {
		name    string
		status  EngineStatus
		want    []string
		notWant []string
	}{
		{"starting", EngineStatus{State: "starting"}, []string{`data-state="starting"`, "Engine starting"}, []string{"engine-retry", "engine-error"}},
		{"ready after a restart", EngineStatus{State: "ready", Restarts: 2}, []string{`data-state="ready"`, "restarted 2×"}, []string{"engine-retry"}},
		{"failed", EngineStatus{State: "failed", LastError: "the engine did not start (it did not start within 30 s) (3 attempts)"},
			[]string{`data-state="failed"`, `data-testid="engine-error"`, "did not start within 30 s", `data-testid="engine-retry"`, `role="alert"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			Use(&statusEngine{status: tt.status}, NewMemoryStore())
			html := mount(t, &EngineBadge{})
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("missing %q in %s", w, html)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(html, w) {
					t.Errorf("unexpected %q in %s", w, html)
				}
			}
		})
	}
}

func TestEngineBadgeSaysWhenTheEngineRecovers(t *testing.T) {
	tests := []struct {
		name   string
		states []string
		want   []bool // recovered after each state
	}{
		{"a plain start", []string{"starting", "ready"}, []bool{false, false}},
		{"a trap restart", []string{"ready", "restarting", "ready"}, []bool{false, false, false}},
		{"a failed start, then Retry", []string{"starting", "failed", "starting", "ready", "ready"}, []bool{false, false, false, true, false}},
		{"failed twice", []string{"failed", "starting", "failed", "restarting", "ready"}, []bool{false, false, false, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c EngineBadge
			for i, s := range tt.states {
				if got := c.set(EngineStatus{State: s}); got != tt.want[i] {
					t.Errorf("after %v: recovered %v, want %v", tt.states[:i+1], got, tt.want[i])
				}
			}
		})
	}
}

// TestPrivacyNote: the footer never says nothing leaves the tab on a page that sends something on
// purpose, and says what leaves and what the server keeps there.
func TestPrivacyNote(t *testing.T) {
	const never = "never leave your browser"
	tests := []struct {
		page      string
		sends     bool
		mentioned []string // what leaves the tab, in the note's words
	}{
		{"/", false, nil},
		{"/score", false, nil},
		{"/run", false, []string{"prompt", "key", "endpoint you chose", "nowhere else"}},
		{"/synth", false, []string{"prompts", "key", "endpoint you chose", "nowhere else"}},
		{"", false, nil}, // the not-found page
		{"/runs", true, []string{"predictions", "settings", "verdicts", "server", "keeps"}},
		{"/board", true, []string{"predictions", "settings", "verdicts", "server", "keeps"}},
		{"/classroom", true, []string{"name", "answer", "server", "keeps"}},
		{"/teach", true, []string{"names", "answers", "server"}},
	}
	for _, tt := range tests {
		n := privacyNote(tt.page)
		if strings.Contains(n, never) == tt.sends {
			t.Errorf("privacyNote(%q) = %q: says %q: %v, want %v", tt.page, n, never, !tt.sends, !tt.sends)
		}
		for _, w := range tt.mentioned {
			if !strings.Contains(n, w) {
				t.Errorf("privacyNote(%q) = %q: does not mention %q", tt.page, n, w)
			}
		}
	}
}
