package variant

import (
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
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

// names reports whether w writes one of the dates and one of the times rec writes (a record's
// writes): a text that says "May 9 at 13:30" names the record at 2023-05-09 13:30.
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
// (a file whose first version with its dates moved keeps a time it writes). A file names a record
// when it writes the record's username, one of its dates, and one of its times (see writes.names)
// or what it is about. A file moving names (one with a version that moves its times) that names
// such a record has its times kept too (keep sets its versions again), until no record and no file
// is added. The dates, times and usernames compared are the original's.
func pinTimes(f *found, files dataset.Files, byUser map[string][]*record, r *replacer, held, moving map[string]bool, rep *Report, keep func(string)) map[string]bool {
	pinned := map[string]bool{}
	for added := true; added; {
		added = false
		for _, pth := range f.texts {
			if !held[pth] {
				continue
			}
			d := dialogue{s: text(files[pth])}
			for _, rec := range d.records(byUser, nil) {
				if !pinned[rec.s] && d.names(rec) {
					pinned[rec.s], pinned[r.replace(rec.s, nil)], added = true, true, true
					rep.TimesPinned++
				}
			}
		}
		pinnedUsers := map[string]bool{}
		for u, recs := range byUser {
			for _, rec := range recs {
				pinnedUsers[u] = pinnedUsers[u] || pinned[rec.s]
			}
		}
		for _, pth := range f.texts {
			if !moving[pth] || held[pth] || len(pinned) == 0 {
				continue
			}
			d := dialogue{s: text(files[pth])}
			for _, rec := range d.records(byUser, pinnedUsers) {
				if pinned[rec.s] && d.names(rec) {
					keep(pth)
					rep.TimesKept = append(rep.TimesKept, pth)
					held[pth], added = true, true // keep's versions hold its times
					break
				}
			}
		}
	}
	return pinned
}

// recordsByUser returns the records of the user databases of files by their username, as the pins
// read them: their texts are read only when a dialogue that writes their user is (most dialogues
// name no record that stays, and most records are named by none).
func recordsByUser(f *found, files dataset.Files) map[string][]*record {
	byUser := map[string][]*record{}
	for _, name := range f.dbNames {
		if userFields[name] == nil {
			continue
		}
		db := files[f.dbs[name]]
		ms, _, _ := members(db)
		for _, m := range ms {
			raw := string(db[m.start:m.end])
			if user := field(raw, "username"); user != "" {
				byUser[user] = append(byUser[user], &record{s: raw, user: user, about: lowerASCII(field(raw, "content") + field(raw, "meeting_topic"))})
			}
		}
	}
	return byUser
}

// A file served with its dates as written (as it is, or with only its values moved) states its
// records as the original's world holds them: "cancel my onboarding call on April 12 at 4pm". Moved
// under it, the call would be on another day at another hour, and a model that looks it up by the
// time it was told finds nothing, though a gold that finds it by its topic still proves. So such a
// record keeps its date and its time, and a file whose dates move that names it keeps its dates too
// (pinDates).

// pinDates returns the records of the user databases whose dates and times stay, as their texts in
// the variant's world before they move (a record's own text, or its copy's, see worldCopies): those
// a file whose first version keeps its dates names (the file as it is finds the original records,
// one with its values moved their copies). A file whose first version moves its dates and that
// names such a record is served with its dates kept (its versions that move them go, and v.why
// says so), and its records stay in turn, until no record and no file is added. Files and records are
// read as the original's, as pinTimes reads them.
func (v *versions) pinDates(byUser map[string][]*record, rep *Report) map[string]bool {
	pinned := map[string]bool{}
	read := map[string]bool{} // the kept files whose records are pinned
	for added := true; added; {
		added = false
		for _, pth := range v.f.texts {
			vs := v.tries[pth]
			if read[pth] || len(vs) == 0 || !vs[0].kept || v.f.scenes[pth] {
				continue
			}
			read[pth] = true
			d := dialogue{s: text(v.files[pth])}
			for _, rec := range d.records(byUser, nil) {
				if d.names(rec) {
					if key := v.seen(rec, vs[0].hits != nil); !pinned[key] {
						pinned[key], added = true, true
						rep.DatesPinned++
					}
				}
			}
		}
		for _, pth := range v.f.texts {
			vs := v.tries[pth]
			if !added || len(vs) == 0 || vs[0].kept || v.f.scenes[pth] {
				continue
			}
			d := dialogue{s: text(v.files[pth])}
			for _, rec := range d.records(byUser, nil) {
				if d.names(rec) && pinned[v.seen(rec, true)] {
					kept := vs[:0:0] // its versions that keep its dates: the last, the file as it is, does
					for _, x := range vs {
						if x.kept {
							kept = append(kept, x)
						}
					}
					v.tries[pth], v.out[pth] = kept, bytesOf(kept[0].text)
					v.why[pth] = Unchanged{pth, checkPinned, "it names a record of the world that a file served with its dates as written names: the record keeps its date and time"}
					break
				}
			}
		}
	}
	return pinned
}

// seen returns the text of the record of the variant's world that a file finds for rec (its
// original's text): its copy's when the file's values move and rec's user moved (see worldCopies),
// else rec's own.
func (v *versions) seen(rec *record, valuesMoved bool) string {
	if valuesMoved && v.r.replace(rec.user, nil) != rec.user {
		return v.r.replace(rec.s, nil)
	}
	return rec.s
}

// record is a record of a user database as the pins read it: its text, its username, what it is
// about in lower case ("lunch with giulia"), and its writes once read.
type record struct {
	s, user, about string
	w              *writes
	_              noCompare
}

// dialogue is a dialogue file as the pins read it: its text, and once read its writes and its text
// in lower case.
type dialogue struct {
	s, low string
	w      *writes
	_      noCompare
}

// records returns the records of the users of byUser that d writes as a whole token (in the order
// it first writes them; only those in only, when not nil), none when d writes no time. One pass over
// d's text: searching it for every user cost a variant more in a tab than the rest of the pins.
func (d *dialogue) records(byUser map[string][]*record, only map[string]bool) []*record {
	var out []*record
	seen := map[string]bool{}
	s := d.s
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-') {
			j++
		}
		u := strings.TrimRight(s[i:j], ".-")
		i = j
		if recs := byUser[u]; recs != nil && !seen[u] && (only == nil || only[u]) {
			seen[u] = true
			if d.w == nil {
				w, timed := writesOf(s)
				if !timed {
					return nil
				}
				d.w = &w
			}
			out = append(out, recs...)
		}
	}
	return out
}

// names reports whether d names rec: it writes one of its dates, and one of its times or what it is
// about ("lunch with Giulia is now at 1:30 pm on April 7" names the lunch at 12:30).
func (d *dialogue) names(rec *record) bool {
	if rec.w == nil {
		w, _ := writesOf(rec.s)
		rec.w = &w
	}
	if d.w.names(rec.w) {
		return true
	}
	if rec.about == "" || !meets(d.w.days[:], rec.w.days[:]) {
		return false
	}
	if d.low == "" {
		d.low = lowerASCII(d.s)
	}
	return strings.Contains(d.low, rec.about)
}

// field returns the text of the member key of the JSON object text rec ("key": "value", a string
// with no escape in it), or "": a record's username and what it is about, read without decoding
// every record of the world.
func field(rec, key string) string {
	_, v, _ := strings.Cut(rec, `"`+key+`":`)
	for len(v) > 0 && v[0] == ' ' {
		v = v[1:]
	}
	if v, ok := strings.CutPrefix(v, `"`); ok {
		if v, _, ok = strings.Cut(v, `"`); ok && v != "" && !strings.Contains(v, `\`) {
			return v
		}
	}
	return ""
}

// shiftRecords returns the user database's text db with its dates moved by days and its times by
// hours (hoursFor draws hours that keep every time there within its day), but the dates and times
// of the records dated holds (see pinDates) and the times of those timed holds (see pinTimes). Each
// record is moved in its place, so what one becomes is never read as another.
func shiftRecords(db string, days, hours int, dated, timed map[string]bool) string {
	ms, _, err := members(bytesOf(db))
	if err != nil {
		ms = []member{{start: 0, end: len(db)}} // not an object: moved whole
	}
	out := make([]byte, 0, len(db)+len(db)/8) // a date or a time never grows by more
	last := 0
	for _, m := range ms {
		rec := db[m.start:m.end]
		if !dated[rec] {
			pinned := timed[rec]
			if rec = shiftDates(rec, days, nil, 0); !pinned {
				rec, _ = shiftTimes(rec, hours, nil)
			}
		}
		out = append(append(out, db[last:m.start]...), rec...)
		last = m.end
	}
	return text(append(out, db[last:]...))
}
