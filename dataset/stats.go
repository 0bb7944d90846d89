package dataset

import (
	_ "embed"
	"encoding/json"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/tools"
)

// builtinStats is the builtin data's Stats, written by `go generate` beside the pack (a test fails
// when it is stale): counting needs every dialogue parsed, which in a fresh tab took the engine
// 0.3 to 0.6 s, and the home page asks for them as it loads, so every request of its first moments
// waited behind them.
//
//go:embed builtin.stats
var builtinStats []byte

// Stats counts a dataset. The builtin data's counts are the ones the build wrote (see builtinStats).
func Stats(d *Data) protocol.Stats {
	if d != nil && d == builtinData {
		var c protocol.Stats
		if json.Unmarshal(builtinStats, &c) == nil && c.Levels != nil {
			return c
		}
	}
	return Count(d)
}

// Count counts a dataset, parsing every dialogue and scene (Stats without the build's counts of the
// builtin data): what `go generate` writes as the builtin data's.
func Count(d *Data) protocol.Stats {
	c := protocol.Stats{Levels: map[string]protocol.LevelStats{"1": {}, "2": {}, "3": {}},
		Specials: map[string]int{}, Styles: map[string]int{}}
	for _, k := range protocol.Specials {
		c.Specials[k] = 0
	}
	for _, s := range protocol.Styles {
		c.Styles[s] = 0
	}
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
	for _, dl := range d.Dialogues() {
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
			c.Specials[dl.Meta.Special]++
		}
		for _, set := range dl.CallSets() {
			c.Styles[dl.Style(set)]++
		}
	}
	for _, sc := range d.Scenes() {
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

// StatsText returns the counts of files written as the builtin data is (Count of LoadRepaired), as
// the JSON text `go generate` keeps in builtin.stats.
func StatsText(files Files) ([]byte, error) {
	d, _, err := LoadRepaired(BuiltinName, files)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(Count(d), "", "  ")
	return append(b, '\n'), err
}
