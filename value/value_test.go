package value

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

func TestEqual(t *testing.T) {
	m1, _ := DecodeString(`{"a": 1, "b": [1, 2.0, {"c": true}]}`)
	m2, _ := DecodeString(`{"b": [1.0, 2, {"c": 1}], "a": 1.0}`)
	op := &Opaque{Text: "Error"}
	tests := []struct {
		a, b any
		want bool
	}{
		{m1, m2, true},
		{int64(2), 2.0, true},
		{true, int64(1), true},
		{false, 0.0, true},
		{nil, nil, true},
		{nil, int64(0), false},
		{"1", int64(1), false},
		{[]any{int64(1)}, Tuple{int64(1)}, false},
		{Tuple{int64(1)}, Tuple{1.0}, true},
		{op, op, true},
		{op, &Opaque{Text: "Error"}, false},
		{[]any{}, []any{int64(1)}, false},
		{math.NaN(), math.NaN(), false},
	}
	for _, tt := range tests {
		if got := Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", Marshal(tt.a), Marshal(tt.b), got, tt.want)
		}
	}
}

func TestMapOrderAndDelete(t *testing.T) {
	m := MapOf("a", int64(1), "b", int64(2), "c", int64(3))
	m.Set("a", int64(9))
	m.Delete("b")
	m.Set("b", int64(4))
	if got := string(Marshal(m)); got != `{"a":9,"c":3,"b":4}` {
		t.Errorf("order = %s", got)
	}
	c := Clone(m).(*Map)
	c.Set("d", int64(5))
	if m.Has("d") {
		t.Error("Clone shares its map with the original")
	}
	b, _ := json.Marshal(struct{ M *Map }{m})
	if string(b) != `{"M":{"a":9,"c":3,"b":4}}` {
		t.Errorf("MarshalJSON = %s", b)
	}
}

// TestMapWithRoom: a map made in its room behaves as NewMap's, within its room and past it, and
// Map empties it again.
func TestMapWithRoom(t *testing.T) {
	for _, n := range []int{0, 1, 4, 5, 9} {
		var r MapWithRoom
		m, want := r.Map(), NewMap(0)
		for i := range n {
			k := fmt.Sprintf("k%d", i)
			m.Set(k, i)
			want.Set(k, i)
		}
		m.Set("k0", "again")
		want.Set("k0", "again")
		if got, w := string(Marshal(m)), string(Marshal(want)); got != w {
			t.Errorf("%d keys: %s, want %s", n, got, w)
		}
		if m = r.Map(); m.Len() != 0 {
			t.Errorf("%d keys: Map again has %d keys", n, m.Len())
		}
	}
}
