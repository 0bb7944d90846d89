package verify

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/internal/py"
)

// randomText returns a text of up to n characters drawn from alphabet.
func randomText(r *rand.Rand, alphabet []rune, n int) string {
	var b strings.Builder
	for k := r.Intn(n + 1); k > 0; k-- {
		b.WriteRune(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

// TestAddAsFields: add writes any text, ASCII (its fast path) or not, as its Python words lowered and
// joined by one space, and squeeze gives the text without its spaces however adds and squeezes
// interleave.
func TestAddAsFields(t *testing.T) {
	var ascii []rune
	for c := rune(0); c < 0x80; c++ {
		ascii = append(ascii, c)
	}
	// Letters of both cases, every whitespace of py.IsSpace, and runes Lower treats specially.
	mixed := []rune("aZ Σσİ\u0130\t\n\v\f\r\x1c\x1d\x1e\x1f\u0085\u00a0\u1680\u2000\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufffd.")
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		alphabet := [][]rune{ascii, mixed, []rune("aZ  \t.")}[i%3]
		ev := &evidence{}
		want := ""
		for k := r.Intn(4); k >= 0; k-- {
			s := randomText(r, alphabet, 12)
			ev.add(s)
			want += " " + strings.Join(py.Fields(py.Lower(s)), " ") + " "
			if ev.text != want {
				t.Fatalf("add(%q): text %q, want %q", s, ev.text, want)
			}
			if r.Intn(2) == 0 {
				if got, w := ev.squeeze(), strings.ReplaceAll(want, " ", ""); got != w {
					t.Fatalf("add(%q): squeezed %q, want %q", s, got, w)
				}
			}
		}
	}
}

// datePartsBefore is dateParts as it was, splitting with numbers and matching the joined separators:
// the reference for TestDateParts.
func datePartsBefore(s string) (kind string, p []int, sec string) {
	var nums, seps []string
	for i := 0; ; {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return "", nil, ""
		}
		nums = append(nums, s[i:j])
		if j == len(s) {
			break
		}
		k := j
		for k < len(s) && (s[k] < '0' || s[k] > '9') {
			k++
		}
		if k == len(s) {
			return "", nil, ""
		}
		seps = append(seps, s[j:k])
		i = k
	}
	for _, n := range nums {
		v, _ := strconv.Atoi(n)
		p = append(p, v)
	}
	join := strings.Join(seps, "|")
	switch {
	case len(nums[0]) == 4 && join == "-|-":
		return "date", p, ""
	case len(nums[0]) == 4 && (join == "-|-| |:" || join == "-|-|T|:"):
		return "datetime", p, ""
	case len(nums[0]) == 4 && (join == "-|-| |:|:" || join == "-|-|T|:|:"):
		return "datetime", p, nums[5]
	case len(nums) == 2 && join == ":":
		return "time", p, ""
	case len(nums) == 3 && join == ":|:":
		return "time", p, nums[2]
	case len(nums) == 2 && join == "-" && len(nums[0]) <= 2:
		return "monthday", p, ""
	}
	return "", nil, ""
}

// TestDateParts: dateParts reads what it read before, for texts made of digits and separators. A
// separator with a '|' could match the joined separators with too few numbers (then the caller
// indexed past them and panicked): such texts are now no date.
func TestDateParts(t *testing.T) {
	need := map[string]int{"date": 3, "datetime": 5, "time": 2, "monthday": 2}
	fixed := []string{"2023-03-16", "2023-03-16 07:00", "2023-03-16T07:00:05", "2023-03-16 07:00:00:00", "07:30",
		"07:30:15", "3-16", "123-16", "2023-|-05", "2023-|-05 |:06", "2023-03-16-| |:07", "12:|:30", ""}
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200000; i++ {
		s := randomText(r, []rune("0123456789999--::: T|x"), 22)
		if i < len(fixed) {
			s = fixed[i]
		} else if i%2 == 0 {
			// Runs of digits between separators, mostly those of dates and times.
			seps := []string{"-", "-", ":", ":", " ", "T", "-|-", "-|-| |:", ":|:", "x", "--", ""}
			s = strconv.Itoa(r.Intn(3000))
			for k := r.Intn(7); k > 0; k-- {
				s += seps[r.Intn(len(seps))] + strconv.Itoa(r.Intn(100))
			}
		}
		kind, p, sec := dateParts(s)
		wantKind, wantP, wantSec, panicked := "", []int(nil), "", true
		func() {
			defer func() { _ = recover() }()
			wantKind, wantP, wantSec = datePartsBefore(s)
			panicked = false
		}()
		if (panicked || len(wantP) < need[wantKind]) && strings.Contains(s, "|") && kind == "" {
			continue
		}
		if kind != wantKind || sec != wantSec || kind != "" && fmt.Sprint(p[:len(wantP)]) != fmt.Sprint(wantP) {
			t.Fatalf("dateParts(%q) = %s %v %q, want %s %v %q", s, kind, p, sec, wantKind, wantP, wantSec)
		}
	}
}

// timeBefore is the evidence's time as it was, gathering every form first: the reference for
// TestTimeForms.
func timeBefore(e *evidence, h, mi int, sec string) bool {
	if sec != "" && sec != "00" && !strings.Contains(e.text, fmt.Sprintf("%02d:%02d:%s", h, mi, sec)) {
		return false
	}
	for _, f := range []string{fmt.Sprintf("%d:%02d", h, mi), fmt.Sprintf("%02d:%02d", h, mi)} {
		if e.clock(f, h >= 12) {
			return true
		}
	}
	forms := []string{fmt.Sprintf("%02d%02d", h, mi)}
	h12 := h % 12
	if h12 == 0 {
		h12 = 12
	}
	suffix := []string{"am", "a.m."}
	if h >= 12 {
		suffix = []string{"pm", "p.m."}
	}
	for _, s := range suffix {
		forms = append(forms, fmt.Sprintf("%d:%02d %s", h12, mi, s), fmt.Sprintf("%d:%02d%s", h12, mi, s))
		if mi == 0 {
			forms = append(forms, fmt.Sprintf("%d %s", h12, s), fmt.Sprintf("%d%s", h12, s))
		}
	}
	if mi == 0 {
		forms = append(forms, fmt.Sprintf("%d o'clock", h12))
		if h == 12 {
			forms = append(forms, "noon", "midday")
		}
		if h == 0 {
			forms = append(forms, "midnight")
		}
	}
	if mi == 30 {
		forms = append(forms, fmt.Sprintf("half past %d", h12))
	}
	return e.hasWord(forms...)
}

// TestTimeForms: time gives what it gave before, for evidence saying a time in its many forms, and
// pad writes numbers as fmt's %02d and %04d do.
func TestTimeForms(t *testing.T) {
	for _, n := range []int{0, 7, 10, 99, 100, 2023, 12345} {
		for _, w := range []int{2, 4} {
			if got, want := pad(n, w), fmt.Sprintf("%0*d", w, n); got != want {
				t.Errorf("pad(%d, %d) = %q, want %q", n, w, got, want)
			}
		}
	}
	says := []string{"at 7:30 pm", "at 07:30", "7 am sharp", "at 12 noon", "by midnight", "3 o'clock", "half past 9",
		"0930 hours", "19:30:15", "at 7:00pm", "at 11:05 a.m.", "10pm", "13:00 pm", "nothing"}
	for _, say := range says {
		ev := &evidence{}
		ev.add(say)
		for h := 0; h < 26; h++ {
			for _, mi := range []int{0, 5, 15, 30, 45} {
				for _, sec := range []string{"", "00", "15"} {
					if got, want := ev.time(h, mi, sec), timeBefore(ev, h, mi, sec); got != want {
						t.Errorf("evidence %q: time(%d, %d, %q) = %v, want %v", say, h, mi, sec, got, want)
					}
				}
			}
		}
	}
}
