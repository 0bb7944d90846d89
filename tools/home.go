package tools

import (
	"strings"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// homeTools are the smart-home and everyday tools of the apis catalog: scenes, timed switches,
// music, e-mail, today's date, hotel booking and the calculator.
func homeTools() []*Tool {
	return []*Tool{
		addScene(), modifyScene(), deleteScene(), queryScene(),
		timedSwitch(), cancelTimedSwitch(),
		playMusic(), sendEmail(), getToday(), bookHotel(), calculator(),
	}
}

// ---------------------------------------------------------------------------------------------
// Python-semantics helpers shared by the home and health tools (prefixed "home" to keep the
// package's namespace clear of other groups' helpers).

// homeAttr is the AttributeError Python raises when a str method is called on a value that is not
// a text (native calls may send any JSON type for a str parameter).
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func homeAttr(v any, method string) *Error {
	return escape(Attribute, "'"+pyTypeName(v)+"' object has no attribute '"+method+"'")
}

// homeStr returns v as a text, or the AttributeError of calling the str method on it.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func homeStr(v any, method string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", homeAttr(v, method)
	}
	return s, nil
}

// homeCaught turns an error that Python would raise inside a tool into the envelope's exception:
// the original tools catch every Exception and report its str().
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func homeCaught(err error) error {
	if e, ok := err.(*Error); ok {
		return fail(e.Text)
	}
	return err
}

// homeNorm is the tools' format_check of a date text: the AttributeError of strip on a non-text
// (raised, not caught by format_check), or the §0.2 normaliser's result or parse error.
func homeNorm(v any, layout py.Layout) (string, error) {
	s, err := homeStr(v, "strip")
	if err != nil {
		return "", err
	}
	return py.Norm(s, layout)
}

// homeNormValue is format_check as the correctness checks use it: the normalised text, or, when
// the text does not parse, a fresh error object (equal only to itself, so never equal to the other
// side). A non-text raises the AttributeError of strip.
func homeNormValue(v any, layout py.Layout) (any, error) {
	s, err := homeStr(v, "strip")
	if err != nil {
		return nil, err
	}
	n, perr := py.Norm(s, layout)
	if perr != nil {
		return &value.Opaque{Text: perr.Error()}, nil
	}
	return n, nil
}

// homeContains is Python's `item in container` for a text item.
func homeContains(container any, item string) (bool, error) {
	switch c := container.(type) {
	case string:
		return strings.Contains(c, item), nil
	case *value.Map:
		return c.Has(item), nil
	case []any:
		for _, e := range c {
			if value.Equal(e, item) {
				return true, nil
			}
		}
		return false, nil
	case value.Tuple:
		for _, e := range c {
			if value.Equal(e, item) {
				return true, nil
			}
		}
		return false, nil
	}
	return false, escape(Type, "argument of type '"+pyTypeName(container)+"' is not iterable")
}

// homeIter lists what a Python for-loop over v visits: list items, the characters of a text, the
// keys of an object; other values are not iterable.
func homeIter(v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case value.Tuple:
		return []any(x), nil
	case string:
		out := make([]any, 0, utf8.RuneCountInString(x))
		for _, r := range x {
			out = append(out, string(r))
		}
		return out, nil
	case *value.Map:
		keys := x.Keys()
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return out, nil
	}
	return nil, escape(Type, "'"+pyTypeName(v)+"' object is not iterable")
}

// homeItem is Python's v[key] for a text key.
func homeItem(v any, key string) (any, error) {
	switch x := v.(type) {
	case *value.Map:
		if e, ok := x.Get(key); ok {
			return e, nil
		}
		return nil, keyError(key)
	case string:
		return nil, escape(Type, "string indices must be integers, not 'str'")
	case []any:
		return nil, escape(Type, "list indices must be integers or slices, not str")
	case value.Tuple:
		return nil, escape(Type, "tuple indices must be integers or slices, not str")
	}
	return nil, escape(Type, "'"+pyTypeName(v)+"' object is not subscriptable")
}

// homeInput reads response['input'][key] as the original checks do.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func homeInput(env *value.Map, key string) (any, error) { return inputField(env, key) }

// homeEq reads env1[key] and env2[key] (in that order) and compares them with ==.
func homeEq(r, g *value.Map, key string) (bool, error) {
	return sameField(key)(r, g)
}

// homeOutExc is the usual tail of a check: outputs equal, then exceptions equal.
func homeOutExc(r, g *value.Map) (bool, error) {
	ok, err := homeEq(r, g, "output")
	if err != nil || !ok {
		return false, err
	}
	return homeEq(r, g, "exception")
}

// homeLowerStrip reads input[key] of both envelopes and compares them after strip and lower
// (response first, raising the AttributeError of strip on a non-text).
func homeLowerStrip(r, g *value.Map, key string) (bool, error) {
	var norm [2]string
	for i, env := range []*value.Map{r, g} {
		v, err := homeInput(env, key)
		if err != nil {
			return false, err
		}
		s, err := homeStr(v, "strip")
		if err != nil {
			return false, err
		}
		norm[i] = py.Lower(py.Strip(s))
	}
	return norm[0] == norm[1], nil
}

// homeStrptime is datetime.strptime(v, layout) on a value that may not be a text.
func homeStrptime(v any, layout py.Layout) (py.Time, error) {
	s, ok := v.(string)
	if !ok {
		return py.Time{}, fail("strptime() argument 1 must be str, not " + pyTypeName(v))
	}
	t, err := py.Strptime(s, layout)
	if err != nil {
		return py.Time{}, fail(err.Error())
	}
	return t, nil
}
