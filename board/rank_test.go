package board_test

import (
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
