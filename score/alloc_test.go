package score

import "testing"

// TestVerdictAllocations bounds the allocations of judging one prediction, the lever of speed under
// WebAssembly (one thread: the collector's work is the module's). Each bound is the count measured
// when it was set plus a little room; the response is not copied before the check, and a call builds
// no map of converted arguments. On our data a verdict also runs the gold call in a copy of the world
// to compare the effects, and a Calculator formula unlike the gold's is computed to compare values.
func TestVerdictAllocations(t *testing.T) {
	data, ix := builtin(t)
	var calc Sample
	found := false
	for _, sm := range ix.All() {
		if sm.Kind == KindCall && sm.GoldTurn().Tool == "Calculator" {
			calc, found = sm, true
			break
		}
	}
	if !found {
		t.Skip("the builtin data has no Calculator call sample")
	}
	gold := GoldPrediction(calc.Dialogue, calc.GoldTurn())
	tests := []struct {
		name string
		pred string
		max  float64
	}{
		{"no call", "I cannot help with that.", 1},
		{"another tool", "[GetToday()]", 4},
		{"the gold call", gold, 20},
		{"a wrong formula", "[Calculator(formula='1+1')]", 36},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(data, Fresh)
			s.Call(calc, tt.pred) // the gold record's copy is made once per batch
			if n := testing.AllocsPerRun(100, func() { s.Call(calc, tt.pred) }); n > tt.max {
				t.Errorf("%v allocations a verdict, more than %v", n, tt.max)
			} else {
				t.Logf("%v allocations", n)
			}
		})
	}
}
