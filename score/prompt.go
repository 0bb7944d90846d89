package score

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// Prompt is what a model gets for a sample, in both forms (the protocol's type).
type Prompt = protocol.Prompt

// offered returns the tools a sample's prompt describes: at level 1 every tool the dialogue uses; at
// levels 2 and 3 ToolSearcher (the model must find the others), and at a step of one of our level-3
// scenes also the tools its history already knows (knownTools: used, or found by a search), as the
// agent playing the scene would. The original's data keeps its prompts.
func offered(sm Sample) []*tools.Tool {
	cat := sm.Dialogue.ToolCatalog()
	if sm.Dialogue.Level != dataset.Level1 {
		t, _ := cat.Lookup("ToolSearcher")
		out := []*tools.Tool{t}
		if sceneStep(sm) {
			for _, n := range knownTools(sm) {
				if k, ok := cat.Lookup(n); ok {
					out = append(out, k)
				}
			}
		}
		return out
	}
	names := map[string]bool{}
	for _, t := range sm.Dialogue.Turns {
		if t.Role == dataset.API {
			names[t.Tool] = true
		}
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	var out []*tools.Tool
	for _, n := range list {
		if t, ok := cat.Lookup(n); ok {
			out = append(out, t)
		}
	}
	return out
}

// BuildPrompt returns the prompt of a sample.
func BuildPrompt(sm Sample) Prompt {
	ts := offered(sm)
	// Call samples and special cases get the same words, so the prompt never tells which one it is.
	// On our data (which has special cases) the model is told that replying is a right answer when a
	// call cannot be made yet; the original's call prompts ask for a call only.
	expectCall := sm.Kind == KindCall || sm.Kind == KindSpecial
	mayReply := expectCall && sm.Dialogue.Repaired
	p := Prompt{Expect: KindReply}
	gt := sm.GoldTurn()
	switch {
	case sm.Kind == KindCall:
		p.Expect = KindCall
		p.Gold = GoldSetPrediction(sm)
		p.GoldNative = GoldSetNative(sm)
	case sm.Kind == KindSpecial:
		p.Expect = KindSpecial
		p.Gold = gt.Text
	default:
		p.Gold = gt.Text
	}

	var b strings.Builder
	b.WriteString("You are an AI assistant that can use tools to help a user. Read the conversation and the tool descriptions below.\n")
	// Our data's dates are written from the world's today (a date without a year, "tomorrow"): the
	// prompt states it, so every such date is knowable. The original's prompts say nothing of it.
	today := ""
	if sm.Dialogue.Repaired {
		date := sm.Dialogue.StatedToday()
		today = "Today is " + tools.InWords(date) + " (" + date + ")."
		b.WriteString(today + "\n")
	}
	if expectCall {
		call := "the single tool call"
		if mayReply {
			// Our data has gold call sets: the model may answer with several calls.
			call = "the tool call"
		}
		b.WriteString("Answer with " + call + " the AI makes next, on one line, as [ToolName(key='value', other_key='value')]: the tool's exact name, every argument as key='value'. Write nothing before or after it.\n")
		if mayReply {
			b.WriteString("If the AI makes several independent calls at once, write them in one list: [ToolA(key='value'), ToolB(key='value')].\n")
			b.WriteString("If no call should be made yet (a needed value is missing or malformed, no tool can do it, or the request is ambiguous), answer instead with the AI's message to the user.\n")
		}
	} else {
		b.WriteString("Answer with the AI's next message to the user, in plain words. Do not call a tool.\n")
	}
	b.WriteString("\nTools:\n")
	for _, t := range ts {
		b.Write(value.Marshal(t.Entry()))
		b.WriteByte('\n')
	}
	b.WriteString("\nConversation:\n")
	for _, t := range sm.Dialogue.Turns[:sm.History] {
		switch t.Role {
		case dataset.API:
			out, _ := t.Result.Get("output")
			exc, _ := t.Result.Get("exception")
			b.WriteString("API: " + goldText(sm.Dialogue, &t) + " Response: ")
			if exc != nil {
				b.WriteString("error: " + value.Str(exc))
			} else {
				b.WriteString(value.Str(out))
			}
		default:
			b.WriteString(t.Role + ": " + t.Text)
		}
		b.WriteByte('\n')
	}
	if expectCall && !mayReply {
		b.WriteString("\nThe AI's next tool call:\n")
	} else if expectCall {
		b.WriteString("\nThe AI's next step:\n")
	} else {
		b.WriteString("\nThe AI's next message:\n")
	}
	p.Text = b.String()

	system := "You are an AI assistant that can use tools to help a user. "
	if expectCall {
		if mayReply {
			system += "Call the tool the conversation needs next."
		} else {
			system += "Call the one tool the conversation needs next."
		}
		if mayReply {
			system += " Several independent calls needed at once may be made together in one message."
			system += " If no call should be made yet (a needed value is missing or malformed, no tool can do it, or the request is ambiguous), reply to the user instead."
		}
	} else {
		system += "Reply to the user in plain words; do not call a tool."
	}
	if today != "" {
		system += " " + today
	}
	msgs := []any{value.MapOf("role", "system", "content", system)}
	calls := 0
	// The tool answers of the last assistant message of calls wait until its set is complete: the
	// calls of a set (parallel API turns) are one message with several tool_calls, then their answers.
	var pending []any
	flush := func() {
		msgs = append(msgs, pending...)
		pending = nil
	}
	for _, t := range sm.Dialogue.Turns[:sm.History] {
		switch t.Role {
		case dataset.User:
			flush()
			msgs = append(msgs, value.MapOf("role", "user", "content", t.Text))
		case dataset.AI:
			flush()
			msgs = append(msgs, value.MapOf("role", "assistant", "content", t.Text))
		case dataset.API:
			calls++
			id := "call_" + strconv.Itoa(calls)
			fn := value.MapOf("name", t.Tool, "arguments", string(value.Marshal(t.Params)))
			tc := value.MapOf("id", id, "type", "function", "function", fn)
			content := value.MapOf()
			out, _ := t.Result.Get("output")
			exc, _ := t.Result.Get("exception")
			content.Set("output", out)
			content.Set("exception", exc)
			answer := value.MapOf("role", "tool", "tool_call_id", id, "content", string(value.Marshal(content)))
			if last, ok := msgs[len(msgs)-1].(*value.Map); ok && t.Parallel && len(pending) > 0 {
				tcs, _ := last.Get("tool_calls")
				list, _ := tcs.([]any)
				last.Set("tool_calls", append(list, tc))
				pending = append(pending, answer)
				continue
			}
			flush()
			msgs = append(msgs, value.MapOf("role", "assistant", "content", nil, "tool_calls", []any{tc}))
			pending = []any{answer}
		}
	}
	flush()
	p.Messages = value.Marshal(msgs)
	p.Tools = Schemas(ts)
	return p
}

// Schemas returns the function-calling schemas of tools as a JSON array (null for none).
func Schemas(ts []*tools.Tool) json.RawMessage {
	if len(ts) == 0 {
		return json.RawMessage("null")
	}
	schemas := make([]any, len(ts))
	for i, t := range ts {
		schemas[i] = Schema(t)
	}
	return value.Marshal(schemas)
}

// Schema returns a tool's function-calling schema {"type":"function","function":{name, description,
// parameters}} with JSON Schema types for the declared ones.
func Schema(t *tools.Tool) *value.Map {
	props := value.NewMap(len(t.Params))
	var required []any
	for _, p := range t.Params {
		prop := value.NewMap(3)
		switch p.Type {
		case "int":
			prop.Set("type", "integer")
		case "float":
			prop.Set("type", "number")
		case "bool":
			prop.Set("type", "boolean")
		case "list":
			prop.Set("type", "array")
		case "list(str)":
			prop.Set("type", "array")
			prop.Set("items", value.MapOf("type", "string"))
		default:
			prop.Set("type", "string")
		}
		prop.Set("description", p.Description)
		props.Set(p.Name, prop)
		if p.Required {
			required = append(required, p.Name)
		}
	}
	params := value.MapOf("type", "object", "properties", props)
	if required == nil {
		required = []any{}
	}
	params.Set("required", required)
	return value.MapOf("type", "function", "function", value.MapOf("name", t.Name, "description", t.Description, "parameters", params))
}
