package variant

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/tools"
)

func TestShiftDates(t *testing.T) {
	for _, c := range []struct {
		in   string
		days int
		want string
	}{
		{`"time": "2023-04-09 16:00:00"`, 14, `"time": "2023-04-23 16:00:00"`},
		{`on 2023-03-31.`, -7, `on 2023-03-24.`},
		{`April 9 at noon`, 14, `April 23 at noon`},
		{`9 April`, 28, `7 May`},
		{`April 9th and Apr. 1st`, 7, `April 16th and Apr. 8th`},
		{`the 9th of April`, -21, `the 19th of March`},
		{`april the 2nd`, 21, `april the 23rd`},
		{`MAY 05`, 7, `MAY 12`},
		{`May 13th`, -14, `April 29th`},
		{`15 May`, 140, `2 October`},
		{`Apr 29`, 14, `May 13`},
		{`March 31, 2023`, 7, `April 7, 2023`},
		// Not a date of the year, or not a date at all: stays.
		{`July 20, 1969`, 7, `July 20, 1969`},
		{`2024-01-10 and 2022-12-30`, 7, `2024-01-10 and 2022-12-30`},
		{`you may 5 times`, 7, `you may 5 times`},
		{`2023-02-30 is no day`, 7, `2023-02-30 is no day`},
		{`Room 12 in May`, 7, `Room 12 in May`},
		{`12023-04-09`, 7, `12023-04-09`},
		// A day in history: its month and day written alone ("07-20") or in another year make the
		// date written with a month's name that fact, which stays, and so do the dates the text writes
		// so around it (the day before a birthday it asked history of); its YYYY-MM-DD dates move.
		{`history on 07-20? On July 20: Apollo 11; remind me July 19, 2023-07-19`, 7, `history on 07-20? On July 20: Apollo 11; remind me July 19, 2023-07-26`},
		{`Date: 1969-07-20 ... On July 20 it landed`, 7, `Date: 1969-07-20 ... On July 20 it landed`},
		{`2023-07-20 and July 20`, 7, `2023-07-27 and July 27`},
		{`call 555-07-20 on July 20`, 7, `call 555-07-20 on July 27`},
		{`07-20-2023 and July 20`, 7, `07-20-2023 and July 27`},
		// A move out of the year is no move.
		{`December 30`, 7, `December 30`},
		{`April 9`, 0, `April 9`},
	} {
		moved := map[int]bool{}
		if got := shiftDates(c.in, c.days, moved, 0); got != c.want {
			t.Errorf("shiftDates(%q, %d) = %q, want %q", c.in, c.days, got, c.want)
		}
	}
}

// TestTodayInHistory: a text that asks history of its today ('03-31', "today, March 31") keeps all
// its dates (no move writes '03-31' again); one whose today is another day moves today's date with
// the world's today, and a day in history it asks of stays ("Pi Day, 14 March").
func TestTodayInHistory(t *testing.T) {
	today := tools.DayNumber("2023-03-31")
	const in = `history today, March 31? '03-31' ... Pi Day, 14 March? '03-14' 1879-03-14`
	if !todayInHistory(in, today) || todayInHistory(`2023-03-31, 1900-03-31, 03-311`, today) {
		t.Errorf("todayInHistory reads '03-31' alone only")
	}
	const other = `history today, March 31? ... Pi Day, 14 March? '03-14' 1879-03-14 and 1900-03-31`
	if got, want := shiftDates(other, 7, nil, today), `history today, April 7? ... Pi Day, 14 March? '03-14' 1879-03-14 and 1900-03-31`; got != want {
		t.Errorf("shiftDates = %q, want %q", got, want)
	}
	if got := factDays(other, today); len(got) != 1 || !got[tools.DayNumber("2023-03-14")] {
		t.Errorf("factDays = %v, want 14 March only", got)
	}
}

func TestPickShift(t *testing.T) {
	lo, hi := tools.DayNumber("2023-03-01"), tools.DayNumber("2023-06-06")
	seen := map[int]bool{}
	for seed := uint64(1); seed <= 200; seed++ {
		s := pickShift(seed, lo, hi)
		if s == 0 || s%7 != 0 || s < -7*maxWeeks || s > 7*maxWeeks {
			t.Fatalf("seed %d: shift %d", seed, s)
		}
		if tools.DateOf(lo + s)[:4] != dateYear || tools.DateOf(hi + s)[:4] != dateYear {
			t.Fatalf("seed %d: shift %d leaves %s", seed, s, dateYear)
		}
		if pickShift(seed, lo, hi) != s {
			t.Fatalf("seed %d: not deterministic", seed)
		}
		seen[s] = true
	}
	if len(seen) < 20 {
		t.Errorf("only %d shifts drawn of 200 seeds", len(seen))
	}
	if s := pickShift(1, tools.DayNumber("2023-01-01"), tools.DayNumber("2023-12-31")); s != 0 {
		t.Errorf("no week keeps a whole year in it, but the shift is %d", s)
	}
}

// isoDates lists the YYYY-MM-DD dates of dateYear in s, in order, as day numbers.
func isoDates(s string) []int {
	var out []int
	eachDate(s, func(n, _, _ int, form string) {
		if form == "iso" {
			out = append(out, n)
		}
	})
	return out
}

// TestDatesMove: in every file served as the variant with its dates moved, each date of the year is
// its original's moved by the shift (no original date survives but one whose move would leave the
// year), the world's today moved alike, a
// prompt states it and GetToday answers it; a file whose dates were kept states the data's today.
func TestDatesMove(t *testing.T) {
	files, out, rep := variantOf(t, 42)
	if rep.Shift == 0 || rep.Moved[KindDate] == 0 {
		t.Fatalf("no date moved: shift %d, %v", rep.Shift, rep.Moved)
	}
	kept := map[string]bool{}
	for _, u := range append(rep.Unchanged, rep.DatesKept...) {
		kept[u.Path] = true
	}
	moved := 0
	for _, fr := range rep.Files {
		if kept[fr.Path] || path2scene(fr.Path) {
			continue
		}
		a, b := isoDates(string(files[fr.Path])), isoDates(string(out[fr.Path]))
		if len(a) != len(b) {
			t.Errorf("%s: %d dates, the variant %d", fr.Path, len(a), len(b))
			continue
		}
		for i := range a {
			if b[i] == a[i] && tools.DateOf(a[i] + rep.Shift)[:4] != dateYear {
				continue // its move would leave the year: it stays
			}
			if b[i] != a[i]+rep.Shift {
				t.Errorf("%s: %s became %s, not moved by %d days", fr.Path, tools.DateOf(a[i]), tools.DateOf(b[i]), rep.Shift)
			}
		}
		moved += len(a)
	}
	if moved == 0 {
		t.Fatal("no file's date moved")
	}
	today := tools.DateOf(tools.DayNumber(tools.Today) + rep.Shift)
	d, _, err := dataset.LoadRepaired(rep.Name, out)
	if err != nil {
		t.Fatal(err)
	}
	if d.Base.Today() != today {
		t.Errorf("the variant's today is %s, want %s", d.Base.Today(), today)
	}
	for _, dl := range d.Dialogues() {
		want := today
		if kept[dl.Level+"/"+dl.File] || kept["lv1-lv2-samples/"+dl.Level+"/"+dl.File] {
			want = tools.Today
		}
		if dl.StatedToday() != want {
			t.Errorf("%s states %s, want %s", dl.File, dl.StatedToday(), want)
		}
	}
	stated := 0
	for _, dl := range d.Dialogues() {
		sms, err := score.Samples(dl)
		if err != nil || len(sms) == 0 {
			continue
		}
		want := "Today is " + tools.InWords(dl.StatedToday()) + " (" + dl.StatedToday() + ")."
		if p := score.BuildPrompt(sms[0]).Text; !strings.Contains(p, want) {
			t.Errorf("%s: the prompt does not state %q", dl.File, want)
		}
		stated++
	}
	if stated == 0 {
		t.Error("no prompt built")
	}
	env, err := tools.APIs.CallNative(d.Base.NewWorld(), "GetToday", nil)
	if out, _ := env.Get("output"); err != nil || out != today {
		t.Errorf("GetToday answers %v (%v), want %s", out, err, today)
	}
}

func path2scene(p string) bool { return len(p) > 8 && p[:8] == dataset.Level3+"/" }

func TestDatedPhrase(t *testing.T) {
	for _, c := range []struct {
		phrase string
		want   bool
	}{
		{"4th", true},
		{"April or May", true},
		{"the 4th and 25th", false}, // "the" is a word of a sentence, read by settleUnread already
		{"which one", false},
		{"or", false},
		{"April 4", false}, // a date written whole: eachDate reads it
		{"25", false},      // a number, not a day written alone
		{"May", true},
	} {
		if got := datedPhrase(c.phrase); got != c.want {
			t.Errorf("datedPhrase(%q) = %v, want %v", c.phrase, got, c.want)
		}
	}
}

// TestNeedsMoveWithDates: a special case's needs that name the dialogue's dates by a day or a month
// alone ("4th", "April or May") move with its dates, in a file's text as settleUnread rewrites it,
// and in every variant no need names a day or a month the dialogue does not have.
func TestNeedsMoveWithDates(t *testing.T) {
	before := `{"role": "Meta", "needs": [{"what": "names the alarms or asks which", "any": ["which one", "April 4", "4th", "25th", "April or May"]}]}
{"role": "User", "text": "I have two alarms, on April 4 and on May 25. The 4th stays."}`
	after := shiftDates(before, 7, nil, 0)
	got, ok := settleUnread(before, after, 7, 0)
	want := `{"role": "Meta", "needs": [{"what": "names the alarms or asks which", "any": ["which one", "April 11", "11th", "1st", "April or June"]}]}
{"role": "User", "text": "I have two alarms, on April 11 and on June 1. The 11th stays."}`
	if !ok || got != want {
		t.Errorf("settleUnread = %v\n%s\nwant\n%s", ok, got, want)
	}
	// Not in a Meta line, a day alone with no "the" before it is not read as a date.
	if _, ok := settleUnread(`{"role": "User", "text": "see the 4th, April 4; "}`+"\n"+`{"role": "AI", "text": "4th"}`, `{"role": "User", "text": "see the 11th, April 11; "}`+"\n"+`{"role": "AI", "text": "4th"}`, 7, 0); ok {
		t.Error("a day alone outside the needs was settled")
	}

	d, _, err := dataset.LoadRepaired("builtin", builtinFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	dated := 0
	for _, dl := range d.Dialogues() {
		if p := staleNeed(dl); p != "" {
			t.Errorf("builtin %s: a need names %q, which no date of the dialogue has", dl.File, p)
		}
		if dl.Meta != nil {
			for _, n := range dl.Meta.Needs {
				for _, p := range n.Any {
					if datedPhrase(p) {
						dated++
					}
				}
			}
		}
	}
	if dated == 0 {
		t.Fatal("no need of the builtin data names a day or a month alone: the test checks nothing")
	}
	for _, seed := range seeds {
		_, out, rep := variantOf(t, seed)
		v, _, err := dataset.LoadRepaired(rep.Name, out)
		if err != nil {
			t.Fatal(err)
		}
		for _, dl := range v.Dialogues() {
			if p := staleNeed(dl); p != "" {
				t.Errorf("seed %d, %s: a need names %q, which no date of the variant's dialogue has", seed, dl.File, p)
			}
		}
	}
}
