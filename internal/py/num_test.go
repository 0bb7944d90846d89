package py

import (
	"math"
	"testing"
	"unicode"
)

func TestIsDigit(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", false},
		{"0", true},
		{"0123456789", true},
		{"１２３", true}, // full-width
		{"٣", true},   // Arabic-Indic
		{"²", true},   // superscript: Numeric_Type=Digit
		{"¹²³⁰⁴⁹", true},
		{"₀₉", true},
		{"①⑨⑴⒈⓪", true},
		{"❶➀➊", true},
		{"፩", true}, // Ethiopic
		{"🄀🄊", true},
		{"⑩", false}, // circled ten is Numeric_Type=Numeric
		{"½", false},
		{"Ⅳ", false},
		{"一", false},
		{"-1", false},
		{"+1", false},
		{"1.5", false},
		{"1 ", false},
		{"1_000", false},
		{"1a", false},
		{"\U00011F50", false}, // Kawi digit zero: Unicode 15, not in Python 3.11
	}
	for _, tt := range tests {
		if got := IsDigit(tt.in); got != tt.want {
			t.Errorf("IsDigit(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIsDecimal(t *testing.T) {
	tests := []struct {
		in   rune
		want bool
	}{
		{'0', true}, {'9', true}, {'/', false}, {':', false}, {'a', false},
		{'０', true}, {'٩', true}, {'߀', true}, {'𝟎', true}, {'𝟿', true},
		{'²', false}, {'①', false}, {'½', false},
		{0x11F50, false}, {0x1E4F0, false}, // added in Unicode 15.0
	}
	for _, tt := range tests {
		if got := IsDecimal(tt.in); got != tt.want {
			t.Errorf("IsDecimal(%U) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestDecimalValue checks the assumption decimalValue rests on: every range of Go's Nd table is a
// whole number of ten-digit sets starting at a zero.
func TestDecimalValue(t *testing.T) {
	check := func(lo, hi, stride uint32) {
		if stride != 1 || (hi-lo+1)%10 != 0 {
			t.Errorf("Nd range %X..%X/%d is not whole digit sets", lo, hi, stride)
		}
	}
	for _, g := range unicode.Nd.R16 {
		check(uint32(g.Lo), uint32(g.Hi), uint32(g.Stride))
	}
	for _, g := range unicode.Nd.R32 {
		check(g.Lo, g.Hi, g.Stride)
	}
	for _, tt := range []struct {
		r    rune
		want int
	}{{'7', 7}, {'０', 0}, {'９', 9}, {'٣', 3}, {'𝟘', 0}, {'\U0001D7D9', 1}, {'\U0001D7E1', 9}, {'𝟿', 9}, {'߉', 9}} {
		if got := decimalValue(tt.r); got != tt.want {
			t.Errorf("decimalValue(%U) = %d, want %d", tt.r, got, tt.want)
		}
	}
}

func TestAtoi(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr string
	}{
		{"0", 0, ""},
		{"007", 7, ""},
		{"42", 42, ""},
		{"１２３", 123, ""},
		{"٣٤", 34, ""},
		{"𝟏𝟐", 12, ""},
		{"9223372036854775807", math.MaxInt64, ""},
		{"-9223372036854775808", math.MinInt64, ""},
		{" 12\n", 12, ""},
		{"\u300012\u3000", 12, ""},
		{"+5", 5, ""},
		{"-5", -5, ""},
		{"1_000", 1000, ""},
		{"²", 0, "invalid literal for int() with base 10: '²'"},
		{"1²", 0, "invalid literal for int() with base 10: '1²'"},
		{"", 0, "invalid literal for int() with base 10: ''"},
		{" ", 0, "invalid literal for int() with base 10: ' '"},
		{"1.5", 0, "invalid literal for int() with base 10: '1.5'"},
		{"- 1", 0, "invalid literal for int() with base 10: '- 1'"},
		{"_1", 0, "invalid literal for int() with base 10: '_1'"},
		{"1__0", 0, "invalid literal for int() with base 10: '1__0'"},
		{"1_", 0, "invalid literal for int() with base 10: '1_'"},
		{"\x1c5", 0, `invalid literal for int() with base 10: '\x1c5'`}, // int() does not strip U+001C
		{"it's", 0, `invalid literal for int() with base 10: "it's"`},
		{"9223372036854775808", 0, "integer too large"},
		{"-9223372036854775809", 0, "integer too large"},
		{"99999999999999999999999", 0, "integer too large"},
	}
	for _, tt := range tests {
		got, err := Atoi(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Atoi(%q) = %d, %v; want error %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Atoi(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	// CPython cuts the repr in the message to 200 characters.
	long := "x"
	for len(long) < 300 {
		long += long
	}
	_, err := Atoi(long)
	if want := "invalid literal for int() with base 10: '" + long[:199]; err == nil || err.Error() != want {
		t.Errorf("Atoi(long) error = %v, want %q", err, want)
	}
}

func TestFloatRepr(t *testing.T) {
	// Variables, so that the arithmetic is float64 as in Python (Go constant arithmetic is exact).
	tenth, fifth, seven, three, salary, salary2 := 0.1, 0.2, 7.0, 3.0, 2500.5, 1234.5
	tests := []struct {
		in   float64
		want string
	}{
		{9.0, "9.0"},
		{seven / three, "2.3333333333333335"},
		{25*3 + seven/three, "77.33333333333333"},
		{1e16, "1e+16"},
		{1234567890123456.0, "1234567890123456.0"},
		{9999999999999998.0, "9999999999999998.0"},
		{12345678901234567.0, "1.2345678901234568e+16"},
		{0.0001, "0.0001"},
		{0.00012345, "0.00012345"},
		{0.00001, "1e-05"},
		{0.000015, "1.5e-05"},
		{1e-7, "1e-07"},
		{70000.0, "70000.0"},
		{salary - salary*tenth, "2250.45"},
		{salary2 - salary2*tenth, "1111.05"},
		{tenth + fifth, "0.30000000000000004"},
		{184.5, "184.5"},
		{183, "183.0"},
		{2739.25, "2739.25"},
		{0.5, "0.5"},
		{-1.5, "-1.5"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1e100, "1e+100"},
		{1.5e300, "1.5e+300"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
		{math.NaN(), "nan"},
	}
	for _, tt := range tests {
		if got := FloatRepr(tt.in); got != tt.want {
			t.Errorf("FloatRepr(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
