package score

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

// TestNewReport: verdicts are summed overall, by level and by gold tool (a special case under
// "(no call)"), with accuracy over calls and the mean ROUGE-L over replies; categories of calls and of
// special cases are counted apart, in Categories' order; a verdict without a call form counts as
// "none"; a level-3 scene is right only when all its calls are; each level present gets its ceiling.
func TestNewReport(t *testing.T) {
	call := func(level, file, tool, cat, form string) Result {
		return Result{Level: level, File: file, Kind: KindCall, CallVerdict: &CallVerdict{Tool: tool, Category: cat, Correct: cat == Correct, Form: form}}
	}
	reply := func(level string, rouge float64) Result {
		return Result{Level: level, File: "a.jsonl", Kind: KindReply, ReplyVerdict: &ReplyVerdict{RougeL: rouge}}
	}
	results := []Result{
		call(dataset.Level1, "a.jsonl", "GetToday", Correct, "text"),
		call(dataset.Level1, "a.jsonl", "GetToday", NoAPICall, ""),
		reply(dataset.Level1, 0.5),
		reply(dataset.Level1, 1),
		call(dataset.Level2, "b.jsonl", "AddAlarm", Correct, "native"),
		{Level: dataset.Level1, File: "c.jsonl", Kind: KindSpecial, CallVerdict: &CallVerdict{Category: Correct, Correct: true}},
		call(dataset.Level3, "s1.json", "Calculator", Correct, "text"),
		call(dataset.Level3, "s1.json", "Calculator", Correct, "text"),
		call(dataset.Level3, "s2.json", "Calculator", Correct, "text"),
		call(dataset.Level3, "s2.json", "Calculator", HasException, "text"),
	}
	tallyText := func(t Tally) string {
		return fmt.Sprintf("%s calls %d/%d (%.4f) replies %d (%.4f) special %d/%d scenes %d/%d",
			t.Name, t.Correct, t.Calls, t.Accuracy, t.Replies, t.RougeL, t.SpecialCorrect, t.Special, t.ScenesCorrect, t.Scenes)
	}
	data := dataset.NewData("tiny", nil)
	data.Repaired = true
	rep := NewReport(data, NewIndex(data), results, Replay)
	if len(rep.Levels) != 3 {
		t.Fatalf("%d levels in the report, want 3: %+v", len(rep.Levels), rep.Levels)
	}
	tests := []struct{ what, got, want string }{
		{"state", rep.State, string(Replay)},
		{"overall", tallyText(rep.Overall), " calls 5/7 (0.7143) replies 2 (0.7500) special 1/1 scenes 1/2"},
		{"level 1", tallyText(rep.Levels[0]), dataset.Level1 + " calls 1/2 (0.5000) replies 2 (0.7500) special 1/1 scenes 0/0"},
		{"level 2", tallyText(rep.Levels[1]), dataset.Level2 + " calls 1/1 (1.0000) replies 0 (0.0000) special 0/0 scenes 0/0"},
		{"level 3", tallyText(rep.Levels[2]), dataset.Level3 + " calls 3/4 (0.7500) replies 0 (0.0000) special 0/0 scenes 1/2"},
		{"categories", fmt.Sprint(rep.Categories), fmt.Sprint([]Count{{Category: Correct, Count: 5}, {Category: NoAPICall, Count: 1}, {Category: HasException, Count: 1}})},
		{"special categories", fmt.Sprint(rep.SpecialCategories), fmt.Sprint([]Count{{Category: Correct, Count: 1}})},
		{"forms", fmt.Sprint(rep.Forms), "map[native:1 none:2 text:5]"},
	}
	var tools []string
	for _, tl := range rep.Tools {
		tools = append(tools, tallyText(tl))
	}
	tests = append(tests, struct{ what, got, want string }{"tools", strings.Join(tools, "; "), strings.Join([]string{
		"(no call) calls 0/0 (0.0000) replies 0 (0.0000) special 1/1 scenes 0/0",
		"AddAlarm calls 1/1 (1.0000) replies 0 (0.0000) special 0/0 scenes 0/0",
		"Calculator calls 3/4 (0.7500) replies 0 (0.0000) special 0/0 scenes 0/0",
		"GetToday calls 1/2 (0.5000) replies 0 (0.0000) special 0/0 scenes 0/0",
	}, "; ")})
	var ceilings []string
	for _, c := range rep.Ceiling {
		ceilings = append(ceilings, c.Level)
	}
	tests = append(tests, struct{ what, got, want string }{"ceiling levels", strings.Join(ceilings, " "),
		strings.Join([]string{dataset.Level1, dataset.Level2, dataset.Level3}, " ")})
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %s, want %s", tt.what, tt.got, tt.want)
		}
	}
}
