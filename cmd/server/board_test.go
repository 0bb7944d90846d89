package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/class/sqlite"
	runpkg "github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/boardtest"
)

// TestExportBoard: the static export writes the board of a store as board.json (ranked as the API
// ranks it, judged by the module's build) with each entry's verdicts, predictions and run record
// beside it (the record names the predictions files and the seed of the entry's data, so that
// apibank score judges them on it), and an empty board without a store.
func TestExportBoard(t *testing.T) {
	ctx := context.Background()
	enginePath, err := filepath.Abs(filepath.Join("..", "..", "web", "engine.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	module, err := os.ReadFile(enginePath)
	if err != nil {
		t.Fatalf("web/engine.wasm is missing: run `make wasm` (make test does) — %v", err)
	}
	db := filepath.Join(t.TempDir(), "board.db")
	store, err := sqlite.Open(ctx, db, "")
	if err != nil {
		t.Fatal(err)
	}
	sub := boardtest.Run(t, runpkg.Text, "level-1-given-desc")
	judged, err := board.Rescore(ctx, boardtest.Engine(), sub)
	if err != nil {
		t.Fatal(err)
	}
	e := board.Entry{ID: "0123456789ab", Created: time.Now().UTC().Truncate(time.Millisecond), KeyHash: []byte("h"), Data: "d", Engine: board.Build(module), RunData: true, Run: sub.Run, Score: judged.Score}
	if err := store.AddEntry(ctx, e, map[string][]byte{board.BlobVerdicts: board.VerdictsJSONL(judged.Verdicts), board.BlobTrial(1): []byte(sub.Trials[0].Predictions)}); err != nil {
		t.Fatal(err)
	}
	seeded := boardtest.RunOn(t, 7, runpkg.Text, "level-1-given-desc")
	e7 := board.Entry{ID: "0123456789a7", Created: e.Created, KeyHash: []byte("h"), Data: "d7", Engine: e.Engine, Seed: 7, RunData: true, Run: seeded.Run, Score: judged.Score}
	if err := store.AddEntry(ctx, e7, map[string][]byte{board.BlobVerdicts: board.VerdictsJSONL(judged.Verdicts), board.BlobTrial(1): []byte(seeded.Trials[0].Predictions)}); err != nil {
		t.Fatal(err)
	}
	store.Close()

	dir := t.TempDir()
	if err := exportBoard(ctx, dir, enginePath, db, 0, time.Now(), io.Discard); err != nil {
		t.Fatal(err)
	}
	var view board.View
	raw, err := os.ReadFile(filepath.Join(dir, "board.json"))
	if err != nil || json.Unmarshal(raw, &view) != nil {
		t.Fatalf("board.json: %v %s", err, raw)
	}
	if view.Exported == "" || view.Current.Engine != board.Build(module) || len(view.Entries) != 2 || len(view.Rows) != 2 {
		t.Fatalf("board.json: %+v", view)
	}
	for _, r := range view.Rows {
		if r.Section != board.SectionLegacy { // judged on data "d" or "d7", not the module's
			t.Errorf("row %+v, want the entry in the legacy section (other data)", r)
		}
	}
	for _, tt := range []struct {
		entry board.Entry
		preds string
	}{
		{e, sub.Trials[0].Predictions},
		{e7, seeded.Trials[0].Predictions},
	} {
		id := tt.entry.ID
		if b, err := os.ReadFile(filepath.Join(dir, "board-data", id+".trial-1.jsonl")); err != nil || string(b) != tt.preds {
			t.Errorf("%s: the entry's predictions file: %v", id, err)
		}
		var ev board.EntryView
		if b, err := os.ReadFile(filepath.Join(dir, "board-data", id+".json")); err != nil || json.Unmarshal(b, &ev) != nil || len(ev.Verdicts) != len(judged.Verdicts) {
			t.Errorf("%s: the entry's verdicts: %v", id, err)
		}
		// The record apibank score looks for beside ID.trial-1.jsonl: ID.run.json, naming the file.
		var rec runpkg.Record
		b, err := os.ReadFile(filepath.Join(dir, "board-data", runpkg.RecordPath(id+".jsonl")))
		if err != nil || json.Unmarshal(b, &rec) != nil || rec.Format != runpkg.RecordFormat || rec.Run.Seed != tt.entry.Seed ||
			len(rec.Trials) != 1 || rec.Trials[0].File != id+".trial-1.jsonl" || rec.Trials[0].Seed != tt.entry.Seed {
			t.Errorf("%s: the entry's run record (%v): %s; want seed %d, naming %s.trial-1.jsonl", id, err, b, tt.entry.Seed, id)
		}
	}

	empty := t.TempDir()
	if err := exportBoard(ctx, empty, enginePath, "", 0, time.Now(), io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(filepath.Join(empty, "board.json"))
	if json.Unmarshal(raw, &view) != nil || len(view.Entries) != 0 || view.Current.Data == "" || view.Entries == nil {
		t.Errorf("an export without a store: %s", raw)
	}
}

// TestExportBoardSeason: --static with --board-season writes the season into board.json with since
// when the store first ranked it (kept: a later export says the same), and the variant's data hash.
func TestExportBoardSeason(t *testing.T) {
	ctx := context.Background()
	enginePath, err := filepath.Abs(filepath.Join("..", "..", "web", "engine.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(enginePath); err != nil {
		t.Fatalf("web/engine.wasm is missing: run `make wasm` (make test does) — %v", err)
	}
	db := filepath.Join(t.TempDir(), "board.db")
	first := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	read := func(season int64, now time.Time) board.View {
		t.Helper()
		dir := t.TempDir()
		if err := exportBoard(ctx, dir, enginePath, db, season, now, io.Discard); err != nil {
			t.Fatal(err)
		}
		var v board.View
		if raw, err := os.ReadFile(filepath.Join(dir, "board.json")); err != nil || json.Unmarshal(raw, &v) != nil {
			t.Fatalf("board.json: %v", err)
		}
		return v
	}
	a := read(7, first)
	b := read(7, first.AddDate(0, 1, 0))
	plain := read(0, first)
	if a.Current.Season != 7 || a.Current.Since == nil || !a.Current.Since.Equal(first) {
		t.Errorf("the first export of season 7: %+v", a.Current)
	}
	if b.Current.Since == nil || !b.Current.Since.Equal(first) || b.Current.Data != a.Current.Data {
		t.Errorf("a later export: %+v, want since %v and data %s kept", b.Current, first, a.Current.Data)
	}
	if plain.Current.Season != 0 || plain.Current.Since != nil || plain.Current.Data == a.Current.Data {
		t.Errorf("an export without a season: %+v (season 7's data %s)", plain.Current, a.Current.Data)
	}
}
