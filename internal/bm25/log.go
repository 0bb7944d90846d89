package bm25

import (
	"math"
	"math/big"
	"sync"
)

// The original computes idf with Python's math.log, i.e. the C library's
// log (glibc). Every argument this package meets is k + 0.5 for an integer
// k. Go's math.Log differs from glibc in the last bit for about 1% of such
// arguments (for example 23.5, 41.5, 46.5, 49.5), which would change the
// idf and so the scores. glibc's log is correctly rounded for all of them
// except a few whose exact logarithm lies within a few millionths of an ulp
// of a rounding midpoint. So pyLog computes the logarithm with 256-bit
// arithmetic, rounds it once to float64, and takes glibc's result from a
// table for the 27 exceptions with k below 10^6 (measured against glibc
// 2.36; the first is 38437.5, far above the 73 documents of the tool).

const logPrec = 256

var (
	ln2Once sync.Once
	ln2Big  *big.Float
)

// atanhSeries returns 2*atanh(z) = ln((1+z)/(1-z)) for small |z|, summing
// z^(2k+1)/(2k+1) until the terms no longer matter at logPrec bits.
func atanhSeries(z *big.Float) *big.Float {
	z2 := new(big.Float).SetPrec(logPrec).Mul(z, z)
	sum := new(big.Float).SetPrec(logPrec).Set(z)
	pow := new(big.Float).SetPrec(logPrec).Set(z)
	term := new(big.Float).SetPrec(logPrec)
	for k := int64(3); ; k += 2 {
		pow.Mul(pow, z2)
		term.Quo(pow, new(big.Float).SetPrec(logPrec).SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -logPrec-8 {
			break
		}
		sum.Add(sum, term)
	}
	return sum.Mul(sum, big.NewFloat(2).SetPrec(logPrec))
}

// lnBig returns ln(m) for m in [0.5, 2) (well inside the series' range).
func lnBig(m *big.Float) *big.Float {
	one := big.NewFloat(1).SetPrec(logPrec)
	num := new(big.Float).SetPrec(logPrec).Sub(m, one)
	den := new(big.Float).SetPrec(logPrec).Add(m, one)
	return atanhSeries(num.Quo(num, den))
}

func ln2() *big.Float {
	ln2Once.Do(func() {
		ln2Big = lnBig(big.NewFloat(2).SetPrec(logPrec))
	})
	return ln2Big
}

// logCR returns the natural logarithm of x correctly rounded to float64.
// Arguments that are not positive and finite get math.Log's answer.
func logCR(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return math.Log(x)
	}
	if x == 1 {
		return 0
	}
	frac, exp := math.Frexp(x) // x = frac * 2^exp, frac in [0.5, 1)
	if frac < math.Sqrt2/2 {
		frac *= 2
		exp--
	}
	r := lnBig(new(big.Float).SetPrec(logPrec).SetFloat64(frac))
	if exp != 0 {
		e := new(big.Float).SetPrec(logPrec).SetInt64(int64(exp))
		r.Add(r, e.Mul(e, ln2()))
	}
	f, _ := r.Float64()
	return f
}

// glibcHalfLogs holds the float64 bits of glibc's log(x) for the arguments
// x = k + 0.5 (k < 10^6) where it differs from the correctly rounded value.
var glibcHalfLogs = map[float64]uint64{
	38437.5:  0x40251d136cc06e70, // 0x1.51d136cc06e70p+3
	43791.5:  0x40255fd8065ad03c, // 0x1.55fd8065ad03cp+3
	54731.5:  0x4025d20509ddf8bb, // 0x1.5d20509ddf8bbp+3
	81070.5:  0x40269b2c923350a3, // 0x1.69b2c923350a3p+3
	89138.5:  0x4026cbbfa8c36dca, // 0x1.6cbbfa8c36dcap+3
	98200.5:  0x4026fd520bc3de86, // 0x1.6fd520bc3de86p+3
	127427.5: 0x402782b70e4471d3, // 0x1.782b70e4471d3p+3
	169941.5: 0x4028161f8f8b29bb, // 0x1.8161f8f8b29bbp+3
	192819.5: 0x402856c9fcf5fd65, // 0x1.856c9fcf5fd65p+3
	216173.5: 0x40289153080f9c01, // 0x1.89153080f9c01p+3
	239506.5: 0x4028c5cdcf841cd0, // 0x1.8c5cdcf841cd0p+3
	278515.5: 0x4029130fadaf0a15, // 0x1.9130fadaf0a15p+3
	329847.5: 0x402969ab631e4743, // 0x1.969ab631e4743p+3
	357935.5: 0x40299382e707f764, // 0x1.99382e707f764p+3
	382962.5: 0x4029b61d4ed7c646, // 0x1.9b61d4ed7c646p+3
	425582.5: 0x4029ec2441148596, // 0x1.9ec2441148596p+3
	568977.5: 0x402a80d1368d9d81, // 0x1.a80d1368d9d81p+3
	576875.5: 0x402a87e01deacf3b, // 0x1.a87e01deacf3bp+3
	579210.5: 0x402a89f194f4f4b5, // 0x1.a89f194f4f4b5p+3
	651543.5: 0x402ac631e5ea10df, // 0x1.ac631e5ea10dfp+3
	724843.5: 0x402afcc7b1cdac4e, // 0x1.afcc7b1cdac4ep+3
	741281.5: 0x402b0842f10f42a8, // 0x1.b0842f10f42a8p+3
	799613.5: 0x402b2f0b638a9f71, // 0x1.b2f0b638a9f71p+3
	826546.5: 0x402b400180665260, // 0x1.b400180665260p+3
	834071.5: 0x402b44a566a47791, // 0x1.b44a566a47791p+3
	860131.5: 0x402b5465fb7ab8f5, // 0x1.b5465fb7ab8f5p+3
	926163.5: 0x402b7a44c9d5389a, // 0x1.b7a44c9d5389ap+3
}

// pyLog returns Python's math.log(x) (glibc's log) for the arguments k + 0.5
// used by idf, and the correctly rounded logarithm for any other argument.
func pyLog(x float64) float64 {
	if bits, ok := glibcHalfLogs[x]; ok {
		return math.Float64frombits(bits)
	}
	return logCR(x)
}
