package bm25

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The reference: ln x to 256 bits with math/big (2 atanh((m-1)/(m+1)) on the mantissa, plus e ln 2),
// rounded once to float64. It is what logCR must equal.
const refPrec = 256

func atanhSeriesRef(z *big.Float) *big.Float {
	z2 := new(big.Float).SetPrec(refPrec).Mul(z, z)
	sum := new(big.Float).SetPrec(refPrec).Set(z)
	pow := new(big.Float).SetPrec(refPrec).Set(z)
	term := new(big.Float).SetPrec(refPrec)
	for k := int64(3); ; k += 2 {
		pow.Mul(pow, z2)
		term.Quo(pow, new(big.Float).SetPrec(refPrec).SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -refPrec-8 {
			break
		}
		sum.Add(sum, term)
	}
	return sum.Mul(sum, big.NewFloat(2).SetPrec(refPrec))
}

func lnRef(m *big.Float) *big.Float {
	one := big.NewFloat(1).SetPrec(refPrec)
	num := new(big.Float).SetPrec(refPrec).Sub(m, one)
	den := new(big.Float).SetPrec(refPrec).Add(m, one)
	return atanhSeriesRef(num.Quo(num, den))
}

var ln2Ref = lnRef(big.NewFloat(2).SetPrec(refPrec))

func logRef(x float64) float64 {
	frac, exp := math.Frexp(x)
	if frac < math.Sqrt2/2 {
		frac *= 2
		exp--
	}
	r := lnRef(new(big.Float).SetPrec(refPrec).SetFloat64(frac))
	if exp != 0 {
		e := new(big.Float).SetPrec(refPrec).SetInt64(int64(exp))
		r.Add(r, e.Mul(e, ln2Ref))
	}
	f, _ := r.Float64()
	return f
}

// TestLogCR holds the double-double logarithm to the 256-bit reference: every k + 0.5 below 2^17
// (any database of fewer records meets only those), random half-integers up to 10^6 and random
// arguments over many magnitudes.
func TestLogCR(t *testing.T) {
	args := []float64{0.5, 1.5, 2, 3, 10, 0x1p-1000, 0x1p+1000, math.MaxFloat64, math.SmallestNonzeroFloat64}
	limit := 1 << 17
	if testing.Short() {
		limit = 1 << 12
	}
	for k := 0; k < limit; k++ {
		args = append(args, float64(k)+0.5)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		args = append(args, float64(rng.IntN(1_000_000))+0.5, math.Exp(rng.Float64()*80-40))
	}
	bad := 0
	for _, x := range args {
		if got, want := logCR(x), logRef(x); got != want {
			bad++
			if bad <= 10 {
				t.Errorf("logCR(%v) = %x, want %x", x, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d arguments differ", bad, len(args))
	}
}
