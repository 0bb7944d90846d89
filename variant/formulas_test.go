package variant

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// calcFile writes a dialogue file: a user's turn, one Calculator call per formula (with its output
// as the tool gives it), and the assistant's reply.
func calcFile(t *testing.T, user, reply string, formulas ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"role": "User", "text": ` + string(value.Marshal(user)) + "}\n")
	for _, f := range formulas {
		r, ok := tools.Calculate(f)
		if !ok {
			t.Fatalf("Calculator(%q) answers no number", f)
		}
		b.WriteString(`{"role":"API","api_name":"Calculator","param_dict":{"formula":"` + f + `"},"result":{"api_name":"Calculator","input":{"formula":"` + f + `"},"output":` + py.FloatRepr(r) + `,"exception":null}}` + "\n")
	}
	b.WriteString(`{"role": "AI", "text": ` + string(value.Marshal(reply)) + "}\n")
	return b.String()
}

func TestMoveFormulas(t *testing.T) {
	tests := []struct {
		name, user, reply string
		formulas          []string
		moves             int      // numbers moved (0: the file stays)
		gone              []string // numbers no longer written
		kept              []string // numbers still written
	}{
		{"a split", "212 and there are 4 of us", "That's 53 each.", []string{"212/4"}, 1, []string{"212", "53"}, []string{"4"}},
		{"thousands", "rent 950, groceries 320 and 2 subscriptions at 12 each: the total?", "Your total is 1,294.", []string{"950+320+2*12"}, 3, []string{"950", "320", "12", "1,294", "1294"}, []string{"2"}},
		{"a fraction", "Dinner for 4 came to 186 euros: what's 186/4?", "It's 46.5 euros each.", []string{"186/4"}, 1, []string{"186", "46.5"}, []string{"4"}},
		{"two formulas share a number", "the bill was 186 plus a 24 tip, and a 30 taxi", "52.5 each, then 60 with the taxi.", []string{"(186+24)/4", "(186+24+30)/4"}, 3, []string{"186", "24", "30", "52.5", "60"}, nil},
		{"a derived number stays", "I paid 87, Kenji 64 and Mei 45: each share?", "The total of 196 is about 65.33 each.", []string{"(87+64+45)/3"}, 0, nil, []string{"87", "196", "65.33"}},
		{"a date stays", "On April 10 the bus costs 36000 yen for 9 people.", "That's 4,000 yen per person.", []string{"36000/9"}, 0, nil, []string{"36000", "10"}},
		{"a number inside a word stays", "what's 12*45? (see 12x45)", "540.", []string{"12*45"}, 0, nil, []string{"12", "540"}},
		{"numbers the user did not give stay", "How much is 40 shares at the price you found?", "Worth $2,320.", []string{"40*58"}, 0, nil, []string{"58"}},
		{"one digit stays", "what's 7*8?", "56.", []string{"7*8"}, 0, nil, []string{"7", "8", "56"}},
		{"a year's months and weeks stay", "Work out 2400*12 and 95*52 for my yearly budget.", "That's 28800 and 4940.", []string{"2400*12", "95*52"}, 2, []string{"2400", "95", "28800", "4940"}, []string{"12", "52"}},
		{"hours of a day stay", "A machine makes 35 parts an hour: how many in 24 hours?", "It makes 840.", []string{"35*24"}, 1, []string{"35", "840"}, []string{"24"}},
	}
	for _, tt := range tests {
		in := calcFile(t, tt.user, tt.reply, tt.formulas...)
		out, n := moveFormulas(in, 7, "level-1/"+tt.name+".jsonl")
		if n != tt.moves || (n == 0) != (out == in) {
			t.Errorf("%s: %d numbers moved, want %d:\n%s", tt.name, n, tt.moves, out)
			continue
		}
		written := map[string]bool{}
		for _, k := range numberTokens(out) {
			written[out[k[0]:k[1]]] = true
		}
		for _, g := range tt.gone {
			if written[g] {
				t.Errorf("%s: %q is still written:\n%s", tt.name, g, out)
			}
		}
		for _, k := range tt.kept {
			if !strings.Contains(out, k) {
				t.Errorf("%s: %q is no longer written:\n%s", tt.name, k, out)
			}
		}
		// Every recorded output is the Calculator's for the moved formula.
		fs, _, ok := readFormulas(out)
		if !ok || len(fs) != len(tt.formulas) {
			t.Fatalf("%s: the moved file reads as %d formulas (ok %v)", tt.name, len(fs), ok)
		}
		for _, f := range fs {
			if r, ok := tools.Calculate(f.text); !ok || r != f.output {
				t.Errorf("%s: %s records %v, the Calculator answers %v", tt.name, f.text, f.output, r)
			}
		}
		if again, _ := moveFormulas(in, 7, "level-1/"+tt.name+".jsonl"); again != out {
			t.Errorf("%s: the same seed and path moved the numbers otherwise", tt.name)
		}
	}
}

func TestRedrawKeepsDigitsAndZeros(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// A number of more than nine digits before its zeros stays as it is.
	if got := redraw("12345678901234567890", rand.New(rand.NewPCG(1, 2)), true); got != "12345678901234567890" {
		t.Errorf("redraw of 20 digits = %s", got)
	}
	for _, n := range []string{"12", "87", "212", "1260", "36000", "1000", "5", "90"} {
		for range 200 {
			m, wide := redraw(n, rng, false), redraw(n, rng, true)
			core := strings.TrimRight(n, "0")
			for _, m := range []string{m, wide} {
				if len(m) != len(n) || m == n || strings.TrimRight(m, "0") != m[:len(core)] || m[0] == '0' {
					t.Fatalf("redraw(%s) = %s: want as many digits and trailing zeros, another value", n, m)
				}
			}
			// Its leading part within two fifths of the old one's (at least 2): a tip stays a
			// tip's size.
			was, _ := strconv.Atoi(core)
			got, _ := strconv.Atoi(strings.TrimRight(m, "0"))
			if d := max(got-was, was-got); d > max(2, was*2/5) {
				t.Fatalf("redraw(%s) = %s: more than two fifths away", n, m)
			}
		}
	}
}

func TestNumberTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"It's 46.5 euros, 1,379 in all; 4pm, Room12, sakura_2024.", []string{"46.5", "1,379"}},
		{`"formula":"(186+24)/4"},"output":52.5,`, []string{"186", "24", "4", "52.5"}},
		{"87, 64 and 45. The end 53.", []string{"87", "64", "45", "53"}},
		{"2023-04-10 at 7:30", []string{"2023", "04", "10", "7", "30"}},
	}
	for _, tt := range tests {
		var got []string
		for _, k := range numberTokens(tt.in) {
			got = append(got, tt.in[k[0]:k[1]])
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("numberTokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestBuiltinFormulasMove: in the builtin data's variants, the formulas of the files whose numbers
// moved record what the Calculator answers, and none of their original numbers is written there but
// a count of the calendar in a file that speaks of its periods (12 months, 52 weeks; see
// calendarCounts).
func TestBuiltinFormulasMove(t *testing.T) {
	for _, seed := range seeds[:3] {
		files, out, rep := variantOf(t, seed)
		if rep.Moved[KindNumber] == 0 {
			t.Errorf("seed %d moves no formula's number", seed)
		}
		files2 := 0
		for p, b := range files {
			if !strings.Contains(string(b), `"Calculator"`) || string(out[p]) == string(b) {
				continue
			}
			was, said, _ := readFormulas(string(b))
			now, _, ok := readFormulas(string(out[p]))
			if !ok || len(now) != len(was) {
				t.Fatalf("seed %d: %s reads as %d formulas, was %d", seed, p, len(now), len(was))
			}
			moved := false
			for i, f := range now {
				if r, ok := tools.Calculate(f.text); !ok || r != f.output {
					t.Errorf("seed %d: %s: %s records %v, the Calculator answers %v", seed, p, f.text, f.output, r)
				}
				if f.text != was[i].text {
					moved = true
				}
			}
			if !moved {
				continue
			}
			files2++
			written := map[string]bool{}
			for _, k := range numberTokens(string(out[p])) {
				written[string(out[p][k[0]:k[1]])] = true
			}
			for _, f := range was {
				for _, k := range numberTokens(f.text) {
					if n := f.text[k[0]:k[1]]; len(n) >= 2 && said[n] && written[n] && !(periodWords(string(b)) && listed(calendarCounts, n)) {
						t.Errorf("seed %d: %s still writes %s, a number of its formula %s", seed, p, n, f.text)
					}
				}
			}
		}
		if files2 == 0 {
			t.Errorf("seed %d: no file's formula moved", seed)
		}
	}
}
