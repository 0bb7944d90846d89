package app

import (
	"reflect"
	"testing"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/protocol"
)

func TestMergeErrors(t *testing.T) {
	e := func(lines ...int) []protocol.LineError {
		var out []protocol.LineError
		for _, l := range lines {
			out = append(out, protocol.LineError{Line: l, Message: "m"})
		}
		return out
	}
	for _, c := range []struct {
		name string
		a, b []protocol.LineError
		want []int
	}{
		{name: "both empty"},
		{name: "only calls", a: e(2, 5), want: []int{2, 5}},
		{name: "only episodes", b: e(3), want: []int{3}},
		{name: "interleaved", a: e(1, 4, 9), b: e(2, 3, 10), want: []int{1, 2, 3, 4, 9, 10}},
		{name: "same line keeps the first list's error first", a: e(4), b: e(4), want: []int{4, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.a != nil && c.b != nil {
				c.b[len(c.b)-1].Message = "episode"
			}
			got := mergeErrors(c.a, c.b)
			var lines []int
			for _, g := range got {
				lines = append(lines, g.Line)
			}
			if !reflect.DeepEqual(lines, c.want) {
				t.Fatalf("lines %v, want %v", lines, c.want)
			}
			if c.name == "same line keeps the first list's error first" && got[1].Message != "episode" {
				t.Fatalf("the episode's error should come after the call's on the same line: %+v", got)
			}
		})
	}
}

func TestEpisodeReplayScore(t *testing.T) {
	o := func(ok bool, milestone float64) *protocol.Outcome {
		return &protocol.Outcome{Success: ok, Milestone: milestone}
	}
	r := &EpisodeReplay{Results: []EpisodeResult{
		{Line: 1, Outcome: o(true, 1)}, {Line: 2, Outcome: o(false, 0.5)}, {Line: 3, Err: "replay failed"}, {Line: 4, Outcome: o(true, 1)},
	}}
	got := r.Score()
	want := board.EpisodeScore([]*protocol.Outcome{o(true, 1), o(false, 0.5), nil, o(true, 1)})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("score %+v, want the board's %+v", got, want)
	}
	if got.Successes != 2 || got.Episodes != 4 {
		t.Fatalf("successes %d of %d, want 2 of 4 (a failed replay is not solved)", got.Successes, got.Episodes)
	}
	if got.Milestone != 2.5/4 {
		t.Fatalf("milestone credit %v, want the mean 2.5/4 (a failed replay earns none)", got.Milestone)
	}
}
