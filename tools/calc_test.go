package tools

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// calcListEval is the original's calculate_formula transcribed literally: the token list is
// rebuilt after every operation (quadratic, but obviously the original's steps). The one-pass
// calcEval must agree with it on every formula.
func calcListEval(toks []calcTok) (calcTok, error) {
	for calcIndex(toks, "(") >= 0 {
		l, r := calcIndex(toks, "("), calcIndex(toks, ")")
		if r < 0 {
			return calcTok{}, fail("')' is not in list")
		}
		var sub []calcTok
		if r > l+1 {
			sub = append(sub, toks[l+1:r]...)
		}
		v, err := calcListEval(sub)
		if err != nil {
			return calcTok{}, err
		}
		toks = append(append(append([]calcTok{}, toks[:l]...), v), toks[r+1:]...)
	}
	for _, pair := range [][2]string{{"*", "/"}, {"+", "-"}} {
		for atZero := 0; ; {
			idx := calcFirst(toks, pair[0], pair[1])
			if idx < 0 {
				break
			}
			n := len(toks)
			left := toks[(idx-1+n)%n]
			if idx+1 >= n {
				return calcTok{}, fail("list index out of range")
			}
			v, err := calcOp(left, toks[idx].text, toks[idx+1])
			if err != nil {
				return calcTok{}, err
			}
			if idx > 0 {
				toks = append(append(append([]calcTok{}, toks[:idx-1]...), v), toks[idx+2:]...)
				continue
			}
			if n >= 3 {
				return calcTok{}, fail(calcHang)
			}
			toks = []calcTok{toks[0], v}
			if atZero++; atZero > 3 {
				return calcTok{}, fail(calcHang)
			}
		}
	}
	if len(toks) == 0 {
		return calcTok{}, fail("list index out of range")
	}
	return toks[0], nil
}

// calcListCalculate is calculate with the literal evaluator.
func calcListCalculate(formula string) (any, error) {
	f := strings.ReplaceAll(formula, " ", "")
	if !calcValid(f) {
		return nil, fail("invalid formula")
	}
	var toks []calcTok
	num := ""
	for _, r := range f {
		if r >= '0' && r <= '9' {
			num += string(r)
			continue
		}
		if num != "" {
			toks = append(toks, calcTok{num: calcNumber(num)})
			num = ""
		}
		toks = append(toks, calcTok{text: string(r)})
	}
	if num != "" {
		toks = append(toks, calcTok{num: calcNumber(num)})
	}
	v, err := calcListEval(toks)
	if err != nil {
		return nil, err
	}
	return v.value(), nil
}

// calcSame reports whether two results of calculate agree (value and exception text).
func calcSame(a any, aErr error, b any, bErr error) bool {
	if (aErr == nil) != (bErr == nil) {
		return false
	}
	if aErr != nil {
		return aErr.Error() == bErr.Error()
	}
	x, xNum := a.(float64)
	y, yNum := b.(float64)
	if xNum && yNum && math.IsNaN(x) && math.IsNaN(y) {
		return true
	}
	return value.Equal(a, b)
}

// TestCalculateOnePassAgrees compares the one-pass evaluator with the literal one on every formula
// of up to six characters over the Calculator's alphabet and on random longer ones.
func TestCalculateOnePassAgrees(t *testing.T) {
	const alphabet = "01+-*/()"
	var formulas []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		formulas = append(formulas, prefix)
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			grow(prefix+alphabet[i:i+1], n-1)
		}
	}
	grow("", 6)
	rng := rand.New(rand.NewPCG(9, 9))
	for range 20000 {
		b := make([]byte, 7+rng.IntN(30))
		for i := range b {
			b[i] = "0123456789+-*/() "[rng.IntN(17)]
		}
		formulas = append(formulas, string(b))
	}
	bad := 0
	for _, f := range formulas {
		got, gotErr := calculate(f)
		want, wantErr := calcListCalculate(f)
		if !calcSame(got, gotErr, want, wantErr) {
			if bad++; bad <= 10 {
				t.Errorf("calculate(%q) = %v, %v; the literal evaluator gives %v, %v", f, got, gotErr, want, wantErr)
			}
		}
	}
	if bad > 10 {
		t.Errorf("%d formulas disagree in all", bad)
	}
}

// TestCalculateLarge runs formulas of hundreds of KB: each answers exactly, and the bytes allocated
// stay within a small multiple of the formula's length (the list-rebuilding evaluator allocates
// quadratically: tens of GB here).
func TestCalculateLarge(t *testing.T) {
	const n = 200_000
	cases := []struct {
		name    string
		formula string
		out     any
		exc     string
	}{
		{"one huge number plus one", strings.Repeat("9", n) + "+1", math.Inf(1), ""},
		{"a long sum", strings.Repeat("1+", n/2) + "1", float64(n/2 + 1), ""},
		{"a long difference", "100000" + strings.Repeat("-1", n/2-3), float64(100000 - (n/2 - 3)), ""},
		{"products in parentheses", strings.Repeat("(2)*", n/4) + "1", math.Inf(1), ""},
		{"sums in parentheses times one", strings.Repeat("(1+1)*1+", n/8) + "0", float64(2 * (n / 8)), ""},
		{"a long quotient", "1" + strings.Repeat("/1", n/2), 1.0, ""},
		{"spaces everywhere", strings.Repeat("1 + ", n/4) + "1", float64(n/4 + 1), ""},
		{"an error at the end", strings.Repeat("1+", n/2) + "1/0", nil, "float division by zero"},
		{"nesting at the end", strings.Repeat("1+", n/2) + "((1))", nil, "')' is not in list"},
		{"leading operator", "-" + strings.Repeat("1+", n/2) + "1", nil, calcHang},
		{"trailing operator", strings.Repeat("1*", n/2), nil, "list index out of range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out, err := calculate(c.formula)
			runtime.ReadMemStats(&after)
			exc := ""
			if err != nil {
				exc = err.Error()
			}
			if exc != c.exc || (c.exc == "" && !value.Equal(out, c.out)) {
				t.Errorf("got %v, %q; want %v, %q", out, exc, c.out, c.exc)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64*uint64(len(c.formula)) {
				t.Errorf("allocated %d bytes for a formula of %d bytes: not linear", alloc, len(c.formula))
			}
		})
	}
	// Through the catalog, as a prediction's call runs it.
	env, err := APIs.Call(homeBase(t).NewWorld(), "Calculator", value.MapOf("formula", strings.Repeat("9", n)+"+1"))
	if out, _ := env.Get("output"); err != nil || !value.Equal(out, math.Inf(1)) {
		t.Errorf("Calculator through the catalog: %v, %v", env, err)
	}
}
