package value

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// recursiveSkip is skipValue as it was written before it became a loop, kept as the reference it
// must agree with: the same end position and the same error (text and offset) on every input.
func recursiveSkip(d *decoder, depth int) error {
	if depth > maxDepth {
		return d.errorf("JSON nested too deeply")
	}
	if d.pos >= len(d.data) {
		return d.errorf("unexpected end of JSON input")
	}
	switch d.data[d.pos] {
	case '"':
		data, pos := d.data, d.pos+1
		for pos < len(data) {
			pos = plainEnd(data, pos)
			if pos >= len(data) {
				break
			}
			switch c := data[pos]; {
			case c == '"':
				d.pos = pos + 1
				return nil
			case c == '\\':
				pos += 2
			default:
				d.pos = pos
				return d.errorf("control character in a string")
			}
		}
		d.pos = pos
		return d.errorf("unterminated string")
	case '{', '[':
		open := d.data[d.pos]
		close := byte('}')
		if open == '[' {
			close = ']'
		}
		d.pos++
		d.skip()
		if d.pos < len(d.data) && d.data[d.pos] == close {
			d.pos++
			return nil
		}
		for {
			d.skip()
			if open == '{' {
				if d.pos >= len(d.data) || d.data[d.pos] != '"' {
					return d.errorf("object key must be a string")
				}
				if err := recursiveSkip(d, depth+1); err != nil {
					return err
				}
				d.skip()
				if d.pos >= len(d.data) || d.data[d.pos] != ':' {
					return d.errorf("expected ':' after an object key")
				}
				d.pos++
				d.skip()
			}
			if err := recursiveSkip(d, depth+1); err != nil {
				return err
			}
			d.skip()
			if d.pos >= len(d.data) {
				return d.errorf("unexpected end of JSON input")
			}
			if d.data[d.pos] == ',' {
				d.pos++
				continue
			}
			if d.data[d.pos] == close {
				d.pos++
				return nil
			}
			return d.errorf("expected ',' or %q", close)
		}
	}
	_, err := d.value(depth)
	return err
}

// checkSkip compares skipValue with recursiveSkip on one input, from its first byte at depth.
func checkSkip(t *testing.T, in string, depth int) {
	t.Helper()
	a, b := decoder{data: []byte(in)}, decoder{data: []byte(in)}
	errA, errB := a.skipValue(depth), recursiveSkip(&b, depth)
	if (errA == nil) != (errB == nil) || (errA != nil && errA.Error() != errB.Error()) || a.pos != b.pos {
		t.Fatalf("skip of %q at depth %d: pos %d, error %v; the recursive skip: pos %d, error %v", in, depth, a.pos, errA, b.pos, errB)
	}
}

// TestSkipValueAsRecursive: the loop skips every value as the recursive version did, and fails
// every broken one with the same error at the same place: hand-written cases, every cut of them, and
// random changes of bytes.
func TestSkipValueAsRecursive(t *testing.T) {
	cases := []string{
		`"text"`, `"a\"b\\"`, `"\x"`, `"tab	in"`, `"unterminated`, `"ends with a backslash\`, `""`,
		`{}`, `[]`, `{ }`, `[ ]`, `{"a": 1}`, `[1, 2.5, -3e+7, 0, -0.0e-0]`, `{"a": {"b": [true, false, null]}, "c": "d"}`,
		`[NaN, Infinity, -Infinity, -Inf, nul, tru]`, `{"a": 01}`, `[1.]`, `[1e]`, `[-]`, `[1,]`, `{"a": 1,}`, `{"a" 1}`,
		`{1: 2}`, `[1 2]`, `{"a": 1 "b": 2}`, `[[[[[]]]]]`, `[{"a": [{"b": {}}]}, {}]`, `{"detail": {"input": {"x": "y"}, "output": null}}`,
		`@`, `]`, `}`, `{"a":}`, `[,1]`, "[1,\n\t 2 ]", `{"a": [1, {"b": 2]}`, `[{"a": 1}}`, `12345678901234567890123`,
		strings.Repeat("[", 40) + strings.Repeat("]", 40), strings.Repeat(`{"k":`, 40) + "1" + strings.Repeat("}", 40),
	}
	for _, c := range cases {
		for cut := 0; cut <= len(c); cut++ { // every prefix: each way of ending too early
			for _, depth := range []int{0, 1, maxDepth - 2, maxDepth} {
				checkSkip(t, c[:cut], depth)
			}
		}
	}
	// Deep nesting: the limit is met at the same place.
	for _, n := range []int{maxDepth - 1, maxDepth, maxDepth + 1, maxDepth + 2} {
		checkSkip(t, strings.Repeat("[", n)+strings.Repeat("]", n), 0)
		checkSkip(t, strings.Repeat(`{"k":`, n)+"0"+strings.Repeat("}", n), 0)
		checkSkip(t, strings.Repeat(`[{"k":`, n/2)+"0"+strings.Repeat("}]", n/2), 1)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "{}[]\":,\\ 0-e.tn\x01a"
	for range 20000 {
		b := []byte(cases[r.IntN(len(cases))])
		for range 1 + r.IntN(3) {
			if len(b) > 0 {
				b[r.IntN(len(b))] = alphabet[r.IntN(len(alphabet))]
			}
		}
		checkSkip(t, string(b), 0)
	}
}

func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a": [1, "b", {"c": null}]}`, `[1, 2`, `"x\`, `{"a" 1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkSkip(t, s, 0) })
}
