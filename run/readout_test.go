package run

import (
	"slices"
	"strings"
	"testing"

	linereader "github.com/apibank-playground/apibank/internal/lines"
)

// TestReadOutSplitsEpisodes: a run's predictions file read apart as the Score page's small path
// reads it: the episode lines come out decoded with their numbers, a garbled one is a line error
// with its number, and the prediction lines stay on their own line numbers (blank in place of the
// others), CRLF and empty lines included.
func TestReadOutSplitsEpisodes(t *testing.T) {
	const (
		pred    = `{"level":"level-1-given-desc","file":"a.jsonl","id":0,"pred":"[GetToday()]"}`
		episode = `{"level":"level-3","scene":"s","file":"scene-1.jsonl","calls":[{"name":"GetToday","args":{}}],"transcript":[],"stopped":"reply"}`
		native  = `{"level":"level-1-given-desc","file":"a.jsonl","id":0,"pred":{"name":"X","arguments":{"calls":[]}}}`
		garbled = `{"level":"level-3","scene":"s","calls": [`
	)
	cases := []struct {
		name     string
		text     string
		preds    []int // the lines left as predictions, by number
		episodes []int
		errors   []int
	}{
		{"an episode alone", episode + "\n", nil, []int{1}, nil},
		{"garbled", garbled + "\n", nil, nil, []int{1}},
		{"no file", `{"level":"level-3","scene":"s","calls":[]}` + "\n", nil, nil, []int{1}},
		{"mixed with predictions", pred + "\n" + episode + "\n" + native + "\n" + garbled + "\n", []int{1, 3}, []int{2}, []int{4}},
		{"a CRLF file", pred + "\r\n" + episode + "\r\n" + pred + "\r\n", []int{1, 3}, []int{2}, nil},
		{"an empty line", pred + "\n\n" + episode + "\n", []int{1}, []int{3}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := ReadOut([]byte(c.text), linereader.Max)
			if err != nil {
				t.Fatal(err)
			}
			var preds []int
			for n, l := range linereader.All(out.Preds) {
				if strings.TrimSpace(string(l)) != "" {
					preds = append(preds, n)
				}
			}
			var eps, errs []int
			for _, e := range out.Episodes {
				eps = append(eps, e.Line)
				if e.Episode.File != "scene-1.jsonl" || len(e.Episode.Calls) != 1 {
					t.Errorf("line %d decoded as %+v", e.Line, e.Episode)
				}
			}
			for _, e := range out.Errors {
				errs = append(errs, e.Line)
			}
			if !slices.Equal(preds, c.preds) || !slices.Equal(eps, c.episodes) || !slices.Equal(errs, c.errors) {
				t.Errorf("predictions on %v, episodes %v, errors %v (%v); want %v, %v, %v", preds, eps, errs, out.Errors, c.preds, c.episodes, c.errors)
			}
		})
	}
}
