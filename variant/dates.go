package variant

import (
	"math/rand/v2"
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
)

// Dates move by a shift of whole weeks (so a weekday stays the weekday it was, and "next Monday"
// the Monday it was), drawn per seed among those that keep every date of the year dateYear that the
// dialogues and the user databases hold within that year: the year a text states, and the one a date
// without a year means, stay true. The world's today moves with them (tools.TodayDB). Dates of other
// years (a stock's history, a flight of next January) and the facts of the world's databases stay.

// dateYear is the year whose dates move.
const dateYear = "2023"

// maxWeeks bounds a shift: at most half a year either way.
const maxWeeks = 26

// months are the months' names in lower case, January first; a text writes one in full or by its
// first three letters.
var months = strings.Fields("january february march april may june july august september october november december")

// dateSpan widens lo, hi (day numbers, see tools.DayNumber) to the dates of dateYear in s (its
// YYYY-MM-DD dates and the dates it writes with a month's name) from day from to day to.
func dateSpan(s string, lo, hi, from, to int) (int, int) {
	eachDate(s, func(n, _, _ int, _ string) {
		if n >= from && n <= to {
			lo, hi = min(lo, n), max(hi, n)
		}
	})
	return lo, hi
}

// pickShift draws the seed's shift in days: a non-zero number of whole weeks that keeps the dates
// from lo to hi (day numbers) within dateYear, or 0 when no week does (or there are no dates).
func pickShift(seed uint64, lo, hi int) int {
	if lo == 0 {
		return 0
	}
	first, last := tools.DayNumber(dateYear+"-01-01"), tools.DayNumber(dateYear+"-12-31")
	var weeks []int
	for w := -maxWeeks; w <= maxWeeks; w++ {
		if w != 0 && lo+7*w >= first && hi+7*w <= last {
			weeks = append(weeks, w)
		}
	}
	if len(weeks) == 0 {
		return 0
	}
	rng := rand.New(rand.NewPCG(seed, 0x243f6a8885a308d3)) // its own stream: the other moves do not depend on it
	return 7 * weeks[rng.IntN(len(weeks))]
}

// shiftDates returns s with its dates of dateYear moved by days, written as they were: a
// YYYY-MM-DD date (a datetime's date part too), and a day with a month's name in full or by three
// letters, either way round ("April 9", "9 April", "Apr. 9th", "9th of April", "April the 9th"),
// the day keeping its zero or ordinal and the month its case. A date whose move leaves dateYear
// stays, and so does every date written with a month's name, but today's (the day number today), in
// a text that writes a day in history (see factDays). moved, when not nil, gets the day number of
// each date moved.
func shiftDates(s string, days int, moved map[int]bool, today int) string {
	if days == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	from, to := 0, ""      // the last date read, moved (a text often writes one date again and again)
	var facts map[int]bool // the days in history the text writes (factDays), read at its first written date
	eachDate(s, func(n, start, end int, form string) {
		if n != from {
			from, to = n, tools.DateOf(n+days)
		}
		if form != "iso" && facts == nil {
			facts = factDays(s, today)
		}
		if !strings.HasPrefix(to, dateYear) || form != "iso" && n != today && len(facts) > 0 {
			return
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 16)
		}
		b.WriteString(s[last:start])
		b.WriteString(rewriteDate(s[start:end], form, to))
		last = end
		if moved != nil {
			moved[n] = true
		}
	})
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// factDays returns the days of dateYear (day numbers) whose month and day s also writes as a date
// of another year ("1969-07-20") or as a month and a day alone ("07-20", a day in history's), but
// today (a day number) as a date of another year: a date written with a month's name and no year on
// such a day ("On July 20: Apollo 11 landed") names that fact, not a day of the dialogue's year, and
// a text that writes one keeps the dates it writes so ("remind me on July 19", the day before the
// birthday it asked history of), but today's. Today written as a month and a day alone is not in it
// either: history asked of today ("'03-31'"), which no move writes, keeps all the file's dates (see
// todayInHistory).
func factDays(s string, today int) map[int]bool {
	facts := map[int]bool{}
	for i := strings.IndexByte(s, '-'); i >= 0; i = nextDash(s, i+1) {
		if i < 2 || i+3 > len(s) || !isDigit(s[i-2]) || !isDigit(s[i-1]) || !isDigit(s[i+1]) || !isDigit(s[i+2]) ||
			i+3 < len(s) && (isDigit(s[i+3]) || s[i+3] == '-') {
			continue
		}
		if i >= 3 && isDigit(s[i-3]) {
			continue // "123-45"
		}
		if i >= 3 && s[i-3] == '-' && (i < 7 || !allDigits(s[i-7:i-3]) || i > 7 && isDigit(s[i-8]) || s[i-7:i-3] == dateYear) {
			continue // a date of dateYear, or no date
		}
		if n := dayOf(atoi2(s[i-2:i]), atoi2(s[i+1:i+3])); n != 0 && n != today {
			facts[n] = true
		}
	}
	return facts
}

// todayInHistory reports whether s writes the month and day of today (a day number) alone
// ("'03-31'"): history asked of the dialogue's today, a value no move of the dates writes again, so
// the file keeps its dates (Learn reads it as a date written a way not read, see unreadDate).
func todayInHistory(s string, today int) bool {
	md := tools.DateOf(today)[4:] // "-03-31"
	for i := strings.Index(s, md[1:]); i >= 0; {
		if (i == 0 || !isDigit(s[i-1]) && s[i-1] != '-') && (i+5 == len(s) || !isDigit(s[i+5]) && s[i+5] != '-') {
			return true
		}
		j := strings.Index(s[i+1:], md[1:])
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// allDigits reports whether s is made of digits only.
func allDigits(s string) bool {
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// nextDash returns the index of the next '-' in s from i, or -1.
func nextDash(s string, i int) int {
	if j := strings.IndexByte(s[i:], '-'); j >= 0 {
		return i + j
	}
	return -1
}

// rewriteDate writes the date to (YYYY-MM-DD) in the form of written: form is "iso", or the layout
// of a written date ("md" a month then a day, "dm" a day then a month).
func rewriteDate(written, form, to string) string {
	if form == "iso" {
		return to
	}
	m := int(to[5]-'0')*10 + int(to[6]-'0')
	d := to[8:]
	var out strings.Builder
	for i := 0; i < len(written); {
		j := i
		switch c := written[i]; {
		case c >= '0' && c <= '9':
			for j < len(written) && written[j] >= '0' && written[j] <= '9' {
				j++
			}
			day := strings.TrimPrefix(d, "0")
			if j-i == 2 && written[i] == '0' {
				day = d
			}
			out.WriteString(day)
			if k := j + 2; k <= len(written) && isLetterByte(written[j]) {
				out.WriteString(recase(ordinal(day), written[j:k]))
				j = k
			}
		case isLetterByte(c):
			for j < len(written) && isLetterByte(written[j]) {
				j++
			}
			w := written[i:j]
			if monthOf(w) == 0 {
				out.WriteString(w) // "of", "the"
				break
			}
			name := months[m-1]
			if len(w) == 3 && !equalFoldASCII(w, "may") {
				name = name[:3] // an abbreviation, not May in full
			}
			out.WriteString(recase(name, w))
		default:
			j++
			out.WriteByte(c)
		}
		i = j
	}
	return out.String()
}

// ordinal is the English ordinal suffix of a day ("1" → "st", "12" → "th").
func ordinal(day string) string {
	if len(day) == 2 && day[0] == '1' {
		return "th"
	}
	switch day[len(day)-1] {
	case '1':
		return "st"
	case '2':
		return "nd"
	case '3':
		return "rd"
	}
	return "th"
}

// monthOf is the month a word names (1 to 12), in full or by its first three letters in any case
// ("may" and "mar" capitalised only: they are words too), or 0.
func monthOf(w string) int {
	if len(w) < 3 || len(w) > 9 {
		return 0
	}
	if w == "may" || w == "mar" {
		return 0 // a word too: a month is capitalised
	}
	for i, m := range months {
		if (len(w) == len(m) || len(w) == 3) && equalFoldASCII(w, m[:len(w)]) {
			return i + 1
		}
	}
	return 0
}

// eachDate calls f with each date of dateYear that s holds, in order: its day number, where it is,
// and its form ("iso", "md" or "dm"; see rewriteDate).
//
// Every date holds a digit that starts a word, its year or its day, and a date that starts with a
// month's name has its day right after it ("April 9", "Apr. the 9th"): eachDate reads dates only
// at such digits and at the month's names before them, where a reading of every word would find
// the same dates.
func eachDate(s string, f func(n, start, end int, form string)) {
	last := 0 // where the last date ended
	for d := nextDigit(s, 0); d < len(s); d = nextDigit(s, d+1) {
		if d > 0 && isWordByte(s[d-1]) {
			continue
		}
		start, n, end, form := d, 0, 0, ""
		for _, j := range [2]int{d - len(" the "), d - 1} { // where the name and its "." end, maybe
			if j < last || !equalFoldASCII(s[j:d], " the "[:d-j]) {
				continue
			}
			if j > 0 && s[j-1] == '.' {
				j--
			}
			i := j
			for i > 0 && isLetterByte(s[i-1]) {
				i--
			}
			if i >= last && i < j && (i == 0 || !isWordByte(s[i-1])) {
				if n, end, form = writtenDate(s, i); n != 0 {
					start = i
					break
				}
			}
		}
		if e := d + 10; n == 0 && e <= len(s) && s[d:d+5] == dateYear+"-" && (e == len(s) || !isDigit(s[e])) {
			n, end, form = tools.DayNumber(s[d:e]), e, "iso"
		}
		if n == 0 {
			n, end, form = writtenDate(s, d)
		}
		if n != 0 {
			f(n, start, end, form)
			last, d = end, end-1
		}
	}
}

// writtenDate reads a date written with a month's name at s[i:] ("April 9", "9th of April"), and
// returns its day number (0 when there is none), where it ends and its form.
func writtenDate(s string, i int) (n, end int, form string) {
	j := i
	for j < len(s) && isLetterByte(s[j]) {
		j++
	}
	if m := monthOf(s[i:j]); m != 0 {
		if j-i == 3 && j < len(s) && s[j] == '.' {
			j++
		}
		k := skipWord(s, j, " ")
		k = max(k, skipWord(s, j, " the "))
		if d, e := readDay(s, k); k > j && d != 0 && inYear(s, e) {
			return dayOf(m, d), e, "md"
		}
		return 0, 0, ""
	}
	d, e := readDay(s, i)
	if d == 0 {
		return 0, 0, ""
	}
	k := max(skipWord(s, e, " "), skipWord(s, e, " of "))
	j = k
	for j < len(s) && isLetterByte(s[j]) {
		j++
	}
	if m := monthOf(s[k:j]); k > e && m != 0 && (j == len(s) || !isWordByte(s[j])) && inYear(s, j) {
		return dayOf(m, d), j, "dm"
	}
	return 0, 0, ""
}

// inYear reports whether the written date that ends at s[i] is of dateYear: it states no year
// after it (", 1969" or " 1969"), or dateYear.
func inYear(s string, i int) bool {
	i = skipWord(s, i, ",")
	if j := skipWord(s, i, " "); j > i && j+4 <= len(s) && isDigit(s[j]) && isDigit(s[j+1]) && isDigit(s[j+2]) && isDigit(s[j+3]) {
		return s[j:j+4] == dateYear && (j+4 == len(s) || !isWordByte(s[j+4]))
	}
	return true
}

// skipWord returns the index after sep at s[i:] (sep matched in any case), or i.
func skipWord(s string, i int, sep string) int {
	if i+len(sep) <= len(s) && equalFoldASCII(s[i:i+len(sep)], sep) {
		return i + len(sep)
	}
	return i
}

// readDay reads a day of the month at s[i:]: one or two digits, an ordinal suffix maybe, ending a
// word. It returns the day (0 when there is none) and where it ends.
func readDay(s string, i int) (int, int) {
	j := i
	for j < len(s) && isDigit(s[j]) && j-i < 3 {
		j++
	}
	if j == i || j-i > 2 {
		return 0, 0
	}
	d := int(s[i] - '0')
	if j-i == 2 {
		d = d*10 + int(s[i+1]-'0')
	}
	if j+2 <= len(s) {
		switch lowerASCII(s[j : j+2]) {
		case "st", "nd", "rd", "th":
			j += 2
		}
	}
	if j < len(s) && isWordByte(s[j]) || d < 1 || d > 31 {
		return 0, 0
	}
	return d, j
}

// dayOf is the day number of day d of month m of dateYear (0 when there is no such day).
func dayOf(m, d int) int {
	return tools.DayNumber(dateYear + "-" + string(rune('0'+m/10)) + string(rune('0'+m%10)) + "-" + string(rune('0'+d/10)) + string(rune('0'+d%10)))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// nextDigit returns the index of the first digit in s from i, or len(s): most of a text is not
// digits, and it reads eight bytes at a time.
func nextDigit(s string, i int) int {
	for ; i+8 <= len(s) && inRange(load8(s[i:]), '0', '9') == 0; i += 8 {
	}
	for i < len(s) && !isDigit(s[i]) {
		i++
	}
	return i
}

// settleUnread rewrites, in after (a dialogue with its dates moved by days from before), the days
// and months written alone that name a date read in before: an ordinal day ("the 4th") that is the
// day of one date read, and a month ("the April one", "in May") whose dates read all move into one
// month. It returns the text, and whether it settled them all: a day or a month that names no date
// read, or more than one, is left as it is.
func settleUnread(before, after string, days, today int) (string, bool) {
	var read []string                // each date read in before, then its move (YYYY-MM-DD)
	facts := factDays(before, today) // its dates written with a month's name stay then (see shiftDates)
	eachDate(before, func(n, _, _ int, form string) {
		to := n + days
		if form != "iso" && n != today && len(facts) > 0 {
			to = n
		}
		read = append(read, tools.DateOf(n), tools.DateOf(to))
	})
	var spans []int // where each date read in after starts and ends
	eachDate(after, func(_, start, end int, _ string) { spans = append(spans, start, end) })
	var out []byte
	last, ok := 0, true
	for i, k := 0, 0; i < len(after); {
		if !isWordByte(after[i]) {
			i++
			continue
		}
		j := i
		for j < len(after) && isWordByte(after[j]) {
			j++
		}
		for k < len(spans) && spans[k+1] <= i {
			k += 2
		}
		w, to := after[i:j], ""
		if k >= len(spans) || spans[k] > i {
			before := wordBefore(after, i)
			if d, e := readDay(w, 0); e == len(w) && len(w) > 2 && !isDigit(w[len(w)-1]) {
				if equalFoldASCII(before, "the") || inDatedNeed(after, i, j) {
					to = settled(read, 8, pad(d, 2))
				}
				ok = ok && to != "" // "the 4th"; not "the 19th century", read alike
			} else if m := monthOf(w); m != 0 && !otherYear(after, j) && !otherYearDate(after, j) {
				if listed(beforeMonths, lowerASCII(before)) || inDatedNeed(after, i, j) {
					to = settled(read, 5, pad(m, 2))
				}
				ok = ok && to != "" // "in May", "the April one"; not "May I", "the fourth of March"
			}
		}
		if to != "" {
			out = append(append(out, after[last:i]...), rewriteDate(w, "md", to)...)
			last = j
		}
		i = j
	}
	return string(append(out, after[last:]...)), ok
}

// inDatedNeed reports whether the word at s[i:j] is in a phrase of a special case's needs (a text
// of the file's Meta line) made only of days and months written alone ("4th", "April or May", see
// datedPhrase): a right reply may name the dialogue's dates so, and the phrase moves with them, though
// no word before it says it is a date.
func inDatedNeed(s string, i, j int) bool {
	line := strings.LastIndexByte(s[:i], '\n') + 1
	open, end := strings.LastIndexByte(s[:i], '"'), strings.IndexByte(s[j:], '"')
	return open >= line && end >= 0 && strings.HasPrefix(s[line:], `{"role": "Meta"`) && datedPhrase(s[open+1:j+end])
}

// datedPhrase reports whether p is made only of days and months written alone, joined by "or" or
// "and" ("12th", "April or May"), and holds one at least.
func datedPhrase(p string) bool {
	words := strings.Fields(p)
	for _, w := range words {
		if w != "or" && w != "and" && !ordinalDay(w) && monthOf(w) == 0 {
			return false
		}
	}
	return len(words) > 0 && !(len(words) == 1 && (words[0] == "or" || words[0] == "and"))
}

// staleNeed returns a phrase of d's needs made of days and months written alone (see datedPhrase)
// that names a day or a month no date written in d's turns has, or "": a rule that asks a reply for
// a date the dialogue never names (left from the original's dates) would judge a right reply
// wrong. A date is read as a month's name with a day after it ("April 25", "April the 4th"), as
// the builtin data's needs name them, whether or not the calendar has it ("April 31st", which a
// wrong-date case asks a reply to question); a need read as stale serves the file unchanged.
func staleNeed(d *dataset.Dialogue) string {
	if d.Meta == nil {
		return ""
	}
	var days [32]bool
	var months [13]bool
	for _, t := range d.Turns {
		s := t.Text
		for i := 0; i < len(s); i++ {
			j := i
			for j < len(s) && isLetterByte(s[j]) {
				j++
			}
			if m := monthOf(s[i:j]); m != 0 && (i == 0 || !isWordByte(s[i-1])) {
				months[m] = true
				k := max(skipWord(s, j, " "), skipWord(s, j, " the "))
				day, _ := readDay(s, k)
				days[day] = true // days[0]: no day
			}
			i = j
		}
	}
	for _, n := range d.Meta.Needs {
		for _, p := range n.Any {
			if !datedPhrase(p) {
				continue
			}
			for _, w := range strings.Fields(p) {
				if day, _ := readDay(w, 0); ordinalDay(w) && !days[day] || !months[monthOf(w)] && monthOf(w) != 0 {
					return p
				}
			}
		}
	}
	return ""
}

// beforeMonths are the words a month written alone is read after (see settleUnread), space-separated.
const beforeMonths = " in the for until by since early late mid next last this "

// wordBefore returns the word of letters that ends, past spaces, right before s[i], or "".
func wordBefore(s string, i int) string {
	for i > 0 && s[i-1] == ' ' {
		i--
	}
	j := i
	for j > 0 && isLetterByte(s[j-1]) {
		j--
	}
	return s[j:i]
}

// settled returns the move of the one date of read (each date, then its move) whose two digits at
// at (8: its day, 5: its month) are key, or "" when none or several are: a month names several
// dates when they all move into one month.
func settled(read []string, at int, key string) string {
	to := ""
	for i := 0; i+1 < len(read); i += 2 {
		if read[i][at:at+2] != key {
			continue
		}
		if !strings.HasPrefix(read[i+1], dateYear) || to != "" && to != read[i+1] && (at == 8 || to[:7] != read[i+1][:7]) {
			return "" // several dates, or one whose move leaves the year (it stays, see shiftDates)
		}
		to = read[i+1]
	}
	return to
}
