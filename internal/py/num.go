package py

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsDecimal reports whether r is a decimal digit of any script (Unicode category Nd, as of Unicode
// 14.0): the characters Python's int() and the strptime patterns (\d) read as digits.
func IsDecimal(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.Is(unicode.Nd, r) && !unassigned14(r)
}

// decimalValue returns the value 0–9 of a rune for which IsDecimal is true. Unicode encodes every
// decimal digit set as ten consecutive code points from zero to nine, and each range of Go's Nd table
// is a whole number of such sets, so the value is the offset in the range modulo ten.
func decimalValue(r rune) int {
	if r < utf8.RuneSelf {
		return int(r - '0')
	}
	if r <= 0xFFFF {
		for _, g := range unicode.Nd.R16 {
			if rune(g.Lo) <= r && r <= rune(g.Hi) {
				return int(r-rune(g.Lo)) % 10
			}
		}
	}
	for _, g := range unicode.Nd.R32 {
		if rune(g.Lo) <= r && r <= rune(g.Hi) {
			return int(r-rune(g.Lo)) % 10
		}
	}
	return -1
}

// isDigitRune reports whether r has Unicode Numeric_Type Decimal or Digit.
func isDigitRune(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return IsDecimal(r) || inSpans(digitNotDecimal, r)
}

// IsDigit reports Python's s.isdigit(): s is non-empty and every character has Unicode Numeric_Type
// Decimal or Digit. That admits superscripts ('²'), circled digits ('①') and the like, which Atoi
// then rejects, as Python's int() does.
func IsDigit(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isDigitRune(r) {
			return false
		}
	}
	return true
}

// errTooLarge is returned by Atoi for a well-formed integer outside the int64 range, which Python
// would accept; the tools never meet one.
var errTooLarge = errors.New("integer too large")

// Atoi converts s as Python's int(s) does for a base-10 string: surrounding whitespace is ignored
// (IsSpace except U+001C–U+001F, as in CPython), an optional '+' or '-' sign is allowed, then decimal digits of any script (read by their
// value), optionally with single underscores between digits. Anything else fails with Python's
// message "invalid literal for int() with base 10: {Repr(s)}" (so '²', which IsDigit accepts, fails
// as in Python). A valid literal beyond the int64 range fails with the distinct error
// "integer too large" instead of Python's arbitrary-precision result.
func Atoi(s string) (int64, error) {
	t := strings.TrimFunc(s, isIntSpace)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" {
		return 0, invalidInt(s)
	}
	var v uint64
	overflow := false
	prevDigit := false
	for _, r := range t {
		if r == '_' {
			if !prevDigit {
				return 0, invalidInt(s)
			}
			prevDigit = false
			continue
		}
		if !IsDecimal(r) {
			return 0, invalidInt(s)
		}
		prevDigit = true
		d := uint64(decimalValue(r))
		if v > (math.MaxUint64-d)/10 {
			overflow = true
		} else {
			v = v*10 + d
		}
	}
	if !prevDigit { // trailing underscore
		return 0, invalidInt(s)
	}
	switch {
	case overflow, !neg && v > math.MaxInt64, neg && v > 1<<63:
		return 0, errTooLarge
	case neg:
		return -int64(v), nil // v == 1<<63 wraps to MinInt64, as intended
	}
	return int64(v), nil
}

// isIntSpace reports the whitespace int() ignores around the number: IsSpace except U+001C–U+001F
// (CPython keeps ASCII characters as they are and then skips only C whitespace).
func isIntSpace(r rune) bool {
	return IsSpace(r) && (r < 0x1C || r > 0x1F)
}

// invalidInt builds Python's int() error; like CPython's "%.200R" it cuts the repr to 200
// characters.
func invalidInt(s string) error {
	r := Repr(s)
	if utf8.RuneCountInString(r) > 200 {
		r = string([]rune(r)[:200])
	}
	return errors.New("invalid literal for int() with base 10: " + r)
}

// FloatRepr returns Python's repr(f): the shortest digits that round-trip, in fixed notation when
// the decimal exponent e of the first digit satisfies -4 <= e < 16 (always with a fractional part,
// "9.0"), otherwise in scientific notation with a signed exponent of at least two digits ("1e+16",
// "1.5e-05"); infinities and NaN are "inf", "-inf" and "nan", and negative zero is "-0.0".
func FloatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	// Shortest round-trip digits: "-d.ddde±XX".
	e := strconv.FormatFloat(f, 'e', -1, 64)
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	k := strings.IndexByte(e, 'e')
	mant, expText := e[:k], e[k+1:]
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	if f == 0 {
		exp = 0
	}
	var b strings.Builder
	b.WriteString(sign)
	switch {
	case exp < -4 || exp >= 16:
		b.WriteString(mant)
		b.WriteByte('e')
		if exp < 0 {
			b.WriteByte('-')
			exp = -exp
		} else {
			b.WriteByte('+')
		}
		if exp < 10 {
			b.WriteByte('0')
		}
		b.WriteString(strconv.Itoa(exp))
	case exp < 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -exp-1))
		b.WriteString(digits)
	case exp+1 >= len(digits):
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", exp+1-len(digits)))
		b.WriteString(".0")
	default:
		b.WriteString(digits[:exp+1])
		b.WriteByte('.')
		b.WriteString(digits[exp+1:])
	}
	return b.String()
}
