package synth

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
)

// CandidateMarker begins every candidate request ("Candidate 3 of 50."), so that a scripted
// server (testkit/fakemodel's generator) can tell which candidate it is asked for.
const CandidateMarker = "Candidate %d of %d."

// styleRules says what each style's candidates look like, in the prompt's words.
var styleRules = map[string]string{
	protocol.StyleSimple:           "Style simple: the user asks for one thing; each step is exactly one call (a tool that takes a token needs a GetUserToken step first).",
	protocol.StyleMultiple:         "Style multiple: several tools are offered and the user's need picks one of them; each step is exactly one call (a tool that takes a token needs a GetUserToken step first).",
	protocol.StyleParallel:         "Style parallel: the user asks for several things of the same tool at once; one step holds several calls of that one tool, made together.",
	protocol.StyleParallelMultiple: "Style parallel-multiple: the user asks for several different things at once; one step holds calls of different tools, made together.",
	"missing_value":                "Special case missing_value: the user asks for something a tool does but leaves out a value it requires; \"steps\" is [] and the reply asks for exactly what is missing.",
	"no_tool":                      "Special case no_tool: the user asks for something none of the tools can do; \"steps\" is [] and the reply says so plainly.",
	"ambiguous":                    "Special case ambiguous: the request could mean two different calls; \"steps\" is [] and the reply asks which one was meant.",
	"wrong_value":                  "Special case wrong_value: the user gives a value in a form the tool cannot take (a date that is not a date, a malformed email); \"steps\" is [] and the reply points out the wrong value and asks for a right one.",
}

// Prompt is our generation prompt: a system message (the task, the rules, the tools, the seed
// examples) and the per-candidate request built by Request.
type Prompt struct {
	// System is the system message, the same for every candidate of a run.
	System string `json:"system"`
	// Seeds are the dialogues the examples were drawn from (level/file).
	Seeds []string `json:"seeds"`
	// Tools are the tools offered (all of the catalog when none were chosen).
	Tools []string `json:"tools"`
}

// Request is the chat request for the i-th of n candidates; taken are requests accepted earlier,
// which the model is told not to repeat.
func (p Prompt) Request(i, n int, taken []string) model.Request {
	var b strings.Builder
	fmt.Fprintf(&b, CandidateMarker, i, n)
	b.WriteString(" Write one new candidate as a single JSON object, and nothing else.")
	if len(taken) > 0 {
		b.WriteString(" These requests are taken; write a different one:")
		for _, t := range taken {
			b.WriteString("\n- ")
			b.WriteString(t)
		}
	}
	return model.Request{Messages: []model.Message{{Role: model.RoleSystem, Content: p.System}, {Role: model.RoleUser, Content: b.String()}}}
}

// Text is the prompt as shown to the user: the system message and the first candidate's request.
func (p Prompt) Text(n int) string {
	r := p.Request(1, n, nil)
	return "[system]\n" + r.Messages[0].Content + "\n\n[user]\n" + r.Messages[1].Content
}

// BuildPrompt writes the generation prompt for cfg: the tools' schemas from the engine's catalog,
// and seed examples drawn from the loaded data's level-1 dialogues.
func BuildPrompt(ctx context.Context, do protocol.Transport, cfg Config) (Prompt, error) {
	cat, err := protocol.Call[protocol.Catalog](ctx, do, protocol.Request{Op: protocol.OpCatalog, Form: protocol.FormNative})
	if err != nil {
		return Prompt{}, err
	}
	schemas, err := cat.ToolSchemas()
	if err != nil {
		return Prompt{}, err
	}
	offered := offeredTools(cfg.Tools)
	var p Prompt
	var tools strings.Builder
	for _, s := range schemas {
		if offered != nil && !offered[s.Function.Name] {
			continue
		}
		p.Tools = append(p.Tools, s.Function.Name)
		tools.Write(s.Raw)
		tools.WriteByte('\n')
	}
	for _, t := range cfg.Tools {
		if !slices.Contains(p.Tools, t) {
			return Prompt{}, fmt.Errorf("no tool %s in the %s catalog", t, cat.Catalog)
		}
	}
	seeds, names, err := seedExamples(ctx, do, cfg, offered)
	if err != nil {
		return Prompt{}, err
	}
	p.Seeds = names

	var b strings.Builder
	b.WriteString("You write training data for function calling: realistic dialogues of a user and an assistant that uses the tools below. ")
	b.WriteString("The tools really run, against a small world of users, accounts, meetings, alarms and the like, so use names, accounts and values like those of the examples. ")
	b.WriteString("Answer with ONE candidate as a single JSON object and nothing else:\n")
	b.WriteString(`{"request": "the user's words", "steps": [[{"name": "ToolName", "arguments": {"param": "value"}}]], "reply": "the assistant's answer after the calls", "derived": [{"value": "a value not said literally", "rule": "how it follows"}]}`)
	b.WriteString("\nRules:\n")
	b.WriteString("- \"steps\" are the assistant's turns in order; each step is the list of calls it makes at once.\n")
	b.WriteString("- Use only the tools below, with their parameter names and types; give every required parameter.\n")
	b.WriteString("- Every argument value must appear in the request or in the output of an earlier call (a token comes from GetUserToken's output). A value the user did not say literally (a date from \"tomorrow\") goes in \"derived\" with its rule; leave \"derived\" out otherwise.\n")
	b.WriteString("- The reply states what the calls' outputs say, and nothing else.\n")
	b.WriteString("- " + styleRules[cfg.Style] + "\n")
	b.WriteString("\nTools (OpenAI function schemas, one a line):\n")
	b.WriteString(tools.String())
	if len(seeds) > 0 {
		b.WriteString("\nExamples from the benchmark (outputs are not part of a candidate: the tools produce them when it runs):\n")
		for _, s := range seeds {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	p.System = b.String()
	return p, nil
}

// offeredTools is the set of tools a prompt offers: the chosen ones and GetUserToken when one of
// them takes a token (the engine allows the same); nil means all.
func offeredTools(chosen []string) map[string]bool {
	if len(chosen) == 0 {
		return nil
	}
	set := map[string]bool{"GetUserToken": true}
	for _, t := range chosen {
		set[t] = true
	}
	return set
}

// seedExamples draws up to cfg.Seeds examples from the loaded data's level-1 dialogues, spread over
// the list: for a call style, ordinary dialogues whose tools are all offered; for a special case,
// dialogues of that kind. Each is written as a candidate.
func seedExamples(ctx context.Context, do protocol.Transport, cfg Config, offered map[string]bool) ([]string, []string, error) {
	n := cfg.Seeds
	if n == 0 {
		n = DefaultSeeds
	}
	if n < 0 {
		return nil, nil, nil
	}
	list, err := protocol.Call[[]protocol.DialogueSummary](ctx, do, protocol.Request{Op: protocol.OpDialogues, Level: "level-1-given-desc"})
	if err != nil {
		return nil, nil, err
	}
	var fit []protocol.DialogueSummary
	for _, d := range list {
		switch {
		case cfg.Special():
			if d.Special == cfg.Style {
				fit = append(fit, d)
			}
		case d.Special == "" && d.Calls > 0 && allOffered(d.Tools, offered):
			fit = append(fit, d)
		}
	}
	var seeds, names []string
	for k := 0; k < n && k < len(fit); k++ {
		d := fit[k*len(fit)/min(n, len(fit))]
		dl, err := protocol.Call[protocol.Dialogue](ctx, do, protocol.Request{Op: protocol.OpDialogue, Level: d.Level, File: d.File})
		if err != nil {
			return nil, nil, err
		}
		if ex, ok := asCandidate(dl); ok {
			seeds = append(seeds, ex)
			names = append(names, d.Level+"/"+d.File)
		}
	}
	return seeds, names, nil
}

func allOffered(tools []string, offered map[string]bool) bool {
	for _, t := range tools {
		if offered != nil && !offered[t] {
			return false
		}
	}
	return true
}

// asCandidate writes the start of a dialogue as a candidate: the first request, the calls up to the
// next user turn (one a step), and the last assistant text before it; for a special case, the
// assistant turn that answers instead of a call.
func asCandidate(dl protocol.Dialogue) (string, bool) {
	c := protocol.SynthCandidate{Steps: [][]protocol.SynthCall{}}
	for _, t := range dl.Turns {
		switch t.Role {
		case "User":
			if c.Request != "" {
				goto done
			}
			c.Request = t.Text
		case "API":
			call := protocol.SynthCall{Name: t.APIName, Arguments: t.Params}
			if t.Parallel && len(c.Steps) > 0 {
				c.Steps[len(c.Steps)-1] = append(c.Steps[len(c.Steps)-1], call) // made at once with the call before
			} else {
				c.Steps = append(c.Steps, []protocol.SynthCall{call})
			}
		case "AI":
			c.Reply = t.Text
			if dl.Meta != nil && dl.Meta.Special != "" && t.Line == dl.Meta.Line {
				c.Steps = [][]protocol.SynthCall{}
				goto done
			}
		}
	}
done:
	if dl.Meta != nil {
		c.Derived = dl.Meta.Derived
	}
	if c.Request == "" || c.Reply == "" {
		return "", false
	}
	b, err := json.Marshal(c)
	return string(b), err == nil
}
