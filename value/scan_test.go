package value

import (
	"strings"
	"testing"
)

// TestScanObjects: each object element gives the raw JSON of the members asked for, which decodes to
// what Decode builds for that member; other elements are skipped; bad syntax anywhere (in a skipped
// member or element too) is an error, as for Decode.
func TestScanObjects(t *testing.T) {
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
			err := ScanObjects([]byte(tc.text), keys, func(members [][]byte) {
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
