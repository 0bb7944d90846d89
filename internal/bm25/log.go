package bm25

import "math"

// The original computes idf with Python's math.log, i.e. the C library's
// log (glibc). Every argument this package meets is k + 0.5 for an integer
// k. Go's math.Log differs from glibc in the last bit for about 1% of such
// arguments (for example 23.5, 41.5, 46.5, 49.5), which would change the
// idf and so the scores. glibc's log is correctly rounded for all of them
// except a few whose exact logarithm lies within a few millionths of an ulp
// of a rounding midpoint. So pyLog computes the logarithm correctly rounded
// (logCR), and takes glibc's result from a table for the 27 exceptions with
// k below 10^6 (measured against glibc 2.36; the first is 38437.5, far above
// the 73 documents of the tool).
//
// logCR corrects math.Log's answer y0 (within an ulp) with double-double
// arithmetic (a value as the unevaluated sum of two float64s, about 106
// bits): for x = m 2^e, ln x = e ln 2 + y0 + ln(1 + d) where y0 is
// math.Log(m), d = m*exp(-y0) - 1 is tiny, and exp(-y0) is computed to
// about 2^-104. Its error, some 2^-50 of an ulp, decides the rounding
// unless the exact logarithm is that close to a midpoint. A test holds it
// to a 256-bit math/big computation (the earlier implementation, which cost
// the engine module 90 KB of code) on every k + 0.5 below 2^17 and on
// random arguments.

// dd is a double-double: the unevaluated sum hi + lo, |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

// twoSum returns a + b exactly as a double-double.
func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

// add returns x + y.
func (x dd) add(y dd) dd {
	s := twoSum(x.hi, y.hi)
	t := twoSum(x.lo, y.lo)
	s.lo += t.hi
	s = twoSum(s.hi, s.lo)
	s.lo += t.lo
	return twoSum(s.hi, s.lo)
}

// mul returns x * y.
func (x dd) mul(y dd) dd {
	p := x.hi * y.hi
	e := math.FMA(x.hi, y.hi, -p)
	e += x.hi*y.lo + x.lo*y.hi
	return twoSum(p, e)
}

// div returns x / n for a small positive integer n.
func (x dd) div(n float64) dd {
	q := x.hi / n
	r := dd{-q * n, -math.FMA(q, n, -q*n)}.add(x) // x - q*n, exactly enough
	return twoSum(q, (r.hi+r.lo)/n)
}

// ln2DD is ln 2 as a double-double.
var ln2DD = dd{0x1.62e42fefa39efp-01, 0x1.abc9e3b39803fp-56}

// expDD returns e^t for |t| below 1000 to about 2^-104 relative: t = n ln 2 + r
// with |r| <= ln(2)/2, then Taylor's series of e^r to 2^-110.
func expDD(t dd) dd {
	n := math.Round(t.hi / ln2DD.hi)
	r := t.add(ln2DD.mul(dd{-n, 0}))
	sum, term := dd{1, 0}, dd{1, 0}
	for k := 1.0; k < 40; k++ {
		term = term.mul(r).div(k)
		sum = sum.add(term)
		if math.Abs(term.hi) < 0x1p-112 {
			break
		}
	}
	return dd{math.Ldexp(sum.hi, int(n)), math.Ldexp(sum.lo, int(n))}
}

// logCR returns the natural logarithm of x correctly rounded to float64 (but for
// an exact logarithm within about 2^-50 ulp of a rounding midpoint).
// Arguments that are not positive and finite get math.Log's answer.
func logCR(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return math.Log(x)
	}
	if x == 1 {
		return 0
	}
	// x = m 2^e with m in [0.5, 1), so that exp(-ln m) stays in range whatever x.
	m, e := math.Frexp(x)
	y0 := math.Log(m)
	d := expDD(dd{-y0, 0}).mul(dd{m, 0}).add(dd{-1, 0}) // m e^-y0 - 1, about 2^-52
	// ln(1 + d) = d - d^2/2 + ...: d^2 is about 2^-104, d^3 far below what matters.
	lnM := twoSum(y0, d.hi+(d.lo-d.hi*d.hi/2))
	return ln2DD.mul(dd{float64(e), 0}).add(lnM).hi
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
