package variant

import (
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/value"
)

// Amounts move by a little: an account's balance (the world's Bank, for a moved user) and the
// readings a user gives to record (RecordHealthData's values), each redrawn with the digits and
// decimals it has (its last one never 0 where it was not), within 2% of it (at least 3 in its last
// digit either way), so a balance stays the size it was and a reading stays in the range it was
// read in ("36.7" °C stays a normal temperature); a reading with decimals keeps its whole units too
// ("38.1" °C, a fever, may become 38.4, never 37.9). Every way the data writes an amount moves with
// it: as its JSON writes it ("12650.0", "5608"), with thousands separators ("15,207.74", "12,650")
// and a balance with two decimals ("3,275.90"). An amount of fewer than three characters ("74",
// "80") stays: it could be a time's minutes or a day. So does one that a fact of the world holds
// too, or that more than one dialogue writes (a reading is one dialogue's own).

// amountText reports whether s is an amount that may move: digits, a decimal point maybe, three
// characters or more.
func amountText(s string) bool {
	if len(s) < 3 || !isDigit(s[0]) || !isDigit(s[len(s)-1]) {
		return false
	}
	return strings.Count(s, ".") <= 1 && strings.Trim(s, "0123456789.") == ""
}

// addAmounts records the numbers v holds (an argument's value, a list or an object of them) as
// amounts.
func (f *found) addAmounts(v any) {
	switch x := v.(type) {
	case int64, float64:
		if s := value.Str(x); amountText(s) {
			f.values[KindAmount][s] = true
		}
	case []any:
		for _, e := range x {
			f.addAmounts(e)
		}
	case *value.Map:
		x.Each(func(_ string, e any) bool {
			f.addAmounts(e)
			return true
		})
	}
}

// keepOwnAmounts drops the amounts that a fact of the world writes (a database that is not a user
// database) or that more than one dialogue writes: a reading moves in its own dialogue only.
func (f *found) keepOwnAmounts(src *source) {
	for a := range f.values[KindAmount] {
		n := 0
		for _, p := range src.dialoguePaths {
			if hasNumber(string(src.files[p]), a) {
				n++
			}
		}
		drop := n > 1
		for _, name := range src.dbNames {
			if userFields[name] == nil && hasNumber(string(src.files[src.dbs[name]]), a) {
				drop = true
			}
		}
		if drop {
			delete(f.values[KindAmount], a)
		}
	}
}

// hasNumber reports whether s writes the number n as a whole (not inside a longer number or word).
func hasNumber(s, n string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], n)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(n)
		before := at == 0 || !isWordByte(s[at-1]) && s[at-1] != '.'
		after := end == len(s) || !isWordByte(s[end]) && !(s[end] == '.' && end+1 < len(s) && isDigit(s[end+1]))
		if before && after {
			return true
		}
		i = at + 1
	}
}

// amounts moves the balances of the moved users' accounts and the readings users give.
func (p *plan) amounts() {
	for _, u := range sortedKeys(p.f.balances) {
		if _, moved := p.by[u]; moved {
			p.amount(p.f.balances[u], true)
		}
	}
	for _, a := range sorted(p.f.values[KindAmount]) {
		p.amount(a, false)
	}
}

// amount moves the amount a (as its JSON writes it) and every way the data writes it (see
// amountForm); money also with two decimals.
func (p *plan) amount(a string, money bool) {
	whole, frac, _ := strings.Cut(a, ".")
	sig := len(frac) // the decimals that count ("12650.0" has none)
	for sig > 0 && frac[sig-1] == '0' {
		sig--
	}
	units, err := strconv.Atoi(whole + frac[:sig])
	if err != nil || units <= 0 {
		return
	}
	lo := 1 // the fewest units with as many digits before the point
	for range len(whole) - 1 + sig {
		lo *= 10
	}
	for range 8 {
		d := 1 + p.rng.IntN(max(3, units/50))
		if p.rng.IntN(2) == 0 {
			d = -d
		}
		n := units + d
		to := amountOf(n, sig, len(frac))
		// A reading with decimals keeps its whole units: 38.1 °C stays a fever, 36.7 a normal
		// temperature, each side of a line a dialogue may draw at a whole number.
		sameWhole := money || sig == 0 || n/pow10(sig) == units/pow10(sig)
		if n >= lo && n < lo*10 && (sig == 0 || n%10 != 0) && sameWhole && !p.amountTaken(to) {
			for k := range 6 { // the forms (see amountForm), with thousands separators from the fourth
				sep := k >= 3
				if sep && len(whole) <= 3 || k%3 == 1 && sig > 0 || k%3 == 2 && (!money || sig > 2) {
					continue
				}
				from := amountForm(a, k%3, sep)
				if _, ok := p.by[from]; !ok {
					p.add(KindAmount, from, amountForm(to, k%3, sep), exact)
					p.moves[len(p.moves)-1].alias = k > 0
				}
			}
			return
		}
	}
}

// pow10 is 10 to the power k (k ≥ 0).
func pow10(k int) int {
	n := 1
	for range k {
		n *= 10
	}
	return n
}

// amountOf writes n units of an amount with sig decimals that count, and zeros after them up to
// decimals ("12480", 0, 1 → "12480.0").
func amountOf(n, sig, decimals int) string {
	s := strconv.Itoa(n)
	for len(s) <= sig {
		s = "0" + s
	}
	return amountForm(s[:len(s)-sig]+"."+s[len(s)-sig:]+"00000000"[:decimals-sig], 0, false)
}

// amountForm writes the amount a as the data may: k 0 as its JSON writes it ("12650.0"), 1 without
// a float's zeros ("12650"), 2 with two decimals ("3275.90"); with thousands separators when sep
// ("15,207.74").
func amountForm(a string, k int, sep bool) string {
	whole, frac, _ := strings.Cut(a, ".")
	if sep {
		whole = thousands(whole)
	}
	switch k {
	case 1:
		frac = ""
	case 2:
		frac = (frac + "00")[:2]
	}
	if frac == "" {
		return whole
	}
	return whole + "." + frac
}

// amountTaken reports whether an amount is one the data holds or one given already: a new amount
// is neither, so no original survives in a variant, even as another's new value.
func (p *plan) amountTaken(s string) bool {
	if p.f.values[KindAmount][s] || p.taken[s] {
		return true
	}
	for _, b := range p.f.balances {
		if b == s {
			return true
		}
	}
	return false
}

// thousands writes a whole number with a comma between each three digits ("15207" → "15,207").
func thousands(whole string) string {
	b := make([]byte, 0, len(whole)+len(whole)/3)
	for i := 0; i < len(whole); i++ {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, whole[i])
	}
	return string(b)
}
