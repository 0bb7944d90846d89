package stats

import (
	"math"
	"testing"
)

func TestPaired(t *testing.T) {
	tests := []struct {
		name     string
		p        Paired
		scope    string
		finding  string
		sentence string
	}{
		{"B fixes many", Paired{BothRight: 100, BothWrong: 40, Fixed: 41, Broken: 12}, "level 1", Better,
			"B is better than A on level 1: 41 samples fixed, 12 broken, " + FormatP(exactMcNemar(41, 12))},
		{"B breaks many", Paired{BothRight: 100, BothWrong: 40, Fixed: 2, Broken: 10}, "level 2", Worse,
			"B is worse than A on level 2: 2 samples fixed, 10 broken, p = 0.0386"},
		{"a few either way", Paired{BothRight: 50, BothWrong: 30, Fixed: 5, Broken: 3}, "level 1", NotDistinguishable,
			"A and B are not distinguishable on level 1 at this size: 5 samples fixed, 3 broken, p = 0.7266"},
		{"one fixed", Paired{BothRight: 5, Fixed: 1}, "level 1", NotDistinguishable,
			"A and B are not distinguishable on level 1 at this size: 1 sample fixed, 0 broken, p = 1"},
		{"alike", Paired{BothRight: 7, BothWrong: 3}, "level 1", NotDistinguishable,
			"A and B are not distinguishable on level 1 at this size: they judge all 10 samples alike"},
		{"nothing shared", Paired{}, "level 3", Unpaired, "A and B have no sample of level 3 in common: nothing to compare"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Finding(); got != tt.finding {
				t.Errorf("Finding = %q, want %q", got, tt.finding)
			}
			if got := tt.p.Sentence(tt.scope, "sample"); got != tt.sentence {
				t.Errorf("Sentence =\n  %q, want\n  %q", got, tt.sentence)
			}
			n := tt.p.N()
			if n == 0 {
				return
			}
			// The accuracies differ by exactly (fixed − broken)/n.
			if d := tt.p.AccuracyB() - tt.p.AccuracyA(); math.Abs(d-float64(tt.p.Fixed-tt.p.Broken)/float64(n)) > 1e-12 {
				t.Errorf("accuracy B − A = %g, want (fixed − broken)/n", d)
			}
			if got, want := tt.p.MinDetectable(), MinDetectable(n, float64(tt.p.Fixed+tt.p.Broken)/float64(n)); got != want {
				t.Errorf("MinDetectable = %g, want %g", got, want)
			}
		})
	}
}

func TestFormatP(t *testing.T) {
	for _, tt := range []struct {
		p    float64
		want string
	}{
		{1, "p = 1"}, {0.72656, "p = 0.7266"}, {0.0385742, "p = 0.0386"}, {0.5, "p = 0.5"},
		{0.00007, "p = 0.0001"}, {0.00004, "p < 0.0001"}, {0, "p < 0.0001"},
	} {
		if got := FormatP(tt.p); got != tt.want {
			t.Errorf("FormatP(%g) = %q, want %q", tt.p, got, tt.want)
		}
	}
}
