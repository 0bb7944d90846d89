package run

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestReplayEpisode: replaying an episode's recorded calls gives the engine's judgement of the
// episode as it was played live, whatever outcome the record carries; a scene the data lacks is an
// error.
func TestReplayEpisode(t *testing.T) {
	ctx := context.Background()
	do := native()
	ss, err := protocol.Call[[]protocol.SampleView](ctx, do, protocol.Request{Op: protocol.OpSamples, Level: Level3})
	if err != nil || len(ss) == 0 {
		t.Fatalf("level-3 samples: %v %v", ss, err)
	}
	file := ss[0].File
	started, err := protocol.Call[protocol.EpisodeStarted](ctx, do, protocol.Request{Op: protocol.OpEpisodeStart, File: file})
	if err != nil {
		t.Fatal(err)
	}
	ep := Episode{Level: Level3, File: file}
	for _, c := range []string{`{"name":"Calculator","arguments":{"formula":"(2+3)*4"}}`, `{"name":"ToolSearcher","arguments":{"keywords":"meeting"}}`} {
		got, err := protocol.Call[protocol.EpisodeCall](ctx, do, protocol.Request{Op: protocol.OpEpisodeStep, Episode: started.Episode, Call: json.RawMessage(c)})
		if err != nil {
			t.Fatal(err)
		}
		ep.Calls = append(ep.Calls, got)
	}
	live, err := protocol.Call[protocol.Outcome](ctx, do, protocol.Request{Op: protocol.OpEpisodeFinish, Episode: started.Episode})
	if err != nil {
		t.Fatal(err)
	}
	ep.Outcome = &protocol.Outcome{Success: !live.Success, Recall: 1}
	replayed, err := ReplayEpisode(ctx, native(), ep)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(replayed, live) {
		t.Errorf("replayed %+v, live %+v", replayed, live)
	}
	if _, err := ReplayEpisode(ctx, do, Episode{File: "no-such-scene.json"}); err == nil {
		t.Error("a scene the data lacks replayed without an error")
	}
}

// TestCallOutcomeTexts: a call's outcome goes back to the model as a tool message (output and
// exception, null when absent) or, in text prompts, as the output or "error: ..." — a call the
// engine refused (no envelope) carries its error either way.
func TestCallOutcomeTexts(t *testing.T) {
	tests := []struct {
		name            string
		call            protocol.EpisodeCall
		content, asText string
	}{
		{"an output", protocol.EpisodeCall{Result: json.RawMessage(`{"api_name":"Calculator","input":{"formula":"1+1"},"output":2.0,"exception":null}`)},
			`{"exception":null,"output":2.0}`, `2.0`},
		{"an exception", protocol.EpisodeCall{Result: json.RawMessage(`{"api_name":"QueryMeeting","output":null,"exception":"Invalid token"}`)},
			`{"exception":"Invalid token","output":null}`, `error: Invalid token`},
		{"an envelope without output", protocol.EpisodeCall{Result: json.RawMessage(`{"api_name":"X"}`)},
			`{"exception":null,"output":null}`, `null`},
		{"refused by the engine", protocol.EpisodeCall{Error: "unknown tool"},
			`{"exception":"unknown tool","output":null}`, `error: unknown tool`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toolContent(tt.call); got != tt.content {
				t.Errorf("toolContent = %s, want %s", got, tt.content)
			}
			if got := textResult(tt.call); got != tt.asText {
				t.Errorf("textResult = %s, want %s", got, tt.asText)
			}
		})
	}
}

// TestSumEpisodes: a run's episodes sum up to their successes, world matches and mean milestone
// credit; an episode without a judgement earns none, and one recorded before milestone credit
// existed counts its recall (the same share then).
func TestSumEpisodes(t *testing.T) {
	o := func(success, world bool, milestone, recall float64) *protocol.Outcome {
		return &protocol.Outcome{Success: success, StateMatch: world, Milestone: milestone, Recall: recall}
	}
	tests := []struct {
		name     string
		episodes []Episode
		want     EpisodeSummary
	}{
		{"none", nil, EpisodeSummary{}},
		{"every kind", []Episode{{Outcome: o(true, true, 1, 1)}, {Outcome: o(false, true, 0.5, 0.5)}, {}, {Outcome: o(false, false, 0, 0.5)}},
			EpisodeSummary{Episodes: 4, Success: 1, WorldMatch: 2, Milestone: 0.5, Recall: 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SumEpisodes(tt.episodes); got != tt.want {
				t.Errorf("SumEpisodes = %+v, want %+v", got, tt.want)
			}
		})
	}
}
