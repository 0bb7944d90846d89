package synth

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
)

// JudgeMarker begins every judge request, so that a scripted server can tell a judge request from a
// candidate request.
const JudgeMarker = "Judge this candidate."

// judgeRubric is the judge's fixed rubric, for call styles.
const judgeRubric = `You check one synthesized function-calling example before it joins a training set. Say "yes" only if both hold:
1. the calls answer the user's request: the right tools, with the values the user gave;
2. the reply states what the calls' outputs say, and nothing they contradict.
Otherwise say "no". Answer with one JSON object and nothing else: {"verdict": "yes" or "no", "reason": "one sentence"}.`

// specialRubric is the judge's fixed rubric for special cases, where the right answer is a reply.
const specialRubric = `You check one synthesized example of a special case, where the assistant must answer instead of calling a tool. Say "yes" only if both hold:
1. the request really is the case named (%s);
2. the reply is the right answer to it: %s.
Otherwise say "no". Answer with one JSON object and nothing else: {"verdict": "yes" or "no", "reason": "one sentence"}.`

// specialAnswers says what the right reply of each special case does.
var specialAnswers = map[string]string{
	"missing_value": "it asks for the value the user left out",
	"no_tool":       "it says that none of the tools can do this",
	"ambiguous":     "it asks which of the possible meanings was meant",
	"wrong_value":   "it points out the value given in a wrong form and asks for a right one",
}

// Verdict is the judge's answer.
type Verdict struct {
	// OK is true for a "yes".
	OK bool `json:"ok"`
	// Reason is the judge's reason, or why its answer could not be read.
	Reason string `json:"reason"`
	// Raw is the judge's answer as it came (untrusted text).
	Raw string `json:"raw"`
}

// JudgeRequest is the judge request for a candidate that passed the engine's stages (its outputs
// filled in).
func JudgeRequest(cfg Config, c *protocol.SynthCandidate) model.Request {
	system := judgeRubric
	if cfg.Special() {
		system = fmt.Sprintf(specialRubric, cfg.Style, specialAnswers[cfg.Style])
	}
	var b strings.Builder
	b.WriteString(JudgeMarker)
	b.WriteString("\nRequest: ")
	b.WriteString(c.Request)
	if len(c.Steps) > 0 {
		b.WriteString("\nCalls, step by step, with what they answered:")
	}
	for i, step := range c.Steps {
		for j, call := range step {
			fmt.Fprintf(&b, "\n%d.%d %s(%s)", i+1, j+1, call.Name, compact(call.Arguments))
			if i < len(c.Outputs) && j < len(c.Outputs[i]) {
				o := c.Outputs[i][j]
				fmt.Fprintf(&b, " -> output %s, exception %s", o.Output, o.Exception)
			}
		}
	}
	b.WriteString("\nReply: ")
	b.WriteString(c.Reply)
	return model.Request{Messages: []model.Message{{Role: model.RoleSystem, Content: system}, {Role: model.RoleUser, Content: b.String()}}}
}

// compact is a JSON value's compact text (the raw text when it is not JSON).
func compact(raw json.RawMessage) string {
	var b strings.Builder
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	enc, _ := json.Marshal(v)
	b.Write(enc)
	return b.String()
}

// judge asks the model for its verdict; a failed request or an unreadable answer is a "no" that
// says so, since nothing is accepted without a verdict.
func judge(ctx context.Context, client *model.Client, cfg Config, c *protocol.SynthCandidate) Verdict {
	resp, err := client.Chat(ctx, JudgeRequest(cfg, c))
	if err != nil {
		return Verdict{Reason: "the judge request failed: " + err.Error()}
	}
	return ReadVerdict(resp.Content)
}

// ReadVerdict reads a judge's answer: the JSON object {"verdict", "reason"} in it.
func ReadVerdict(text string) Verdict {
	v := Verdict{Raw: text}
	start, end := strings.Index(text, "{"), strings.LastIndex(text, "}")
	var ans struct {
		Verdict string `json:"verdict"`
		Reason  string `json:"reason"`
	}
	if start < 0 || end < start || json.Unmarshal([]byte(text[start:end+1]), &ans) != nil {
		v.Reason = "the judge's answer is not a verdict in JSON"
		return v
	}
	switch strings.ToLower(strings.TrimSpace(ans.Verdict)) {
	case "yes":
		v.OK = true
	case "no":
	default:
		v.Reason = fmt.Sprintf("the judge's verdict %q is neither yes nor no", ans.Verdict)
		return v
	}
	v.Reason = ans.Reason
	if !v.OK && v.Reason == "" {
		v.Reason = "the judge said no without a reason"
	}
	return v
}
