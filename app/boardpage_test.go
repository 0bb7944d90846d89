package app

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

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

// TestSeasonCardSaysHowInTheTab: the season card says how to run on the season in the tab as well
// as with the CLI, in the words of the controls it names (the Run page's data choice and seed, the
// Runs page's submit button); an exported board, which takes no submission, says neither.
func TestSeasonCardSaysHowInTheTab(t *testing.T) {
	live := app.HTMLString((&BoardPage{view: &board.View{Current: board.Current{Season: 7}}}).seasonView())
	for _, want := range []string{`data-testid="board-season-run"`, "apibank run --seed 7 ",
		"In this tab, run it on Run a model with Data set to a variant of the builtin data and Seed to 7, then press Submit to the board on the Runs page."} {
		if !strings.Contains(live, want) {
			t.Errorf("the season card lacks %q:\n%s", want, live)
		}
	}
	exported := app.HTMLString((&BoardPage{view: &board.View{Current: board.Current{Season: 7}, Exported: "2026-12-06T09:00:00Z"}}).seasonView())
	if strings.Contains(exported, "apibank run") || strings.Contains(exported, "In this tab") {
		t.Errorf("an exported board's season card says how to submit:\n%s", exported)
	}
	// The controls the sentence names are the pages' own.
	runPage := app.HTMLString(&RunPage{})
	submit := app.HTMLString((&boardSubmit{}).view(&SavedRun{ID: "r1"}, nil, func() {}))
	for _, c := range []struct{ page, html, want string }{
		{"Run", runPage, "a variant of the builtin data: seed"},
		{"Run", runPage, "Seed "},
		{"Run", runPage, "Run a model"},
		{"Runs", submit, "Submit to the board"},
	} {
		if !strings.Contains(c.html, c.want) {
			t.Errorf("the %s page has no %q, which the season card names", c.page, c.want)
		}
	}
}
