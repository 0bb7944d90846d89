package py

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Layout is one of the date formats the tools parse with Python's datetime.strptime: DT, D or MD.
// It is a closed set because only these three are specified; the zero Layout is invalid. Layouts
// are comparable and print as their Python format text.
type Layout struct{ spec *layoutSpec }

// The three formats used by the tools (TOOLS.md §0.1).
var (
	// DT is "%Y-%m-%d %H:%M:%S", the date-time format (the space matches one or more whitespace
	// characters).
	DT = newLayout("%Y-%m-%d %H:%M:%S")
	// D is "%Y-%m-%d", the date format.
	D = newLayout("%Y-%m-%d")
	// MD is "%m-%d", the month-day format; the year is then 1900, so "02-29" is out of range.
	MD = newLayout("%m-%d")
)

// String returns the Python format text of the layout, e.g. "%Y-%m-%d".
func (l Layout) String() string {
	if l.spec == nil {
		return ""
	}
	return l.spec.format
}

// field indexes the six date-time components in a match.
type field uint8

const (
	fYear field = iota
	fMonth
	fDay
	fHour
	fMinute
	fSecond
	nFields
)

// item is one element of a compiled format: a directive (one field), a run of whitespace (\s+ in
// Python's regex) or a literal ASCII character.
type item struct {
	kind byte // 'f' field, 's' whitespace run, 'l' literal
	f    field
	lit  byte
}

type layoutSpec struct {
	format string
	items  []item
}

// newLayout compiles a format made of %Y %m %d %H %M %S, ASCII whitespace and ASCII punctuation,
// as Python's _strptime does: every run of whitespace in the format matches \s+.
func newLayout(format string) Layout {
	spec := &layoutSpec{format: format}
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '%':
			i++
			f := strings.IndexByte("YmdHMS", format[i])
			if f < 0 {
				panic("py: unsupported directive in " + format)
			}
			spec.items = append(spec.items, item{kind: 'f', f: field(f)})
		case c == ' ' || '\t' <= c && c <= '\r':
			for i+1 < len(format) && IsSpace(rune(format[i+1])) {
				i++
			}
			spec.items = append(spec.items, item{kind: 's'})
		case c < utf8.RuneSelf && !('a' <= c|0x20 && c|0x20 <= 'z') && !('0' <= c && c <= '9'):
			spec.items = append(spec.items, item{kind: 'l', lit: c})
		default:
			panic("py: unsupported literal in " + format)
		}
	}
	return Layout{spec}
}

// atom is one position of a directive's regex alternative: an ASCII range lo..hi, or any Unicode
// decimal digit (\d) when lo is 0.
type atom struct{ lo, hi byte }

var anyDigit = atom{}

// alternatives holds, per field, the alternatives of Python 3.11's _strptime regex in the order the
// regex tries them (a backtracking matcher takes the first that lets the rest of the format match):
//
//	%Y (?P<Y>\d\d\d\d)
//	%m (?P<m>1[0-2]|0[1-9]|[1-9])
//	%d (?P<d>3[0-1]|[1-2]\d|0[1-9]|[1-9]| [1-9])
//	%H (?P<H>2[0-3]|[0-1]\d|\d)
//	%M (?P<M>[0-5]\d|\d)
//	%S (?P<S>6[0-1]|[0-5]\d|\d)
//
// Only \d accepts non-ASCII digits; the explicit ranges are ASCII (IGNORECASE adds nothing to them).
var alternatives = [nFields][][]atom{
	fYear:   {{anyDigit, anyDigit, anyDigit, anyDigit}},
	fMonth:  {{{'1', '1'}, {'0', '2'}}, {{'0', '0'}, {'1', '9'}}, {{'1', '9'}}},
	fDay:    {{{'3', '3'}, {'0', '1'}}, {{'1', '2'}, anyDigit}, {{'0', '0'}, {'1', '9'}}, {{'1', '9'}}, {{' ', ' '}, {'1', '9'}}},
	fHour:   {{{'2', '2'}, {'0', '3'}}, {{'0', '1'}, anyDigit}, {anyDigit}},
	fMinute: {{{'0', '5'}, anyDigit}, {anyDigit}},
	fSecond: {{{'6', '6'}, {'0', '1'}}, {{'0', '5'}, anyDigit}, {anyDigit}},
}

// Time is a date and time of day as datetime.strptime returns it (without fractions or zone). It is
// comparable with ==, ordered by Compare, and prints like Python's str(datetime).
type Time struct{ Year, Month, Day, Hour, Minute, Second int }

// Compare returns -1, 0 or +1 as t is before, equal to or after u, comparing the fields from year
// down to second (the order of Python's datetime comparison).
func (t Time) Compare(u Time) int {
	a := [...]int{t.Year, t.Month, t.Day, t.Hour, t.Minute, t.Second}
	b := [...]int{u.Year, u.Month, u.Day, u.Hour, u.Minute, u.Second}
	for i := range a {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return +1
		}
	}
	return 0
}

// Before reports whether t is earlier than u.
func (t Time) Before(u Time) bool { return t.Compare(u) < 0 }

// String returns t as Python's str(datetime) does: "YYYY-MM-DD HH:MM:SS" with a zero-padded year.
func (t Time) String() string {
	b := make([]byte, 0, 19)
	b = appendPadded(b, t.Year, 4)
	b = append(b, '-')
	b = appendPadded(b, t.Month, 2)
	b = append(b, '-')
	b = appendPadded(b, t.Day, 2)
	b = append(b, ' ')
	b = appendPadded(b, t.Hour, 2)
	b = append(b, ':')
	b = appendPadded(b, t.Minute, 2)
	b = append(b, ':')
	b = appendPadded(b, t.Second, 2)
	return string(b)
}

// appendPadded appends v in decimal, left-padded with zeros to width digits.
func appendPadded(b []byte, v, width int) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	var d [20]byte
	s := strconv.AppendInt(d[:0], int64(v), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// Format prints t with the layout as C strftime does on Linux (what Python's strftime calls):
// %m %d %H %M %S are two digits, but %Y is the plain year, not padded below 1000 (glibc), so year 23
// prints "23". Other characters of the format are copied.
func (t Time) Format(layout Layout) string {
	if layout.spec == nil {
		return ""
	}
	var buf [32]byte
	b := buf[:0]
	f := layout.spec.format
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b = append(b, f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y':
			b = strconv.AppendInt(b, int64(t.Year), 10)
		case 'm':
			b = appendPadded(b, t.Month, 2)
		case 'd':
			b = appendPadded(b, t.Day, 2)
		case 'H':
			b = appendPadded(b, t.Hour, 2)
		case 'M':
			b = appendPadded(b, t.Minute, 2)
		case 'S':
			b = appendPadded(b, t.Second, 2)
		}
	}
	return string(b)
}

// matcher runs a layout's pattern over a text with backtracking, trying alternatives in the same
// order as Python's regex engine, so it finds the same match (re.match: anchored at the start, not at
// the end).
type matcher struct {
	items []item
	s     string
	vals  [nFields]int
}

// run matches items[k:] at byte offset pos and returns the end of the match, or -1.
func (m *matcher) run(k, pos int) int {
	if k == len(m.items) {
		return pos
	}
	it := m.items[k]
	s := m.s
	switch it.kind {
	case 'l':
		if pos < len(s) && s[pos] == it.lit {
			return m.run(k+1, pos+1)
		}
		return -1
	case 's':
		// \s+ is greedy: take the whole run, then give back one character at a time.
		end := pos
		for end < len(s) {
			r, n := rune(s[end]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[end:])
			}
			if !IsSpace(r) {
				break
			}
			end += n
		}
		for end > pos {
			if e := m.run(k+1, end); e >= 0 {
				return e
			}
			_, n := utf8.DecodeLastRuneInString(s[pos:end])
			end -= n
		}
		return -1
	}
	for _, alt := range alternatives[it.f] {
		end, val := matchAlt(alt, s, pos)
		if end < 0 {
			continue
		}
		m.vals[it.f] = val
		if e := m.run(k+1, end); e >= 0 {
			return e
		}
	}
	return -1
}

// matchAlt matches one alternative at pos and returns its end and its value as int() reads the
// matched text (a leading space, as in %d's " [1-9]", is ignored), or -1.
func matchAlt(alt []atom, s string, pos int) (end, val int) {
	for _, a := range alt {
		if pos >= len(s) {
			return -1, 0
		}
		c := s[pos]
		if a != anyDigit {
			if c < a.lo || c > a.hi {
				return -1, 0
			}
			pos++
			if c != ' ' {
				val = val*10 + int(c-'0')
			}
			continue
		}
		if c < utf8.RuneSelf {
			if c < '0' || c > '9' {
				return -1, 0
			}
			val = val*10 + int(c-'0')
			pos++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[pos:])
		if !IsDecimal(r) {
			return -1, 0
		}
		val = val*10 + decimalValue(r)
		pos += n
	}
	return pos, val
}

// Strptime parses value with the layout exactly as Python 3.11's datetime.strptime(value, format)
// does for these formats, and returns its errors with Python's texts:
//
//	time data {Repr(value)} does not match format {Repr(format)}
//	unconverted data remains: {rest}
//	year 0 is out of range
//	day is out of range for month
//	second must be in 0..59
//
// Matching is anchored at the first character (leading whitespace fails) and the single space of DT
// matches one or more whitespace characters. Non-ASCII decimal digits (full-width, Arabic-Indic, ...)
// count only where Python's regex has \d: every digit of %Y, the second digit of a two-digit %d,
// %H, %M or %S, and a one-digit %H, %M or %S; %m, a one-digit %d and the first digit of a two-digit
// field are ASCII only, so "２０２３-03-16" parses but "2023-１2-16" does not, as in Python.
// A format without %Y gets year 1900 and without time fields midnight. The zero Layout gives the
// error "py: zero Layout".
func Strptime(value string, layout Layout) (Time, error) {
	if layout.spec == nil {
		return Time{}, errors.New("py: zero Layout")
	}
	m := matcher{items: layout.spec.items, s: value}
	m.vals[fYear] = 1900
	m.vals[fMonth] = 1
	m.vals[fDay] = 1
	end := m.run(0, 0)
	if end < 0 {
		return Time{}, errors.New("time data " + Repr(value) + " does not match format " + Repr(layout.spec.format))
	}
	if end < len(value) {
		return Time{}, errors.New("unconverted data remains: " + value[end:])
	}
	t := Time{m.vals[fYear], m.vals[fMonth], m.vals[fDay], m.vals[fHour], m.vals[fMinute], m.vals[fSecond]}
	switch {
	case t.Year < 1:
		return Time{}, errors.New("year " + strconv.Itoa(t.Year) + " is out of range")
	case t.Day > daysIn(t.Year, t.Month):
		return Time{}, errors.New("day is out of range for month")
	case t.Second > 59:
		return Time{}, errors.New("second must be in 0..59")
	}
	return t, nil
}

// daysIn returns the number of days of the month in the proleptic Gregorian calendar.
func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// Norm is the tools' date normaliser (TOOLS.md §0.2): strip value; if it splits on '-' into exactly
// three parts and the first is not 4 characters long, Zfill that part to 4; parse the result with
// the layout and re-print it with Format. A parse failure returns Strptime's error, which quotes the
// padded text. For example "2023-3-5" gives "2023-03-05" and "23-04-21" gives "23-04-21" (year 23,
// printed unpadded).
func Norm(value string, layout Layout) (string, error) {
	s := Strip(value)
	if strings.Count(s, "-") == 2 {
		first, rest, _ := strings.Cut(s, "-")
		if utf8.RuneCountInString(first) != 4 {
			s = Zfill(first, 4) + "-" + rest
		}
	}
	t, err := Strptime(s, layout)
	if err != nil {
		return "", err
	}
	return t.Format(layout), nil
}
