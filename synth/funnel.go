package synth

import (
	"fmt"
	"io"
	"strings"

	"github.com/apibank-playground/apibank/protocol"
)

// Funnel is what APIGen reports of a generation run: how many candidates entered and passed each
// stage, and why each rejected one failed.
type Funnel struct {
	// Requested is how many candidates were asked for; Answered how many the model answered.
	Requested int `json:"requested"`
	Answered  int `json:"answered"`
	// RequestsFailed counts the candidate requests that got no answer (they enter no stage).
	RequestsFailed int `json:"requests_failed"`
	// Stages are the stages in order (protocol.Stages).
	Stages []StageTally `json:"stages"`
	// Accepted is how many passed every stage.
	Accepted int `json:"accepted"`
	// Rejections are the rejected candidates, in order.
	Rejections []Rejection `json:"rejections"`
}

// StageTally counts one stage.
type StageTally struct {
	Stage   string `json:"stage"`
	Entered int    `json:"entered"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
}

// Rejection is one rejected candidate: its number, the stage it failed and why.
type Rejection struct {
	Index  int    `json:"index"`
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
}

// Tally counts the candidates' stages.
func Tally(requested int, cands []Candidate) Funnel {
	f := Funnel{Requested: requested, Stages: make([]StageTally, len(protocol.Stages)), Rejections: []Rejection{}}
	at := map[string]int{}
	for i, s := range protocol.Stages {
		f.Stages[i].Stage = s
		at[s] = i
	}
	for _, c := range cands {
		if c.Error != "" {
			f.RequestsFailed++
			f.Rejections = append(f.Rejections, Rejection{Index: c.Index, Stage: "request", Reason: c.Error})
			continue
		}
		f.Answered++
		last := len(protocol.Stages)
		if !c.Accepted {
			last = at[c.Stage]
			f.Stages[last].Entered++
			f.Stages[last].Failed++
			f.Rejections = append(f.Rejections, Rejection{Index: c.Index, Stage: c.Stage, Reason: c.Reason})
		} else {
			f.Accepted++
		}
		for i := 0; i < last; i++ {
			f.Stages[i].Entered++
			f.Stages[i].Passed++
		}
	}
	return f
}

// Write prints the funnel as text: a line per stage, then every rejection.
func (f Funnel) Write(w io.Writer) {
	fmt.Fprintf(w, "candidates asked %d, answered %d, requests failed %d\n", f.Requested, f.Answered, f.RequestsFailed)
	for _, s := range f.Stages {
		fmt.Fprintf(w, "%-10s entered %3d  passed %3d  failed %3d\n", s.Stage, s.Entered, s.Passed, s.Failed)
	}
	fmt.Fprintf(w, "accepted %d of %d\n", f.Accepted, f.Requested)
	for _, r := range f.Rejections {
		fmt.Fprintf(w, "candidate %d: %s: %s\n", r.Index, r.Stage, oneLine(r.Reason))
	}
}

// oneLine keeps a reason on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
