// Package stats is the arithmetic of comparing two runs of the same samples: the exact McNemar
// test of paired verdicts, the smallest difference in accuracy a paired comparison of a given size
// could detect, and the flip rate between repeated trials of one setting. It is pure computation
// (no I/O, no clock), so the CLI and the browser tab compute the same figures from the same counts.
//
// The unit of every function is a task judged right or wrong: a call sample, or a level-3 episode.
// Two runs are paired on the tasks both judged; of those, Fixed counts the tasks wrong in the first
// run (A) and right in the second (B), Broken the tasks right in A and wrong in B.
package stats

import (
	"fmt"
	"math"
)

// Alpha is the two-sided significance level of every comparison, and Power the chance of seeing a
// difference the minimum detectable difference is computed for: the usual 5% and 80%.
const (
	Alpha = 0.05
	Power = 0.80
)

// McNemar is the two-sided p-value of the exact McNemar test of b tasks right only in one run and
// c right only in the other: p = min(1, 2·P(X ≤ min(b, c))) with X ~ Binomial(b+c, 1/2). Under the
// hypothesis that the runs are equally accurate a discordant task is as likely to go either way,
// so the split of the b+c discordant tasks is a fair coin's. The tail is summed in log space from
// its largest term down, so counts in the millions neither overflow nor lose the sum; a p below
// float64's range (about 1e-308) is 0. No discordant task (b = c = 0) gives p = 1.
func McNemar(b, c int) float64 {
	if b < 0 || c < 0 {
		return math.NaN()
	}
	n, k := b+c, min(b, c)
	if n == 0 || 2*k+1 >= n { // an even split, or one apart: P(X ≤ k) ≥ 1/2
		return 1
	}
	return math.Min(1, 2*math.Exp(logBinomTail(n, k)))
}

// logBinomTail is log P(X ≤ k) for X ~ Binomial(n, 1/2) and 2k < n: log C(n, k) − n·log 2 plus the
// log of the sum of C(n, i)/C(n, k) for i = k, k−1, ..., 0, each ratio the one before times
// i/(n−i+1) (below 1, so the sum stops once a term no longer changes it).
func logBinomTail(n, k int) float64 {
	lgN, _ := math.Lgamma(float64(n) + 1)
	lgK, _ := math.Lgamma(float64(k) + 1)
	lgNK, _ := math.Lgamma(float64(n-k) + 1)
	sum, term := 1.0, 1.0
	for i := k; i > 0; i-- {
		term *= float64(i) / float64(n-i+1)
		if term < sum*1e-17 {
			break
		}
		sum += term
	}
	return lgN - lgK - lgNK - float64(n)*math.Ln2 + math.Log(sum)
}

// z is the standard normal quantile of p.
func z(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// MinDetectable is the smallest difference in accuracy (a fraction: 0.05 is 5 points) that a paired
// comparison of n tasks detects with probability Power at the two-sided level Alpha, when a share
// discordance of the tasks is judged differently by the two runs.
//
// It inverts the normal approximation of McNemar's test's power (Connor, 1987): with δ the
// difference and ψ the discordance, the difference of a task's two verdicts (−1, 0 or 1) has mean δ
// and variance ψ − δ², and the test reaches the power when
//
//	√n·δ = z(1−α/2)·√ψ + z(power)·√(ψ − δ²),
//
// whose root is δ = √ψ·(z₁√n + z₂√(n + z₂² − z₁²)) / (n + z₂²). The observed discordance stands for
// ψ. A difference δ needs at least δ of the tasks discordant, so when the root exceeds ψ the
// discordance is taken to grow with the difference (ψ = δ: every discordant task goes the same
// way) and the equation is solved for that. With no discordance known (0) this gives the smallest
// difference any pair of runs of n tasks could show. It is 1 when n is too small to detect any.
func MinDetectable(n int, discordance float64) float64 {
	if n <= 0 {
		return 1
	}
	z1, z2 := z(1-Alpha/2), z(Power)
	psi := math.Max(0, math.Min(1, discordance))
	nf := float64(n)
	if rad := nf + z2*z2 - z1*z1; rad >= 0 && psi > 0 {
		if d := math.Sqrt(psi) * (z1*math.Sqrt(nf) + z2*math.Sqrt(rad)) / (nf + z2*z2); d <= psi {
			return d
		}
	}
	// ψ = δ: √(nδ) = z₁ + z₂·√(1−δ), whose left side rises and right side falls with δ.
	g := func(d float64) float64 { return math.Sqrt(nf*d) - z1 - z2*math.Sqrt(1-d) }
	if g(1) < 0 {
		return 1
	}
	lo, hi := psi, 1.0
	for range 100 {
		mid := (lo + hi) / 2
		if g(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// FlipRate is the chance that two trials drawn from the trials made judge a task differently,
// averaged over the tasks: for a task right in k of n trials it is k(n−k)/C(n, 2). It is the noise
// floor of a comparison: for two trials it is the share of tasks the two judged differently, the
// discordance a comparison of two different settings shows beside it. successes has one count per
// task; trials is n (at least 2, else the rate is 0).
func FlipRate(successes []int, trials int) float64 {
	if trials < 2 || len(successes) == 0 {
		return 0
	}
	pairs := float64(trials) * float64(trials-1) / 2
	sum := 0.0
	for _, k := range successes {
		sum += float64(k) * float64(trials-k) / pairs
	}
	return sum / float64(len(successes))
}

// Interval is a 95% confidence interval of a proportion.
type Interval struct{ Low, High float64 }

// Wilson is the 95% Wilson score interval of k successes in n trials: unlike the normal
// approximation it stays inside [0, 1] and is honest at 0 and n, which small levels need. No trials
// give the whole of [0, 1].
func Wilson(k, n int) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return Interval{math.Max(0, centre-half), math.Min(1, centre+half)}
}

// String formats the interval as percentages with one decimal.
func (i Interval) String() string {
	return fmt.Sprintf("%.1f–%.1f%%", i.Low*100, i.High*100)
}
