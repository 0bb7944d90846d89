package stats

import (
	"math"
	"math/big"
	"testing"
)

// exactMcNemar is the exact McNemar p computed independently of McNemar: the binomial tail summed
// in exact rational arithmetic (math/big), converted to a float64 only at the end.
func exactMcNemar(b, c int) float64 {
	n, k := b+c, min(b, c)
	if n == 0 {
		return 1
	}
	sum := new(big.Int)
	coef := big.NewInt(1) // C(n, i)
	for i := 0; i <= k; i++ {
		if i > 0 {
			coef.Mul(coef, big.NewInt(int64(n-i+1)))
			coef.Quo(coef, big.NewInt(int64(i)))
		}
		sum.Add(sum, coef)
	}
	p := new(big.Rat).SetFrac(new(big.Int).Mul(sum, big.NewInt(2)), new(big.Int).Lsh(big.NewInt(1), uint(n)))
	f, _ := p.Float64()
	return math.Min(1, f)
}

func TestMcNemarTextbook(t *testing.T) {
	tests := []struct {
		name string
		b, c int
		want float64 // as published, to the digits given
		tol  float64
	}{
		// 12 discordant pairs split 10/2: 2·(1+12+66)/2¹² = 79/2048.
		{"10 against 2", 10, 2, 0.0386, 5e-5},
		// Fagerland, Lydersen and Laake (2013), BMC Med Res Methodol 13:91, the airway
		// hyper-responsiveness example: 1 against 7, exact conditional p = 0.070.
		{"Fagerland et al. 1 against 7", 1, 7, 0.070, 5e-4},
		{"all discordant one way, 6", 6, 0, 0.03125, 1e-12},
		{"all discordant one way, 5", 0, 5, 0.0625, 1e-12},
		{"even split", 5, 5, 1, 0},
		{"one apart", 4, 3, 1, 0},
		{"no discordant pair", 0, 0, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := McNemar(tt.b, tt.c)
			if math.Abs(got-tt.want) > tt.tol {
				t.Errorf("McNemar(%d, %d) = %.6g, want %.6g ± %g", tt.b, tt.c, got, tt.want, tt.tol)
			}
			if exact := exactMcNemar(tt.b, tt.c); math.Abs(got-exact) > 1e-12*exact {
				t.Errorf("McNemar(%d, %d) = %.15g, exact summation %.15g", tt.b, tt.c, got, exact)
			}
			if got != McNemar(tt.c, tt.b) {
				t.Errorf("McNemar(%d, %d) = %g but McNemar(%d, %d) = %g", tt.b, tt.c, got, tt.c, tt.b, McNemar(tt.c, tt.b))
			}
		})
	}
}

// TestMcNemarAgainstExactSummation sweeps counts, small to a few thousand, against math/big.
func TestMcNemarAgainstExactSummation(t *testing.T) {
	var cases [][2]int
	for b := 0; b <= 60; b += 3 {
		for c := 0; c <= 60; c += 7 {
			cases = append(cases, [2]int{b, c})
		}
	}
	cases = append(cases, [2]int{41, 12}, [2]int{12, 41}, [2]int{150, 86}, [2]int{300, 250}, [2]int{1000, 900}, [2]int{1500, 1380}, [2]int{2900, 100}, [2]int{3000, 2990})
	for _, bc := range cases {
		got, want := McNemar(bc[0], bc[1]), exactMcNemar(bc[0], bc[1])
		if math.Abs(got-want) > 1e-10*want {
			t.Errorf("McNemar(%d, %d) = %.15g, exact summation %.15g (relative error %.2g)", bc[0], bc[1], got, want, math.Abs(got-want)/want)
		}
	}
}

// TestMcNemarLargeCounts: counts in the millions give a finite p that agrees with the normal
// approximation (which is excellent there), and a p below float64's range is 0, never NaN.
func TestMcNemarLargeCounts(t *testing.T) {
	for _, bc := range [][2]int{{3_000_000, 2_999_000}, {5_000_000, 4_996_000}, {1 << 22, 1<<22 - 3000}} {
		b, c := bc[0], bc[1]
		got := McNemar(b, c)
		zc := (math.Abs(float64(b-c)) - 1) / math.Sqrt(float64(b+c))
		normal := math.Erfc(zc / math.Sqrt2)
		if math.IsNaN(got) || math.Abs(got-normal) > 2e-3*normal {
			t.Errorf("McNemar(%d, %d) = %g, the normal approximation %g", b, c, got, normal)
		}
	}
	if got := McNemar(2_000_000, 0); got != 0 || math.IsNaN(got) {
		t.Errorf("McNemar(2e6, 0) = %g, want 0 (below float64's range)", got)
	}
	if got := McNemar(-1, 3); !math.IsNaN(got) {
		t.Errorf("McNemar(-1, 3) = %g, want NaN", got)
	}
}

// exactPower is the power of the exact McNemar test at level Alpha for n pairs, discordance psi and
// difference delta, summed exactly over the distribution: the count of discordant pairs is
// Binomial(n, psi), and given m of them, the count going B's way is Binomial(m, (1+delta/psi)/2).
// It checks the normal approximation MinDetectable inverts by a method that shares nothing with it.
func exactPower(n int, psi, delta float64) float64 {
	logPMF := func(k, m int, p float64) float64 {
		if p <= 0 {
			if k == 0 {
				return 0
			}
			return math.Inf(-1)
		}
		if p >= 1 {
			if k == m {
				return 0
			}
			return math.Inf(-1)
		}
		a, _ := math.Lgamma(float64(m) + 1)
		b, _ := math.Lgamma(float64(k) + 1)
		c, _ := math.Lgamma(float64(m-k) + 1)
		return a - b - c + float64(k)*math.Log(p) + float64(m-k)*math.Log1p(-p)
	}
	q := (1 + delta/psi) / 2
	power := 0.0
	for m := 1; m <= n; m++ {
		pm := math.Exp(logPMF(m, n, psi))
		if pm < 1e-300 {
			continue
		}
		// The largest k with McNemar(k, m−k) < Alpha (−1 when there is none).
		crit := -1
		for k := 0; 2*k < m && McNemar(k, m-k) < Alpha; k++ {
			crit = k
		}
		reject := 0.0
		for k := 0; k <= crit; k++ {
			reject += math.Exp(logPMF(k, m, q)) + math.Exp(logPMF(m-k, m, q))
		}
		power += pm * reject
	}
	return power
}

func TestMinDetectable(t *testing.T) {
	z1, z2 := z(1-Alpha/2), z(Power)
	if math.Abs(z1-1.959963984540054) > 1e-12 || math.Abs(z2-0.8416212335729143) > 1e-12 {
		t.Fatalf("normal quantiles %v %v", z1, z2)
	}
	tests := []struct {
		n   int
		psi float64
	}{
		{23, 0.5}, {100, 0.2}, {200, 0.1}, {500, 0.3}, {1000, 0.05}, {1000, 0.002}, {300, 0}, {5000, 0.15}, {4, 0.9},
	}
	for _, tt := range tests {
		d := MinDetectable(tt.n, tt.psi)
		// δ solves √n·δ = z₁√ψ' + z₂√(ψ' − δ²) with ψ' = max(ψ, δ).
		psi := math.Max(tt.psi, d)
		lhs, rhs := math.Sqrt(float64(tt.n))*d, z1*math.Sqrt(psi)+z2*math.Sqrt(psi-d*d)
		if d <= 0 || d > 1 || math.Abs(lhs-rhs) > 1e-9 {
			t.Errorf("MinDetectable(%d, %g) = %g: √n·δ = %g, z₁√ψ + z₂√(ψ−δ²) = %g", tt.n, tt.psi, d, lhs, rhs)
		}
		// More tasks detect a smaller difference; more discordance needs one no smaller (the
		// same while the discordance stays below the difference itself).
		if more := MinDetectable(2*tt.n, tt.psi); more >= d {
			t.Errorf("MinDetectable(%d, %g) = %g is not below MinDetectable(%d, ...) = %g", 2*tt.n, tt.psi, more, tt.n, d)
		}
		if tt.psi < 0.5 {
			if noisier := MinDetectable(tt.n, 2*tt.psi+0.01); noisier < d || (tt.psi > d && noisier == d) {
				t.Errorf("MinDetectable(%d, %g) = %g is not above MinDetectable(%d, %g) = %g", tt.n, 2*tt.psi+0.01, noisier, tt.n, tt.psi, d)
			}
		}
	}
	// Connor's sample size n = ⌈(z₁√ψ + z₂√(ψ−δ²))² / δ²⌉ for ψ = 0.5, δ = 0.4 is 23: 23 tasks
	// detect 0.4, 22 do not.
	if d := MinDetectable(23, 0.5); d > 0.4 {
		t.Errorf("MinDetectable(23, 0.5) = %g, want ≤ 0.4", d)
	}
	if d := MinDetectable(22, 0.5); d <= 0.4 {
		t.Errorf("MinDetectable(22, 0.5) = %g, want > 0.4", d)
	}
	for _, n := range []int{-1, 0, 1, 3} {
		if d := MinDetectable(n, 0.5); d != 1 {
			t.Errorf("MinDetectable(%d, 0.5) = %g, want 1 (nothing detectable)", n, d)
		}
	}
}

// TestMinDetectableHasItsPower: at the difference MinDetectable gives, the exact test's power,
// summed exactly, is close to Power (the normal approximation is good at these sizes).
func TestMinDetectableHasItsPower(t *testing.T) {
	for _, tt := range []struct {
		n   int
		psi float64
	}{{200, 0.3}, {500, 0.1}, {800, 0.2}} {
		d := MinDetectable(tt.n, tt.psi)
		if p := exactPower(tt.n, tt.psi, d); math.Abs(p-Power) > 0.05 {
			t.Errorf("n %d, ψ %g: δ %.4f has exact power %.3f, want %.2f ± 0.05", tt.n, tt.psi, d, p, Power)
		}
	}
}

func TestFlipRate(t *testing.T) {
	tests := []struct {
		name   string
		trials [][]bool // per trial, per task
	}{
		{"two trials", [][]bool{{true, false, true, true}, {true, true, false, true}}},
		{"three trials", [][]bool{{true, false, true, false}, {true, true, false, false}, {true, false, false, false}}},
		{"five trials, always alike", [][]bool{{true, false}, {true, false}, {true, false}, {true, false}, {true, false}}},
		{"four trials", [][]bool{{true, false, true}, {false, false, true}, {true, true, false}, {false, true, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, tasks := len(tt.trials), len(tt.trials[0])
			// Independently: every pair of trials, the share of tasks they judge differently.
			pairs, differ := 0, 0.0
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					pairs++
					for k := 0; k < tasks; k++ {
						if tt.trials[i][k] != tt.trials[j][k] {
							differ += 1 / float64(tasks)
						}
					}
				}
			}
			want := differ / float64(pairs)
			succ := make([]int, tasks)
			for _, tr := range tt.trials {
				for k, ok := range tr {
					if ok {
						succ[k]++
					}
				}
			}
			if got := FlipRate(succ, n); math.Abs(got-want) > 1e-12 {
				t.Errorf("FlipRate = %g, pairwise count %g", got, want)
			}
		})
	}
	if got := FlipRate([]int{0, 1, 1}, 2); math.Abs(got-2.0/3) > 1e-12 {
		t.Errorf("two trials, two of three tasks flipped: %g, want 2/3", got)
	}
	if got := FlipRate([]int{1, 0}, 1); got != 0 {
		t.Errorf("one trial: %g, want 0", got)
	}
}
