package board_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/board"
)

// entry is a complete entry of every level whose first trial's marks on level 1 are marks (its
// accuracy theirs), made at minute created.
func entry(id, form, marks string, created int) board.Entry {
	right := strings.Count(marks, "1")
	acc := float64(right) / float64(len(marks))
	ls := board.LevelScore{Level: "level-1-given-desc", Tasks: len(marks), Judged: len(marks), Right: right, Accuracy: acc}
	overall := ls
	overall.Level = ""
	return board.Entry{
		ID: id, Created: time.Date(2026, 12, 1, 0, created, 0, 0, time.UTC), Data: "d1", Engine: "e1", RunData: true,
		Run: board.RunInfo{Model: id, Form: form, Levels: board.Levels, Trials: 1},
		Score: board.Score{Complete: true, Expected: len(marks), Levels: []board.LevelScore{ls}, Overall: overall,
			Marks: map[string]string{"level-1-given-desc": marks}},
	}
}

func TestRank(t *testing.T) {
	all := strings.Repeat("1", 100)
	// b differs from a on 3 tasks (a right on all 3): not significant; c on 40: significant.
	a := entry("a", "text", all, 1)
	b := entry("b", "native", strings.Repeat("0", 3)+strings.Repeat("1", 97), 2)
	c := entry("c", "text", strings.Repeat("0", 43)+strings.Repeat("1", 57), 3)
	partial := entry("partial", "text", all, 4)
	partial.Score.Complete, partial.Score.Missing = false, 7
	old := entry("old", "text", all, 5)
	old.Engine = "e0"
	otherData := entry("other-data", "text", all, 6)
	otherData.RunData = false
	gone := entry("gone", "text", all, 7)
	at := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	gone.Retracted = &at
	one := entry("one-level", "text", all, 8)
	one.Run.Levels = []string{"level-1-given-desc"}
	entries := []board.Entry{gone, otherData, old, partial, c, b, a, one}
	cur := board.Current{Data: "d1", Engine: "e1"}

	type want struct {
		id, section string
		rank        int
		tied        bool
	}
	tests := []struct {
		name   string
		filter board.Filter
		want   []want
	}{
		{"overall", board.Filter{}, []want{
			{"a", board.SectionRanked, 1, false}, {"b", board.SectionRanked, 1, true}, {"c", board.SectionRanked, 3, false},
			{"one-level", board.SectionUnranked, 0, false}, {"partial", board.SectionUnranked, 0, false},
			{"other-data", board.SectionLegacy, 0, false}, {"old", board.SectionLegacy, 0, false},
			{"gone", board.SectionRetracted, 0, false},
		}},
		{"text only", board.Filter{Form: "text"}, []want{
			{"a", board.SectionRanked, 1, false}, {"c", board.SectionRanked, 2, false},
			{"one-level", board.SectionUnranked, 0, false}, {"partial", board.SectionUnranked, 0, false},
			{"other-data", board.SectionLegacy, 0, false}, {"old", board.SectionLegacy, 0, false},
			{"gone", board.SectionRetracted, 0, false},
		}},
		{"level 1 ranks an entry of that level alone", board.Filter{Level: "level-1-given-desc"}, []want{
			{"a", board.SectionRanked, 1, false}, {"one-level", board.SectionRanked, 1, true}, {"b", board.SectionRanked, 1, true},
			{"c", board.SectionRanked, 4, false}, {"partial", board.SectionUnranked, 0, false},
			{"other-data", board.SectionLegacy, 0, false}, {"old", board.SectionLegacy, 0, false},
			{"gone", board.SectionRetracted, 0, false},
		}},
		{"a level no entry has", board.Filter{Level: "level-3"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows := board.Rank(entries, cur, tc.filter)
			if len(rows) != len(tc.want) {
				t.Fatalf("%d rows, want %d: %+v", len(rows), len(tc.want), ids(rows))
			}
			for i, w := range tc.want {
				r := rows[i]
				if r.Entry.ID != w.id || r.Section != w.section || r.Rank != w.rank || r.Tied != w.tied {
					t.Errorf("row %d: %s %s rank %d tied %v, want %s %s rank %d tied %v", i, r.Entry.ID, r.Section, r.Rank, r.Tied, w.id, w.section, w.rank, w.tied)
				}
				if r.Section != board.SectionRanked && r.Section != board.SectionRetracted && r.Why == "" {
					t.Errorf("row %d (%s, %s) does not say why it is not ranked", i, r.Entry.ID, r.Section)
				}
			}
		})
	}
}

func ids(rows []board.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Entry.ID+"/"+r.Section)
	}
	return out
}

// TestRankSeasons: a board of a season ranks the runs made on its variant (judged on its data) and
// lists apart, saying in words on which data each was made, the runs of the original data and of
// other seasons; a board without a season lists every variant's run apart.
func TestRankSeasons(t *testing.T) {
	all := strings.Repeat("1", 100)
	// on is an entry made on the data of seed, judged on it (its data hash "d<seed>").
	on := func(id string, seed int64, created int) board.Entry {
		e := entry(id, "text", all, created)
		e.Seed, e.Run.Seed, e.Data = seed, seed, "d"+strconv.FormatInt(seed, 10)
		return e
	}
	original := on("original", 0, 1)
	s7 := on("season-7", 7, 2)
	s7b := on("season-7-worse", 7, 3)
	s7b.Score.Marks["level-1-given-desc"] = strings.Repeat("0", 40) + strings.Repeat("1", 60)
	s7b.Score.Overall.Accuracy, s7b.Score.Overall.Right = 0.6, 60
	s41 := on("season-41", 41, 4)
	s7old := on("season-7-old-engine", 7, 5)
	s7old.Engine = "e0"
	s7moved := on("season-7-data-moved", 7, 6) // judged on season 7 when its variant was other data
	s7moved.Data = "d7-before"
	s7lied := on("season-7-other-run-data", 7, 7)
	s7lied.RunData = false
	entries := []board.Entry{original, s7, s7b, s41, s7old, s7moved, s7lied}

	type want struct{ id, section, why string }
	since := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		cur  board.Current
		want []want
	}{
		{"season 7", board.Current{Data: "d7", Engine: "e1", Season: 7, Since: &since}, []want{
			{"season-7", board.SectionRanked, ""},
			{"season-7-worse", board.SectionRanked, ""},
			{"season-7-other-run-data", board.SectionLegacy, "the run saw other data than the board judged it on"},
			{"season-7-data-moved", board.SectionLegacy, "judged on data d7-before, now d7"},
			{"season-7-old-engine", board.SectionLegacy, "judged by engine e0, now e1"},
			{"season-41", board.SectionLegacy, "made on season 41's variant"},
			{"original", board.SectionLegacy, "made on the original data"},
		}},
		{"season 41", board.Current{Data: "d41", Engine: "e1", Season: 41, Since: &since}, []want{
			{"season-41", board.SectionRanked, ""},
			{"season-7-other-run-data", board.SectionLegacy, "made on season 7's variant; the run saw other data than the board judged it on"},
			{"season-7-data-moved", board.SectionLegacy, "made on season 7's variant"},
			{"season-7-old-engine", board.SectionLegacy, "made on season 7's variant; judged by engine e0, now e1"},
			{"season-7-worse", board.SectionLegacy, "made on season 7's variant"},
			{"season-7", board.SectionLegacy, "made on season 7's variant"},
			{"original", board.SectionLegacy, "made on the original data"},
		}},
		{"no season", board.Current{Data: "d0", Engine: "e1"}, []want{
			{"original", board.SectionRanked, ""},
			{"season-7-other-run-data", board.SectionLegacy, "made on variant 7; the run saw other data than the board judged it on"},
			{"season-7-data-moved", board.SectionLegacy, "made on variant 7"},
			{"season-7-old-engine", board.SectionLegacy, "made on variant 7; judged by engine e0, now e1"},
			{"season-41", board.SectionLegacy, "made on variant 41"},
			{"season-7-worse", board.SectionLegacy, "made on variant 7"},
			{"season-7", board.SectionLegacy, "made on variant 7"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rows := board.Rank(entries, tt.cur, board.Filter{})
			if len(rows) != len(tt.want) {
				t.Fatalf("%d rows, want %d: %v", len(rows), len(tt.want), ids(rows))
			}
			for i, w := range tt.want {
				if r := rows[i]; r.Entry.ID != w.id || r.Section != w.section || r.Why != w.why {
					t.Errorf("row %d: %s %s %q, want %s %s %q", i, r.Entry.ID, r.Section, r.Why, w.id, w.section, w.why)
				}
			}
		})
	}
	for seed, want := range map[int64]string{0: "the original data", 7: "season 7's variant", 1<<53 - 1: "season 9007199254740991's variant"} {
		if got := board.DataWords(seed); got != want {
			t.Errorf("DataWords(%d) = %q, want %q", seed, got, want)
		}
	}
}

// TestDataWordsFor: a board of a season names a variant's seed as a season; a board without one
// names it as the variant it is, since no seed is a season there.
func TestDataWordsFor(t *testing.T) {
	for _, tt := range []struct {
		seed, season int64
		want         string
	}{
		{0, 0, "the original data"},
		{0, 7, "the original data"},
		{7, 7, "season 7's variant"},
		{41, 7, "season 41's variant"},
		{7, 0, "variant 7"},
		{1<<53 - 1, 0, "variant 9007199254740991"},
	} {
		if got := board.DataWordsFor(tt.seed, tt.season); got != tt.want {
			t.Errorf("DataWordsFor(%d, %d) = %q, want %q", tt.seed, tt.season, got, tt.want)
		}
	}
}

// TestSeasonStart: a season's start is now, or the time the first standing entry made on the
// season's variant came when that is earlier; entries of other data, retracted ones (never ranked
// again) and a board without a season move nothing.
func TestSeasonStart(t *testing.T) {
	now := time.Date(2026, 12, 1, 1, 0, 0, 0, time.UTC) // after every entry below (minute 0 to 59)
	on := func(id string, seed int64, minute int) board.Entry {
		e := entry(id, "text", "1", minute)
		e.Seed = seed
		return e
	}
	retracted := on("retracted", 7, 1)
	retracted.Retracted = &now
	at := func(minute int) time.Time { return time.Date(2026, 12, 1, 0, minute, 0, 0, time.UTC) }
	for _, tt := range []struct {
		name    string
		entries []board.Entry
		season  int64
		want    time.Time
	}{
		{"no entries", nil, 7, now},
		{"one on the season", []board.Entry{on("a", 7, 20)}, 7, at(20)},
		{"the first of several, listed newest first", []board.Entry{on("c", 7, 40), on("b", 7, 30), on("a", 7, 20)}, 7, at(20)},
		{"other data only", []board.Entry{on("orig", 0, 5), on("s41", 41, 6)}, 7, now},
		{"a retracted one first", []board.Entry{on("a", 7, 20), retracted}, 7, at(20)},
		{"no season", []board.Entry{on("orig", 0, 5), on("s7", 7, 6)}, 0, now},
	} {
		if got := board.SeasonStart(tt.entries, tt.season, now); !got.Equal(tt.want) {
			t.Errorf("%s: SeasonStart = %v, want %v", tt.name, got, tt.want)
		}
	}
	late := on("later", 7, 0)
	late.Created = now.Add(time.Hour)
	if got := board.SeasonStart([]board.Entry{late}, 7, now); !got.Equal(now) {
		t.Errorf("an entry after now: SeasonStart = %v, want now %v", got, now)
	}
}
