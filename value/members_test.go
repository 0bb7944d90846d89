package value

import (
	"slices"
	"strings"
	"testing"
)

// membersEqualDecodeFields reads lines with a MemberReader of keys, setting each member read in a
// Map, and checks that it gives what DecodeFields gives: the same members (the last value of each)
// and the same errors. A text comes as a Text, never as a Value.
func membersEqualDecodeFields(t *testing.T, r *MemberReader, keys []string, lines []string) {
	want := func(k string) bool { return slices.Contains(keys, k) }
	lines = append(slices.Clone(lines),
		`{"pred": "bad \x escape", "detail": {`, `{"detail": [1, 2,], "pred": "x"}`, `{"pred": "x" "id": 1}`,
		`{"detail": "tab\tinside", "pred": "x"}`, `{"\u0066ile": "escaped key", "id": 2}`, `{"file": "é", "pred": "\u00e9"}`,
		`{"file" 1}`, `{1: 2}`, `{"pred": tru}`, `{"id": 01}`, `{"file": "a"`, `{"file": "a",}`, `  {"id": 1}  `, `{"id": 1}}`,
		`{"file": "`+strings.Repeat("f", 300)+`", "file": "`+strings.Repeat("g", 200)+`"}`, `{"id": 1, "file": "a", "id": "b"}`)
	out := make([]Member, len(keys))
	for _, line := range lines {
		err := r.Read([]byte(line), out)
		wm, werr := DecodeFields([]byte(line), want)
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
			t.Fatalf("%s: Read error %v, DecodeFields error %v", line, err, werr)
		}
		if err != nil {
			continue
		}
		for i, k := range keys {
			wv, present := wm.Get(k)
			m := out[i]
			if _, isText := m.Value.(string); isText {
				t.Errorf("%s: the text of %q came as a Value", line, k)
			}
			got := m.Value
			if m.IsText {
				got = m.Text
			}
			if m.Present != present || string(Marshal(got)) != string(Marshal(wv)) {
				t.Fatalf("%s: member %q read as %v %s, DecodeFields has %v %s", line, k, m.Present, Marshal(got), present, Marshal(wv))
			}
		}
	}
}

// TestMemberReader: each key's member comes in its own slot, a text as Text (IsText set, no Value),
// any other value as Value; a key the object lacks (or has only in a nested object) is not Present,
// a repeated key gives its last value, and what is not one JSON object is an error.
func TestMemberReader(t *testing.T) {
	type want struct {
		present, isText bool
		text            string
		value           any
	}
	r := NewMemberReader([]string{"a", "b"}, "a")
	tests := []struct {
		in      string
		a, b    want
		wantErr bool
	}{
		{in: `{"a": "x", "b": 2}`, a: want{true, true, "x", nil}, b: want{true, false, "", int64(2)}},
		{in: `{"b": null}`, b: want{present: true}},
		{in: `{"a": 1, "a": "last"}`, a: want{true, true, "last", nil}},
		{in: `{"c": {"a": 1, "b": 2}}`},
		{in: `{"b": [1, "t"], "a": "x\u00e9"}`, a: want{true, true, "xé", nil}, b: want{true, false, "", []any{int64(1), "t"}}},
		{in: `[1]`, wantErr: true},
		{in: `{"a": 1} x`, wantErr: true},
		{in: `{"a": "open`, wantErr: true},
	}
	out := make([]Member, 2)
	for _, tt := range tests {
		err := r.Read([]byte(tt.in), out)
		if (err != nil) != tt.wantErr {
			t.Errorf("Read(%s) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		for i, w := range []want{tt.a, tt.b} {
			m := out[i]
			if m.Present != w.present || m.IsText != w.isText || m.Text != w.text || !Equal(m.Value, w.value) {
				t.Errorf("Read(%s) member %d = %+v, want %+v", tt.in, i, m, w)
			}
		}
	}
}
