package verify

import (
	"testing"

	"github.com/apibank-playground/apibank/value"
)

func TestGrounding(t *testing.T) {
	ev := &evidence{derived: map[string]bool{}}
	ev.add("Please book it for the 16th of March at 7:30 pm, two rooms, for Ana Lima. Turn the heater on.")
	tests := []struct {
		v    any
		want bool
	}{
		{"2023-03-16 19:30:00", true},
		{"2023-03-16", true},
		{"2024-03-16", false},
		{"2023-03-17", false},
		{"19:30", true},
		{"07:30:00", false},
		{int64(2), true},
		{int64(3), false},
		{"AnaLima", true},
		{"ana lima", true},
		{"Pedro", false},
		{true, true},
		{[]any{"Ana Lima"}, true},
		{value.MapOf("who", "Ana Lima", "n", int64(9)), false},
		{"", true},
	}
	for _, tt := range tests {
		if got, _ := ev.grounded(tt.v); got != tt.want {
			t.Errorf("grounded(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

// TestNumberForms: the forms grounding looks for in the evidence — day ordinals ("16th") and
// numbers with thousands separators ("12,500").
func TestNumberForms(t *testing.T) {
	ordinals := []struct {
		d    int
		want string
	}{{1, "st"}, {2, "nd"}, {3, "rd"}, {4, "th"}, {11, "th"}, {12, "th"}, {13, "th"}, {21, "st"}, {22, "nd"}, {23, "rd"}, {31, "st"}, {111, "th"}}
	for _, tt := range ordinals {
		if got := ordinal(tt.d); got != tt.want {
			t.Errorf("ordinal(%d) = %q, want %q", tt.d, got, tt.want)
		}
	}
	thousands := []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {12500, "12,500"}, {123456, "123,456"}, {1234567, "1,234,567"}}
	for _, tt := range thousands {
		if got := addThousands(tt.n); got != tt.want {
			t.Errorf("addThousands(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
