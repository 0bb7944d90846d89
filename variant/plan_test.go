package variant

import (
	"math/rand/v2"
	"testing"
)

func testPlan() *plan {
	return &plan{by: map[string]int{}, taken: map[string]bool{}, pinned: map[string]bool{},
		f: &found{words: map[string]bool{}, known: map[string]bool{}}, rng: rand.New(rand.NewPCG(5, 6))}
}

func TestRebuild(t *testing.T) {
	p := testPlan()
	p.add(KindName, "Li", "Asha", title)
	p.add(KindName, "Wei", "Arnaud", title)
	p.add(KindName, "Tomás", "Kemal", title)
	parts := p.partsByFold()
	for _, c := range []struct{ in, want string }{
		{"LiWei", "AshaArnaud"},
		{"liwei88", "ashaarnaud88"},
		{"li.wei", "asha.arnaud"},
		{"TomasWei", "KemalArnaud"},
		{"tomas_w", "kemal_w"}, // an initial stays
		{"w.li", "w.asha"},
		// Other words after a full name stay: an account named for its holder.
		{"li.wei.savings", "asha.arnaud.savings"},
		{"LiWeiHome", "AshaArnaudHome"},
	} {
		if got, ok := p.rebuild(c.in, parts); !ok || got != c.want {
			t.Errorf("rebuild(%q) = %q %v, want %q", c.in, got, ok, c.want)
		}
	}
	for _, u := range []string{"yuki_t92", "li_savings", "savings.li.wei"} {
		if got, ok := p.rebuild(u, parts); ok {
			t.Errorf("rebuilt %q, a username not made of moved names (or one before another word): %q", u, got)
		}
	}
}

func TestNearMiss(t *testing.T) {
	p := testPlan()
	p.add(KindPassword, "tangoNight77", "qwertUiopa12", exact)
	bases := map[string]bool{"tangoNight77": true}
	for _, c := range []struct{ miss, want string }{
		{"tangonight77", "qwertuiopa12"}, // the case of one letter
		{"tangoNight7", "qwertUiopa1"},   // one character short
		{"tangoNight77!", "qwertUiopa12!"},
	} {
		base := p.nearMiss(c.miss, bases)
		if base != "tangoNight77" {
			t.Fatalf("nearMiss(%q) = %q", c.miss, base)
		}
		if got := p.missLike(c.miss, base); got != c.want {
			t.Errorf("missLike(%q) = %q, want %q", c.miss, got, c.want)
		}
	}
	if p.nearMiss("Gelato!2023", bases) != "" {
		t.Errorf("an unrelated password is a near miss")
	}
	// Another character of the same class: another one of the new value's, never the same.
	got := p.missLike("tangoNight78", "tangoNight77")
	if len(got) != 12 || got[:11] != "qwertUiopa1" || got[11] == '2' || class(got[11]) != '0' {
		t.Errorf("missLike of a changed digit = %q", got)
	}
}

// TestNearMissOfTheWorldsPassword: a stated password that misses a moved account's own one is
// derived from it, whatever their order or the other misses ("Kente2022!" sorts first, and misses
// "Kente2023!" too): every miss stays the same miss of the new password.
func TestNearMissOfTheWorldsPassword(t *testing.T) {
	p := testPlan()
	p.f.accounts = map[string]account{"KwameMensah": {password: "Kente2023!", token: "tok123456789"}}
	p.f.values = map[Kind]map[string]bool{KindPassword: {"Kente2022!": true, "Kente2023": true, "Kente2023!": true}}
	p.add(KindUsername, "KwameMensah", "YusufNdlovu", fold)
	p.secrets()
	own := p.to("Kente2023!")
	if own == "Kente2023!" {
		t.Fatal("the account's password did not move")
	}
	for miss, sig := range map[string]string{"Kente2023": "edit1-", "Kente2022!": "edit1"} {
		if got := missSig(own, p.to(miss), false); got != sig || p.to(miss) == miss {
			t.Errorf("%q → %q: %s of %q, want %s", miss, p.to(miss), got, own, sig)
		}
	}
}
