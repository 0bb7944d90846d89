// Package call finds and parses the tool call in a model's output, in the two forms the playground
// accepts: the original text format `[ApiName(key='value', ...)]`, extracted and parsed exactly as the
// original's two regular expressions do (quirks included: they decide verdicts), and native tool
// calls, JSON `{"name": ..., "arguments": {...}}` as function-calling models emit them.
package call

import (
	"errors"
	"regexp"
	"strings"

	"apibank/value"
)

// Form says how a call was written.
type Form string

const (
	// Text is the original format, [ApiName(key='value', ...)].
	Text Form = "text"
	// Native is a function-calling JSON object {"name", "arguments"}.
	Native Form = "native"
)

// Call is a parsed tool call.
type Call struct {
	// Name is the tool name as written.
	Name string
	// Args maps parameter names to values in order of first appearance. Text calls give only
	// strings (lists stay the text that was written); native calls give typed JSON values.
	Args *value.Map
	// Form is the form the call was written in.
	Form Form
	// Raw is the text the call was extracted from: the matched [..] span for text calls, the JSON
	// for native calls.
	Raw string
}

// Python's \w (str patterns) is Unicode: letters and numbers of any script plus '_'; \s is Python's
// whitespace. Go's \w and \s are ASCII-only, so the classes are spelled out.
const (
	word  = `[\p{L}\p{N}_]`
	space = `[\t\n\x0b\x0c\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`
)

var (
	// callPattern is the original's \[(\w+)\((.*)\)\]: '.' stops at a newline, the run is greedy.
	callPattern = regexp.MustCompile(`\[(` + word + `+)\((.*)\)\]`)
	// paramPattern is the original's three alternatives, tried in this order at each position:
	// name='value' (shortest, either quote), name=[...] (greedy), name=word.
	paramPattern = regexp.MustCompile(
		`(` + word + `+)` + space + `*=` + space + `*['"](.+?)['"]` +
			`|(` + word + `+)` + space + `*=` + space + `*(\[.*\])` +
			`|(` + word + `+)` + space + `*=` + space + `*(` + word + `+)`)
)

// Extract returns the leftmost text call in output, exactly as the original's get_api_call: from '['
// to the last ")]" on that line that completes a match. ok is false when there is none.
func Extract(output string) (string, bool) {
	loc := callPattern.FindStringIndex(output)
	if loc == nil {
		return "", false
	}
	return output[loc[0]:loc[1]], true
}

// ErrNoCall is returned by Parse when the text holds no call.
var ErrNoCall = errors.New("no API call found")

// Parse parses a text call as the original's parse_api_call: the name, then the parameter text
// scanned for name='value', name=[...] and name=word, later duplicates overwriting earlier values
// but keeping their first position.
func Parse(text string) (*Call, error) {
	m := callPattern.FindStringSubmatchIndex(text)
	if m == nil {
		return nil, ErrNoCall
	}
	c := &Call{Name: text[m[2]:m[3]], Args: value.NewMap(4), Form: Text, Raw: text[m[0]:m[1]]}
	params := text[m[4]:m[5]]
	for _, p := range paramPattern.FindAllStringSubmatch(params, -1) {
		switch {
		case p[1] != "":
			c.Args.Set(p[1], p[2])
		case p[3] != "":
			c.Args.Set(p[3], p[4])
		default:
			c.Args.Set(p[5], p[6])
		}
	}
	return c, nil
}

// Find returns the call in a model's output: a native call when the output is a function-calling
// JSON object (possibly inside a ```json fence, or an OpenAI tool_calls message), else the text call
// found by Extract. ok is false when there is neither (the NO_API_CALL verdict).
func Find(output string) (*Call, bool) {
	if c, ok := parseNative(output); ok {
		return c, true
	}
	raw, ok := Extract(output)
	if !ok {
		return nil, false
	}
	c, err := Parse(raw)
	if err != nil {
		return nil, false
	}
	return c, true
}

// Format renders a call in the original text format the way its prompts render past calls:
// [Name(key='value', ...)] with each value as Python's str().
func Format(name string, args *value.Map) string {
	var b strings.Builder
	b.WriteByte('[')
	b.WriteString(name)
	b.WriteByte('(')
	for i, k := range args.Keys() {
		if i > 0 {
			b.WriteString(", ")
		}
		v, _ := args.Get(k)
		b.WriteString(k)
		b.WriteString("='")
		b.WriteString(value.Str(v))
		b.WriteByte('\'')
	}
	b.WriteString(")]")
	return b.String()
}
