package tools

import (
	"testing"
	"time"

	"github.com/apibank-playground/apibank/value"
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

// TestDates: DayNumber, DateOf and InWords agree with package time on every day of 1970-2100, and
// refuse what is not a date.
func TestDates(t *testing.T) {
	start := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	for n := 1; n <= 47847; n++ {
		d := start.AddDate(0, 0, n-1)
		date := d.Format(time.DateOnly)
		if got := DayNumber(date); got != n {
			t.Fatalf("DayNumber(%s) = %d, want %d", date, got, n)
		}
		if got := DateOf(n); got != date {
			t.Fatalf("DateOf(%d) = %s, want %s", n, got, date)
		}
		if n%97 == 0 {
			if got, want := InWords(date), d.Format("Monday, 2 January 2006"); got != want {
				t.Fatalf("InWords(%s) = %q, want %q", date, got, want)
			}
		}
	}
	if InWords(Today) != TodayInWords {
		t.Errorf("InWords(Today) = %q", InWords(Today))
	}
	for _, bad := range []string{"", "2023-02-29", "2023-13-01", "2023-04-31", "2023-4-1", "2023-04-01 10:00", "1969-12-31", "abcd-ef-gh"} {
		if DayNumber(bad) != 0 {
			t.Errorf("DayNumber(%q) = %d, want 0", bad, DayNumber(bad))
		}
	}
	if DateOf(0) != "" {
		t.Errorf("DateOf(0) = %q", DateOf(0))
	}
}

// TestGetTodayFromWorld: a base with a Today database answers its date; one without, Today.
func TestGetTodayFromWorld(t *testing.T) {
	for _, c := range []struct{ db, want string }{
		{"", Today},
		{`{"date": "2023-05-05"}`, "2023-05-05"},
		{`{"date": "not a date"}`, Today},
		{`[1]`, Today},
	} {
		dbs := map[string]any{}
		if c.db != "" {
			dbs[TodayDB] = Defer([]byte(c.db))
		}
		b := NewBase(dbs)
		if got := b.Today(); got != c.want {
			t.Errorf("%s: Today() = %s, want %s", c.db, got, c.want)
		}
		env, err := APIs.CallNative(b.NewWorld(), "GetToday", value.NewMap(0))
		if err != nil {
			t.Fatal(err)
		}
		if out, _ := env.Get("output"); out != c.want {
			t.Errorf("%s: GetToday = %v, want %s", c.db, out, c.want)
		}
	}
}
