package app

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// EpisodeReplay is the level-3 part of a scored predictions file (a run's, see run.OutJSONL): each
// episode line's calls replayed in this tab's engine, as `apibank score` replays them. The outcome
// an episode line carries is never believed.
type EpisodeReplay struct {
	Results []EpisodeResult `json:"results"`
}

// EpisodeResult is one episode line replayed: the engine's outcome, or why the replay failed (then
// the scene counts as not solved, as the CLI counts it).
type EpisodeResult struct {
	Line    int               `json:"line"`
	File    string            `json:"file"`
	Outcome *protocol.Outcome `json:"outcome,omitempty"`
	Err     string            `json:"error,omitempty"`
}

// Score is the replayed episodes' level-3 score as the board computes it (board.EpisodeScore).
func (r *EpisodeReplay) Score() board.LevelScore {
	outcomes := make([]*protocol.Outcome, len(r.Results))
	for i, e := range r.Results {
		outcomes[i] = e.Outcome
	}
	return board.EpisodeScore(outcomes)
}

// decodeEpisodes reads the episode lines set aside into episodes; a line that is not one is a line
// error named name.
func decodeEpisodes(in []protocol.EpisodeLine, name string) ([]run.LineEpisode, []protocol.LineError) {
	var eps []run.LineEpisode
	var errs []protocol.LineError
	for _, el := range in {
		var ep run.Episode
		if err := json.Unmarshal(el.Text, &ep); err != nil {
			errs = append(errs, protocol.LineError{File: name, Line: el.Line, Message: fmt.Sprintf("not a level-3 episode: %v", err)})
			continue
		}
		eps = append(eps, run.LineEpisode{Line: el.Line, Episode: ep})
	}
	return eps, errs
}

// replayEpisodes replays each episode in this tab's engine (ReplayEpisode) in order, telling
// progress after each; it waits on the engine, so it runs off the UI goroutine.
func replayEpisodes(eps []run.LineEpisode, progress func(done, total int)) *EpisodeReplay {
	r := &EpisodeReplay{Results: make([]EpisodeResult, 0, len(eps))}
	for i, le := range eps {
		res := EpisodeResult{Line: le.Line, File: le.Episode.File}
		if o, err := ReplayEpisode(le.Episode); err != nil {
			res.Err = err.Error()
		} else {
			res.Outcome = &o
		}
		r.Results = append(r.Results, res)
		progress(i+1, len(eps))
	}
	return r
}

// mergeErrors puts two lists of line errors, each in line order, into one in line order.
func mergeErrors(a, b []protocol.LineError) []protocol.LineError {
	// A merge, not a sort: a generic stable sort of this type would cost app.wasm 9 KB.
	out := make([]protocol.LineError, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].Line < a[0].Line {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// replayView shows the replayed episodes: level 3's successes as the board shows them
// (scoreCells), then each episode's outcome, as text (the file is untrusted).
func replayView(r *EpisodeReplay) app.UI {
	ls := r.Score()
	return app.Section().Class("card").Aria("labelledby", "episodes-h").DataSet("testid", "episodes").
		DataSet("successes", ls.Successes).DataSet("episodes", ls.Episodes).Body(
		app.H2().ID("episodes-h").Text("Level 3 episodes, replayed in this tab"),
		app.P().Class("small").Text("Each episode line's calls are played again in this tab's engine, as apibank score does; the outcome a line carries is not believed."),
		app.Div().Class("table-box").Body(app.Table().Class("tally").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("level"), app.Th().Scope("col").Text("accuracy (95% Wilson)"), app.Th().Scope("col").Text("ROUGE-L"),
				app.Th().Scope("col").Text("special cases right"), app.Th().Scope("col").Text("level 3 successes · milestones"),
			)),
			app.TBody().Body(app.Tr().DataSet("testid", "episodes-level").Body(
				append([]app.UI{app.Th().Scope("row").Text(LevelLabel(run.Level3))}, scoreCells(ls)...)...)),
		)),
		app.Ul().Body(app.Range(r.Results).Slice(func(i int) app.UI {
			e := r.Results[i]
			return app.Li().DataSet("testid", "episode").DataSet("line", e.Line).DataSet("success", e.Outcome != nil && e.Outcome.Success).Body(
				app.Strong().Text(fmt.Sprintf("line %d: ", e.Line)), app.Text(e.File+": "+replayWords(e)))
		})),
	)
}

// replayWords is a replayed episode's outcome in words: solved or not, its milestone credit, what it
// missed, what its final answer did not say.
func replayWords(e EpisodeResult) string {
	if e.Outcome == nil {
		return "not replayed (" + e.Err + "), counted as not solved"
	}
	o := e.Outcome
	milestone := run.OutcomeMilestone(*o)
	words := VerdictWords(board.SampleVerdict{Status: board.StatusAnswered, Correct: o.Success, Recall: &o.Recall, Milestone: &milestone})
	if len(o.Missed) > 0 {
		words += "; missed " + strings.Join(o.Missed, ", ")
	}
	if len(o.Unmet) > 0 {
		words += "; the final answer does not say " + strings.Join(o.Unmet, ", ")
	}
	if !o.StateMatch {
		words += fmt.Sprintf("; final world differs from the gold one (%d differences)", len(o.Diff))
	}
	return words
}
