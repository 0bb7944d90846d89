package engine

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
)

// TestSynthCheck runs candidates that pass and candidates that fail each stage in a known way, and
// checks the stage and reason the engine gives.
func TestSynthCheck(t *testing.T) {
	const calc = `{"request": "What is 12 plus 30?", "steps": [[{"name": "Calculator", "arguments": {"formula": "12+30"}}]], "reply": "12 plus 30 is 42."}`
	const chain = `{"request": "I'm PriyaSharma, password Monsoon@19. Set an alarm for 6:45 am on March 20.",
		"steps": [[{"name": "GetUserToken", "arguments": {"username": "PriyaSharma", "password": "Monsoon@19"}}],
		          [{"name": "AddAlarm", "arguments": {"token": "y82xqb5chiwl8xfia55t", "time": "2023-03-20 06:45:00"}}]],
		"reply": "Your alarm is set for 6:45 am on March 20."}`
	const par = `{"request": "What is 101 plus 8, and 102 plus 9?", "steps": [[{"name": "Calculator", "arguments": {"formula": "101+8"}}, {"name": "Calculator", "arguments": {"formula": "102+9"}}]], "reply": "109 and 111."}`
	const parMulti = `{"request": "What is today's date, and what is 101 plus 8?", "steps": [[{"name": "GetToday", "arguments": {}}, {"name": "Calculator", "arguments": {"formula": "101+8"}}]], "reply": "It is March 31, 2023; 101 plus 8 is 109."}`
	tests := []struct {
		name, style, candidate string
		tools, seen            []string
		stage, reason          string
	}{
		{name: "simple passes", style: protocol.StyleSimple, candidate: calc},
		{name: "in a code fence", style: protocol.StyleSimple, candidate: "Here it is:\n```json\n" + calc + "\n```"},
		{name: "a chain through a token", style: protocol.StyleMultiple, candidate: chain, tools: []string{"AddAlarm"}},
		{name: "not JSON", style: protocol.StyleSimple, candidate: `{"request": "What is 2 plus`, stage: protocol.StageFormat, reason: "is never closed"},
		{name: "unknown member", style: protocol.StyleSimple, candidate: `{"request": "x", "steps": [], "reply": "y", "mood": 1}`, stage: protocol.StageFormat, reason: `unknown field "mood"`},
		{name: "no reply", style: protocol.StyleSimple, candidate: `{"request": "x", "steps": []}`, stage: protocol.StageFormat, reason: `no "reply"`},
		{name: "unknown tool", style: protocol.StyleSimple, candidate: strings.Replace(calc, `"Calculator"`, `"CalculatorPro"`, 1), stage: protocol.StageFormat, reason: "no tool CalculatorPro in the apis catalog"},
		{name: "tool not chosen", style: protocol.StyleSimple, candidate: calc, tools: []string{"AddAlarm"}, stage: protocol.StageFormat, reason: "Calculator is not one of the chosen tools"},
		{name: "missing required", style: protocol.StyleSimple, candidate: strings.Replace(calc, `{"formula": "12+30"}`, `{}`, 1), stage: protocol.StageFormat, reason: `lacks the required parameter "formula"`},
		{name: "wrong type", style: protocol.StyleSimple, candidate: strings.Replace(calc, `"12+30"`, `42`, 1), stage: protocol.StageFormat, reason: `"formula" is declared str, and 42 is not`},
		{name: "unknown parameter", style: protocol.StyleSimple, candidate: strings.Replace(calc, `"formula"`, `"expr"`, 1), stage: protocol.StageFormat, reason: `has no parameter "expr"`},
		{name: "two calls at once in simple", style: protocol.StyleSimple, candidate: strings.Replace(calc, `}}]]`, `}}, {"name": "Calculator", "arguments": {"formula": "1+2"}}]]`, 1), stage: protocol.StageFormat, reason: "makes 2 calls at once"},
		{name: "parallel without a parallel step", style: protocol.StyleParallel, candidate: calc, stage: protocol.StageFormat, reason: "has none"},
		{name: "special case with calls", style: "missing_value", candidate: calc, stage: protocol.StageFormat, reason: "answers with a reply, not calls"},
		{name: "exception when run", style: protocol.StyleSimple, candidate: `{"request": "Log me in: user NoSuchUser, password abc123.", "steps": [[{"name": "GetUserToken", "arguments": {"username": "NoSuchUser", "password": "abc123"}}]], "reply": "Done."}`, stage: protocol.StageExecution, reason: "GetUserToken answered the exception"},
		{name: "ungrounded value", style: protocol.StyleSimple, candidate: strings.Replace(calc, `"12+30"`, `"12+99"`, 1), stage: protocol.StageGrounding, reason: `formula="12+99"`},
		{name: "declared derived", style: protocol.StyleSimple, candidate: strings.Replace(strings.Replace(calc, `"12+30"`, `"12+99"`, 1), `"reply"`, `"derived": [{"value": "12+99", "rule": "a test"}], "reply"`, 1)},
		{name: "duplicate of an accepted one", style: protocol.StyleSimple, candidate: strings.Replace(calc, "What is 12 plus 30?", "what  IS 12 plus   30?", 1), seen: []string{"request:what is 12 plus 30?"}, stage: protocol.StageDuplicate, reason: "request repeats a candidate accepted before"},
		{name: "duplicate of the builtin data", style: protocol.StyleSimple, candidate: `{"request": "HI, add something to my agenda please: dinner with Arjun's parents on April 9 at 7:30 pm at Karavalli restaurant. I'm PriyaSharma, password Monsoon@19.", "steps": [[{"name": "Calculator", "arguments": {"formula": "7+9"}}]], "reply": "ok"}`, stage: protocol.StageDuplicate, reason: "acct-agenda-add-28.jsonl"},
		{name: "parallel passes", style: protocol.StyleParallel, candidate: par},
		{name: "parallel-multiple passes", style: protocol.StyleParallelMultiple, candidate: parMulti},
		{name: "parallel mixing tools", style: protocol.StyleParallel, candidate: parMulti, stage: protocol.StageFormat, reason: "parallel calls are of one tool"},
		{name: "parallel-multiple of one tool", style: protocol.StyleParallelMultiple, candidate: par, stage: protocol.StageFormat, reason: "calls of several tools"},
		{name: "simple calling two tools", style: protocol.StyleSimple, candidate: chain, stage: protocol.StageFormat, reason: "a simple candidate calls one"},
		{name: "multiple calling one tool", style: protocol.StyleMultiple, candidate: calc, stage: protocol.StageFormat, reason: "a multiple candidate chooses among several"},
		{name: "wrong value passes", style: protocol.SpecialWrongValue, candidate: `{"request": "Set an alarm for February 30 at 7 am.", "steps": [], "reply": "February 30 is not a date: which day did you mean?"}`},
		{name: "plain text", style: protocol.StyleSimple, candidate: "I would call the Calculator.", stage: protocol.StageFormat, reason: "holds no JSON object"},
		{name: "special case passes", style: "no_tool", candidate: `{"request": "Can you bake me a cake?", "steps": [], "reply": "Sorry, none of my tools can bake."}`},
	}
	s := New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ask[protocol.SynthCheck](t, s, protocol.Request{Op: protocol.OpSynthCheck, Style: tt.style, Candidate: tt.candidate, Tools: tt.tools, Seen: tt.seen, Name: "t.jsonl"})
			if got.Stage != tt.stage || !strings.Contains(got.Reason, tt.reason) || got.OK != (tt.stage == "") {
				t.Fatalf("got ok=%v stage %q reason %q; want stage %q reason containing %q", got.OK, got.Stage, got.Reason, tt.stage, tt.reason)
			}
			if !got.OK {
				return
			}
			d, errs := dataset.ParseDialogue(dataset.Level1, got.File, []byte(got.Text))
			if len(errs) > 0 || got.File != "lv1-lv2-samples/level-1-given-desc/t.jsonl" {
				t.Fatalf("accepted dialogue %s does not load: %v", got.File, errs)
			}
			if d.Turns[0].Text == "" || len(got.Keys) == 0 {
				t.Fatalf("accepted dialogue without a request or keys: %+v", got)
			}
			// The dialogue is of the style asked for, as dataset stats counts it.
			for _, set := range d.CallSets() {
				if st := d.Style(set); len(set) > 1 && st != tt.style {
					t.Fatalf("a call set of style %s in a %s dialogue", st, tt.style)
				}
			}
			if d.Turns[0].Text == "" {
				t.Fatalf("accepted dialogue without a request or keys: %+v", got)
			}
			for i, step := range got.Candidate.Outputs {
				if len(step) != len(got.Candidate.Steps[i]) {
					t.Fatalf("step %d: %d outputs for %d calls", i+1, len(step), len(got.Candidate.Steps[i]))
				}
			}
		})
	}
}

func TestSynthCheckRefusals(t *testing.T) {
	s := New()
	for _, tt := range []struct{ name, req, contains string }{
		{"unknown style", `{"v":1,"op":"synth_check","style":"fancy","candidate":"{}"}`, `style "fancy"`},
		{"other catalog", `{"v":1,"op":"synth_check","style":"simple","catalog":"lv3_apis","candidate":"{}"}`, "level-1 dialogues"},
		{"bad name", `{"v":1,"op":"synth_check","style":"simple","name":"../x.jsonl","candidate":"{}"}`, "file name"},
		{"unknown chosen tool", `{"v":1,"op":"synth_check","style":"simple","tools":["Nope"],"candidate":"{}"}`, "no tool Nope"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, s, tt.req)
			if r.OK || r.Error == nil || r.Error.Code != protocol.CodeBadRequest || !strings.Contains(r.Error.Message, tt.contains) {
				t.Errorf("got ok=%v error=%+v; want bad_request containing %q", r.OK, r.Error, tt.contains)
			}
		})
	}
}
