package dataset

import (
	"github.com/apibank-playground/apibank/tools"
)

// Counts are a dataset's sizes, as `apibank dataset stats` prints them.
type Counts struct {
	Dialogues int `json:"dialogues"`
	APICalls  int `json:"api_calls"`
	// Levels has "1", "2" and "3" (scenes count as level-3 dialogues).
	Levels map[string]LevelCounts `json:"levels"`
	// ToolsTotal is the number of distinct tool names over both catalogs; ToolsCovered how many of
	// them appear in at least one gold call.
	ToolsTotal   int `json:"tools_total"`
	ToolsCovered int `json:"tools_covered"`
	// SpecialCases is the number of dialogues marked as special cases.
	SpecialCases int `json:"special_cases"`
}

// LevelCounts are one level's sizes.
type LevelCounts struct {
	Dialogues int `json:"dialogues"`
	APICalls  int `json:"api_calls"`
}

// Stats counts a dataset.
func Stats(d *Data) Counts {
	c := Counts{Levels: map[string]LevelCounts{"1": {}, "2": {}, "3": {}}}
	names := map[string]bool{}
	for _, cat := range []*tools.Catalog{tools.APIs, tools.LV3} {
		for _, t := range cat.Tools() {
			names[t.Name] = true
		}
	}
	covered := map[string]bool{}
	add := func(level string, calls []string) {
		lc := c.Levels[level]
		lc.Dialogues++
		lc.APICalls += len(calls)
		c.Levels[level] = lc
		c.Dialogues++
		c.APICalls += len(calls)
		for _, n := range calls {
			if names[n] {
				covered[n] = true
			}
		}
	}
	for _, dl := range d.Dialogues {
		var calls []string
		for _, t := range dl.Turns {
			if t.Role == API {
				calls = append(calls, t.Tool)
			}
		}
		level := "1"
		switch dl.Level {
		case Level2:
			level = "2"
		case Level3:
			level = "3"
		}
		add(level, calls)
		if dl.Meta != nil && dl.Meta.Special != "" {
			c.SpecialCases++
		}
	}
	for _, sc := range d.Scenes {
		calls := make([]string, len(sc.Calls))
		for i, call := range sc.Calls {
			calls[i] = call.Tool
		}
		add("3", calls)
	}
	c.ToolsTotal = len(names)
	c.ToolsCovered = len(covered)
	return c
}
