package variant

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Times of day move by a shift of whole hours, drawn per seed among those that keep every time of
// the user databases within its day (see pickHours): the minutes stay, so "5:45am" stays a quarter
// to the hour and "6pm" a whole one. A time is moved where it is written the ways the data writes
// one (a datetime's time, "19:00", "07:55", "5:45am", "6 pm", "7:30 P.M.", "6:30", "7 o'clock",
// "7 in the morning"), in the form it is written. A file's times all move or none does: none when
// one of them would leave its day or the part of the day its words name, or could be read two ways
// after its move ("11:30" + 1 is after noon or after midnight), and none in a file that writes a
// time in a way not read (see timesFixed). Day bounds (00:00 and 23:59, a day's start and end) stay.

// maxHours bounds an hours shift either way.
const maxHours = 2

// clockForm is how a time of day is written, which decides how its move is written.
type clockForm uint8

const (
	// clockISO is a datetime's time ("2023-04-01 05:45:00"): 24-hour, two digits.
	clockISO clockForm = iota
	// clock24 is a 24-hour time ("19:00", "07:55"): a zero first or an hour that is not 1 to 12.
	clock24
	// clock12 is a 12-hour time with its meridiem ("5:45am", "6 pm", "7:30 P.M.").
	clock12
	// clockBare is a 12-hour time without one ("6:30", "7 o'clock"): morning or evening.
	clockBare
)

// clock is a time of day written in a text: its hour's digits at [start, end), its hour and minute
// as written, its form, for clock12 where its meridiem's first letter is (mer) and whether it is
// after noon, and the part of the day its words name (see dayParts; noPart when none).
type clock struct {
	start, end   int
	hour, minute int
	form         clockForm
	mer          int
	pm           bool
	part         int8
	_            noCompare
}

// noCompare makes a struct that holds it not comparable: the compiler then writes no equality
// function for it, which the engine module would carry for nothing (nothing compares these).
type noCompare [0]func()

// noPart is a clock's part when its words name none.
const noPart = -1

// dayParts are the parts of the day a text names next to a time, and the hours (24-hour) each
// spans: a time next to one moves only within it, and a bare time reads in it as the morning's or
// the evening's. Night's second span is its hours after midnight.
var dayParts = [...]struct {
	word                 string
	from, to, from2, to2 int8
}{
	{"morning", 4, 11, -1, -1},
	{"afternoon", 12, 17, -1, -1},
	{"evening", 17, 22, -1, -1},
	{"tonight", 17, 23, -1, -1},
	{"night", 19, 23, 0, 4},
	// "An early bus" at 6:15 am is not at 8:15.
	{"early", 4, 7, -1, -1},
	// Meals name their hours too: "lunch at 1:30 pm" is not moved to 3:30 pm.
	{"breakfast", 6, 10, -1, -1},
	{"lunch", 11, 14, -1, -1},
	{"dinner", 17, 22, -1, -1},
}

// inPart reports whether hour (24-hour) is in the part of the day p (any hour for noPart).
func inPart(p int8, hour int) bool {
	if p == noPart {
		return true
	}
	d := dayParts[p]
	return hour >= int(d.from) && hour <= int(d.to) || hour >= int(d.from2) && hour <= int(d.to2)
}

// clocks lists the times of day s writes, in order (see clockForm).
func clocks(s string) []clock {
	var out []clock
	for i := nextDigit(s, 0); i < len(s); i = nextDigit(s, i+1) {
		if i > 0 && (isWordByte(s[i-1]) && !dashBefore(s, i) || strings.IndexByte(":./", s[i-1]) >= 0) {
			continue
		}
		c, next, ok := readClock(s, i)
		if ok {
			if c.form != clockISO && c.part == noPart {
				if c.part = partAfter(s, next); c.part == noPart {
					c.part = partBefore(s, c.start)
				}
			}
			out = append(out, c)
		}
		i = next - 1
	}
	return out
}

// readClock reads a time of day at s[i:], a digit that starts a word; it returns where to read on
// (after the digits at least).
func readClock(s string, i int) (c clock, next int, ok bool) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	c = clock{start: i, end: j, hour: atoi2(s[i:j]), part: noPart}
	if j-i > 2 {
		return c, j, false
	}
	k := j
	if twoDigitsAt(s, j+1) && s[j] == ':' {
		c.minute = atoi2(s[j+1 : j+3])
		k = j + 3
		if k < len(s) && s[k] == ':' && twoDigitsAt(s, k+1) {
			k += 3 // seconds
		}
		if c.hour > 23 || c.minute > 59 {
			return c, k, false // not a time ("25:30", "6:75"): a value a special case holds invalid
		}
		if i >= 11 && (s[i-1] == ' ' || s[i-1] == 'T') && isISODate(s[i-11:i-1]) {
			c.form = clockISO
			return c, k, k == len(s) || !isWordByte(s[k])
		}
	}
	if m, end, pm := meridiemAt(s, k); m >= 0 {
		c.form, c.mer, c.pm = clock12, m, pm
		return c, end, c.hour >= 1 && c.hour <= 12
	}
	c.form = clockBare
	if k == j { // an hour alone: a time with "o'clock", or a part of the day after it
		if k >= len(s) || s[k] != ' ' {
			return c, k, false // a date's month or day ("2023-04-03")
		}
		end := max(skipWord(s, k, " o'clock"), skipWord(s, k, " o\u2019clock"))
		if end == k {
			c.part = partAfter(s, k)
		}
		return c, end, c.hour >= 1 && c.hour <= 12 && (end > k || c.part != noPart)
	}
	if k < len(s) && isWordByte(s[k]) && !dashAt(s, k) {
		return c, k, false
	}
	if c.hour == 0 || c.hour > 12 || s[i] == '0' {
		c.form = clock24
	}
	return c, k, true
}

// meridiemAt reads "am", "pm", "a.m." or "p.m." in any case at s[k:], after one space maybe: where
// its first letter is (-1 when there is none), where it ends and whether it is pm.
func meridiemAt(s string, k int) (at, end int, pm bool) {
	p := skipWord(s, k, " ")
	if p+2 > len(s) || lowerByte(s[p+1]) != 'm' && s[p+1] != '.' {
		return -1, 0, false
	}
	l := lowerByte(s[p])
	switch end = skipWord(s, p+1, ".m."); {
	case l != 'a' && l != 'p':
		return -1, 0, false
	case end > p+1:
	case lowerByte(s[p+1]) == 'm' && (p+2 == len(s) || !isWordByte(s[p+2]) || dashAt(s, p+2)):
		end = p + 2
	default:
		return -1, 0, false
	}
	return p, end, l == 'p'
}

// dashAt reports whether an en or em dash starts at s[i] ("9:00–9:45"): a range's mark, not a
// letter, though isWordByte takes every byte of a non-ASCII letter for one.
func dashAt(s string, i int) bool {
	return i+3 <= len(s) && s[i] == 0xe2 && s[i+1] == 0x80 && (s[i+2] == 0x93 || s[i+2] == 0x94)
}

// dashBefore reports whether an en or em dash ends at s[i].
func dashBefore(s string, i int) bool { return i >= 3 && dashAt(s, i-3) }

// partAfter returns the part of the day named right after a time that ends at s[end] ("6:30 in the
// morning", "7 at night", "8 tonight"), or noPart.
func partAfter(s string, end int) int8 {
	k := max(skipWord(s, end, " in the "), skipWord(s, end, " at "), skipWord(s, end, " this "))
	for p, d := range dayParts {
		if k > end && wordAt(s, k, d.word) || d.word == "tonight" && skipWord(s, end, " ") > end && wordAt(s, end+1, d.word) {
			return int8(p)
		}
	}
	return noPart
}

// partBefore returns the part of the day named shortly before a time that starts at s[start], in
// its sentence ("this morning at 7:45", "tomorrow evening, 6pm"), or noPart.
func partBefore(s string, start int) int8 {
	from := start
	for from > 0 && start-from < 24 && strings.IndexByte(".!?\"\\\n", s[from-1]) < 0 {
		from--
	}
	for i := from; i < start; i++ {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		for p, d := range dayParts {
			if wordAt(s[:start], i, d.word) {
				return int8(p)
			}
		}
	}
	return noPart
}

// wordAt reports whether s holds the word w at i, in any case, ending a word.
func wordAt(s string, i int, w string) bool {
	end := i + len(w)
	return end <= len(s) && equalFoldASCII(s[i:end], w) && (end == len(s) || !isWordByte(s[end]))
}

// moveClock returns the hour c writes moved by hours, as written (its digits, and for clock12 its
// meridiem), or ok false when it would leave its day or its part of the day, or could be read two
// ways. A day bound (00:00, 23:59) stays: moved is false. A bare time is read at hourOfDay (-1: not
// read) when its text's datetimes say which it is, or its part of the day does.
func moveClock(c clock, hours, width, hourOfDay int) (digits string, pm, moved, ok bool) {
	h := c.hour + hours
	switch c.form {
	case clockISO, clock24:
		if c.dayBound() {
			return "", false, false, true
		}
	case clock12:
		h = c.hour%12 + hours
		if c.pm {
			h += 12
		}
		width = 1
		if c.end-c.start == 2 && c.hour < 10 {
			width = 2 // "09:30 am" keeps its zero
		}
		pm = h >= 12
	case clockBare:
		if hourOfDay < 0 && c.part != noPart {
			am, after := inPart(c.part, c.hour%12), inPart(c.part, c.hour%12+12)
			if am != after {
				hourOfDay = c.hour % 12
				if after {
					hourOfDay += 12
				}
			}
		}
		if hourOfDay < 0 {
			// Not read: the same text in the morning and the evening only when neither crosses
			// noon or midnight, and no 24-hour reading differs ("10:00" + 3 is "1:00" or "13:00").
			if c.hour > 11 || h < 1 || h > 11 || c.part != noPart {
				return "", false, false, false
			}
			return strconv.Itoa(h), false, true, true
		}
		// Read: written on a 12-hour clock while it stays in the morning or the evening, else as
		// the 24-hour time (noon's "12:30" alike), which has one reading.
		h, width = hourOfDay+hours, 2
		if hourOfDay < 12 && h >= 1 && h <= 12 || hourOfDay > 12 && h >= 13 {
			width = -1
		}
	}
	if h < 0 || h > 23 || !inPart(c.part, h) {
		return "", false, false, false
	}
	if c.form == clock12 || width < 0 {
		h = (h+11)%12 + 1
		width = max(width, 1)
	}
	return pad(h, width), pm, true, true
}

// dayBound reports whether c is a day's start or end (00:00, 23:59), which stays.
func (c clock) dayBound() bool {
	return c.hour == 0 && c.minute == 0 || c.hour == 23 && c.minute == 59
}

// minuteOfDay is the time c writes in minutes from midnight (a bare time read in the morning).
func (c clock) minuteOfDay() int {
	h := c.hour
	if c.form == clock12 {
		h %= 12
		if c.pm {
			h += 12
		}
	}
	return h*60 + c.minute
}

// shiftTimes returns s with its times of day moved by hours, written as they were, and true; or s
// and false when one of them cannot move (see moveClock). moved, when not nil, gets the minute of
// the day of each time moved (a bare time's are its datetime's).
func shiftTimes(s string, hours int, moved map[int]bool) (string, bool) {
	if hours == 0 {
		return s, true
	}
	cs := clocks(s)
	var b strings.Builder
	last := 0
	for _, c := range cs {
		hourOfDay := -1
		if c.form == clockBare {
			am := c.hour%12*60 + c.minute
			inAM, inPM := false, false
			for _, d := range cs {
				if d.form == clockISO {
					inAM = inAM || d.minuteOfDay() == am
					inPM = inPM || d.minuteOfDay() == am+720
				}
			}
			if inAM != inPM {
				hourOfDay = c.hour % 12
				if inPM {
					hourOfDay += 12
				}
			}
		}
		digits, pm, m, ok := moveClock(c, hours, c.end-c.start, hourOfDay)
		if !ok {
			return s, false
		}
		if !m {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 16)
		}
		b.WriteString(s[last:c.start])
		b.WriteString(digits)
		last = c.end
		if c.form == clock12 && pm != c.pm {
			b.WriteString(s[last:c.mer])
			b.WriteByte(s[c.mer] ^ ('a' ^ 'p')) // "a" ↔ "p", its case kept
			last = c.mer + 1
		}
		if moved != nil && c.form != clockBare {
			moved[c.minuteOfDay()] = true
		}
	}
	if last == 0 {
		return s, true
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// partsHold reports whether moving the times s writes by hours keeps each of them in, or out of,
// every part of the day in named (bit p for dayParts[p]): the parts a dialogue names anywhere
// (partsNamed), as moveClock keeps a time in the part its own words name but a dialogue may name
// it a turn later ("13:30" then "that frees my afternoon"); or those a record's words name
// ("Lunch with Giulia", see hoursFor). A bare time is checked in the morning and the evening alike.
func partsHold(s string, named uint16, hours int) bool {
	if named == 0 {
		return true
	}
	for _, c := range clocks(s) {
		h := c.minuteOfDay() / 60
		for p := range dayParts {
			if named&(1<<p) == 0 || c.dayBound() || inPart(int8(p), h) == inPart(int8(p), h+hours) &&
				(c.form != clockBare || inPart(int8(p), h+12) == inPart(int8(p), h+12+hours)) {
				continue
			}
			return false
		}
	}
	return true
}

// partsNamed returns the parts of the day (bit p for dayParts[p]) a turn's text in the dialogue file s
// (a "text" member) names as a whole word, its first letter in either case: a special case's needs
// also list the words of the parts of the day, as words to ask with. One pass over the turns: every
// file with a time to move is read so, in every variant.
func partsNamed(s string) (named uint16) {
	const key = `"text":`
	for i := strings.Index(s, key); i >= 0; {
		i += len(key)
		for i < len(s) && s[i] == ' ' {
			i++
		}
		end := i + 1
		for end < len(s) && s[end] != '"' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if i < len(s) && s[i] == '"' {
			named |= partsIn(s[i+1 : min(end, len(s))])
		}
		j := strings.Index(s[min(end, len(s)):], key)
		if j < 0 {
			return named
		}
		i = end + j
	}
	return named
}

// partsIn returns the parts of the day (as partsNamed) text names as whole words.
func partsIn(text string) (named uint16) {
	for i := 0; i < len(text); i++ {
		if i > 0 && isWordByte(text[i-1]) {
			continue
		}
		c := text[i] | 0x20 // a letter's lower case
		for p, d := range dayParts {
			w := d.word
			end := i + len(w)
			if c == w[0] && end <= len(text) && text[i+1:end] == w[1:] && (end == len(text) || !isWordByte(text[end])) {
				named |= 1 << p
			}
		}
	}
	return named
}

// pickHours draws the seed's hours shift among allowed (none: 0).
func pickHours(seed uint64, allowed []int) int {
	if len(allowed) == 0 {
		return 0
	}
	rng := rand.New(rand.NewPCG(seed, 0x13198a2e03707344)) // its own stream, as the dates' shift
	return allowed[rng.IntN(len(allowed))]
}

// isISODate reports whether s is a date written YYYY-MM-DD.
func isISODate(s string) bool {
	return len(s) == 10 && s[4] == '-' && s[7] == '-' && twoDigitsAt(s, 0) && twoDigitsAt(s, 2) &&
		twoDigitsAt(s, 5) && twoDigitsAt(s, 8)
}

// twoDigitsAt reports whether s has two digits at i.
func twoDigitsAt(s string, i int) bool {
	return i >= 0 && i+2 <= len(s) && isDigit(s[i]) && isDigit(s[i+1])
}

// atoi2 reads a run of digits (one or two in a time).
func atoi2(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 3; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// pad writes n with at least width digits.
func pad(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) < width {
		s = "0" + s
	}
	return s
}
