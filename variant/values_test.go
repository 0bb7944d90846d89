package variant

import (
	"slices"
	"strings"
	"testing"
)

func TestParamKind(t *testing.T) {
	for _, c := range []struct {
		tool, param string
		want        Kind
	}{
		{"GetUserToken", "username", KindUsername},
		{"OpenBankAccount", "name", KindPerson},
		{"TimedSwitch", "name", ""},
		{"AddMeeting", "attendees", KindPerson},
		{"SendEmail", "receiver", KindEmail},
		{"QueryStock", "stock_code", ""},
		{"AddAgenda", "content", kindText},
	} {
		if got := paramKind(c.tool, c.param); got != c.want {
			t.Errorf("paramKind(%s, %s) = %q, want %q", c.tool, c.param, got, c.want)
		}
	}
}

func TestCamelHumps(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"AmaraOkafor", []string{"Amara", "Okafor"}},
		{"LiWei", []string{"Li", "Wei"}},
		{"rafael_silva", nil},
		{"Amara", nil},
		{"ABCDef", nil},
	} {
		if got := camelHumps(c.in); !slices.Equal(got, c.want) {
			t.Errorf("camelHumps(%q) = %v", c.in, got)
		}
	}
}

// TestDiscoverBuiltin: the builtin data's values are found from its world and its gold calls, and
// the fixed vocabulary is protected.
func TestDiscoverBuiltin(t *testing.T) {
	f := discover(parse(builtinFiles(t)))
	for _, k := range []Kind{KindPerson, KindUsername, KindPassword, KindEmail, KindPlace} {
		if len(f.values[k]) < 5 {
			t.Errorf("only %d values of kind %s found", len(f.values[k]), k)
		}
	}
	if len(f.accounts) == 0 || len(f.appointments) == 0 {
		t.Errorf("no accounts (%d) or appointments (%d)", len(f.accounts), len(f.appointments))
	}
	for _, w := range []string{"token", "username", "meeting", "agenda", "role", "param", "dict"} {
		if !f.protected[w] {
			t.Errorf("%q is fixed vocabulary, but not protected", w)
		}
	}
}

func TestFoldAccents(t *testing.T) {
	if got := foldAccents("Tomás Ibáñez"); got != "tomas ibanez" {
		t.Errorf("foldAccents = %q", got)
	}
}

func TestLetterRuns(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"sven_holm", []string{"sven", "holm"}},
		{"Jan.Kowalski", []string{"Jan", "Kowalski"}},
		{"nadia_k", []string{"nadia", "k"}},
		{"qa_probe_7", []string{"qa", "probe"}},
		{"liwei88", []string{"liwei"}},
		{"AmaraOkafor", nil}, // CamelCase: camelHumps's
		{"léa_martin", nil},  // not ASCII
		{"a+b", nil},
	} {
		if got := letterRuns(c.in); !slices.Equal(got, c.want) {
			t.Errorf("letterRuns(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestIdentityNames finds the people usernames and addresses name, written as the texts write
// them, and leaves out a part a text writes as no name does.
func TestIdentityNames(t *testing.T) {
	f := &found{values: map[Kind]map[string]bool{KindPerson: {"Ana Lucía Torres": true},
		KindUsername: {"lea_martin": true, "qa_probe_7": true, "liwei88": true, "analucia_t": true},
		KindEmail:    {"baraka.m@inbox.com": true, "Jan.Kowalski@firma.de": true, "ravi.menon.savings@bank.example": true}}}
	f.identityNames([]string{"Welcome, Léa! Your account lea_martin is ready.", "The QA team asked.", "My friend Baraka"})
	// "analucia_t" names Ana Lucía Torres (her first two names glued), not a person "Analucia".
	if got, want := sorted(f.values[KindPerson]), []string{"Ana Lucía Torres", "Baraka", "Jan Kowalski", "Léa Martin"}; !slices.Equal(got, want) {
		t.Errorf("people %q, want %q", got, want)
	}
}

// TestAccountsMoveWithTheirHolders: an account named from its holder's full name and another word
// ("ravi.menon.savings"), or from their first two names glued ("analucia_t" of Ana Lucía Torres),
// moves with the names, so neither the original's names survive in it nor a name of no one in the
// variant's dialogue.
func TestAccountsMoveWithTheirHolders(t *testing.T) {
	for _, seed := range []uint64{61, 74, 88} {
		files, out, rep := variantOf(t, seed)
		for file, account := range map[string]string{"acct-open-bank-26.jsonl": "ravi.menon.savings", "acct-open-bank-27.jsonl": "analucia_t"} {
			p := "lv1-lv2-samples/level-1-given-desc/" + file
			if !strings.Contains(string(files[p]), account) {
				t.Fatalf("%s no longer holds %q: pick another file", p, account)
			}
			moved := ""
			for _, m := range rep.Moves {
				if m.From == account {
					moved = m.To
				}
			}
			if moved == "" || strings.Contains(string(out[p]), account) || !strings.Contains(string(out[p]), moved) {
				t.Errorf("seed %d: %s: %q moved to %q, and the variant holds the original %v", seed, file, account, moved, strings.Contains(string(out[p]), account))
			}
			// The account's name parts are the holder's new ones.
			holder := ""
			for _, m := range rep.Moves {
				if m.Kind == KindPerson && (m.From == "Ravi Menon" || m.From == "Ana Lucía Torres") && strings.Contains(string(files[p]), m.From) {
					holder = m.To
				}
			}
			first := strings.ToLower(foldAccents(strings.Fields(holder + " ?")[0]))
			if holder == "" || !strings.HasPrefix(moved, first) {
				t.Errorf("seed %d: %s: account %q for %q", seed, file, moved, holder)
			}
		}
	}
}

// TestUsernamesMoveWithTheirPeople makes variants and finds the accounts a user opens, the
// addresses they give and the greetings that name them moved together.
func TestUsernamesMoveWithTheirPeople(t *testing.T) {
	const file = "lv1-lv2-samples/level-1-given-desc/acct-register-alarm-52.jsonl"
	for _, seed := range seeds[:3] {
		files, out, _ := variantOf(t, seed)
		was, now := string(files[file]), string(out[file])
		for _, old := range []string{"lea_martin", "lea.martin@courriel.fr", "Léa"} {
			if !strings.Contains(was, old) {
				t.Fatalf("%s no longer holds %q: pick another file", file, old)
			}
			if strings.Contains(now, old) {
				t.Errorf("seed %d: %s still holds %q", seed, file, old)
			}
		}
	}
}
