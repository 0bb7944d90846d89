package variant

import (
	"strings"

	"github.com/apibank-playground/apibank/tools"
)

// What the dates need to know before they move is learned with the rest (see learn): the dialogues
// that write a date, or a part of one, in a way the mover does not read. Moving the dates it reads
// would leave those stale beside them ("August 30 or Oct 2?" answered "The April one", "Friday,
// September 8" then "Friday the 21st", "April 23–26" with its start moved and its end not), and the
// proof would not see it: it checks that the gold's values are shown, not that a text agrees with
// itself. Such a dialogue keeps its dates and times, unless the variant's world needs them moved (see
// build), where a day or a month written alone is settled from the dates it names (settleUnread).

// unreadDate reports whether s writes a date of dateYear in a way eachDate does not read, so that
// its dates cannot all move as read: alone when it writes a day or a month alone (which
// settleUnread may settle), other when it writes any of the rest:
//   - a month's name that is not part of a date read ("in May", "the April one", "April only has 30
//     days"), unless it is a date or a month of another year ("July 20, 1969", "January 2024");
//   - an ordinal day alone ("the 12th", "Friday the 21st");
//   - a day and a month in digits ("04/12", "4/9");
//   - a YYYY-MM-DD of dateYear that is no date ("2023-05-32", "2023-13-05");
//   - a quarter of the year ("Q2"), which its dates are in;
//   - a range written with a dash between digits ("April 23–26", "9:00–9:45", "April 23-26"), or a
//     date read followed by a date of another year ("between January 10 and January 22, 2024": the
//     first is of 2024 too).
func unreadDate(s string) (alone, other bool) {
	for _, q := range []string{"Q1", "Q2", "Q3", "Q4"} {
		if containsWord(s, q) {
			return false, true // a quarter of the year ("the Q2 hiring sync"): its dates are in it
		}
	}
	var read [][2]int
	eachDate(s, func(_, start, end int, _ string) { read = append(read, [2]int{start, end}) })
	inRead := func(i int) bool {
		for _, r := range read {
			if i >= r[0] && i < r[1] {
				return true
			}
		}
		return false
	}
	readEndsNear := func(i int) bool { // a date read ends in the few bytes before i, joined by a range's word
		for _, r := range read {
			if r[1] <= i && i-r[1] <= 12 && rangeEnd(s[:i], func(k int) bool { return k == r[1]-1 }) {
				return true
			}
		}
		return false
	}
	for _, dash := range []string{"\u2013", "\u2014", `\u2013`, `\u2014`} {
		for i := strings.Index(s, dash); i >= 0; {
			if (i > 0 && isDigit(s[i-1]) || i+len(dash) < len(s) && isDigit(s[i+len(dash)])) && !clockRange(s, i, i+len(dash)) {
				return alone, true
			}
			j := strings.Index(s[i+1:], dash)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		w := s[i:j]
		switch {
		case inRead(i):
		case isDigit(w[0]):
			if ordinalDay(w) {
				alone = true
			}
			if len(w) <= 2 && j+1 < len(s) && s[j] == '/' && isDigit(s[j+1]) && (i == 0 || s[i-1] != '/') {
				k := j + 1
				for k < len(s) && isDigit(s[k]) {
					k++
				}
				if k-j-1 <= 2 {
					return alone, true // "04/12", "4/9", "4/9/2023"
				}
			}
			if w == dateYear && j+6 <= len(s) && s[j] == '-' && isISODate(s[i:j+6]) && (j+6 == len(s) || !isDigit(s[j+6])) && tools.DayNumber(s[i:j+6]) == 0 {
				return alone, true // "2023-05-32"
			}
			if len(w) <= 2 && isDigit(w[len(w)-1]) && rangeEnd(s[:i], inRead) {
				return alone, true // "April 23-26", "April 23 to 26": the range's end is not read
			}
		default:
			if monthOf(w) == 0 || otherYear(s, j) {
				break
			}
			if otherYearDate(s, j) {
				if readEndsNear(i) {
					return alone, true // "between January 10 and January 22, 2024"
				}
				break
			}
			alone = true
		}
		i = j
	}
	return alone, false
}

// ordinalDay reports whether w is a day of the month written as an ordinal ("1st", "12th").
func ordinalDay(w string) bool {
	d, e := readDay(w, 0)
	return d != 0 && e == len(w) && len(w) > 2 && !isDigit(w[len(w)-1])
}

// otherYear reports whether the month's name that ends at s[j] is followed by a year that is not
// dateYear ("January 2024", "March, 1969").
func otherYear(s string, j int) bool {
	k := skipWord(s, j, ",")
	k = skipWord(s, k, " ")
	return k > j && k+4 <= len(s) && isDigit(s[k]) && isDigit(s[k+1]) && isDigit(s[k+2]) && isDigit(s[k+3]) &&
		(k+4 == len(s) || !isWordByte(s[k+4])) && s[k:k+4] != dateYear
}

// otherYearDate reports whether the month's name that ends at s[j] starts a date of another year
// than dateYear ("July 20, 1969"), which stays.
func otherYearDate(s string, j int) bool {
	k := skipWord(s, j, ".")
	k2 := max(skipWord(s, k, " "), skipWord(s, k, " the "))
	if k2 == k {
		return false
	}
	d, e := readDay(s, k2)
	return d != 0 && !inYear(s, e)
}

// rangeWords join the start of a range to its end ("23-26", "23 to 26").
var rangeWords = []string{"-", " to ", " through ", " until ", " till ", " and "}

// rangeEnd reports whether before (the text before a word) ends with a range's word that follows
// a date read: read tells whether the byte at an index is part of one.
func rangeEnd(before string, read func(int) bool) bool {
	for _, w := range rangeWords {
		if k := len(before) - len(w); k > 0 && strings.EqualFold(before[k:], w) && read(k-1) {
			return true
		}
	}
	return false
}

// clockRange reports whether the dash at s[i:j] joins two times of day a clock reads whole ("9:00–9:45",
// "10:00 am–12:30 pm"), which move together (see dashAt), not a range of days or bare hours.
func clockRange(s string, i, j int) bool {
	k := i
	for k > 0 && s[k-1] != ' ' && s[k-1] != '(' && s[k-1] != '"' {
		k--
	}
	if k > 0 && s[k-1] == ' ' && (strings.HasSuffix(s[:i], "am") || strings.HasSuffix(s[:i], "pm")) {
		for k--; k > 0 && s[k-1] != ' '; k-- {
		}
	}
	left := s[k:i]
	return strings.Contains(left, ":") && len(clocks(left)) == 1 && len(clocks(s[j:min(len(s), j+8)])) >= 1 && strings.Contains(s[j:min(len(s), j+6)], ":")
}
