package value

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDecodeObjectsLikeSet: objects of every size (past indexAt too), with repeated keys, nested in
// lists and objects, decode (with Decode, and with one FieldReader for them all) to what Map.Set
// builds member by member: the same keys in the same order, the same values, every key found.
func TestDecodeObjectsLikeSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var object func(depth int) (string, *Map)
	item := func(depth int) (string, any) {
		switch n := rng.IntN(6); {
		case n == 0 && depth < 2:
			return object(depth + 1)
		case n == 1 && depth < 2:
			k := rng.IntN(4)
			texts, list := make([]string, k), make([]any, k)
			for i := range k {
				var v any
				texts[i], v = object(depth + 1)
				list[i] = v
			}
			return "[" + strings.Join(texts, ", ") + "]", list
		case n == 2:
			return "null", nil
		case n == 3:
			n := rng.IntN(100)
			return fmt.Sprint(n), int64(n)
		}
		s := strings.Repeat("t", rng.IntN(40))
		return `"` + s + `"`, s
	}
	object = func(depth int) (string, *Map) {
		n := rng.IntN(30)
		keys := rng.IntN(n+1) + 1 // few keys for many members: repeats
		want := NewMap(0)
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			k := fmt.Sprintf("k%d", rng.IntN(keys))
			text, v := item(depth)
			fmt.Fprintf(&b, "%q: %s", k, text)
			want.Set(k, v)
		}
		b.WriteString("}")
		return b.String(), want
	}
	r := NewFieldReader(func(string) bool { return true })
	for range 500 {
		text, want := object(0)
		for _, decode := range []func() (any, error){
			func() (any, error) { return DecodeString(text) },
			func() (any, error) { return r.Decode([]byte(text)) },
		} {
			v, err := decode()
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if got, w := string(Marshal(v)), string(Marshal(want)); got != w {
				t.Fatalf("%s decodes to %s, want %s", text, got, w)
			}
			m := v.(*Map)
			for _, k := range want.Keys() {
				if !m.Has(k) {
					t.Fatalf("%s: key %s not found", text, k)
				}
			}
		}
	}
}
