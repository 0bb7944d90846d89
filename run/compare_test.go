package run

import (
	"math"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/stats"
)

// verdicts builds a run's result from level-1 call verdicts (id → correct), level-3 step verdicts
// and episodes (file → success).
func verdicts(calls map[int]bool, steps map[int]bool, episodes map[string]bool) *Result {
	r := trial(calls, episodes)
	for id, ok := range steps {
		r.Batch.Results = append(r.Batch.Results, protocol.Verdict{Level: Level3, File: "s.json", ID: id, Kind: protocol.KindCall, CallVerdict: &protocol.CallVerdict{Correct: ok}})
	}
	return r
}

func TestCompare(t *testing.T) {
	special := protocol.Verdict{Level: "level-1-given-desc", File: "x.jsonl", ID: 0, Kind: protocol.KindSpecial, CallVerdict: &protocol.CallVerdict{Correct: true}}
	reply := protocol.Verdict{Level: "level-1-given-desc", File: "f.jsonl", ID: 1, Kind: protocol.KindReply, ReplyVerdict: &protocol.ReplyVerdict{}}
	a := verdicts(map[int]bool{0: true, 2: true, 4: false, 6: false, 8: true}, map[int]bool{0: true, 1: false}, map[string]bool{"m.json": false, "n.json": true})
	a.Batch.Results = append(a.Batch.Results, special, reply)
	b := verdicts(map[int]bool{0: true, 2: false, 4: true, 6: true, 10: false}, map[int]bool{0: true, 1: true}, map[string]bool{"m.json": true})
	type want struct {
		level, unit, scope                  string
		paired, onlyA, onlyB                int
		bothRight, bothWrong, fixed, broken int
	}
	c := Compare([]*Result{a}, []*Result{b})
	if len(c.Levels) != 3 {
		t.Fatalf("%d rows, want 3 (level 1, level-3 samples, level-3 episodes): %+v", len(c.Levels), c.Levels)
	}
	tests := []struct {
		name string
		got  Compared
		want want
	}{
		{"level 1: specials and replies are not tasks; ids 8 and 10 only in one run", c.Levels[0],
			want{"level-1-given-desc", "sample", "level 1", 4, 1, 1, 1, 0, 2, 1}},
		{"level-3 step samples", c.Levels[1], want{Level3, "sample", "level 3", 2, 0, 0, 1, 0, 1, 0}},
		{"level-3 episodes apart", c.Levels[2], want{Level3, "episode", "level 3", 1, 1, 0, 0, 0, 1, 0}},
		{"overall pools every row", c.Overall, want{"", "task", "all levels", 7, 2, 1, 2, 0, 4, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, w := tt.got, tt.want
			got := want{g.Level, g.Unit, g.Scope, g.Paired, g.OnlyA, g.OnlyB, g.BothRight, g.BothWrong, g.Fixed, g.Broken}
			if got != w {
				t.Fatalf("got %+v\nwant %+v", got, w)
			}
			p := stats.Paired{BothRight: w.bothRight, BothWrong: w.bothWrong, Fixed: w.fixed, Broken: w.broken}
			if g.P != stats.McNemar(w.fixed, w.broken) || g.MinDetectable != p.MinDetectable() || g.Finding != p.Finding() || g.Sentence != p.Sentence(w.scope, w.unit) {
				t.Errorf("p %v, mdd %v, finding %q, sentence %q do not follow from the table", g.P, g.MinDetectable, g.Finding, g.Sentence)
			}
			if math.Abs(g.AccuracyB-g.AccuracyA-float64(w.fixed-w.broken)/float64(w.paired)) > 1e-12 {
				t.Errorf("accuracies %v and %v", g.AccuracyA, g.AccuracyB)
			}
			if g.FlipA != nil || g.FlipB != nil {
				t.Errorf("flip rates without trials: %+v %+v", g.FlipA, g.FlipB)
			}
		})
	}
}

// TestCompareTrials: a side given as several trials is compared by its first, and gets the flip
// rate between its trials, per row and overall.
func TestCompareTrials(t *testing.T) {
	a1 := verdicts(map[int]bool{0: true, 2: true, 4: false, 6: false}, nil, map[string]bool{"m.json": true})
	a2 := verdicts(map[int]bool{0: true, 2: false, 4: true, 6: false}, nil, map[string]bool{"m.json": true})
	a3 := verdicts(map[int]bool{0: true, 2: true}, nil, nil) // ids 4 and 6 and the episode unjudged: left out of the flip rate
	b := verdicts(map[int]bool{0: false, 2: false, 4: false, 6: false}, nil, map[string]bool{"m.json": false})
	c := Compare([]*Result{a1, nil, a2, a3}, []*Result{b})
	l1 := c.Levels[0]
	if l1.Fixed != 0 || l1.Broken != 2 || l1.BothWrong != 2 {
		t.Fatalf("level 1 compares A's first trial: %+v", l1)
	}
	// Level 1, tasks judged by all three trials: 0 (right 3 times) and 2 (right twice): flip
	// rates 0 and 2·1/3, so 1/3. Episodes: none judged by all three.
	if l1.FlipA == nil || l1.FlipA.Trials != 3 || l1.FlipA.Tasks != 2 || math.Abs(l1.FlipA.Rate-1.0/3) > 1e-12 {
		t.Errorf("level 1 flip rate of A: %+v", l1.FlipA)
	}
	if l1.FlipB != nil {
		t.Errorf("B has one trial, yet a flip rate %+v", l1.FlipB)
	}
	if ep := c.Levels[1]; ep.Unit != "episode" || ep.FlipA != nil || ep.Broken != 1 {
		t.Errorf("episodes: %+v (flip %+v)", ep, ep.FlipA)
	}
	if o := c.Overall.FlipA; o == nil || o.Tasks != 2 || math.Abs(o.Rate-1.0/3) > 1e-12 {
		t.Errorf("overall flip rate of A: %+v", o)
	}
	// Two trials alone: the flip rate is the share of tasks they judge differently, which is
	// also the discordance of comparing one with the other.
	c = Compare([]*Result{a1, a2}, []*Result{a2})
	if d, f := c.Levels[0].Discordance, c.Levels[0].FlipA.Rate; math.Abs(d-0.5) > 1e-12 || math.Abs(f-d) > 1e-12 {
		t.Errorf("two trials: discordance %v, flip rate %v, want 0.5 and 0.5", d, f)
	}
}

func TestCompareNothingShared(t *testing.T) {
	c := Compare([]*Result{verdicts(map[int]bool{0: true}, nil, nil)}, []*Result{verdicts(map[int]bool{2: true}, nil, nil)})
	if o := c.Overall; o.Paired != 0 || o.OnlyA != 1 || o.OnlyB != 1 || o.Finding != stats.Unpaired || o.P != 1 {
		t.Errorf("%+v", o)
	}
	if c := Compare(nil, nil); len(c.Levels) != 0 || c.Overall.Finding != stats.Unpaired {
		t.Errorf("no runs: %+v", c)
	}
}

func TestLevelWords(t *testing.T) {
	for in, want := range map[string]string{"level-1-given-desc": "level 1", "level-2-toolsearcher": "level 2", "level-3": "level 3", "mine": "mine", "level-": "level-"} {
		if got := levelWords(in); got != want {
			t.Errorf("levelWords(%q) = %q, want %q", in, got, want)
		}
	}
}
