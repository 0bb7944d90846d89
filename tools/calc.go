package tools

import (
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/value"
)

// calculator is the arithmetic tool, shared by both catalogs (the lv3 one is identical).
func calculator() *Tool {
	return &Tool{
		Name:        "Calculator",
		Description: "Evaluate an arithmetic formula of whole numbers with + - * / and parentheses.",
		Params: []Param{
			{Name: "formula", Type: "str", Required: true, Description: "The formula, e.g. '(1 + 2) * 3'; only non-negative integers, + - * / and one level of parentheses.", Alike: SameResult},
		},
		Outputs: []Field{{Name: "result", Type: "float", Description: "The value of the formula."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("formula")
			s, err := homeStr(v, "replace")
			if err != nil {
				return nil, homeCaught(err)
			}
			return calculate(s)
		},
		check: func(r, g *value.Map) (bool, error) {
			var f [2]string
			for i, env := range []*value.Map{r, g} {
				v, err := homeInput(env, "formula")
				if err != nil {
					return false, err
				}
				s, err := homeStr(v, "replace")
				if err != nil {
					return false, err
				}
				f[i] = strings.ReplaceAll(s, " ", "")
			}
			if f[0] != f[1] {
				return false, nil
			}
			return homeOutExc(r, g)
		},
	}
}

// calcHang is our answer where the original never terminates: an operator as the first token of
// the list being evaluated (a leading operator, also inside parentheses) makes the original read
// its left operand at index -1 and grow or rewrite the list forever. We answer promptly with this
// exception instead (see RATIONALE.md).
const calcHang = "formula starts with an operator"

// calculate evaluates a formula as the original does (TOOLS.md §2 Calculator), with Python's
// error texts. The original rebuilds its token list after every operation (quadratic in the
// formula's length); ours reaches the same result and the same first error in one pass per phase,
// in place, so its time and memory are linear in the formula.
func calculate(formula string) (any, error) {
	f := strings.ReplaceAll(formula, " ", "")
	if !calcValid(f) {
		return nil, fail("invalid formula")
	}
	// calcValid admits only ASCII digits, operators and parentheses: one byte, one character.
	n := 0
	for i := 0; i < len(f); i++ {
		if f[i] < '0' || f[i] > '9' || i == 0 || f[i-1] < '0' || f[i-1] > '9' {
			n++
		}
	}
	toks := make([]calcTok, 0, n)
	for i := 0; i < len(f); {
		if f[i] < '0' || f[i] > '9' {
			toks = append(toks, calcTok{text: f[i : i+1]})
			i++
			continue
		}
		j := i + 1
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		toks = append(toks, calcTok{num: calcNumber(f[i:j])})
		i = j
	}
	v, err := calcEval(toks)
	if err != nil {
		return nil, err
	}
	return v.value(), nil
}

// Calculate is the value of formula as Calculator answers it, and false when the tool answers an
// exception or a text: a variant that moves a formula's numbers works its result out again with it.
func Calculate(formula string) (float64, bool) {
	v, err := calculate(formula)
	f, ok := v.(float64)
	return f, err == nil && ok
}

// calcTok is one token of a formula: a number, or a text (an operator, a parenthesis, or two texts
// that '+' concatenated, as Python lets it).
type calcTok struct {
	text string // "" for a number
	num  float64
}

// is reports whether the token is the text s.
func (t calcTok) is(s string) bool { return t.text == s }

// value is the token as the tool answers it: a float or a text.
func (t calcTok) value() any {
	if t.text == "" {
		return t.num
	}
	return t.text
}

// calcNumber is float() of a run of ASCII digits (huge runs give +Inf, as in Python).
func calcNumber(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// calcValid is the original's validity test of the space-free formula.
func calcValid(f string) bool {
	if f == "" {
		return false
	}
	for _, r := range f {
		if !strings.ContainsRune("0123456789+-*/()", r) {
			return false
		}
	}
	if strings.Count(f, "(") != strings.Count(f, ")") {
		return false
	}
	ops := strings.Count(f, "+") + strings.Count(f, "-") + strings.Count(f, "*") + strings.Count(f, "/")
	return ops != 0 && ops+1 != len(f)
}

// calcIndex is list.index(s): the first token that is the text s, or -1.
func calcIndex(toks []calcTok, s string) int {
	for i, t := range toks {
		if t.is(s) {
			return i
		}
	}
	return -1
}

// calcFirst returns the index of the leftmost of the two operators, or -1 when neither is present.
func calcFirst(toks []calcTok, a, b string) int {
	i, j := calcIndex(toks, a), calcIndex(toks, b)
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	case i < j:
		return i
	}
	return j
}

// calcEval is the original's calculate_formula on a token list: parentheses first (first '(' with
// first ')', so nesting fails), then * and / left to right, then + and -, then the first token. It
// reuses toks' storage.
func calcEval(toks []calcTok) (calcTok, error) {
	toks, err := calcParens(toks)
	if err != nil {
		return calcTok{}, err
	}
	for _, pair := range [2][2]string{{"*", "/"}, {"+", "-"}} {
		if toks, err = calcPass(toks, pair[0], pair[1]); err != nil {
			return calcTok{}, err
		}
	}
	if len(toks) == 0 {
		return calcTok{}, fail("list index out of range")
	}
	return toks[0], nil
}

// calcParens is the original's loop "while '(' in formula: replace formula[first '(' : first ')'
// + 1] by the value of the tokens between them", done in one left-to-right pass: after each
// replacement no '(' is left before the replaced slice, so the next first '(' is further right.
// The result is written over toks (it is never longer than what was read).
func calcParens(toks []calcTok) ([]calcTok, error) {
	if calcIndex(toks, "(") < 0 {
		return toks, nil
	}
	out := toks[:0]
	closed := false // a ')' was passed outside parentheses: it is the first ')' of the list
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.is("(") {
			closed = closed || t.is(")")
			out = append(out, t)
			continue
		}
		if closed {
			// The first ')' lies before the first '(': the slice between them is empty.
			return nil, fail("list index out of range")
		}
		r := -1
		for k := i + 1; k < len(toks); k++ {
			if toks[k].is(")") {
				r = k
				break
			}
		}
		if r < 0 {
			return nil, fail("')' is not in list")
		}
		// The value of toks[i+1:r], which holds no ')': an empty slice has no first token, and a
		// '(' inside (nesting) makes the inner loop look for a ')' in vain.
		if r == i+1 {
			return nil, fail("list index out of range")
		}
		if calcIndex(toks[i+1:r], "(") >= 0 {
			return nil, fail("')' is not in list")
		}
		v, err := calcEval(toks[i+1 : r])
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		i = r
	}
	return out, nil
}

// calcPass is the original's loop "while a or b in formula: apply the leftmost of them to its
// neighbours and put the result in their place", done in one left-to-right pass over toks'
// storage. A result is a number or a concatenated text of two or more characters, never an
// operator, so after each step the leftmost operator is further right.
func calcPass(toks []calcTok, a, b string) ([]calcTok, error) {
	if len(toks) > 0 && (toks[0].is(a) || toks[0].is(b)) {
		return calcLeading(toks, a, b)
	}
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.is(a) && !t.is(b) {
			out = append(out, t)
			continue
		}
		if i+1 >= len(toks) {
			return nil, fail("list index out of range")
		}
		v, err := calcOp(out[len(out)-1], t.text, toks[i+1])
		if err != nil {
			return nil, err
		}
		out[len(out)-1] = v
		i++
	}
	return out, nil
}

// calcLeading is the pass when the list starts with one of its operators: the original reads the
// left operand at index -1 (the last token) and assigns formula[-1:2] = [v]. With three or more
// tokens that inserts v before the last token and the same step repeats forever; with two it
// rewrites the second token, and the step repeats on (v, v) until an operation raises. Either way
// we answer calcHang where the original would not stop.
func calcLeading(toks []calcTok, a, b string) ([]calcTok, error) {
	for atZero := 0; ; atZero++ {
		idx := calcFirst(toks, a, b)
		if idx < 0 {
			return toks, nil
		}
		n := len(toks)
		if idx+1 >= n {
			return nil, fail("list index out of range")
		}
		v, err := calcOp(toks[n-1], toks[idx].text, toks[idx+1])
		if err != nil {
			return nil, err
		}
		if n >= 3 || atZero >= 3 {
			return nil, fail(calcHang)
		}
		toks = []calcTok{toks[0], v}
	}
}

// calcOp applies one operator to two tokens (numbers or texts) with Python's semantics and errors.
func calcOp(a calcTok, op string, b calcTok) (calcTok, error) {
	xNum, yNum := a.text == "", b.text == ""
	x, y := a.num, b.num
	if xNum && yNum {
		switch op {
		case "+":
			return calcTok{num: x + y}, nil
		case "-":
			return calcTok{num: x - y}, nil
		case "*":
			return calcTok{num: x * y}, nil
		case "/":
			if y == 0 {
				return calcTok{}, fail("float division by zero")
			}
			return calcTok{num: x / y}, nil
		}
	}
	ta, tb := pyTypeName(a.value()), pyTypeName(b.value())
	switch op {
	case "+":
		if !xNum && !yNum {
			return calcTok{text: a.text + b.text}, nil
		}
		if !xNum {
			return calcTok{}, fail(`can only concatenate str (not "` + tb + `") to str`)
		}
	case "*":
		if xNum || yNum {
			return calcTok{}, fail("can't multiply sequence by non-int of type 'float'")
		}
		return calcTok{}, fail("can't multiply sequence by non-int of type 'str'")
	}
	return calcTok{}, fail("unsupported operand type(s) for " + op + ": '" + ta + "' and '" + tb + "'")
}
