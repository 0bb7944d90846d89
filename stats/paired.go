package stats

import (
	"fmt"
	"math"
	"strconv"
)

// Paired is two runs, A and B, judged on the same tasks: the four cells of their 2×2 table.
type Paired struct {
	// BothRight and BothWrong are the tasks the two runs judge alike; Fixed the tasks wrong in A
	// and right in B; Broken the tasks right in A and wrong in B.
	BothRight, BothWrong, Fixed, Broken int
}

// N is how many tasks the two runs share.
func (p Paired) N() int { return p.BothRight + p.BothWrong + p.Fixed + p.Broken }

// AccuracyA is A's accuracy on the shared tasks (0 when there are none).
func (p Paired) AccuracyA() float64 { return ratio(p.BothRight+p.Broken, p.N()) }

// AccuracyB is B's accuracy on the shared tasks (0 when there are none).
func (p Paired) AccuracyB() float64 { return ratio(p.BothRight+p.Fixed, p.N()) }

// Discordance is the share of shared tasks the two runs judge differently.
func (p Paired) Discordance() float64 { return ratio(p.Fixed+p.Broken, p.N()) }

// P is the exact McNemar test's two-sided p-value of the difference (see McNemar).
func (p Paired) P() float64 { return McNemar(p.Fixed, p.Broken) }

// MinDetectable is the smallest difference in accuracy this many shared tasks, with this
// discordance, would show at the level Alpha with the power Power (see MinDetectable).
func (p Paired) MinDetectable() float64 { return MinDetectable(p.N(), p.Discordance()) }

// Findings of a comparison (Paired.Finding).
const (
	// Better: B is right significantly more often than A.
	Better = "better"
	// Worse: B is right significantly less often than A.
	Worse = "worse"
	// NotDistinguishable: the difference, if any, is within what chance makes at this size.
	NotDistinguishable = "not distinguishable"
	// Unpaired: the runs share no task.
	Unpaired = "unpaired"
)

// Finding says what the test concludes about B against A: Better or Worse when p < Alpha,
// NotDistinguishable otherwise, Unpaired when there is nothing to compare.
func (p Paired) Finding() string {
	switch {
	case p.N() == 0:
		return Unpaired
	case p.P() >= Alpha:
		return NotDistinguishable
	case p.Fixed > p.Broken:
		return Better
	}
	return Worse
}

// Sentence says the comparison in plain words, about scope ("level 1") and counting its tasks
// with noun ("sample"): "B is better than A on level 1: 41 samples fixed, 12 broken, p < 0.0001"
// or "A and B are not distinguishable on level 1 at this size: 5 samples fixed, 3 broken, p =
// 0.73". Not distinguishable is not the same as equal: the minimum detectable difference says how
// large a difference could have hidden.
func (p Paired) Sentence(scope, noun string) string {
	counts := fmt.Sprintf("%d %s fixed, %d broken, %s", p.Fixed, plural(p.Fixed, noun), p.Broken, FormatP(p.P()))
	switch p.Finding() {
	case Unpaired:
		return fmt.Sprintf("A and B have no %s of %s in common: nothing to compare", noun, scope)
	case Better:
		return fmt.Sprintf("B is better than A on %s: %s", scope, counts)
	case Worse:
		return fmt.Sprintf("B is worse than A on %s: %s", scope, counts)
	}
	if p.Fixed+p.Broken == 0 {
		return fmt.Sprintf("A and B are not distinguishable on %s at this size: they judge all %d %s alike", scope, p.N(), plural(p.N(), noun))
	}
	return fmt.Sprintf("A and B are not distinguishable on %s at this size: %s", scope, counts)
}

// FormatP writes a p-value to four decimals, "p = 0.0386", trailing zeros dropped ("p = 1"), and
// "p < 0.0001" below that.
func FormatP(p float64) string {
	if p < 0.00005 {
		return "p < 0.0001"
	}
	return "p = " + strconv.FormatFloat(math.Round(p*1e4)/1e4, 'f', -1, 64)
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
