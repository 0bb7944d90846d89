package value

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAppendJSONFloatLikeEncodingJSON: floats are written exactly as encoding/json writes a float64,
// over the edges of its two forms and random values of every magnitude.
func TestAppendJSONFloatLikeEncodingJSON(t *testing.T) {
	values := []float64{0, 1, -1, 0.5, 0.7999999950000002, 1e-6, 9.99999e-7, 1e-7, 1.5e-9, 1e20, 1e21, 1.2e21, 123456789e-15, math.SmallestNonzeroFloat64, math.MaxFloat64, -1e-7}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		values = append(values, math.Float64frombits(rng.Uint64()))
	}
	for _, f := range values {
		want, err := json.Marshal(f)
		if err != nil {
			want = []byte("null")
		}
		if got := AppendJSONFloat(nil, f); string(got) != string(want) {
			t.Fatalf("AppendJSONFloat(%v) = %s, encoding/json %s", f, got, want)
		}
	}
}

// TestAppendTextAtEveryOffset: AppendText's word scan hands over to its byte loop wherever the first
// byte to escape (or the first non-ASCII one) falls in a word: the text reads back as itself, and its
// plain ASCII start is written as it is.
func TestAppendTextAtEveryOffset(t *testing.T) {
	for _, special := range []string{`"`, `\`, "\n", "\x01", "\x1f", "é", "\u2028", "\x7f", "~"} {
		for off := range 20 {
			for _, tail := range []string{"", "tail", strings.Repeat("z", 17)} {
				s := strings.Repeat("a", off) + special + tail
				out := AppendText(nil, s)
				var back string
				if err := json.Unmarshal(out, &back); err != nil || back != s {
					t.Errorf("AppendText(%q) = %s: reads back as %q, %v", s, out, back, err)
				}
				if !strings.HasPrefix(string(out), `"`+strings.Repeat("a", off)) {
					t.Errorf("AppendText(%q) = %s: the plain start is not written as it is", s, out)
				}
			}
		}
	}
}
