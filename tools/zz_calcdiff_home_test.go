package tools

import (
	"encoding/json"
	"os"
	"testing"
)

func TestHomeCalcDiffTemp(t *testing.T) {
	data, err := os.ReadFile("/tmp/calc/cases.json")
	if err != nil {
		t.Skip(err)
	}
	var cases []struct {
		Formula   string
		Output    any
		Exception *string
		Special   bool
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, c := range cases {
		out, err := calculate(c.Formula)
		exc := ""
		if err != nil {
			exc = err.Error()
		}
		want := ""
		if c.Exception != nil {
			want = *c.Exception
			if want == "HANG" {
				want = calcHang
			}
		}
		if exc != want {
			bad++
			t.Errorf("%q: exc %q want %q", c.Formula, exc, want)
			continue
		}
		if err == nil && !c.Special {
			if f, ok := c.Output.(float64); !ok || out != any(f) {
				bad++
				t.Errorf("%q: out %v want %v", c.Formula, out, c.Output)
			}
		}
	}
	t.Logf("%d cases, %d bad", len(cases), bad)
}
