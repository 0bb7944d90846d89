package engine

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestScoreStreamSetsEpisodesAside: a stream opened with episodes set takes a run's level-3 episode
// lines out of the predictions (never judged, never a line error), hands them back with their line
// numbers, reports one that cannot be replayed as a line error with its number, and judges the rest
// as any stream does; without the flag nothing is set aside.
func TestScoreStreamSetsEpisodesAside(t *testing.T) {
	const (
		pred    = `{"level":"level-1-given-desc","file":"acct-agenda-add-28.jsonl","id":0,"pred":"[GetToday()]"}`
		episode = `{"level":"level-3","scene":"s","file":"scene-1.jsonl","calls":[{"name":"GetToday","args":{}}],"transcript":[],"stopped":"reply"}`
		// A native prediction whose call has an argument named "calls": a prediction all the same.
		native = `{"level":"level-1-given-desc","file":"acct-agenda-add-28.jsonl","id":0,"pred":{"name":"GetToday","arguments":{"calls":[]}}}`
	)
	cases := []struct {
		name     string
		chunk    string
		first    int
		off      bool // the stream is opened without episodes
		verdicts []int
		episodes []int
		errors   map[int]string // line -> part of the message
	}{
		{name: "an episode alone", chunk: episode + "\n", episodes: []int{1}},
		{name: "garbled", chunk: `{"level":"level-3","scene":"s","calls": [` + "\n", errors: map[int]string{1: "not a level-3 episode"}},
		{name: "no file", chunk: `{"level":"level-3","scene":"s","calls":[]}` + "\n", errors: map[int]string{1: `without its "file"`}},
		{name: "mixed with predictions", chunk: pred + "\n" + episode + "\n" + native + "\n" + episode + "\n", verdicts: []int{1, 3}, episodes: []int{2, 4}},
		{name: "a CRLF file", chunk: pred + "\r\n" + episode + "\r\n" + pred + "\r\n", verdicts: []int{1, 3}, episodes: []int{2}},
		{name: "an empty line", chunk: pred + "\n\n" + episode + "\n\n", verdicts: []int{1}, episodes: []int{3}},
		{name: "numbered from the chunk's first line", chunk: episode + "\n" + pred + "\n" + "{\"level\":\"level-3\",\"scene\":\"x\",\"calls\":[}\n", first: 41,
			verdicts: []int{42}, episodes: []int{41}, errors: map[int]string{43: "not a level-3 episode"}},
		{name: "without the flag", chunk: pred + "\n" + episode + "\n", off: true, verdicts: []int{1}, errors: map[int]string{2: ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New()
			st := roundTrip[protocol.ScoreStarted](t, s, protocol.Request{Op: protocol.OpScoreStart, Episodes: !c.off})
			la, body := roundTripLines[protocol.LinesAnswer](t, s, protocol.Request{Op: protocol.OpScoreLines, Stream: st.Stream, Lines: c.chunk, Line: c.first})
			var verdicts []int
			for _, l := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
				var v struct {
					Line int    `json:"line"`
					Kind string `json:"kind"` // a verdict's; a line error has none
				}
				if l == "" {
					continue
				}
				if err := json.Unmarshal([]byte(l), &v); err != nil {
					t.Fatalf("%q: %v", l, err)
				}
				if v.Kind != "" {
					verdicts = append(verdicts, v.Line)
				}
			}
			if !slices.Equal(verdicts, c.verdicts) {
				t.Errorf("verdicts on lines %v, want %v", verdicts, c.verdicts)
			}
			if la.Verdicts != len(c.verdicts) || la.Lines != len(c.verdicts)+len(c.errors) {
				t.Errorf("answer counts %d lines, %d verdicts; want %d, %d", la.Lines, la.Verdicts, len(c.verdicts)+len(c.errors), len(c.verdicts))
			}
			var eps []int
			for _, e := range la.Episodes {
				eps = append(eps, e.Line)
				if string(e.Text) != episode {
					t.Errorf("line %d set aside as %s, want the line's text %s", e.Line, e.Text, episode)
				}
			}
			if !slices.Equal(eps, c.episodes) {
				t.Errorf("episodes set aside on lines %v, want %v", eps, c.episodes)
			}
			if len(la.Errors) != len(c.errors) {
				t.Fatalf("line errors %v, want lines %v", la.Errors, c.errors)
			}
			for _, e := range la.Errors {
				want, ok := c.errors[e.Line]
				if !ok || !strings.Contains(e.Message, want) {
					t.Errorf("line error %d: %q, want one on a line of %v saying %q", e.Line, e.Message, c.errors, want)
				}
			}
			roundTrip[protocol.Report](t, s, protocol.Request{Op: protocol.OpScoreFinish, Stream: st.Stream})
		})
	}
}
