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

// homeCalcCases were computed with the original's algorithm in Python 3.11 (the last ones hang there).
var homeCalcCases = []struct {
	formula string
	out     any // float64, or nil when exc is set
	exc     string
}{
	{"(1+2)*3", 9.0, ""},
	{"(1 + 2) * 3", 9.0, ""},
	{"7/3", 2.3333333333333335, ""},
	{"25*3+7/3", 77.33333333333333, ""},
	{"2-3-4", -5.0, ""},
	{"(2+3)*(4-1)/5", 3.0, ""},
	{"(5*6)/(2+3)", 6.0, ""},
	{"007+1", 8.0, ""},
	{"1+2(3)", 3.0, ""},
	{"(1)(2)", nil, "invalid formula"},
	{"2*(3+4)*5", 70.0, ""},
	{"1/0", nil, "float division by zero"},
	{"0/0", nil, "float division by zero"},
	{"12+", nil, "list index out of range"},
	{"1++2", nil, "unsupported operand type(s) for +: 'float' and 'str'"},
	{"1-+2", nil, "unsupported operand type(s) for -: 'float' and 'str'"},
	{"1/*2", nil, "unsupported operand type(s) for /: 'float' and 'str'"},
	{"8*-2", nil, "can't multiply sequence by non-int of type 'float'"},
	{"1**2", nil, "can't multiply sequence by non-int of type 'float'"},
	{"((1+2)*3)", nil, "')' is not in list"},
	{")1+2(", nil, "list index out of range"},
	{"()+1", nil, "list index out of range"},
	{"-", nil, "list index out of range"},
	{"(+)", nil, "list index out of range"},
	{"-+", nil, "unsupported operand type(s) for -: 'str' and 'str'"},
	{"/0+1", nil, "float division by zero"},
	{"(/0)", nil, "float division by zero"},
	{"*/", nil, "can't multiply sequence by non-int of type 'str'"},
	{"/*", nil, "unsupported operand type(s) for /: 'str' and 'str'"},
	{"+0-0-", nil, "can only concatenate str (not \"float\") to str"},
	{"+1", nil, "invalid formula"},
	{"5", nil, "invalid formula"},
	{"(5)", nil, "invalid formula"},
	{"1.5+2", nil, "invalid formula"},
	{"2^3", nil, "invalid formula"},
	{"", nil, "invalid formula"},
	{"   ", nil, "invalid formula"},
	{"1\t+2", nil, "invalid formula"},
	{"(1+2", nil, "invalid formula"},
	{"++", nil, calcHang},
	{"-1+2", nil, calcHang},
	{"*2+3", nil, calcHang},
	{"-(1+2)", nil, calcHang},
	{"(-1)+2", nil, calcHang},
	{"+++", nil, calcHang},
	{"1+(-2)", nil, calcHang},
}

func TestHomeCalculator(t *testing.T) {
	for _, c := range homeCalcCases {
		out, err := calculate(c.formula)
		exc := ""
		if err != nil {
			exc = err.Error()
		}
		if exc != c.exc || (c.exc == "" && !value.Equal(out, c.out)) {
			t.Errorf("calculate(%q) = %v, %q; want %v, %q", c.formula, out, exc, c.out, c.exc)
		}
		if _, isFloat := out.(float64); c.exc == "" && !isFloat {
			t.Errorf("calculate(%q) = %T, want a float", c.formula, out)
		}
	}
	if out, err := calculate(strings.Repeat("9", 400) + "*2"); err != nil || !math.IsInf(out.(float64), 1) {
		t.Errorf("huge number: %v %v", out, err)
	}
	// Through the catalog, text and native.
	for _, s := range []homeStep{
		{tool: "Calculator", args: `{"formula": "(1+2)*3"}`, text: true, out: `9.0`},
		{tool: "Calculator", args: `{"formula": "-1+2"}`, exc: calcHang},
		{tool: "Calculator", args: `{"formula": 12}`, exc: "'int' object has no attribute 'replace'"},
	} {
		homeRun(t, s)
	}
	// The lv3 catalog reuses calculator(): same behaviour there.
	if _, ok := LV3.Lookup("Calculator"); ok {
		env, err := LV3.Call(homeBase(t).NewWorld(), "Calculator", value.MapOf("formula", "(1+2)*3"))
		if out, _ := env.Get("output"); err != nil || !value.Equal(out, 9.0) {
			t.Errorf("lv3 Calculator: %v %v", env, err)
		}
	}
	env := func(f, out, exc string) string {
		return `{"api_name": "Calculator", "input": {"formula": ` + f + `}, "output": ` + out + `, "exception": ` + exc + `}`
	}
	homeChecks(t, []homeCheckCase{
		{name: "spaces ignored", tool: "Calculator", resp: env(`"(1+2) * 3"`, "9.0", "null"), gold: env(`"(1 + 2)*3"`, "9", "null"), want: true},
		{name: "tabs kept", tool: "Calculator", resp: env(`"(1+2)\t*3"`, "9.0", "null"), gold: env(`"(1+2)*3"`, "9.0", "null"), want: false},
		{name: "output", tool: "Calculator", resp: env(`"1+2"`, "3.0", "null"), gold: env(`"1+2"`, "4.0", "null"), want: false},
		{name: "exception", tool: "Calculator", resp: env(`"1/0"`, "null", `"float division by zero"`), gold: env(`"1/0"`, "null", `"x"`), want: false},
		{name: "non-text formula", tool: "Calculator", resp: env(`5`, "null", "null"), gold: env(`"5"`, "null", "null"), errKind: Attribute, errText: "'int' object has no attribute 'replace'"},
	})
}
