package variant

import (
	"slices"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

func TestShiftTimes(t *testing.T) {
	for _, c := range []struct {
		in    string
		hours int
		want  string // "" when the text's times cannot move
	}{
		{`"time": "2023-04-09 16:00:00"`, 2, `"time": "2023-04-09 18:00:00"`},
		{`"2023-04-09 08:30"`, -1, `"2023-04-09 07:30"`},
		{`at 19:00 and 07:55`, 1, `at 20:00 and 08:55`},
		{`at 5:45am`, 1, `at 6:45am`},
		{`10am to 11am`, -1, `9am to 10am`},
		{`11am`, 1, `12pm`},
		{`12:30 pm`, -1, `11:30 am`},
		{`7:30 P.M. or 7 p.m.`, 2, `9:30 P.M. or 9 p.m.`},
		{`09:30 am`, 1, `10:30 am`},
		{`the 6:30 alarm`, 2, `the 8:30 alarm`},
		{`7 o'clock`, -2, `5 o'clock`},
		{`6:30 in the morning`, 1, `7:30 in the morning`},
		{`7 in the evening`, -1, `6 in the evening`},
		{`this morning at 7:45`, 2, `this morning at 9:45`},
		// A bare time the text's datetimes read: "11:00" is 11 in the morning.
		{`at 11:00 ("2023-04-03 11:00:00")`, 2, `at 13:00 ("2023-04-03 13:00:00")`},
		{`at 6:30 ("2023-04-03 18:30:00")`, 1, `at 7:30 ("2023-04-03 19:30:00")`},
		// Day bounds, and what is not a time, stay.
		{`2023-03-20 00:00:00 to 2023-03-28 23:59:59`, 1, `2023-03-20 00:00:00 to 2023-03-28 23:59:59`},
		{`25:30 or 6:75, Room 12, 3/16, 1.5:30`, 1, `25:30 or 6:75, Room 12, 3/16, 1.5:30`},
		{`no time here`, 2, `no time here`},
		{`token 9pm8xk2 and 7am_x`, 1, `token 9pm8xk2 and 7am_x`}, // inside a token: no time
		{`6pm`, 0, `6pm`},
		// Cannot move: out of its day, two readings, or out of its part of the day.
		{`"2023-04-09 23:30:00"`, 1, ``},
		{`at 1am`, -2, ``},
		{`the 11:30 one`, 1, ``},
		{`at 10:00`, 2, ``},
		{`11:30 in the morning`, 1, ``},
		{`this morning at 11am`, 2, ``},
		{`7 at night`, -2, ``},
	} {
		got, ok := shiftTimes(c.in, c.hours, nil)
		if c.want == "" {
			if ok || got != c.in {
				t.Errorf("shiftTimes(%q, %d) = %q, %v; want it to stay, false", c.in, c.hours, got, ok)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("shiftTimes(%q, %d) = %q, %v; want %q", c.in, c.hours, got, ok, c.want)
		}
	}
}

func TestUnreadTime(t *testing.T) {
	for _, c := range []struct {
		in     string
		unread bool
	}{
		{`lunch at noon`, true},
		{`half past nine`, true},
		{`a quarter to eight`, true},
		{`six thirty tomorrow morning`, true},
		{`seven o'clock`, true},
		{`at seven, please`, true},
		{`switch off at 11 tonight`, true},
		{`7-ish`, true},
		{`starts at 6 sharp`, true},
		{`at 7.`, true},
		{`from 2 to 4 pm`, true},
		{`2-4pm`, true},
		// Read by eachClock, or not a time.
		{`at 7pm tonight`, false},
		{`from 2:00 to 4:00 pm`, false},
		{`7 o'clock`, false},
		{`7 in the morning`, false},
		{`at 14 Awolowo Road`, false},
		{`on 2023-11-05 or 2023-10-12`, false},
		{`one of the two`, false},
		{`at 3 locations`, false},
	} {
		if got := unreadTime(c.in); got != c.unread {
			t.Errorf("unreadTime(%q) = %v, want %v", c.in, got, c.unread)
		}
	}
}

func TestFixedTimes(t *testing.T) {
	derived := func(v, rule string) *dataset.Dialogue {
		return &dataset.Dialogue{Meta: &dataset.Meta{Derived: []dataset.Derivation{{Value: v, Rule: rule}}}}
	}
	for _, c := range []struct {
		text  string
		d     *dataset.Dialogue
		fixed bool
	}{
		{`set it at 5:45am`, derived("2023-04-01 05:45:00", "'tomorrow at 5:45am', today is 2023-03-31"), false},
		{`an hour before`, derived("2023-04-16 18:00:00", "one hour before the meeting at 2023-04-16 19:00:00"), false},
		{`from March 20`, derived("2023-03-20 00:00:00", "start of 'March 20'"), false},
		{`actually make it 10`, derived("2023-04-02 10:00:00", "'actually make it 10' for the alarm on 2023-04-02"), true},
		{`the picnic is at noon`, &dataset.Dialogue{}, true},
		{`the alarm at 6:30 am`, &dataset.Dialogue{}, false},
	} {
		if got := timesFixed(c.text, c.d); got != c.fixed {
			t.Errorf("timesFixed(%q) = %v, want %v", c.text, got, c.fixed)
		}
	}
}

func TestPickHours(t *testing.T) {
	allowed := []int{-2, -1, 1, 2}
	seen := map[int]bool{}
	for seed := uint64(1); seed <= 100; seed++ {
		h := pickHours(seed, allowed)
		if h == 0 || h < -maxHours || h > maxHours || pickHours(seed, allowed) != h {
			t.Fatalf("seed %d: hours %d", seed, h)
		}
		seen[h] = true
	}
	if len(seen) != len(allowed) {
		t.Errorf("100 seeds drew %v of %v", seen, allowed)
	}
	if h := pickHours(1, nil); h != 0 {
		t.Errorf("no shift allowed, but %d drawn", h)
	}
	if got := hoursFor([]string{`{"1": {"time": "2023-04-03 22:30:00"}, "2": {"time": "2023-04-03 00:45:00"}}`}); len(got) != 1 || got[0] != 1 {
		t.Errorf("hoursFor keeps 22:30 and 00:45 in their day with %v, want [1]", got)
	}
}

// TestTimesMove: in every file served as the variant with its dates moved, each time of day is its
// original's moved by the variant's hours, in the form it was written (no original time survives
// but a day bound), and so is every time of the user databases; a file whose times are fixed, or
// cannot move by these hours, keeps them all.
func TestTimesMove(t *testing.T) {
	for _, seed := range seeds[:3] {
		files, out, rep := variantOf(t, seed)
		if rep.Hours == 0 || rep.Moved[KindTime] == 0 {
			t.Fatalf("seed %d: no time moved: hours %d, %v", seed, rep.Hours, rep.Moved)
		}
		f := learn(parse(files))
		kept := map[string]bool{}
		for _, u := range append(rep.Unchanged, rep.DatesKept...) {
			kept[u.Path] = true
		}
		moved := 0
		check := func(p, from, to string, fixed bool) {
			a, b := clocksOf(from), clocksOf(to)
			if len(a) != len(b) {
				t.Errorf("seed %d: %s: %d times, the variant %d", seed, p, len(a), len(b))
				return
			}
			for i := range a {
				x, y := a[i], b[i]
				bound := x.form == clockISO && x.dayBound()
				want := x.minuteOfDay() + 60*rep.Hours
				got := y.minuteOfDay()
				if x.form == clockBare {
					want, got = (x.hour+rep.Hours+12)%12, y.hour%12
				}
				switch {
				case fixed || bound:
					if y.hour != x.hour || y.minute != x.minute || y.form != x.form || y.pm != x.pm {
						t.Errorf("seed %d: %s: a time that stays moved (%d:%02d)", seed, p, x.hour, x.minute)
					}
				case y.minute != x.minute || got != want:
					t.Errorf("seed %d: %s: %d:%02d became %d:%02d, not moved by %d hours", seed, p, x.hour, x.minute, y.hour, y.minute, rep.Hours)
				default:
					moved++
				}
			}
		}
		for _, fr := range rep.Files {
			if !kept[fr.Path] && !path2scene(fr.Path) && !fr.Unchanged {
				_, can := shiftTimes(string(files[fr.Path]), rep.Hours, nil)
				fixed := f.fixedTimes[fr.Path] || !can || slices.Contains(rep.TimesKept, fr.Path)
				if !partsHold(string(files[fr.Path]), partsNamed(string(files[fr.Path])), rep.Hours) {
					// A part of the day named elsewhere would not hold: kept, unless only the
					// version with them moved proves (the last resort); either way all together.
					fixed = sameClocks(string(files[fr.Path]), string(out[fr.Path]))
				}
				check(fr.Path, string(files[fr.Path]), string(out[fr.Path]), fixed)
			}
		}
		stayed := 0 // the original records whose times stay (a file whose times stay names them)
		for name := range userFields {
			p := "init_database/" + name + ".json"
			before, _, _ := members(files[p])
			after, _, _ := members(out[p]) // the original records, then their copies
			for i, m := range before {
				a, b := string(files[p][m.start:m.end]), string(out[p][after[i].start:after[i].end])
				pinned := sameClocks(a, b) && slices.ContainsFunc(clocksOf(a), func(c clock) bool { return !c.dayBound() })
				if pinned {
					stayed++
				}
				check(p, a, b, pinned)
			}
		}
		if stayed > rep.TimesPinned+rep.DatesPinned {
			t.Errorf("seed %d: %d records keep their times, %d pinned with their dates moved, %d with them kept", seed, stayed, rep.TimesPinned, rep.DatesPinned)
		}
		if moved == 0 {
			t.Fatalf("seed %d: no time moved", seed)
		}
	}
}

// sameClocks reports whether a and b write the same times of day.
func sameClocks(a, b string) bool {
	x, y := clocksOf(a), clocksOf(b)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].hour != y[i].hour || x[i].minute != y[i].minute || x[i].pm != y[i].pm {
			return false
		}
	}
	return true
}

// clocksOf lists the times of day s writes, their places zeroed (a move may change a width).
func clocksOf(s string) []clock {
	out := clocks(s)
	for i := range out {
		out[i].start, out[i].end, out[i].mer = 0, 0, 0
	}
	return out
}

func TestPartsHold(t *testing.T) {
	for _, c := range []struct {
		text  string
		hours int
		hold  bool
	}{
		{"Move the 13:30 call. That frees my afternoon.", -2, false},
		{"Move the 13:30 call. That frees my afternoon.", 1, true},
		{"Move the 13:30 call.", -2, true},
		{"Morning run at 10:00, then lunch.", 2, false},
		{"Morning run at 07:00, then lunch.", 2, true},
		{"See you at 6:30. Tonight is fine.", -2, false},
		{"The 23:59 deadline, tonight.", 2, true},
		{"Parents' evening at 5:30pm.", -1, false}, // 4:30 pm is not the evening
		{"Lunch with Giulia moved to 1:30 pm.", 2, false},
		{"Lunch with Giulia moved to 12:00.", -1, true},
		{"Dinner at 19:00.", 1, true},
		{"Set an alarm at 6:15 am. Got an early bus.", 2, false}, // 8:15 is not early
		{"Set an alarm at 5:45am. Got an early shift.", 2, true},
		{"I finished early. Remove the reminder at 4pm.", 2, true}, // neither time early
		// Only the turns' texts count: a special case lists the words to ask with.
		{`around 5:30pm"}, {"needs": ["morning", "afternoon`, 2, true},
	} {
		turns := ""
		for _, t := range strings.Split(c.text, ". ") {
			turns += `{"role": "User", "text": "` + t + `"}` + "\n"
		}
		if got := partsHold(turns, partsNamed(turns), c.hours); got != c.hold {
			t.Errorf("partsHold(%q, %d) = %v, want %v", c.text, c.hours, got, c.hold)
		}
	}
}

func TestPartsNamed(t *testing.T) {
	const morning, afternoon, evening, tonight, night, early = 1, 2, 4, 8, 16, 32
	for _, c := range []struct {
		file string
		want uint16
	}{
		{`{"role": "User", "text": "got an early bus to catch in the morning"}`, early | morning},
		{`{"role": "User", "text": "the earlybird offer"}`, 0},
		{`{"role": "User", "text": "Good morning, is the afternoon free?"}`, morning | afternoon},
		{`{"role": "User", "text": "Evening works."}`, evening},
		{`{"role": "User", "text": "Tonight, not every night."}`, tonight | night},
		// Whole words only: "nightly", "overnight" and "mornings" name no part.
		{`{"role": "User", "text": "A nightly job, overnight, mornings off."}`, 0},
		// A word after an escape's letter is inside a word, as a text reads once decoded or not.
		{`{"role": "User", "text": "Noted.\nmorning slot"}`, 0},
		// Only turns' texts count, not the needs a special case lists.
		{`{"role": "User", "text": "at 5"}, {"needs": ["morning", "evening"]}`, 0},
		{"{\"role\":\"User\",\"text\":\"the afternoon\"}\n{\"role\":\"AI\",\"text\":\"Tonight\"}", afternoon | tonight},
		{`{"role": "User", "text": ""}`, 0},
	} {
		if got := partsNamed(c.file); got != c.want {
			t.Errorf("partsNamed(%s) = %05b, want %05b", c.file, got, c.want)
		}
	}
}

func TestDashedRanges(t *testing.T) {
	for _, c := range []struct {
		in    string
		hours int
		want  string
	}{
		{"Standup, 9:00\u20139:45 in the lab", 2, "Standup, 11:00\u201311:45 in the lab"},
		{"on May 20, 10:00 am\u201312:30 pm at the hall", 1, "on May 20, 11:00 am\u20131:30 pm at the hall"},
		{"15:00\u201416:00 in Room 2", -1, "14:00\u201415:00 in Room 2"},
		// Noon read bare moves into the afternoon in the 24-hour form, as the hour before it does.
		{"11:00\u201312:00, from 2023-04-13 11:00:00 to 2023-04-13 12:00:00", 2, "13:00\u201314:00, from 2023-04-13 13:00:00 to 2023-04-13 14:00:00"},
	} {
		if got, ok := shiftTimes(c.in, c.hours, nil); !ok || got != c.want {
			t.Errorf("shiftTimes(%q, %d) = %q, %v, want %q", c.in, c.hours, got, ok, c.want)
		}
	}
	for _, s := range []string{"rehearsal (April 5, 7\u20139 pm)", "10\u201311 am, video call", "6:75 isn't a time"} {
		if !unreadTime(s) {
			t.Errorf("unreadTime(%q) = false: its times would move but one", s)
		}
	}
	if unreadTime("9:00\u20139:45 and 2023-04-03 06:50:00") {
		t.Error("a dashed range of full times is read")
	}
}

// TestPartsOfDayHold: a dialogue served with its times moved names no part of the day they left
// ("even when she sends them at 4pm" … "well into the afternoon" never becomes 6pm), whether other
// values of it moved or, its one value being the time, it is served as it is; seeds whose times
// move by one hour and by two. (The build may serve such a move as a last resort, when nothing else
// proves: no file of the builtin data needs it.)
func TestPartsOfDayHold(t *testing.T) {
	hours := map[int]bool{}
	for _, seed := range []uint64{1, 2, 3, 4, 57} {
		files, out, rep := variantOf(t, seed)
		hours[rep.Hours] = true
		for _, fr := range rep.Files {
			s := string(files[fr.Path])
			if !sameClocks(s, string(out[fr.Path])) && !partsHold(s, partsNamed(s), rep.Hours) {
				t.Errorf("seed %d (hours %d): %s has its times moved out of a part of the day it names", seed, rep.Hours, fr.Path)
			}
		}
	}
	if !hours[1] || !hours[2] {
		t.Errorf("the seeds moved times by %v hours only", hours)
	}
}
