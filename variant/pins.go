package variant

import (
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// The user databases' times move in place, but a dialogue whose times stay (a time written a way
// not read, "at noon"; one that would leave the part of the day a turn names, "5:30pm" at a
// parents' evening) still states its records' times as they were: moved under it, "the meeting on
// May 9 at 13:30" would be at 11:30, and a gold call that writes 13:30 back would reschedule it
// unasked. So a record such a dialogue names keeps its time (its date still moves), and so does
// every dialogue that names a record kept so (pinTimes).

// writes is what a text writes of dates and times, as bit sets: the days of its dates of dateYear
// (day numbers from the year's first, see tools.DayNumber) and the minutes of the day of its times
// (a bare time read both ways, "noon" as 12:00, "midnight" as 0:00).
type writes struct {
	days [6]uint64  // 366 days
	mins [23]uint64 // 1440 minutes
}

// writesOf returns what s writes of dates and times, and whether it writes a time.
func writesOf(s string) (w writes, timed bool) {
	first := tools.DayNumber(dateYear + "-01-01")
	eachDate(s, func(n, _, _ int, _ string) { n -= first; w.days[n/64] |= 1 << (n % 64) })
	add := func(m int) { w.mins[m/64] |= 1 << (m % 64); timed = true }
	for _, c := range clocks(s) {
		m := c.minuteOfDay()
		add(m)
		if c.form == clockBare {
			add((m + 720) % 1440)
		}
	}
	if strings.Contains(s, "noon") || strings.Contains(s, "Noon") {
		add(720) // "afternoon" too: a file's time is read loosely, a record's exactly
	}
	if strings.Contains(s, "midnight") || strings.Contains(s, "Midnight") {
		add(0)
	}
	return w, timed
}

// names reports whether w writes one of the dates and one of the times of the record that rec
// is what writes: a text that says "May 9 at 13:30" names the record at 2023-05-09 13:30.
func (w *writes) names(rec *writes) bool {
	return meets(w.days[:], rec.days[:]) && meets(w.mins[:], rec.mins[:])
}

// meets reports whether the bit sets a and b share a bit.
func meets(a, b []uint64) bool {
	for i := range a {
		if a[i]&b[i] != 0 {
			return true
		}
	}
	return false
}

// pinTimes returns the records of the user databases whose times stay (each record's text before
// its dates and times move, and its moved copy's, see worldCopies): those a dialogue file held names
// (a file whose first version with its dates moved keeps its times): it writes the record's user's
// username, one of its dates, and one of its times (see writes.names) or what it is about. A file moving names (one
// with a version that moves its times) that names such a record has its times kept too (keep sets
// its versions again), until no record and no file is added. The dates, times and usernames
// compared are the original's.
func pinTimes(f *found, files dataset.Files, r *replacer, held, moving map[string]bool, rep *Report, keep func(string)) map[string]bool {
	type dialogue struct {
		path, s, low string // low: s in lower case
		w            writes
		held, moves  bool
		_            noCompare
	}
	var texts []dialogue
	for _, pth := range f.texts {
		if held[pth] || moving[pth] {
			if w, timed := writesOf(text(files[pth])); timed {
				s := text(files[pth])
				texts = append(texts, dialogue{path: pth, s: s, low: lowerASCII(s), w: w, held: held[pth], moves: moving[pth]})
			}
		}
	}
	type record struct {
		s, user, about string // about: what the record is about, in lower case ("lunch with giulia")
		w              writes
		_              noCompare
	}
	var recs []record
	for _, name := range f.dbNames {
		db := files[f.dbs[name]]
		if ms, _, _ := members(db); len(texts) > 0 && userFields[name] != nil {
			for _, m := range ms {
				v, _ := value.Decode(db[m.start:m.end])
				if rv, ok := v.(*value.Map); ok && rv.String("username") != "" {
					if w, timed := writesOf(string(db[m.start:m.end])); timed {
						recs = append(recs, record{s: string(db[m.start:m.end]), user: rv.String("username"), about: lowerASCII(rv.String("content") + rv.String("meeting_topic")), w: w})
					}
				}
			}
		}
	}
	pinned := map[string]bool{}
	for added := true; added; {
		added = false
		for i := range texts {
			t := &texts[i]
			for j := range recs {
				rec := &recs[j]
				// Named by one of its dates and one of its times, or by what it is about: "lunch with
				// Giulia is now at 1:30 pm on April 7" names the lunch at 12:30.
				about := rec.about != "" && meets(t.w.days[:], rec.w.days[:]) && strings.Contains(t.low, rec.about)
				if !t.w.names(&rec.w) && !about || !strings.Contains(t.s, rec.user) {
					continue
				}
				if t.held && !pinned[rec.s] {
					pinned[rec.s], pinned[r.replace(rec.s, nil)], added = true, true, true
					rep.TimesPinned++
				}
				if t.moves && pinned[rec.s] {
					keep(t.path)
					rep.TimesKept = append(rep.TimesKept, t.path)
					t.held, t.moves, added = true, false, true
				}
			}
		}
	}
	return pinned
}

// shiftRecords returns the user database's text db with its dates moved by days and its times by
// hours (hoursFor draws hours that keep every time there within its day), but the times of the
// records pinned holds (see pinTimes).
func shiftRecords(db string, days, hours int, pinned map[string]bool) string {
	timed, _ := shiftTimes(shiftDates(db, days, nil, 0), hours, nil)
	for rec := range pinned { // each record once (its text is a whole JSON object): in any order
		dated := shiftDates(rec, days, nil, 0)
		moved, _ := shiftTimes(dated, hours, nil)
		timed = strings.ReplaceAll(timed, moved, dated)
	}
	return timed
}
