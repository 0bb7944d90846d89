package variant

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

func TestAmountText(t *testing.T) {
	for s, want := range map[string]bool{"126": true, "5.9": true, "12650.0": true, "74": false, "1.2.3": false, "5.": false, "abc": false, ".59": false} {
		if got := amountText(s); got != want {
			t.Errorf("amountText(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestHasNumber(t *testing.T) {
	for _, c := range []struct {
		s, n string
		want bool
	}{
		{"it was 126/80", "126", true},
		{"balance: 918.45.", "918.45", true},
		{"1126 steps", "126", false},
		{"126.5 kg", "126", false},
		{"v1.26", "1.26", false},
		{"room 126B", "126", false},
	} {
		if got := hasNumber(c.s, c.n); got != c.want {
			t.Errorf("hasNumber(%q, %q) = %v, want %v", c.s, c.n, got, c.want)
		}
	}
}

func TestThousands(t *testing.T) {
	for in, want := range map[string]string{"15207": "15,207", "640": "640", "1532": "1,532", "1234567": "1,234,567"} {
		if got := thousands(in); got != want {
			t.Errorf("thousands(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAmountsMove: a moved user's balance is a new one in their account's copy (the original record
// keeps its own), QueryBalance answers it in the variant's world, and the dialogues that state it say
// the new one; every reading a user gives to record is a new one in its dialogue (unless served
// unchanged).
func TestAmountsMove(t *testing.T) {
	files, out, rep := variantOf(t, 42)
	if rep.Moved[KindAmount] == 0 {
		t.Fatalf("no amount moved: %v", rep.Moved)
	}
	by := map[string]Move{}
	for _, m := range rep.Moves {
		by[m.From] = m
	}
	d, _, err := dataset.LoadRepaired(rep.Name, out)
	if err != nil {
		t.Fatal(err)
	}
	f := learn(parse(files))
	checked := 0
	for u, balance := range f.balances {
		nu, moved := by[u]
		if !moved {
			continue
		}
		w := d.Base.NewWorld()
		tok, err := tools.APIs.CallNative(w, "GetUserToken", value.MapOf("username", nu.To, "password", by[f.accounts[u].password].To))
		if err != nil {
			t.Fatalf("%s: %v", nu.To, err)
		}
		token, _ := tok.Get("output")
		env, err := tools.APIs.CallNative(w, "QueryBalance", value.MapOf("token", token.(*value.Map).String("token")))
		got, _ := env.Get("output")
		if want := by[balance].To; err != nil || value.Str(got) != want {
			t.Errorf("%s (was %s): QueryBalance answers %v (%v), want %s", nu.To, u, got, err, want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no moved user's balance checked")
	}
	unchanged := map[string]bool{}
	for _, u := range rep.Unchanged {
		unchanged[u.Path] = true
	}
	for _, a := range sorted(f.values[KindAmount]) {
		m, ok := by[a]
		if !ok {
			t.Errorf("the reading %s does not move", a)
			continue
		}
		for p, b := range files {
			if strings.HasSuffix(p, ".jsonl") && !unchanged[p] && hasNumber(string(b), a) && !hasNumber(string(out[p]), m.To) {
				t.Errorf("%s writes %s but its variant does not write %s", p, a, m.To)
			}
		}
	}
}

// TestReadingsKeepWholeUnits: a reading with decimals moves within its whole units in every variant
// ("38.1" °C, a fever, never becomes 37.9), so a line a dialogue draws at a whole number still holds.
func TestReadingsKeepWholeUnits(t *testing.T) {
	f := learn(parse(builtinFiles(t)))
	readings := 0
	for _, seed := range seeds {
		_, _, rep := variantOf(t, seed)
		for _, m := range rep.Moves {
			if m.Kind != KindAmount || !f.values[KindAmount][m.From] || !strings.Contains(m.From, ".") {
				continue
			}
			readings++
			was, _, _ := strings.Cut(m.From, ".")
			now, _, _ := strings.Cut(m.To, ".")
			if was != now || m.To == m.From {
				t.Errorf("seed %d: the reading %s became %s", seed, m.From, m.To)
			}
		}
	}
	if readings == 0 {
		t.Fatal("no reading with decimals moved: the test checks nothing")
	}
}
