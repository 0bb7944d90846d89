package tools

import (
	"strings"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// playMusic is PlayMusic: the music:// link of a title, lowercased and stripped.
func playMusic() *Tool {
	return &Tool{
		Name:        "PlayMusic",
		Description: "Start playing a piece of music; answers the player link it opens.",
		Params: []Param{
			{Name: "music_name", Type: "str", Required: true, Description: "Title of the music to play."},
		},
		Outputs: []Field{{Name: "status", Type: "str", Description: "The music:// link that starts the player."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("music_name")
			s, err := homeStr(v, "lower")
			if err != nil {
				return nil, homeCaught(err)
			}
			s = py.Strip(py.Lower(s))
			if s == "" {
				return nil, fail("The music name cannot be empty.")
			}
			return "music://" + s, nil
		},
		check: func(r, g *value.Map) (bool, error) { return homeEq(r, g, "output") },
	}
}

// Today is the benchmark's fixed today, GetToday's answer, whatever the clock says. The world's
// dates are written from it (the data's "tomorrow", "next Monday"), so our prompts state it.
const Today = "2023-03-31"

// TodayInWords is Today as a prompt states it, with its weekday: a weekday is what a user's "next
// Monday" needs. Written out rather than formatted with package time, which would add a tenth of a
// megabyte to the engine module (a test checks the two agree).
const TodayInWords = "Friday, 31 March 2023"

// TodayDB is the database that states a world's today when it is not Today: {"date": "YYYY-MM-DD"},
// and, under "written", the dialogue files (by path) written from another today, each with its
// date. A variant of the data moves its dates and its today together, and names there the files it
// serves unchanged (see package variant).
const TodayDB = "Today"

// Today returns the base's today: its TodayDB's date, or Today when it has none (the builtin data).
func (b *Base) Today() string { return b.TodayOf("") }

// TodayOf returns the today the dialogue file at path is written from: its date in the TodayDB's
// "written" table, or the base's today.
func (b *Base) TodayOf(path string) string {
	v, _ := b.db(TodayDB)
	m, _ := v.(*value.Map)
	written, _ := m.Get("written")
	if w, ok := written.(*value.Map); ok && path != "" && DayNumber(w.String(path)) != 0 {
		return w.String(path)
	}
	if s := m.String("date"); DayNumber(s) != 0 {
		return s
	}
	return Today
}

// monthNames are the months' names, January first.
var monthNames = strings.Fields("January February March April May June July August September October November December")

// DayNumber returns the day a YYYY-MM-DD date is, counted from 1970-01-01 as day 1 (0 when date is
// not a valid date of the years 1970 to 9999): dates a whole number of days apart differ by it.
func DayNumber(date string) int {
	if len(date) != 10 || date[4] != '-' || date[7] != '-' {
		return 0
	}
	n := [3]int{}
	for i, part := range []string{date[:4], date[5:7], date[8:]} {
		for _, c := range []byte(part) {
			if c < '0' || c > '9' {
				return 0
			}
			n[i] = n[i]*10 + int(c-'0')
		}
	}
	y, m, d := n[0], n[1], n[2]
	if y < 1970 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0
	}
	// Days from civil (H. Hinnant's algorithm), March-based years.
	if m <= 2 {
		y--
	}
	era, yoe := y/400, y%400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468 + 1
}

// DateOf is the YYYY-MM-DD date of a day number (see DayNumber), "" when it is not one.
func DateOf(day int) string {
	if day < 1 {
		return ""
	}
	z := day - 1 + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := (mp+2)%12 + 1
	y := yoe + era*400
	if m <= 2 {
		y++
	}
	b := []byte("0000-00-00")
	for i, v := range []int{y / 100, y % 100, m, d} {
		b[[]int{0, 2, 5, 8}[i]] = byte('0' + v/10)
		b[[]int{1, 3, 6, 9}[i]] = byte('0' + v%10)
	}
	return string(b)
}

// daysIn is the number of days of month m of year y.
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// InWords writes a YYYY-MM-DD date as a prompt states it, with its weekday: "Friday, 31 March 2023"
// (TodayInWords for Today). A text that is not a date is returned as it is.
func InWords(date string) string {
	n := DayNumber(date)
	if n == 0 {
		return date
	}
	weekday := []string{"Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"}[(n-1)%7]
	day := strings.TrimPrefix(date[8:], "0")
	return weekday + ", " + day + " " + monthNames[(int(date[5]-'0')*10+int(date[6]-'0'))-1] + " " + date[:4]
}

// getToday is GetToday: the world's today (Base.Today), whatever the clock says.
func getToday() *Tool {
	return &Tool{
		Name:        "GetToday",
		Description: "Tell today's date (the benchmark's fixed today).",
		Outputs:     []Field{{Name: "date", Type: "str", Description: "Today as YYYY-MM-DD."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			return c.w.Today(), nil
		},
		// Correct iff the response has an output, no exception and no input (the gold is not read).
		check: func(r, g *value.Map) (bool, error) {
			out, err := get(r, "output")
			if err != nil || out == nil {
				return false, err
			}
			for _, k := range []string{"exception", "input"} {
				v, err := get(r, k)
				if err != nil || v != nil {
					return false, err
				}
			}
			return true, nil
		},
	}
}
