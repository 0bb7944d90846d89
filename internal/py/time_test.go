package py

import (
	"errors"
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

func TestLayoutString(t *testing.T) {
	for _, tt := range []struct {
		l    Layout
		want string
	}{{DT, "%Y-%m-%d %H:%M:%S"}, {D, "%Y-%m-%d"}, {MD, "%m-%d"}, {Layout{}, ""}} {
		if got := tt.l.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
	if same := DT; DT == D || D == MD || same != DT {
		t.Error("layouts must compare by identity")
	}
}

func TestStrptime(t *testing.T) {
	noMatch := func(v string, l Layout) string {
		return "time data " + Repr(v) + " does not match format " + Repr(l.String())
	}
	tests := []struct {
		in      string
		layout  Layout
		want    Time
		wantErr string
	}{
		{"2023-03-16 07:00:00", DT, Time{2023, 3, 16, 7, 0, 0}, ""},
		{"2023-03-16 7:00:00", DT, Time{2023, 3, 16, 7, 0, 0}, ""},
		{"2023-1-1 1:1:1", DT, Time{2023, 1, 1, 1, 1, 1}, ""},
		{"2023-03-16 23:5:5", DT, Time{2023, 3, 16, 23, 5, 5}, ""},
		{"2023-03-16  07:00:00", DT, Time{2023, 3, 16, 7, 0, 0}, ""}, // two spaces
		{"2023-03-16\t07:00:00", DT, Time{2023, 3, 16, 7, 0, 0}, ""}, // tab
		{"2023-03-16\u300007:00:00", DT, Time{2023, 3, 16, 7, 0, 0}, ""},
		{"2023-03-16\x1c07:00:00", DT, Time{2023, 3, 16, 7, 0, 0}, ""},
		{"2023-03-16 07:00:59", DT, Time{2023, 3, 16, 7, 0, 59}, ""},
		{"２０２３-03-16 ７:00:00", DT, Time{2023, 3, 16, 7, 0, 0}, ""}, // full-width where \d is used
		{"2023-03-1６", D, Time{2023, 3, 16, 0, 0, 0}, ""},
		{"٢٠٢٣-03-16", D, Time{2023, 3, 16, 0, 0, 0}, ""},
		{"2023-03-16 1７:0０:0０", DT, Time{2023, 3, 16, 17, 0, 0}, ""},
		{"2023-3-5", D, Time{2023, 3, 5, 0, 0, 0}, ""},
		{"2023-03- 5", D, Time{2023, 3, 5, 0, 0, 0}, ""}, // %d's " [1-9]"
		{"2023-03-3", D, Time{2023, 3, 3, 0, 0, 0}, ""},
		{"2023-03-31", D, Time{2023, 3, 31, 0, 0, 0}, ""},
		{"0023-04-21", D, Time{23, 4, 21, 0, 0, 0}, ""},
		{"2024-02-29", D, Time{2024, 2, 29, 0, 0, 0}, ""},
		{"2000-02-29", D, Time{2000, 2, 29, 0, 0, 0}, ""},
		{"9999-12-31 23:59:59", DT, Time{9999, 12, 31, 23, 59, 59}, ""},
		{"04-21", MD, Time{1900, 4, 21, 0, 0, 0}, ""},
		{"1-5", MD, Time{1900, 1, 5, 0, 0, 0}, ""},
		{"12-31", MD, Time{1900, 12, 31, 0, 0, 0}, ""},

		{"2023-03-16", DT, Time{}, "time data '2023-03-16' does not match format '%Y-%m-%d %H:%M:%S'"},
		{"2023-03-16 07:00", DT, Time{}, noMatch("2023-03-16 07:00", DT)},
		{"2023-03-16 24:00:00", DT, Time{}, noMatch("2023-03-16 24:00:00", DT)},
		{"2023-03-16 07:60:00", DT, Time{}, noMatch("2023-03-16 07:60:00", DT)},
		{" 2023-03-16", D, Time{}, "time data ' 2023-03-16' does not match format '%Y-%m-%d'"},
		{"23-04-21", D, Time{}, noMatch("23-04-21", D)},
		{"00ab-cd-ef", D, Time{}, "time data '00ab-cd-ef' does not match format '%Y-%m-%d'"},
		{"2023-00-16", D, Time{}, noMatch("2023-00-16", D)},
		{"2023-13-16", D, Time{}, noMatch("2023-13-16", D)},
		{"2023-１2-16", D, Time{}, noMatch("2023-１2-16", D)},                     // %m has no \d: ASCII only
		{"2023-03-16 ０７:00:00", DT, Time{}, noMatch("2023-03-16 ０７:00:00", DT)}, // only "\d" takes '０', then ':' fails
		{"2023-03-  5", D, Time{}, noMatch("2023-03-  5", D)},
		{"2023/03/16", D, Time{}, noMatch("2023/03/16", D)},
		{"123-4", MD, Time{}, "time data '123-4' does not match format '%m-%d'"},
		{"", D, Time{}, "time data '' does not match format '%Y-%m-%d'"},
		{"it's", MD, Time{}, `time data "it's" does not match format '%m-%d'`},

		{"2023-03-16 ", D, Time{}, "unconverted data remains:  "},
		{"2023-03-16 07:00:00 ", DT, Time{}, "unconverted data remains:  "},
		{"2023-03-16 07:00:001", DT, Time{}, "unconverted data remains: 1"},
		{"2023-03-16 07:00:62", DT, Time{}, "unconverted data remains: 2"},
		{"2023-03-160", D, Time{}, "unconverted data remains: 0"},
		{"2023-03-32", D, Time{}, "unconverted data remains: 2"},
		{"2023-03-16 07:00:00", D, Time{}, "unconverted data remains:  07:00:00"},
		{"12-31x", MD, Time{}, "unconverted data remains: x"},
		{"2023-02-28 00:00:00\n", DT, Time{}, "unconverted data remains: \n"},

		{"2023-02-30", D, Time{}, "day is out of range for month"},
		{"2023-04-31", D, Time{}, "day is out of range for month"},
		{"1900-02-29", D, Time{}, "day is out of range for month"},
		{"02-29", MD, Time{}, "day is out of range for month"}, // year 1900
		{"02-30", MD, Time{}, "day is out of range for month"},
		{"2023-02-30 00:00:60", DT, Time{}, "day is out of range for month"},
		{"2023-03-16 07:00:60", DT, Time{}, "second must be in 0..59"},
		{"2023-02-28 00:00:61", DT, Time{}, "second must be in 0..59"},
		{"0000-01-01", D, Time{}, "year 0 is out of range"},
		{"0000-02-30 00:00:60", DT, Time{}, "year 0 is out of range"},

		{"2023-03-16", Layout{}, Time{}, "py: zero Layout"},
	}
	for _, tt := range tests {
		got, err := Strptime(tt.in, tt.layout)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Strptime(%q, %v) = %v, %v; want error %q", tt.in, tt.layout, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Strptime(%q, %v) = %v, %v; want %v", tt.in, tt.layout, got, err, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		t      Time
		layout Layout
		want   string
	}{
		{Time{2023, 3, 16, 7, 0, 0}, DT, "2023-03-16 07:00:00"},
		{Time{2023, 3, 5, 0, 0, 0}, D, "2023-03-05"},
		{Time{23, 4, 21, 0, 0, 0}, D, "23-04-21"}, // glibc %Y: no padding
		{Time{7, 1, 2, 3, 4, 5}, DT, "7-01-02 03:04:05"},
		{Time{999, 12, 31, 0, 0, 0}, D, "999-12-31"},
		{Time{1900, 4, 21, 0, 0, 0}, MD, "04-21"},
		{Time{2024, 2, 29, 0, 0, 0}, MD, "02-29"},
		{Time{2023, 3, 16, 0, 0, 0}, Layout{}, ""},
	}
	for _, tt := range tests {
		if got := tt.t.Format(tt.layout); got != tt.want {
			t.Errorf("%v.Format(%v) = %q, want %q", tt.t, tt.layout, got, tt.want)
		}
	}
}

func TestTimeString(t *testing.T) {
	for _, tt := range []struct {
		t    Time
		want string
	}{
		{Time{2023, 3, 16, 7, 0, 0}, "2023-03-16 07:00:00"},
		{Time{23, 4, 21, 0, 0, 0}, "0023-04-21 00:00:00"},
	} {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	a := Time{2023, 3, 16, 7, 0, 0}
	tests := []struct {
		u    Time
		want int
	}{
		{a, 0},
		{Time{2023, 3, 16, 7, 0, 1}, -1},
		{Time{2023, 3, 16, 6, 59, 59}, +1},
		{Time{2024, 1, 1, 0, 0, 0}, -1},
		{Time{2022, 12, 31, 23, 59, 59}, +1},
		{Time{2023, 4, 1, 0, 0, 0}, -1},
		{Time{2023, 3, 15, 23, 0, 0}, +1},
		{Time{2023, 3, 16, 7, 1, 0}, -1},
	}
	for _, tt := range tests {
		if got := a.Compare(tt.u); got != tt.want {
			t.Errorf("%v.Compare(%v) = %d, want %d", a, tt.u, got, tt.want)
		}
		if got := a.Before(tt.u); got != (tt.want < 0) {
			t.Errorf("%v.Before(%v) = %v", a, tt.u, got)
		}
		if got := tt.u.Compare(a); got != -tt.want {
			t.Errorf("%v.Compare(%v) = %d, want %d", tt.u, a, got, -tt.want)
		}
	}
}

func TestNorm(t *testing.T) {
	tests := []struct {
		in      string
		layout  Layout
		want    string
		wantErr string
	}{
		{"2023-03-16", D, "2023-03-16", ""},
		{"2023-3-5", D, "2023-03-05", ""},
		{"  2023-3-5 ", D, "2023-03-05", ""},
		{"23-04-21", D, "23-04-21", ""}, // padded to 0023, printed unpadded
		{"923-04-21", D, "923-04-21", ""},
		{"2023-03-16 07:00:00", DT, "2023-03-16 07:00:00", ""},
		{"2023-03-16  7:0:0", DT, "2023-03-16 07:00:00", ""},
		{"\u30002023-03-16 07:00:00\x1c", DT, "2023-03-16 07:00:00", ""},
		{"２０２３-03-16", D, "2023-03-16", ""},
		{"2024-02-29", D, "2024-02-29", ""},
		{"04-21", MD, "04-21", ""}, // two parts: no padding
		{"4-21", MD, "04-21", ""},
		{"00ab-cd-ef", D, "", "time data '00ab-cd-ef' does not match format '%Y-%m-%d'"},
		{"ab-cd-ef", D, "", "time data '00ab-cd-ef' does not match format '%Y-%m-%d'"},
		{"-5-03-16", D, "", "time data '-5-03-16' does not match format '%Y-%m-%d'"},   // four parts
		{"+5-03-16", D, "", "time data '+005-03-16' does not match format '%Y-%m-%d'"}, // sign stays in front
		{"-5-03", D, "", "year 0 is out of range"},                                     // "" padded to "0000"
		{"2023-03-16", DT, "", "time data '2023-03-16' does not match format '%Y-%m-%d %H:%M:%S'"},
		{"2023-03-16 ", DT, "", "time data '2023-03-16' does not match format '%Y-%m-%d %H:%M:%S'"},
		{"2023-02-30", D, "", "day is out of range for month"},
		{"0-01-01", D, "", "year 0 is out of range"},
		{"02-29", MD, "", "day is out of range for month"},
		{"2023-03-16 07:00:60", DT, "", "second must be in 0..59"},
		{"20230-03-16", D, "", "time data '20230-03-16' does not match format '%Y-%m-%d'"},
		{"", D, "", "time data '' does not match format '%Y-%m-%d'"},
	}
	for _, tt := range tests {
		got, err := Norm(tt.in, tt.layout)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Norm(%q, %v) = %q, %v; want error %q", tt.in, tt.layout, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Norm(%q, %v) = %q, %v; want %q", tt.in, tt.layout, got, err, tt.want)
		}
	}
}

// pyWhitespace is Python's \s (str.isspace) as a Go regexp class.
const pyWhitespace = `[\t\n\v\f\r \x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`

// pythonRegexp builds the regex Python 3.11's _strptime compiles for a format, with \d written as
// \p{Nd} (Go's \d is ASCII only). Go's leftmost-first matching prefers the same alternatives as
// Python's backtracking engine, so it serves as an independent reference for the hand matcher.
func pythonRegexp(format string) *regexp.Regexp {
	directives := map[byte]string{
		'Y': `(?P<Y>\d\d\d\d)`,
		'm': `(?P<m>1[0-2]|0[1-9]|[1-9])`,
		'd': `(?P<d>3[0-1]|[1-2]\d|0[1-9]|[1-9]| [1-9])`,
		'H': `(?P<H>2[0-3]|[0-1]\d|\d)`,
		'M': `(?P<M>[0-5]\d|\d)`,
		'S': `(?P<S>6[0-1]|[0-5]\d|\d)`,
	}
	var b strings.Builder
	b.WriteString(`^(?i)`)
	for i := 0; i < len(format); i++ {
		switch c := format[i]; {
		case c == '%':
			i++
			b.WriteString(strings.ReplaceAll(directives[format[i]], `\d`, `\p{Nd}`))
		case c == ' ':
			b.WriteString(pyWhitespace + "+")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return regexp.MustCompile(b.String())
}

var refRegexps = map[Layout]*regexp.Regexp{
	DT: pythonRegexp(DT.String()),
	D:  pythonRegexp(D.String()),
	MD: pythonRegexp(MD.String()),
}

// refStrptime is Strptime written with the regexp, following _strptime step by step.
func refStrptime(value string, layout Layout) (Time, error) {
	re := refRegexps[layout]
	m := re.FindStringSubmatchIndex(value)
	if m == nil {
		return Time{}, errors.New("time data " + Repr(value) + " does not match format " + Repr(layout.String()))
	}
	if m[1] != len(value) {
		return Time{}, errors.New("unconverted data remains: " + value[m[1]:])
	}
	t := Time{Year: 1900, Month: 1, Day: 1}
	for i, name := range re.SubexpNames() {
		if name == "" || m[2*i] < 0 {
			continue
		}
		v, err := Atoi(value[m[2*i]:m[2*i+1]])
		if err != nil {
			return Time{}, err
		}
		switch name {
		case "Y":
			t.Year = int(v)
		case "m":
			t.Month = int(v)
		case "d":
			t.Day = int(v)
		case "H":
			t.Hour = int(v)
		case "M":
			t.Minute = int(v)
		case "S":
			t.Second = int(v)
		}
	}
	switch {
	case t.Year == 0:
		return Time{}, errors.New("year 0 is out of range")
	case t.Day > daysIn(t.Year, t.Month):
		return Time{}, errors.New("day is out of range for month")
	case t.Second > 59:
		return Time{}, errors.New("second must be in 0..59")
	}
	return t, nil
}

// TestStrptimeMatchesRegexp compares the hand matcher with the regexp reference on random mutations
// of valid texts and on random strings over the characters that matter.
func TestStrptimeMatchesRegexp(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"0", "1", "2", "3", "5", "6", "9", "-", ":", " ", "\t", "\u3000", "０", "٣", "x", "𝟗"}
	bases := map[Layout]string{DT: "2023-03-16 07:00:00", D: "2023-03-16", MD: "03-16"}
	layouts := []Layout{DT, D, MD}
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for i := 0; i < n; i++ {
		l := layouts[rng.Intn(len(layouts))]
		var parts []string
		if i%2 == 0 {
			for j := rng.Intn(20); j > 0; j-- {
				parts = append(parts, alphabet[rng.Intn(len(alphabet))])
			}
		} else {
			parts = strings.Split(bases[l], "")
			for j := rng.Intn(3) + 1; j > 0; j-- {
				pos := rng.Intn(len(parts) + 1)
				switch op := rng.Intn(3); {
				case op == 0 && pos < len(parts):
					parts[pos] = alphabet[rng.Intn(len(alphabet))]
				case op == 1:
					parts = append(parts[:pos], append([]string{alphabet[rng.Intn(len(alphabet))]}, parts[pos:]...)...)
				case pos < len(parts):
					parts = append(parts[:pos], parts[pos+1:]...)
				}
			}
		}
		s := strings.Join(parts, "")
		got, gotErr := Strptime(s, l)
		want, wantErr := refStrptime(s, l)
		if got != want || errText(gotErr) != errText(wantErr) {
			t.Fatalf("Strptime(%q, %v) = %v, %q; regexp reference gives %v, %q", s, l, got, errText(gotErr), want, errText(wantErr))
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

var benchInputs = []string{"2023-03-16 07:00:00", "2023-3-5 7:0:0", "2023-03-16", "2023-02-30 00:00:00"}

func BenchmarkStrptime(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		Strptime(benchInputs[i&3], DT)
	}
}

func BenchmarkStrptimeValid(b *testing.B) {
	for b.Loop() {
		Strptime("2023-03-16 07:00:00", DT)
	}
}

func BenchmarkStrptimeRegexp(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		refStrptime(benchInputs[i&3], DT)
	}
}

func BenchmarkNorm(b *testing.B) {
	for b.Loop() {
		Norm(" 2023-3-16 07:00:00", DT)
	}
}

func BenchmarkFormat(b *testing.B) {
	t := Time{2023, 3, 16, 7, 0, 0}
	for b.Loop() {
		_ = t.Format(DT)
	}
}
