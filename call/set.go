package call

import (
	"strings"

	"github.com/apibank-playground/apibank/value"
)

// FindAll returns every call in a model's output, for a sample whose gold is a set of calls made in
// one turn. Native: all the calls of an assistant message's tool_calls or of a JSON list of calls.
// Text, our extension of the original format: one list of calls, [A(x='1'), B(y='2')], or bracketed
// calls one after another separated by spaces, newlines or commas ([A(x='1')] [B(y='2')]). Each call's
// arguments are read by the original's rules (Parse; Literal.FindAll reads them as Python). When the
// output holds one call, or the text does not read as a sequence of calls, FindAll gives what Find
// gives (the original's leftmost match).
func FindAll(output string) ([]*Call, bool) {
	if cs, ok := parseNativeAll(output); ok {
		return cs, true
	}
	if cs := textList(output); len(cs) > 1 {
		return cs, true
	}
	c, ok := Find(output)
	if !ok {
		return nil, false
	}
	return []*Call{c}, true
}

// Several reports whether output may hold more than one call (FindAll would find several), without
// allocating: a scorer asks it of every prediction and parses all calls only when it says yes.
func Several(output string) bool {
	if strings.Count(output, `"name"`) >= 2 {
		return true
	}
	return textSeveral(output, closeParen)
}

// textSeveral is Several for text lists whose calls' parameter text ends where closer says (closeParen
// for the original's reading, literalClose for Python's).
func textSeveral(output string, closer func(s string, i int) int) bool {
	start := callStart(output)
	if start < 0 {
		return false
	}
	name := wordEnd(output, start+1)
	end := closer(output, name+1)
	if end < 0 {
		return false
	}
	i := skipSpace(output, end+1)
	if i < len(output) && output[i] == ']' {
		i = skipSpace(output, i+1)
		if i < len(output) && output[i] == ',' {
			i = skipSpace(output, i+1)
		}
		return i < len(output) && output[i] == '['
	}
	return i < len(output) && output[i] == ','
}

// textList reads the calls of a text list starting at the leftmost call (see FindAll), or nil when
// the text there is not a well-formed sequence of calls.
func textList(s string) []*Call {
	start := callStart(s)
	if start < 0 {
		return nil
	}
	var out []*Call
	i := start + 1
	for {
		name := wordEnd(s, i)
		if name == i || name >= len(s) || s[name] != '(' {
			return nil
		}
		end := closeParen(s, name+1)
		if end < 0 {
			return nil
		}
		c, err := Parse("[" + s[i:end+1] + "]")
		if err != nil {
			return nil
		}
		c.Raw = "[" + s[i:end+1] + "]"
		out = append(out, c)
		i = skipSpace(s, end+1)
		switch {
		case i < len(s) && s[i] == ',':
			// [A(), B()]: the next call of the same list.
			i = skipSpace(s, i+1)
		case i < len(s) && s[i] == ']':
			// The list ends; another bracketed call may follow ([A()] [B()] or [A()], [B()]).
			j := skipSpace(s, i+1)
			if j < len(s) && s[j] == ',' {
				j = skipSpace(s, j+1)
			}
			if j >= len(s) || s[j] != '[' {
				return out
			}
			i = j + 1
		default:
			return nil
		}
	}
}

// callStart returns the index of the first '[' followed by a name and '(' (a list may span lines,
// unlike the original's single call), or -1.
func callStart(s string) int {
	for i := strings.IndexByte(s, '['); i >= 0; {
		j := wordEnd(s, i+1)
		if j > i+1 && j < len(s) && s[j] == '(' {
			return i
		}
		k := strings.IndexByte(s[i+1:], '[')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return -1
}

// closeParen returns the index of the ')' that closes a call's parameter text starting at i, or -1.
// Quoted values are skipped as the original's parser reads them (a value ends at the first quote of
// either kind); brackets and parentheses inside values nest.
func closeParen(s string, i int) int {
	return closeWith(s, i, func(s string, i int) int {
		k := strings.IndexAny(s[i+1:], "'\"")
		if k < 0 {
			return -1
		}
		return i + k + 2
	})
}

// closeWith returns the index of the ')' that closes a call's parameter text starting at i, or -1:
// brackets and parentheses nest, and a quoted value, from its quote at i, ends where stringEnd says
// (just past it; -1 when it does not end).
func closeWith(s string, i int, stringEnd func(s string, i int) int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '\'', '"':
			end := stringEnd(s, i)
			if end < 0 {
				return -1
			}
			i = end - 1
		case '(', '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth < 0 {
				return -1
			}
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// skipSpace returns the index of the first non-space character at or after i.
func skipSpace(s string, i int) int { return spaceEnd(s, i) }

// parseNativeAll reads every native call of the output (see parseNative for the shapes accepted).
func parseNativeAll(output string) ([]*Call, bool) {
	s, ok := nativeText(output)
	if !ok {
		return nil, false
	}
	v, err := value.DecodeString(s)
	if err != nil {
		return nil, false
	}
	list := nativeList(v, 0)
	if len(list) == 0 {
		return nil, false
	}
	out := make([]*Call, 0, len(list))
	for _, e := range list {
		c, ok := nativeCall(e, 0)
		if !ok {
			return nil, false
		}
		c.Raw = string(value.Marshal(e))
		out = append(out, c)
	}
	if len(out) == 1 {
		out[0].Raw = s
	}
	return out, true
}

// nativeList unwraps an assistant message ({"tool_calls": [...]}) or a JSON list into its calls; any
// other value is one call.
func nativeList(v any, depth int) []any {
	if depth > 3 {
		return nil
	}
	switch x := v.(type) {
	case []any:
		if len(x) == 1 {
			return nativeList(x[0], depth+1)
		}
		return x
	case *value.Map:
		if calls, ok := x.Get("tool_calls"); ok {
			return nativeList(calls, depth+1)
		}
	}
	return []any{v}
}
