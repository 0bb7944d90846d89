// Package value holds the JSON-like values that API-Bank's tools read, write and compare, with the
// semantics of the original Python runtime: insertion-ordered objects, integers distinct from floats
// (but equal when their values are), and Python's == as the one equality.
//
// A value is one of: nil (JSON null, Python None), bool, int64 (Python int), float64, string,
// []any (a list), Tuple (a Python tuple: encoded as a JSON array, never equal to a list),
// *Map (an object), or *Opaque (a Python object such as an exception stored as a value, equal only
// to itself).
package value

import (
	"math"
)

// Map is a JSON object that keeps its keys in insertion order, as Python dicts do. The order decides
// how results print; equality ignores it. Small maps (most records and envelopes) are searched
// linearly; an index is built only past indexAt keys, which keeps allocation low on the hot path.
type Map struct {
	entries []entry
	index   map[string]int
}

type entry struct {
	key string
	val any
}

// indexAt is the size past which a map keeps a key index.
const indexAt = 12

// NewMap returns an empty map with room for n keys.
func NewMap(n int) *Map { return newMap(0, n) }

// Maps of up to 8 keys (most records and envelopes) are made with their room in one allocation
// instead of two: the map is the first field of one of these, its entries a slice of the array.
type (
	map2 struct {
		m    Map
		room [2]entry
	}
	map4 struct {
		m    Map
		room [4]entry
	}
	map8 struct {
		m    Map
		room [8]entry
	}
)

// MapWithRoom is a Map with room for its first four keys inside it, to embed in a struct that is
// made with its map: one allocation for both (a parsed call and its arguments). Map returns the
// map, empty; call it once.
type MapWithRoom struct{ x map4 }

// Map empties the map and returns it.
func (r *MapWithRoom) Map() *Map {
	r.x.m = Map{entries: r.x.room[:0]}
	return &r.x.m
}

// newMap returns a map whose entries are length zero entries, with room for n (length <= n).
func newMap(length, n int) *Map {
	switch {
	case n == 0:
		return &Map{}
	case n <= 2:
		x := &map2{}
		x.m.entries = x.room[:length]
		return &x.m
	case n <= 4:
		x := &map4{}
		x.m.entries = x.room[:length]
		return &x.m
	case n <= 8:
		x := &map8{}
		x.m.entries = x.room[:length]
		return &x.m
	}
	return &Map{entries: make([]entry, length, n)}
}

// MapOf builds a map from alternating keys and values, in that order: MapOf("a", 1, "b", "x").
// It panics on an odd count or a non-string key: it is meant for literals in code.
func MapOf(kv ...any) *Map {
	if len(kv)%2 != 0 {
		panic("value.MapOf: odd number of arguments")
	}
	m := NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

// Len returns the number of keys.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.entries)
}

// Keys returns the keys in insertion order.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	keys := make([]string, len(m.entries))
	for i, e := range m.entries {
		keys[i] = e.key
	}
	return keys
}

// Each calls f for every key and value in order, until f returns false. Unlike Keys it allocates
// nothing.
func (m *Map) Each(f func(key string, v any) bool) {
	if m == nil {
		return
	}
	for _, e := range m.entries {
		if !f(e.key, e.val) {
			return
		}
	}
}

// find returns the index of key's entry, or -1.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (m *Map) find(key string) int {
	if m == nil {
		return -1
	}
	if m.index != nil {
		if i, ok := m.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range m.entries {
		if m.entries[i].key == key {
			return i
		}
	}
	return -1
}

// Get returns the value under key and whether it is present.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (m *Map) Get(key string) (any, bool) {
	if i := m.find(key); i >= 0 {
		return m.entries[i].val, true
	}
	return nil, false
}

// Has reports whether key is present.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (m *Map) Has(key string) bool { return m.find(key) >= 0 }

// String returns the text under key, or "" when it is absent or not a string.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (m *Map) String(key string) string {
	v, _ := m.Get(key)
	s, _ := v.(string)
	return s
}

// Set stores v under key; a new key goes to the end, an existing one keeps its place (as in Python).
func (m *Map) Set(key string, v any) {
	if i := m.find(key); i >= 0 {
		m.entries[i].val = v
		return
	}
	m.entries = append(m.entries, entry{key, v})
	switch {
	case m.index != nil:
		m.index[key] = len(m.entries) - 1
	case len(m.entries) > indexAt:
		m.reindex()
	}
}

func (m *Map) reindex() {
	m.index = make(map[string]int, len(m.entries))
	for i, e := range m.entries {
		m.index[e.key] = i
	}
}

// Delete removes key, keeping the order of the others. It reports whether the key was present.
func (m *Map) Delete(key string) bool {
	i := m.find(key)
	if i < 0 {
		return false
	}
	m.entries = append(m.entries[:i], m.entries[i+1:]...)
	if m.index != nil {
		m.reindex()
	}
	return true
}

// Tuple is a Python tuple. It encodes as a JSON array but, as in Python, never equals a list.
type Tuple []any

// Opaque is a Python object stored as a value, such as the exception object ModifyAgenda returns as
// its output. It prints as its Text and, like a Python object without __eq__, equals only itself.
type Opaque struct {
	Text string
}

// Equal reports whether a and b are equal under Python's == on JSON-like values: objects regardless of
// key order, lists element-wise, 2 == 2.0, true == 1, false == 0, null only to null, tuples only to
// tuples, opaque objects only to themselves.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool, int64, int, float64:
		xf, xi, xok := number(a)
		yf, yi, yok := number(b)
		if !xok || !yok {
			return false
		}
		if xi && yi {
			return toInt(a) == toInt(b)
		}
		return xf == yf
	case []any:
		y, ok := b.([]any)
		return ok && equalSlices(x, y)
	case Tuple:
		y, ok := b.(Tuple)
		return ok && equalSlices(x, y)
	case *Map:
		y, ok := b.(*Map)
		if !ok || x.Len() != y.Len() {
			return false
		}
		if x == nil || y == nil {
			return x == y
		}
		for i, e := range x.entries {
			// Same key order is the common case: try the same position first.
			if i < len(y.entries) && y.entries[i].key == e.key {
				if !Equal(e.val, y.entries[i].val) {
					return false
				}
				continue
			}
			yv, ok := y.Get(e.key)
			if !ok || !Equal(e.val, yv) {
				return false
			}
		}
		return true
	case *Opaque:
		y, ok := b.(*Opaque)
		return ok && x == y
	}
	return false
}

func equalSlices(x, y []any) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !Equal(x[i], y[i]) {
			return false
		}
	}
	return true
}

// number returns v as a float, whether it is integral-typed (bool or int), and whether it is a number.
func number(v any) (f float64, integral bool, ok bool) {
	switch n := v.(type) {
	case bool:
		if n {
			return 1, true, true
		}
		return 0, true, true
	case int64:
		return float64(n), true, true
	case int:
		return float64(n), true, true
	case float64:
		return n, false, true
	}
	return 0, false, false
}

func toInt(v any) int64 {
	switch n := v.(type) {
	case bool:
		if n {
			return 1
		}
		return 0
	case int64:
		return n
	case int:
		return int64(n)
	}
	return 0
}

// Copy returns a copy of m's top level: its keys in order, with the same values (shared, not
// cloned), and room for one key more (a table is copied to be written, often to get a record more).
func (m *Map) Copy() *Map {
	if m == nil {
		return NewMap(0)
	}
	c := newMap(len(m.entries), len(m.entries)+1)
	copy(c.entries, m.entries)
	if m.index != nil {
		c.reindex()
	}
	return c
}

// Clone returns a deep copy of v: maps, lists and tuples are copied, scalars and opaque objects shared.
func Clone(v any) any {
	switch x := v.(type) {
	case *Map:
		if x == nil {
			return x
		}
		m := newMap(len(x.entries), len(x.entries))
		for i, e := range x.entries {
			m.entries[i] = entry{e.key, Clone(e.val)}
		}
		if x.index != nil {
			m.reindex()
		}
		return m
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Clone(e)
		}
		return out
	case Tuple:
		out := make(Tuple, len(x))
		for i, e := range x {
			out[i] = Clone(e)
		}
		return out
	}
	return v
}

// Float converts a number value (bool, int or float) to float64; ok is false for anything else.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func Float(v any) (float64, bool) {
	f, _, ok := number(v)
	return f, ok
}

// Int converts an integral value (bool or int, or a float with an integral value) to int64.
func Int(v any) (int64, bool) {
	switch n := v.(type) {
	case float64:
		if n == math.Trunc(n) && !math.IsInf(n, 0) {
			return int64(n), true
		}
		return 0, false
	}
	f, integral, ok := number(v)
	if !ok || !integral {
		return 0, false
	}
	_ = f
	return toInt(v), true
}
