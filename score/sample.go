// Package score judges predictions against a dataset as the original API-Bank evaluator does: samples
// numbered as the original numbers them, calls extracted and parsed by package call, run against a
// world in fresh or replay state, verdicts in the original's categories and order of checks,
// ROUGE-L for replies, and reports per level, category and tool.
package score

import (
	"fmt"

	"github.com/apibank-playground/apibank/dataset"
)

// Kind of sample.
const (
	// KindCall is a sample whose gold is an API call (id 2k).
	KindCall = "call"
	// KindReply is a sample whose gold is the AI reply after an API call (id 2k+1).
	KindReply = "reply"
	// KindSkip is a sample whose gold is a User turn: the original builds it but never scores it.
	KindSkip = "skip"
	// KindSpecial is a special case's sample: the gold is an AI turn (ask for a missing value, say no
	// tool fits, ask which was meant) where a model might call a tool. A call is PREMATURE_CALL.
	KindSpecial = "special"
)

// Sample is one thing to predict: for the k-th API turn at position p of a dialogue, id 2k predicts the
// call at p from turns [0, p), and id 2k+1 predicts turn p+1 from turns [0, p].
type Sample struct {
	Dialogue *dataset.Dialogue
	// ID is the sample id as prediction files use it.
	ID int
	// Kind is KindCall, KindReply or KindSkip, from the gold turn's role.
	Kind string
	// Gold is the index of the gold turn in the dialogue.
	Gold int
	// History is the number of turns the model sees (turns [0, History)).
	History int
	// API is k, the index of the API turn (or gold call set) the sample belongs to.
	API int
	// Set lists, when the gold is a set of calls made in one turn (parallel API turns), the indexes of
	// its turns, Gold first; nil when the gold is one call.
	Set []int
}

// GoldTurn returns the sample's gold turn (the first call of a gold call set).
func (s Sample) GoldTurn() *dataset.Turn { return &s.Dialogue.Turns[s.Gold] }

// GoldTurns returns the sample's gold API turns: every call of its set, or its one gold turn.
func (s Sample) GoldTurns() []*dataset.Turn {
	if len(s.Set) == 0 {
		return []*dataset.Turn{s.GoldTurn()}
	}
	out := make([]*dataset.Turn, len(s.Set))
	for i, p := range s.Set {
		out[i] = &s.Dialogue.Turns[p]
	}
	return out
}

// setAt returns the gold call set that starts at turn index p of d (its indexes) when it has more
// than one call, else nil.
func setAt(d *dataset.Dialogue, p int) []int {
	if d.Turns[p].Role != dataset.API {
		return nil
	}
	end := p + 1
	for end < len(d.Turns) && d.Turns[end].Role == dataset.API && d.Turns[end].Parallel {
		end++
	}
	if end-p < 2 {
		return nil
	}
	set := make([]int, 0, end-p)
	for i := p; i < end; i++ {
		set = append(set, i)
	}
	return set
}

// Samples builds a dialogue's samples in the original's order and numbering. An API turn that ends
// the dialogue has no reply to predict: the original fails on it; here its reply sample is left out
// and an error reports it, while the call sample is kept.
func Samples(d *dataset.Dialogue) ([]Sample, error) {
	var out []Sample
	var err error
	// k counts gold call sets: one per API turn in the original's data, which has no parallel turns,
	// so its numbering is the original's. A set of parallel calls is one call sample (predicted whole
	// from the turns before its first call) and one reply sample after its last call.
	k := 0
	for _, set := range d.CallSets() {
		p, last := set[0], set[len(set)-1]
		sm := Sample{Dialogue: d, ID: 2 * k, Kind: KindCall, Gold: p, History: p, API: k}
		if len(set) > 1 {
			sm.Set = set
		}
		out = append(out, sm)
		if last+1 < len(d.Turns) {
			kind := KindReply
			switch d.Turns[last+1].Role {
			case dataset.API:
				kind = KindCall
			case dataset.User:
				kind = KindSkip
			}
			out = append(out, Sample{Dialogue: d, ID: 2*k + 1, Kind: kind, Gold: last + 1, History: last + 1, API: k, Set: setAt(d, last+1)})
		} else if err == nil {
			err = fmt.Errorf("%s: the API turn on line %d ends the dialogue, so it has no reply sample", d.File, d.Turns[last].Line)
		}
		k++
	}
	// A special case's extra sample: the AI turn that is the right answer instead of a call, numbered
	// after the original's samples so their ids stay as the original numbers them.
	if p := d.SpecialTurn(); p >= 0 {
		out = append(out, Sample{Dialogue: d, ID: 2 * k, Kind: KindSpecial, Gold: p, History: p, API: k})
	}
	return out, err
}
