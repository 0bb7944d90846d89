package call

import (
	"strings"

	"github.com/apibank-playground/apibank/value"
)

// parseNative reads a native tool call: a JSON object {"name", "arguments"} where arguments is an
// object or a JSON text of one (as OpenAI's API sends it), optionally wrapped as
// {"type":"function","function":{...}}, as an assistant message {"tool_calls":[...]}, or as a list
// of calls (the first is taken), and optionally fenced in ```json ... ```.
func parseNative(output string) (*Call, bool) {
	s, ok := nativeText(output)
	if !ok {
		return nil, false
	}
	v, err := value.DecodeString(s)
	if err != nil {
		return nil, false
	}
	c, ok := nativeCall(v, 0)
	if ok {
		c.Raw = s
	}
	return c, ok
}

// nativeText returns the output without a ```json fence when it may be native JSON (an object, or a
// list whose first element is an object), and false when it cannot be.
func nativeText(output string) (string, bool) {
	s := strings.TrimSpace(output)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```json")
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
		s = strings.TrimSpace(s)
	}
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return "", false
	}
	if s[0] == '[' {
		// A JSON list of calls starts with '[' then '{'; a text call starts with '[' then a name.
		rest := strings.TrimLeft(s[1:], " \t\r\n")
		if rest == "" || rest[0] != '{' {
			return "", false
		}
	}
	return s, true
}

// nativeCall reads one native call (or the first of a list or tool_calls message).
func nativeCall(v any, depth int) (*Call, bool) {
	if depth > 3 {
		return nil, false
	}
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return nil, false
		}
		return nativeCall(x[0], depth+1)
	case *value.Map:
		if calls, ok := x.Get("tool_calls"); ok {
			return nativeCall(calls, depth+1)
		}
		if fn, ok := x.Get("function"); ok {
			if m, ok := fn.(*value.Map); ok {
				return nativeCall(m, depth+1)
			}
		}
		name, ok := x.Get("name")
		n, isText := name.(string)
		if !ok || !isText || n == "" {
			return nil, false
		}
		args := value.NewMap(0)
		raw, _ := x.Get("arguments")
		if raw == nil {
			raw, _ = x.Get("parameters")
		}
		switch a := raw.(type) {
		case *value.Map:
			args = a
		case string:
			if strings.TrimSpace(a) != "" {
				parsed, err := value.DecodeString(a)
				m, isMap := parsed.(*value.Map)
				if err != nil || !isMap {
					return nil, false
				}
				args = m
			}
		case nil:
		default:
			return nil, false
		}
		return &Call{Name: n, Args: args, Form: Native}, true
	}
	return nil, false
}
