package board

import (
	"testing"

	"github.com/apibank-playground/apibank/run"
)

// TestMilestoneCredit: a level's milestone credit is its episodes' mean (a failed episode earns
// none), and the overall score's is the same mean over every level's episodes.
func TestMilestoneCredit(t *testing.T) {
	m := func(x float64) *float64 { return &x }
	ep := func(status string, correct bool, milestone *float64) SampleVerdict {
		return SampleVerdict{Trial: 1, Level: run.Level3, ID: -1, Kind: kindEpisode, Status: status, Correct: correct, Milestone: milestone}
	}
	tests := []struct {
		name string
		vs   []SampleVerdict
		want float64
	}{
		{"all achieved", []SampleVerdict{ep(StatusAnswered, true, m(1)), ep(StatusAnswered, true, m(1))}, 1},
		{"a share", []SampleVerdict{ep(StatusAnswered, true, m(1)), ep(StatusAnswered, false, m(0.5))}, 0.75},
		{"a failed episode counts 0", []SampleVerdict{ep(StatusAnswered, true, m(1)), ep(StatusFailed, false, nil)}, 0.5},
		{"none achieved", []SampleVerdict{ep(StatusAnswered, false, m(0))}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := summarize([]string{run.Level3}, len(tt.vs), tt.vs)
			if got := s.Levels[0].Milestone; got != tt.want {
				t.Errorf("level milestone %v, want %v", got, tt.want)
			}
			if got := s.Overall.Milestone; got != tt.want {
				t.Errorf("overall milestone %v, want %v", got, tt.want)
			}
		})
	}
}
