package board_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/run"
)

// passSuffix is how apibank names a trial's file beside its run's record (cmd/apibank's recordOf
// strips it to find the record): ".trial-N" before the extension.
var passSuffix = regexp.MustCompile(`\.trial-[0-9]+$`)

// TestEntryDownloads: an entry's downloads say the data it was judged on. A predictions file's name
// holds the seed of a season's entry, and the command that judges it again names that --seed; the
// run record is named as apibank run names a record beside its predictions files (the files'
// name, trial suffix stripped, with .run.json), names each trial's file as it downloads, carries
// the seed, and lists the requests the board counted as failed, per trial.
func TestEntryDownloads(t *testing.T) {
	failed := []board.SampleVerdict{
		{Trial: 1, Level: "level-1-given-desc", File: "a.jsonl", ID: 2, Kind: "call", Status: board.StatusAnswered},
		{Trial: 2, Level: "level-1-given-desc", File: "a.jsonl", ID: 3, Kind: "call", Status: board.StatusFailed},
		{Trial: 2, Level: "level-1-given-desc", File: "a.jsonl", ID: 4, Kind: "call", Status: board.StatusMissing},
	}
	for _, tt := range []struct {
		name    string
		entry   board.Entry
		files   []string // each trial's file, as it downloads
		record  string
		command string
	}{
		{"the builtin data, one trial", board.Entry{ID: "0123456789ab", Run: board.RunInfo{Model: "gpt-4o", Trials: 1}},
			[]string{"gpt-4o-0123456789ab.jsonl"}, "gpt-4o-0123456789ab.run.json", "apibank score --preds gpt-4o-0123456789ab.jsonl"},
		{"season 7, one trial", board.Entry{ID: "0123456789ab", Seed: 7, Run: board.RunInfo{Model: "org/m 1", Trials: 1, Seed: 7}},
			[]string{"org-m-1-0123456789ab.seed-7.jsonl"}, "org-m-1-0123456789ab.seed-7.run.json", "apibank score --seed 7 --preds org-m-1-0123456789ab.seed-7.jsonl"},
		{"season 9007199254740991, two trials", board.Entry{ID: "0123456789ab", Seed: 9007199254740991, Run: board.RunInfo{Trials: 2, Seed: 9007199254740991}},
			[]string{"run-0123456789ab.seed-9007199254740991.trial-1.jsonl", "run-0123456789ab.seed-9007199254740991.trial-2.jsonl"},
			"run-0123456789ab.seed-9007199254740991.run.json", "apibank score --seed 9007199254740991 --preds run-0123456789ab.seed-9007199254740991.trial-1.jsonl"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.entry
			for i, want := range tt.files {
				if got := board.FileName(e, i+1); got != want {
					t.Errorf("trial %d downloads as %q, want %q", i+1, got, want)
				}
				// The record is where apibank looks for the record of the trial's file.
				ext := filepath.Ext(want)
				if got := run.RecordPath(passSuffix.ReplaceAllString(strings.TrimSuffix(want, ext), "") + ext); got != board.RecordName(e) {
					t.Errorf("trial %d's record would be %q; the record downloads as %q", i+1, got, board.RecordName(e))
				}
			}
			if got := board.RecordName(e); got != tt.record {
				t.Errorf("the record downloads as %q, want %q", got, tt.record)
			}
			if got := board.ScoreCommand(e, 1); got != tt.command {
				t.Errorf("the command %q, want %q", got, tt.command)
			}
			rec := board.RecordOf(e, failed, func(trial int) string { return board.FileName(e, trial) })
			if rec.Format != run.RecordFormat || rec.Run.Seed != e.Seed || len(rec.Trials) != len(tt.files) {
				t.Fatalf("the record: %+v", rec)
			}
			for i, tr := range rec.Trials {
				wantFailed := 0
				for _, v := range failed {
					if v.Trial == i+1 && v.Status == board.StatusFailed {
						wantFailed++
					}
				}
				if tr.File != tt.files[i] || tr.Seed != e.Seed || len(tr.Failures) != wantFailed || tr.Failures == nil {
					t.Errorf("trial %d of the record: %+v; want file %s, seed %d, %d failures", i+1, tr, tt.files[i], e.Seed, wantFailed)
				}
			}
		})
	}
}
