// Package synth generates new, verified function-calling dialogues with a connected model, the
// other half of APIGen: our prompt (with seed examples from the loaded data) asks the model for one
// candidate at a time as JSON; the engine's synth_check op runs it through the format, execution,
// grounding and duplicate stages; a judge request to the same model with a fixed rubric gives the
// last verdict; accepted candidates become a dataset in our format. The CLI (`apibank synth`) and
// the Synthesize page share this package, so both ask the same prompts and keep the same funnel.
//
// It speaks to the engine only through protocol.Call, and to the model only through model.Client,
// so it builds for the browser tab (GOOS=js) without linking the engine.
package synth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
)

// Limits of a synthesis run.
const (
	// MaxCount bounds the candidates of one run: each costs two model requests.
	MaxCount = 1000
	// DefaultSeeds is how many seed examples the prompt carries when Config.Seeds is 0.
	DefaultSeeds = 2
	// MaxSeeds bounds the seed examples (the prompt grows with each).
	MaxSeeds = 8
)

// Config says what to synthesize.
type Config struct {
	// Style is a call style (protocol.Styles) or a special-case kind (protocol.Specials).
	Style string `json:"style"`
	// Count is how many candidates to ask the model for.
	Count int `json:"count"`
	// Tools are the tools candidates may call (and GetUserToken for those taking a token); empty
	// means any tool of the catalog.
	Tools []string `json:"tools,omitempty"`
	// Seeds is how many examples from the loaded data the prompt shows (0: DefaultSeeds; negative:
	// none).
	Seeds int `json:"seeds,omitempty"`
}

// Validate says what in the config cannot work.
func (c Config) Validate() error {
	switch {
	case !slices.Contains(protocol.Styles, c.Style) && !slices.Contains(protocol.Specials, c.Style):
		return fmt.Errorf("style %q is not one of %s or a special case (%s)", c.Style, strings.Join(protocol.Styles, ", "), strings.Join(protocol.Specials, ", "))
	case c.Count < 1 || c.Count > MaxCount:
		return fmt.Errorf("count must be 1 to %d, not %d", MaxCount, c.Count)
	case c.Seeds > MaxSeeds:
		return fmt.Errorf("seeds must be at most %d, not %d", MaxSeeds, c.Seeds)
	}
	return nil
}

// Special says whether the style is a special-case kind (a reply instead of calls).
func (c Config) Special() bool { return slices.Contains(protocol.Specials, c.Style) }

// Candidate is one candidate's story: what the model wrote, what the engine and the judge said.
type Candidate struct {
	// Index is the candidate's number in the run, from 1.
	Index int `json:"index"`
	// Raw is the model's answer as it came (untrusted text, shown as text).
	Raw string `json:"raw"`
	// Error is why the model request failed ("" when it answered).
	Error string `json:"error,omitempty"`
	// Check is the engine's verdict on the candidate.
	Check protocol.SynthCheck `json:"check"`
	// Judge is the judge's verdict, when the candidate reached it.
	Judge *Verdict `json:"judge,omitempty"`
	// Stage is the stage the candidate failed ("" when accepted or when the request failed), and
	// Reason why.
	Stage  string `json:"stage,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Accepted is true when it passed every stage.
	Accepted bool `json:"accepted"`
}

// Request is the candidate's request as read, "" when it was not readable.
func (c Candidate) Request() string {
	if c.Check.Candidate == nil {
		return ""
	}
	return c.Check.Candidate.Request
}

// Progress is how far a run is.
type Progress struct {
	Done, Total, Accepted int
}

// Options are a run's hooks.
type Options struct {
	// Progress, when set, is called after each candidate.
	Progress func(Progress)
	// Candidate, when set, is called with each candidate once decided.
	Candidate func(Candidate)
}

// Outcome is a finished (or cancelled) run.
type Outcome struct {
	Config Config `json:"config"`
	// Prompt is what the model was asked (shown to the user).
	Prompt Prompt `json:"prompt"`
	// Candidates are every candidate, in order.
	Candidates []Candidate `json:"candidates"`
	// Funnel counts what passed each stage.
	Funnel Funnel `json:"funnel"`
	// Cancelled says the run stopped before its count.
	Cancelled bool `json:"cancelled,omitempty"`
}

// Accepted returns the accepted candidates, in order.
func (o *Outcome) Accepted() []Candidate {
	var out []Candidate
	for _, c := range o.Candidates {
		if c.Accepted {
			out = append(out, c)
		}
	}
	return out
}

// maxAvoid bounds the earlier requests a candidate prompt lists as taken.
const maxAvoid = 12

// Run asks the model for cfg.Count candidates one after another, checks each in the engine (do),
// judges those that pass, and returns every candidate with the funnel. A failed model request
// is kept as such and the run goes on; a cancelled ctx ends the run with what was decided.
func Run(ctx context.Context, do protocol.Transport, client *model.Client, cfg Config, opt Options) (*Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if client == nil {
		return nil, errors.New("no model client")
	}
	prompt, err := BuildPrompt(ctx, do, cfg)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Config: cfg, Prompt: prompt, Candidates: []Candidate{}}
	var seen, taken []string
	accepted := 0
	for i := 1; i <= cfg.Count; i++ {
		if ctx.Err() != nil {
			out.Cancelled = true
			break
		}
		c := Candidate{Index: i}
		resp, err := client.Chat(ctx, prompt.Request(i, cfg.Count, taken))
		switch {
		case err != nil && ctx.Err() != nil:
			out.Cancelled = true
		case err != nil:
			c.Error = err.Error()
		default:
			c.Raw = resp.Content
			c.Check, err = protocol.Call[protocol.SynthCheck](ctx, do, protocol.Request{Op: protocol.OpSynthCheck, Style: cfg.Style, Tools: cfg.Tools,
				Candidate: resp.Content, Seen: seen, Name: FileName(cfg.Style, i)})
			if err != nil {
				return nil, fmt.Errorf("candidate %d: %w", i, err)
			}
			c.Stage, c.Reason = c.Check.Stage, c.Check.Reason
			if c.Check.OK {
				v := judge(ctx, client, cfg, c.Check.Candidate)
				if ctx.Err() != nil {
					out.Cancelled = true
					break
				}
				c.Judge = &v
				if v.OK {
					c.Accepted = true
					seen = append(seen, c.Check.Keys...)
				} else {
					c.Stage, c.Reason = protocol.StageJudge, v.Reason
				}
			}
		}
		if out.Cancelled {
			break
		}
		if c.Accepted {
			accepted++
			taken = append(taken, c.Request())
			if len(taken) > maxAvoid {
				taken = taken[1:]
			}
		}
		out.Candidates = append(out.Candidates, c)
		if opt.Candidate != nil {
			opt.Candidate(c)
		}
		if opt.Progress != nil {
			opt.Progress(Progress{Done: i, Total: cfg.Count, Accepted: accepted})
		}
	}
	out.Funnel = Tally(cfg.Count, out.Candidates)
	return out, nil
}

// FileName is the dialogue file of a run's i-th candidate: synth-STYLE-NNN.jsonl.
func FileName(style string, i int) string {
	return fmt.Sprintf("synth-%s-%03d.jsonl", strings.ReplaceAll(style, "_", "-"), i)
}
