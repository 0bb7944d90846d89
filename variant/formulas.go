package variant

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// formulaTries is how many draws moveFormulas makes near the old numbers, and then as many anywhere
// in their digits, before a file's numbers stay.
const formulaTries = 64

// moveFormulas moves the numbers a user gives the Calculator in one dialogue file s (its text after
// the other moves), and with them every result the file writes: the formula's recorded output, and
// the texts that state it. A number moves when it has two digits or more and a user's turn writes
// it; one of one digit ("the 4 of us") stays, and so does one the user did not give (a stock's price
// a tool answered). Each new number has as many digits and trailing zeros as its original, and each
// formula is worked out again by the Calculator itself; a draw is kept only if every result keeps its
// shape (whole stays whole, with as many digits; a fraction keeps its decimals).
//
// Conservative, as the rest of the variant: the file stays unless every number it writes is one of
// those numbers, a result in one of its forms ("420", "420.0", "1,379"), or a single digit. A number
// derived otherwise ("the total of 196", "about 65.33", "owes you 1.33") would be left stale by a
// move, and a date or another figure may be read as a formula's: such a file keeps its numbers.
// seed and path choose the draw, so a file's numbers depend on nothing else.
func moveFormulas(s string, seed uint64, path string) (string, int) {
	if !strings.Contains(s, `"Calculator"`) {
		return s, 0
	}
	formulas, said, ok := readFormulas(s)
	if !ok || len(formulas) == 0 {
		return s, 0
	}
	var operands []string // the numbers that move, in the order first written
	isOperand := map[string]bool{}
	periodic := periodWords(s)
	for _, f := range formulas {
		for _, t := range f.tokens {
			if n := f.text[t[0]:t[1]]; len(n) >= 2 && n[0] != '0' && said[n] && !isOperand[n] && !(periodic && listed(calendarCounts, n)) {
				isOperand[n] = true
				operands = append(operands, n)
			}
		}
	}
	if len(operands) == 0 {
		return s, 0
	}
	// What a draw moves does not depend on the draw: the operands, and the results of the formulas
	// that hold one, in every form.
	moving := map[string]bool{}
	for _, n := range operands {
		moving[n] = true
	}
	for _, f := range formulas {
		for _, t := range f.tokens {
			if isOperand[f.text[t[0]:t[1]]] {
				for _, r := range resultForms(f.output) {
					moving[r] = true
				}
				break
			}
		}
	}
	tokens := numberTokens(s)
	if !covers(s, tokens, moving, periodic) {
		return s, 0 // a number of the file is neither a formula's nor a result: it stays whole
	}
	old := map[string]bool{}
	for _, t := range tokens {
		old[s[t[0]:t[1]]] = true
	}
	h := fnv.New64a()
	h.Write([]byte(path))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	for try := range 2 * formulaTries {
		to := map[string]string{}
		for _, n := range operands {
			to[n] = redraw(n, rng, try >= formulaTries)
		}
		if m, ok := formulaMoves(formulas, to, old); ok {
			return replaceNumbers(s, tokens, m), len(operands)
		}
	}
	return s, 0
}

// formula is one Calculator call of a file: its formula, the formula's number tokens (numberTokens,
// read once for every draw) and the output it recorded.
type formula struct {
	text   string
	tokens [][2]int
	output float64
}

// readFormulas reads the Calculator calls of file s and the number tokens its users' turns write;
// ok is false when a call is not one moveFormulas can work out again (no formula text, an output
// that is not a number, a formula with other characters than digits, operators and parentheses).
func readFormulas(s string) (fs []formula, said map[string]bool, ok bool) {
	said = map[string]bool{}
	for rest := s; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		v, err := value.DecodeString(line)
		m, isMap := v.(*value.Map)
		if err != nil || !isMap {
			return nil, nil, false
		}
		role, _ := m.Get("role")
		switch role {
		case "User":
			text, _ := m.Get("text")
			t, _ := text.(string)
			for _, k := range numberTokens(t) {
				said[t[k[0]:k[1]]] = true
			}
		case "API":
			if name, _ := m.Get("api_name"); name != "Calculator" {
				continue
			}
			params, _ := m.Get("param_dict")
			result, _ := m.Get("result")
			pm, _ := params.(*value.Map)
			rm, _ := result.(*value.Map)
			if pm == nil || rm == nil {
				return nil, nil, false
			}
			f, _ := pm.Get("formula")
			out, _ := rm.Get("output")
			text, isText := f.(string)
			num, isNum := out.(float64)
			if !isText || !isNum || strings.Trim(text, "0123456789+-*/() ") != "" {
				return nil, nil, false
			}
			fs = append(fs, formula{text, numberTokens(text), num})
		}
	}
	return fs, said, true
}

// formulaMoves works every formula out again with its numbers moved as to says and gives the
// moves of the file's numbers: each moved number, and each result in every form the file may write
// it. ok is false when a result changes shape or its text is one the file already writes, or when
// two numbers would get the same new text.
func formulaMoves(fs []formula, to map[string]string, old map[string]bool) (map[string]string, bool) {
	m := map[string]string{}
	given := map[string]bool{}
	add := func(from, into string) bool {
		if prev, ok := m[from]; ok {
			return prev == into
		}
		if given[into] || old[into] {
			return false
		}
		m[from], given[into] = into, true
		return true
	}
	for from, into := range to {
		if !add(from, into) {
			return nil, false
		}
	}
	for _, f := range fs {
		moved := replaceNumbers(f.text, f.tokens, to)
		if moved == f.text {
			continue
		}
		r, ok := tools.Calculate(moved)
		if !ok || !sameResultShape(f.output, r) {
			return nil, false
		}
		was, now := resultForms(f.output), resultForms(r)
		for i := range was {
			if !add(was[i], now[i]) {
				return nil, false
			}
		}
	}
	return m, true
}

// replaceNumbers is s with each number token (tokens, numberTokens's) that m moves replaced.
func replaceNumbers(s string, tokens [][2]int, m map[string]string) string {
	var b strings.Builder
	last := 0
	for _, t := range tokens {
		if n, ok := m[s[t[0]:t[1]]]; ok {
			b.WriteString(s[last:t[0]])
			b.WriteString(n)
			last = t[1]
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// sameResultShape reports whether a new result r reads as the old one was: positive, whole if it was whole,
// with as many digits before the point, and as many decimals in its Python form.
func sameResultShape(old, r float64) bool {
	if r <= 0 || math.IsInf(r, 0) || math.IsNaN(r) || (r == math.Trunc(r)) != (old == math.Trunc(old)) {
		return false
	}
	ow, of, _ := strings.Cut(py.FloatRepr(old), ".")
	rw, rf, _ := strings.Cut(py.FloatRepr(r), ".")
	return len(ow) == len(rw) && len(of) == len(rf) && !strings.ContainsAny(ow+rw, "e")
}

// resultForms are the ways a file writes a result: its Python form ("420.0", "46.5"); for a whole
// one also without the point ("420") and with thousands separators ("1,379"), the same text again
// when it has none.
func resultForms(r float64) [3]string {
	repr := py.FloatRepr(r)
	if r != math.Trunc(r) {
		return [3]string{repr, repr, repr}
	}
	whole := strings.TrimSuffix(repr, ".0")
	return [3]string{repr, whole, thousands(whole)}
}

// redraw draws a new number for n: as many digits and trailing zeros, another leading part whose
// last digit is not 0, within two fifths of the old one's (at least 2: "1260" → "1470", "36000" →
// "45000", "24" → "31", "1000" → "2000"), or anywhere in its digits when wide or when no such part
// is: a tip stays the size of a tip beside its bill (drawn anywhere, a tip of 24 became 94 on a bill
// of 176), unless only other sizes give the formulas' results their shapes.
func redraw(n string, rng *rand.Rand, wide bool) string {
	core := strings.TrimRight(n, "0")
	zeros := n[len(core):]
	if len(core) > 9 {
		return n // no user's sum: it stays (the formula's numbers then stay, see formulaMoves)
	}
	lo := 1
	for range len(core) - 1 {
		lo *= 10
	}
	was, _ := strconv.Atoi(core)
	near := max(2, was*2/5)
	from, to := max(lo, was-near), min(lo*10-1, was+near)
	for i := 0; ; i++ {
		if wide || i == 64 {
			from, to = lo, lo*10-1
		}
		if c := from + rng.IntN(to-from+1); c%10 != 0 && c != was {
			return strconv.Itoa(c) + zeros
		}
	}
}

// covers reports whether every number token of s is one that moves or a single digit, and no
// moving number is written inside a word ("12x45"), where it would stay.
func covers(s string, tokens [][2]int, moving map[string]bool, periodic bool) bool {
	for _, t := range tokens {
		if tok := s[t[0]:t[1]]; !moving[tok] && len(tok) > 1 && !(periodic && listed(calendarCounts, tok)) {
			return false
		}
	}
	next := 0 // the next token
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			continue
		}
		for next < len(tokens) && tokens[next][1] <= i {
			next++
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if inToken := next < len(tokens) && tokens[next][0] <= i; !inToken && moving[s[i:j]] {
			return false
		}
		i = j
	}
	return true
}

// numberTokens finds the numbers s writes as whole words: digits, with thousands separators
// ("1,379") and decimals ("46.5") when they read as such; a number inside a word ("Room12",
// "sakura_2024", "4pm") is none.
func numberTokens(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || i > 0 && isWordByte(s[i-1]) {
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		for j+3 < len(s) && s[j] == ',' && isDigit(s[j+1]) && isDigit(s[j+2]) && isDigit(s[j+3]) && (j+4 == len(s) || !isDigit(s[j+4])) {
			j += 4
		}
		if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
			j += 2
			for j < len(s) && isDigit(s[j]) {
				j++
			}
		}
		if j == len(s) || !isWordByte(s[j]) {
			out = append(out, [2]int{i, j})
		}
		i = j
	}
	return out
}

// calendarCounts are the numbers a formula may hold as a fact of the calendar or the clock (12
// months, 52 weeks, 365 days, 24 hours, 60 minutes): in a file that speaks of such periods (see
// periodWords) they stay, as a fact of the world does ("2400*12 for my yearly budget" is not
// "2400*75"). Elsewhere they are numbers as any other ("12 people gave 500 each").
// Space-separated (see listed).
const calendarCounts = " 12 24 52 60 365 366 "

// periodWords reports whether s speaks of years, months, weeks, days, hours or minutes as periods
// ("yearly", "a month", "per week"), in any case.
func periodWords(s string) (found bool) {
	eachWord(s, func(w string) { found = found || listed(periods, lowerASCII(w)) })
	return found
}

// periods are the words periodWords looks for, space-separated.
const periods = " year years yearly annual annually month months monthly week weeks weekly daily hours hourly minutes "
