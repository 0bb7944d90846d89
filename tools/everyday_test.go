package tools

import (
	"testing"
	"time"
)

func TestHomePlayMusicGetToday(t *testing.T) {
	for _, s := range []homeStep{
		{tool: "PlayMusic", args: `{"music_name": "  Yesterday "}`, out: `"music://yesterday"`},
		{tool: "PlayMusic", args: `{"music_name": "Shape of You"}`, text: true, out: `"music://shape of you"`},
		{tool: "PlayMusic", args: `{"music_name": " "}`, exc: "The music name cannot be empty."},
		{tool: "PlayMusic", args: `{"music_name": 7}`, exc: "'int' object has no attribute 'lower'"},
		{tool: "GetToday", args: `{}`, out: `"2023-03-31"`},
		{tool: "GetToday", args: `{"date": "x"}`, escape: "invalid parameter name. parameter: date"},
	} {
		homeRun(t, s)
	}
	env := homeDo(t, homeBase(t).NewWorld(), homeStep{tool: "GetToday", args: `{}`, out: `"2023-03-31"`})
	if in, ok := env.Get("input"); !ok || in != nil {
		t.Errorf("GetToday input %v %v", in, ok)
	}
	homeChecks(t, []homeCheckCase{
		{name: "output only", tool: "PlayMusic", resp: `{"output": "music://a"}`, gold: `{"input": {"music_name": "b"}, "output": "music://a", "exception": "x"}`, want: true},
		{name: "output differs", tool: "PlayMusic", resp: `{"output": "music://a"}`, gold: `{"output": "music://b"}`, want: false},
		{name: "missing output", tool: "PlayMusic", resp: `{}`, gold: `{"output": "music://b"}`, errKind: Key, errText: "'output'"},
		{name: "today", tool: "GetToday", resp: `{"input": null, "output": "2023-03-31", "exception": null}`, gold: `{}`, want: true},
		{name: "today with input", tool: "GetToday", resp: `{"input": {}, "output": "2023-03-31", "exception": null}`, gold: `{}`, want: false},
		{name: "today null output", tool: "GetToday", resp: `{"output": null}`, gold: `{}`, want: false},
	})
}

// TestTodayInWords: the date the prompts state in words is Today, with its weekday.
func TestTodayInWords(t *testing.T) {
	d, err := time.Parse(time.DateOnly, Today)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Format("Monday, 2 January 2006"); got != TodayInWords {
		t.Errorf("TodayInWords is %q, want %q", TodayInWords, got)
	}
}
