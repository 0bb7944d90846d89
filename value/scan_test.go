package value

import (
	"strings"
	"testing"
)

// TestObjectScanner: each object element gives the raw JSON of the members asked for, which decodes to
// what Decode builds for that member; other elements are skipped; bad syntax anywhere (in a skipped
// member or element too) is an error, as for Decode.
func TestObjectScanner(t *testing.T) {
	keys := []string{"url", "caption"}
	for _, tc := range []struct {
		name, text string
		objects    int
		err        string
	}{
		{"empty", `[]`, 0, ""},
		{"spaces", " [ ] \n", 0, ""},
		{"objects", `[{"url":"a.jpg","caption":"x","size":3},{"caption":"y"}]`, 2, ""},
		{"other elements skipped", `[1, "s", null, [{"url":"no"}], {"url":"b.png"}]`, 1, ""},
		{"escaped key, repeated key", `[{"u\u0072l":"a","url":"b","caption":{"k":[1,2]}}]`, 1, ""},
		{"escaped value", `[{"url":"http:\/\/x\/\u00e9.jpg"}]`, 1, ""},
		{"empty object", `[{}]`, 1, ""},
		{"not an array", `{"url":"a"}`, 0, "a JSON array is expected"},
		{"bad skipped member", `[{"url":"a","size":tru}]`, 0, "invalid character"},
		{"bad element", `[{"url":"a"}, nul]`, 1, "invalid character"},
		{"unterminated", `[{"url":"a"}`, 1, "unexpected end"},
		{"missing comma", `[{"url":"a"} {"url":"b"}]`, 1, "expected ','"},
		{"missing colon", `[{"url" "a"}]`, 0, "expected ':'"},
		{"trailing data", `[] x`, 0, "unexpected data after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [][]string
			err := scanAll([]byte(tc.text), keys, func(members [][]byte) {
				row := make([]string, len(members))
				for i, m := range members {
					if m == nil {
						row[i] = "absent"
						continue
					}
					v, err := Decode(m)
					if err != nil {
						t.Fatalf("member %d: %q does not decode: %v", i, m, err)
					}
					row[i] = string(Marshal(v))
				}
				got = append(got, row)
			})
			if tc.err == "" && err != nil {
				t.Fatalf("error %v", err)
			}
			if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("error %v, want one with %q", err, tc.err)
			}
			if len(got) != tc.objects {
				t.Fatalf("%d objects, want %d", len(got), tc.objects)
			}
			if err != nil {
				return
			}
			all, _ := Decode([]byte(tc.text))
			k := 0
			for _, e := range all.([]any) {
				m, isObject := e.(*Map)
				if !isObject {
					continue
				}
				for i, key := range keys {
					want := "absent"
					if v, ok := m.Get(key); ok {
						want = string(Marshal(v))
					}
					if got[k][i] != want {
						t.Errorf("object %d %s: %s, want %s", k, key, got[k][i], want)
					}
				}
				k++
			}
		})
	}
}

// FuzzObjectScanner: the scanner accepts exactly the arrays Decode accepts, and each object's members
// it gives decode to the members Decode builds.
func FuzzObjectScanner(f *testing.F) {
	for _, s := range []string{`[]`, `[{"url":"a","caption":"b"}]`, `[1,{"url":[{"x":1}]},"u"]`, `[{"u\u0072l":1,"url":2}]`, `[{]`, `{}`} {
		f.Add([]byte(s))
	}
	keys := []string{"url", "caption"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got [][][]byte
		scanErr := scanAll(data, keys, func(members [][]byte) {
			got = append(got, append([][]byte(nil), members...))
		})
		v, decodeErr := Decode(data)
		items, isArray := v.([]any)
		if (scanErr == nil) != (decodeErr == nil && isArray) {
			t.Fatalf("%q: scanner error %v, Decode error %v (array %v)", data, scanErr, decodeErr, isArray)
		}
		if scanErr != nil {
			return
		}
		k := 0
		for _, it := range items {
			m, isObject := it.(*Map)
			if !isObject {
				continue
			}
			for i, key := range keys {
				want, has := m.Get(key)
				raw := got[k][i]
				if (raw != nil) != has {
					t.Fatalf("%q: object %d %s present %v, want %v", data, k, key, raw != nil, has)
				}
				if has {
					g, err := Decode(raw)
					if err != nil || !Equal(g, want) {
						t.Fatalf("%q: object %d %s is %q, want %s", data, k, key, raw, Marshal(want))
					}
				}
			}
			k++
		}
	})
}

// scanAll calls f with the members of each object element of text, and returns the scan's error.
func scanAll(text []byte, keys []string, f func(members [][]byte)) error {
	s := NewObjectScanner(text, keys...)
	for {
		members, ok := s.Next()
		if !ok {
			return s.Err()
		}
		f(members)
	}
}
