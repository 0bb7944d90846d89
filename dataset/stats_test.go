package dataset

import (
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestStatsCountsStylesAndKinds: the builtin data has every style and every special kind.
func TestStatsCountsStylesAndKinds(t *testing.T) {
	d, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	st := Stats(d)
	for _, s := range protocol.Styles {
		if st.Styles[s] == 0 {
			t.Errorf("no %s call turn: %v", s, st.Styles)
		}
	}
	for _, k := range protocol.Specials {
		if st.Specials[k] == 0 {
			t.Errorf("no %s special case: %v", k, st.Specials)
		}
	}
	sum := 0
	for _, n := range st.Specials {
		sum += n
	}
	if sum != st.SpecialCases {
		t.Errorf("special kinds sum to %d, special cases %d", sum, st.SpecialCases)
	}
}
