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
	// API is k, the index of the API turn the sample belongs to.
	API int
}

// GoldTurn returns the sample's gold turn.
func (s Sample) GoldTurn() *dataset.Turn { return &s.Dialogue.Turns[s.Gold] }

// Samples builds a dialogue's samples in the original's order and numbering. An API turn that ends
// the dialogue has no reply to predict: the original fails on it; here its reply sample is left out
// and an error reports it, while the call sample is kept.
func Samples(d *dataset.Dialogue) ([]Sample, error) {
	var out []Sample
	var err error
	k := 0
	for p, t := range d.Turns {
		if t.Role != dataset.API {
			continue
		}
		out = append(out, Sample{Dialogue: d, ID: 2 * k, Kind: KindCall, Gold: p, History: p, API: k})
		if p+1 < len(d.Turns) {
			kind := KindReply
			switch d.Turns[p+1].Role {
			case dataset.API:
				kind = KindCall
			case dataset.User:
				kind = KindSkip
			}
			out = append(out, Sample{Dialogue: d, ID: 2*k + 1, Kind: kind, Gold: p + 1, History: p + 1, API: k})
		} else if err == nil {
			err = fmt.Errorf("%s: the API turn on line %d ends the dialogue, so it has no reply sample", d.File, t.Line)
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
