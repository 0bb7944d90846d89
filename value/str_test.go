package value

import "testing"

func TestRepr(t *testing.T) {
	v, _ := DecodeString(`{"name": "it's", "n": [1, 2.5, null, true], "t": "x"}`)
	m := v.(*Map)
	m.Set("pair", Tuple{int64(1)})
	want := `{'name': "it's", 'n': [1, 2.5, None, True], 't': 'x', 'pair': (1,)}`
	if got := Repr(m); got != want {
		t.Errorf("Repr = %s, want %s", got, want)
	}
	if Str("plain") != "plain" {
		t.Error("Str of a string must be the string itself")
	}
}
