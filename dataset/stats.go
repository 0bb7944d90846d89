package dataset

import (
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/tools"
)

// Stats counts a dataset.
func Stats(d *Data) protocol.Stats {
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
