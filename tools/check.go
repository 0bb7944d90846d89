package tools

import (
	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// Check runs the tool's correctness check of a response envelope against a gold envelope, as the
// original's check_api_call_correctness does. A check may raise: a missing key gives an *Error of
// kind Key, the api_name test an *Error of kind Assertion ("The API name is not correct."), and a few
// checks raise other errors on inputs the original never expected (see RATIONALE.md). Some checks
// change their arguments as the original's do (the meeting family removes meeting_topic from both
// inputs), so callers that must keep a gold envelope pass a copy.
func (t *Tool) Check(resp, gold *value.Map) (bool, error) {
	if t.check == nil {
		return defaultCheck(resp, gold)
	}
	return t.check(resp, gold)
}

// CheckRepaired is Check with the original's defective checks repaired: a check that can never accept
// a right answer (DeleteMeeting's reads a key the tool has not) is replaced by one that does what the
// original evidently meant. Our own dataset is judged with it; the original's data keeps Check, for
// verdict parity.
func (t *Tool) CheckRepaired(resp, gold *value.Map) (bool, error) {
	if t.repaired != nil {
		return t.repaired(resp, gold)
	}
	return t.Check(resp, gold)
}

// cond is one step of a correctness check: false or an error ends the check.
type cond func(r, g *value.Map) (bool, error)

// all runs the conditions in order and stops at the first false or error, as Python's `and` chain
// does (so a missing key is only an error when the check reaches it).
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func all(conds ...cond) func(r, g *value.Map) (bool, error) {
	return func(r, g *value.Map) (bool, error) {
		for _, c := range conds {
			ok, err := c(r, g)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	}
}

// defaultCheck is the original's default: input, output and exception all equal.
var defaultCheck = all(sameField("input"), sameField("output"), sameField("exception"))

// get reads key from m, failing as a Python dict lookup does.
func get(m *value.Map, key string) (any, error) {
	v, ok := m.Get(key)
	if !ok {
		return nil, keyError(key)
	}
	return v, nil
}

// inputOf returns an envelope's input object.
func inputOf(env *value.Map) (*value.Map, error) {
	v, err := get(env, "input")
	if err != nil {
		return nil, err
	}
	m, ok := v.(*value.Map)
	if !ok {
		return nil, escape(Type, "'"+pyTypeName(v)+"' object is not subscriptable")
	}
	return m, nil
}

// inputField reads one field of an envelope's input.
func inputField(env *value.Map, key string) (any, error) {
	in, err := inputOf(env)
	if err != nil {
		return nil, err
	}
	return get(in, key)
}

// sameField compares a top-level envelope field (input, output, exception, api_name).
func sameField(key string) cond {
	return func(r, g *value.Map) (bool, error) {
		a, err := get(r, key)
		if err != nil {
			return false, err
		}
		b, err := get(g, key)
		if err != nil {
			return false, err
		}
		return value.Equal(a, b), nil
	}
}

var (
	sameOutput    = sameField("output")
	sameException = sameField("exception")
	sameInput     = sameField("input")
)

// assertSameName is the assertion some checks start with: both envelopes' api_name equal.
func assertSameName(r, g *value.Map) (bool, error) {
	a, err := get(r, "api_name")
	if err != nil {
		return false, err
	}
	b, err := get(g, "api_name")
	if err != nil {
		return false, err
	}
	if !value.Equal(a, b) {
		return false, escape(Assertion, "The API name is not correct.")
	}
	return true, nil
}

// sameIn compares one input field, after an optional normalisation applied to both sides.
// A normaliser returns ok=false when the value cannot be normalised (e.g. an unparsable date): the
// sides are then unequal, as in the original.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func sameIn(key string, norm func(any) (any, bool)) cond {
	return func(r, g *value.Map) (bool, error) {
		a, err := inputField(r, key)
		if err != nil {
			return false, err
		}
		b, err := inputField(g, key)
		if err != nil {
			return false, err
		}
		if norm == nil {
			return value.Equal(a, b), nil
		}
		na, okA := norm(a)
		nb, okB := norm(b)
		if !okA || !okB {
			return false, nil
		}
		return value.Equal(na, nb), nil
	}
}

// strip is a normaliser: Python strip of a text (other values unchanged).
func strip(v any) (any, bool) {
	if s, ok := v.(string); ok {
		return py.Strip(s), true
	}
	return v, true
}

// jaccardIn compares a free-text input field by word overlap (> 0.5), optionally lowercased.
func jaccardIn(key string, lower bool) cond {
	return func(r, g *value.Map) (bool, error) {
		a, err := inputField(r, key)
		if err != nil {
			return false, err
		}
		b, err := inputField(g, key)
		if err != nil {
			return false, err
		}
		sa, okA := a.(string)
		sb, okB := b.(string)
		if !okA || !okB {
			return false, escape(Attribute, "'"+pyTypeName(a)+"' object has no attribute 'split'")
		}
		if lower {
			sa, sb = py.Lower(sa), py.Lower(sb)
		}
		return Jaccard(sa, sb) > 0.5, nil
	}
}

// Jaccard is the original's content similarity: the sets of pieces of both texts split on single
// spaces, |intersection| / |union|.
func Jaccard(a, b string) float64 {
	sa := map[string]bool{}
	for _, p := range py.SplitSpace(a) {
		sa[p] = true
	}
	sb := map[string]bool{}
	for _, p := range py.SplitSpace(b) {
		sb[p] = true
	}
	inter := 0
	for p := range sa {
		if sb[p] {
			inter++
		}
	}
	union := len(sa) + len(sb) - inter
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

// dropIn removes an input field from both envelopes, as the meeting-family checks do with
// meeting_topic (mutating the gold record: a second evaluation of the same gold then fails with a
// missing key). It raises a missing-key error when a side lacks the field.
func dropIn(key string) cond {
	return func(r, g *value.Map) (bool, error) {
		for _, env := range []*value.Map{r, g} {
			in, err := inputOf(env)
			if err != nil {
				return false, err
			}
			if !in.Delete(key) {
				return false, keyError(key)
			}
		}
		return true, nil
	}
}
