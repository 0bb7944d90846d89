package app

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/board"
)

// The board's client side: what the tab sends to the site's board (/api/v1/board, served by
// cmd/server --db and the Worker) and the owner keys it keeps.

// BoardAPI is the board endpoints' root on the page's own origin.
const BoardAPI = "/api/v1/board"

// BoardExport is the static export's copy of the board (the same JSON as GET BoardAPI), read where
// the site has no board server.
const BoardExport = "/board.json"

// boardKeysKey is where the tab keeps the owner keys of the entries it submitted (entry id → key),
// in the tab's store as it keeps a teacher's class keys: a secret the user owns, kept in this
// browser only and sent to the site only in the Authorization header of a retraction.
const boardKeysKey = "board/keys"

// boardKeys returns the owner keys this browser holds.
func boardKeys() map[string]string {
	keys := map[string]string{}
	_ = tab.Store.Get(boardKeysKey, &keys)
	return keys
}

// keepBoardKey keeps an entry's owner key in this browser.
func keepBoardKey(id, key string) error {
	keys := boardKeys()
	keys[id] = key
	return tab.Store.Set(boardKeysKey, keys)
}

// boardPath is an entry's endpoint: rest is "" or "/predictions".
func boardPath(id, rest string) string { return BoardAPI + "/" + id + rest }

// boardEntryURL is the Board page opened at an entry's verdicts.
func boardEntryURL(id string) string { return "/board?entry=" + id }

// BoardTrials returns the runs a submission of r sends, in trial order: r alone, or every trial of
// r's group (all of them, or an error saying which is missing or not done). A run still going on,
// a batch run (its level 3 is step samples, which the board does not take) or a trial that did not
// end cannot be submitted: the error says why, in words that follow "Cannot be submitted: ".
func BoardTrials(r *SavedRun, all []*SavedRun) ([]*SavedRun, error) {
	trials := []*SavedRun{r}
	if r.Settings.Variants > 0 {
		return nil, errors.New("the board ranks runs on one data, and a robustness run asks several (the builtin data and its variants); run the model on the builtin data, or on a variant, from the Run page instead")
	}
	if r.Group != "" {
		trials = nil
		for _, o := range all {
			if o.Group == r.Group {
				trials = append(trials, o)
			}
		}
		sort.Slice(trials, func(i, j int) bool { return trials[i].Trial < trials[j].Trial })
		for i, t := range trials {
			if t.Trial != i+1 {
				return nil, fmt.Errorf("trial %d of this group is not in this browser: a group is submitted whole, its trials in order", i+1)
			}
		}
		if len(trials) < r.Settings.Trials {
			return nil, fmt.Errorf("this group has %d of its %d trials: a group is submitted whole, once every trial has run", len(trials), r.Settings.Trials)
		}
	}
	for _, t := range trials {
		name := "this run"
		if t.Trial > 0 {
			name = "trial " + strconv.Itoa(t.Trial)
		}
		switch {
		case t.Source == runSourceBatch:
			return nil, errors.New("a batch run's level 3 is step samples, and the board judges whole level-3 episodes; run the model from the Run page instead")
		case t.Status == runRunning:
			return nil, fmt.Errorf("%s is still running: submit it once it has ended", name)
		case t.Status != runDone && t.Status != runCancelled:
			return nil, fmt.Errorf("%s has status %q: only runs that ended can be submitted", name, t.Status)
		}
	}
	return trials, nil
}

// BoardSubmission is the board submission of a run (or of its group of trials, see BoardTrials),
// built from the saved runs themselves: the settings and facts they recorded and, per trial, its
// predictions file (run.OutJSONL, the bytes the Runs page exports) with its failed requests. A
// cancelled run is sent as it is: the board judges it partial. It may block (see RunStore).
func BoardSubmission(r *SavedRun, all []*SavedRun) (board.Submission, error) {
	trials, err := BoardTrials(r, all)
	if err != nil {
		return board.Submission{}, err
	}
	first, last := trials[0], trials[len(trials)-1]
	s := first.Settings
	info := board.RunInfo{Model: s.Model, Host: first.Host, Form: s.Form, Stream: s.Stream, Temperature: s.Temperature,
		Levels: s.Levels, Limit: s.Limit, State: s.State, Steps: s.Steps, Trials: len(trials),
		Started: first.Started, Ended: last.Ended, Encoder: first.Encoder, DataHash: first.DataHash, Engine: first.Engine, Source: "tab", Seed: first.Seed}
	sub := board.Submission{Format: board.Format}
	for _, t := range trials {
		info.TokensIn += t.TokensIn
		info.TokensOut += t.TokensOut
		w, err := wholeRun(t) // a kept run's predictions are read back from the store, one trial at a time
		if err != nil {
			return board.Submission{}, err
		}
		sub.Trials = append(sub.Trials, board.Trial{Predictions: string(w.PredictionsJSONL()), Failures: t.Failures})
	}
	sub.Run = info
	return sub, nil
}

// boardErrorWords says what a refusal of the board means and what to do about it.
func boardErrorWords(err error) string {
	var ce *classError
	if !errors.As(err, &ce) {
		return "The board could not be reached (" + err.Error() + "): check the connection and submit again; the run stays in this browser."
	}
	switch ce.Status {
	case 400:
		where := ""
		if ce.Line > 0 && !strings.Contains(ce.Message, "line ") {
			where = fmt.Sprintf(" (line %d)", ce.Line)
		}
		return "The board refused the run" + where + ": " + ce.Message + " — export its predictions from this page to look at that line; a new run from the Run page writes a file the board takes."
	case 404:
		return "This site has no board server (a static copy, or a server without --db): submit on a site that runs one (make run, or the public demo)."
	case 413:
		return "The run is larger than the board takes (" + ce.Message + "): submit fewer trials or levels."
	case 429:
		wait := ""
		if ce.RetryAfter > 0 && !strings.Contains(ce.Message, "try again") {
			wait = "; try again in " + ce.RetryAfter.Round(time.Second).String()
		}
		return "The board takes no more submissions from this address for now: " + ce.Message + wait + ". The run stays in this browser."
	}
	return fmt.Sprintf("The board answered %d: %s. Try again later; the run stays in this browser.", ce.Status, ce.Message)
}
