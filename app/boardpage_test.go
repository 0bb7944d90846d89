package app

import (
	"net/url"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/board"
)

// TestEntryInAddress: the board opens the entry its own links name (?entry=ID) and the one the link
// apibank submit prints names (#ID); anything else opens none.
func TestEntryInAddress(t *testing.T) {
	const id = "0123456789ab"
	tests := []struct {
		address, want string
	}{
		{"/board?entry=" + id, id},
		{"/board#" + id, id},
		{"https://example.org/board#" + id, id},
		{"/board#entry=" + id, id},
		{"/board?entry=" + id + "#fedcba987654", id}, // the query first
		{"/board?entry=nothex000000#" + id, id},
		{"/board", ""},
		{"/board#", ""},
		{"/board#main", ""},
		{"/board#" + id + "0", ""},
		{"/board?entry=ABC", ""},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.address)
		if err != nil {
			t.Fatal(err)
		}
		if got := entryInAddress(u); got != tt.want {
			t.Errorf("entryInAddress(%q) = %q, want %q", tt.address, got, tt.want)
		}
	}
	if got := entryInAddress(nil); got != "" {
		t.Errorf("entryInAddress(nil) = %q, want none", got)
	}
}

// TestSeasonWords: the board page names its season and since when it ranks it, and says how to run
// on it; a board of the original data says nothing of seasons.
func TestSeasonWords(t *testing.T) {
	since := time.Date(2026, 12, 6, 23, 59, 0, 0, time.UTC)
	for _, tt := range []struct {
		cur  board.Current
		want string
	}{
		{board.Current{}, ""},
		{board.Current{Season: 7, Since: &since}, "Season 7 — ranked since 2026-12-06"},
		{board.Current{Season: 41}, "Season 41"},
	} {
		if got := SeasonWords(tt.cur); got != tt.want {
			t.Errorf("SeasonWords(%+v) = %q, want %q", tt.cur, got, tt.want)
		}
	}
	if got, want := SeasonRun(7, "https://demo.example.com"), "apibank run --seed 7 --base-url URL --model NAME --out m.jsonl && apibank submit m.jsonl --board https://demo.example.com"; got != want {
		t.Errorf("SeasonRun = %q, want %q", got, want)
	}
}
