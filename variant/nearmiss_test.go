package variant

import (
	"slices"
	"testing"
)

func TestMissSig(t *testing.T) {
	for _, c := range []struct {
		value, token string
		title        bool
		want         string
	}{
		{"38557021", "38557012", false, "swap"},                              // "I swapped the last two digits"
		{"jasmine_1995", "jasmine1995", false, "sep-"},                       // "theres an underscore"
		{"jasmine1995", "jasmine_1995", false, "sep+"},                       // and the other way
		{"RafaelSilva", "rafael_silva", false, "sep+"},                       // a separator, the case aside
		{"AmaraOkafor", "AmaraOkafur", false, "edit1"},                       // "with an o"
		{"Kente2023!", "Kente2023", false, "edit1-"},                         // "forgot the exclamation mark"
		{"Kente2023!", "Kente2022!", false, "edit1"},                         // a digit changed
		{"abcdefgh", "abxdefgy", false, "edit2"},                             // two edits in eight characters
		{"tangoNight77", "tangonight77", false, "case"},                      // the case of one letter
		{"kwame.mensah@inbox.com", "kwame.mensah(at)inbox", false, "domain"}, // "(at)", no domain
		{"priya.sharma@inbox.com", "priya.sharma@inbox", false, "domain"},
		{"aisha_rahman@letterbox.net", "AISHA_RAHMAN@@letterbox.net", false, "domain"},
		{"ingrid.larsen@nordmail.org", "ingrid.larsen@nordpost.org", false, "domain"},
		{"kwame.mensah@inbox.com", "kwame.mensa@inbox.com", false, "local edit1-"},
		{"sven.holm@nordpost.org", "sven_holm", false, "local sep+-"},
		{"Okafor", "Okafors", true, "edit1+"}, // a plural: the replacer moves it alike
		// Not near misses.
		{"AmaraOkafor", "AmaraOkafor", false, ""},
		{"Okafor", "okafur", true, ""},      // a name's near word in lower case is another word
		{"Kim", "Kin", false, ""},           // too short to tell a typo from another value
		{"abcdef", "abxyef", false, ""},     // two edits in fewer than eight characters
		{"abcdefgh", "abxyzfgh", false, ""}, // three edits
		{"kwame.mensah@inbox.com", "yusuf.ndlovu@inbox.com", false, ""},
		{"kwame.mensah@inbox.com", "kwame.mensah@inbox.com.", false, "domain"}, // trimmed before: see tokens
		{"AmaraOkafor", "amara.okafor@inbox.com", false, ""},
	} {
		if got := missSig(c.value, c.token, c.title); got != c.want {
			t.Errorf("missSig(%q, %q, %v) = %q, want %q", c.value, c.token, c.title, got, c.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"okafor", "okafur", 1}, {"ab", "ba", 1}, {"kente2023", "kente2023!", 1}, {"abc", "abc", 0},
		{"abcdef", "abxyef", 2}, {"abcdefgh", "xbcdefgy z", 3}, {"a", "abcd", 3},
	} {
		if got := editDistance(c.a, c.b, 2); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestTokens(t *testing.T) {
	keys := map[string]bool{"Kente2023!": false, "AmaraOkafor": false}
	s := `{"role": "User", "text": "log me in: AmaraOkafor, password Kente2023!. It's kwame.mensah(at)inbox — \"Oops\""}`
	got := tokens(s, keys)
	for _, want := range []string{"AmaraOkafor", "Kente2023!", "kwame.mensah(at)inbox", "Oops", "role"} {
		if !slices.Contains(got, want) {
			t.Errorf("tokens of %s: %q missing from %q", s, want, got)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"Kente2023!.", "Kente2023!"}, // a value's own mark kept
		{"(AmaraOkafor),", "AmaraOkafor"},
		{"'jasmine1995'", "jasmine1995"},
		{"—", ""},
	} {
		if got := trimToKey(c.in, keys); got != c.want {
			t.Errorf("trimToKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNearMissesLearned: the builtin files whose near misses no plan keeps are learned, and those
// the plan keeps are not (a mistyped password moves with the world's own: "Kente2023" with
// "Kente2023!"; a plural, a username's separator, another domain of an address).
func TestNearMissesLearned(t *testing.T) {
	f := learnedOnce(builtinFiles(t), nil)
	dir := "lv1-lv2-samples/level-1-given-desc/"
	for _, c := range []struct {
		path string
		near bool
	}{
		{dir + "care-cancel-03.jsonl", true},                                     // 38557012 for 38557021
		{"lv1-lv2-samples/level-2-toolsearcher/find-appointment-04.jsonl", true}, // the same
		{dir + "wrong-email-01.jsonl", true},                                     // kwame.mensah(at)inbox
		{dir + "wrong-email-02.jsonl", true},                                     // priya.sharma@inbox
		{dir + "wrong-email-04.jsonl", true},                                     // AISHA_RAHMAN@@letterbox.net
		{dir + "acct-login-balance-01.jsonl", true},                              // jasmine1995 for jasmine_1995
		{dir + "plan-mentor-invite-16.jsonl", true},                              // AmaraOkafur for AmaraOkafor
		{dir + "acct-modify-password-22.jsonl", false},                           // Kente2023 for Kente2023!: kept
		{dir + "info-cross-07.jsonl", false},                                     // Kente2022! for Kente2023!: kept
		{dir + "acct-change-username-49.jsonl", false},                           // RafaelSilva, rafael_silva: kept
		{dir + "plan-trattoria-50.jsonl", false},                                 // the Ferraris: kept
		{dir + "plan-onboarding-cancel-04.jsonl", true},                          // "capital N: tangoNight77"
	} {
		if f.nearMisses[c.path] != c.near {
			t.Errorf("%s: learned as a near miss %v, want %v", c.path, f.nearMisses[c.path], c.near)
		}
	}
}

// TestNearMissesKept makes the variants of seeds 1 to 40 (twice the seeds Learn tries) and checks
// every file served with its values moved: no text writes a near miss of an original value the file
// no longer writes (the miss stayed, its value moved: "38557012" beside a moved "38557021"), and each
// near miss the original writes is the same miss of its value in the variant (both moved alike:
// "jasmine1995" and "jasmine_1995" are not two unrelated passwords).
func TestNearMissesKept(t *testing.T) {
	files := builtinFiles(t)
	f := learn(parse(files))
	keys := nearKeys(f)
	was, pairs := map[string][]string{}, map[string][]nearPair{} // by file, as the original writes them
	for _, p := range f.texts {
		was[p], pairs[p] = tokens(string(files[p]), keys), nearPairs(string(files[p]), keys, f.protected)
	}
	for seed := uint64(1); seed <= 2*nearSeeds; seed++ {
		out, rep, err := Make(files, seed)
		if err != nil {
			t.Fatal(err)
		}
		r := newReplacer(rep.Moves)
		for _, fr := range rep.Files {
			if fr.Unchanged {
				continue
			}
			b := string(out[fr.Path])
			if b == string(files[fr.Path]) {
				continue
			}
			was, is := was[fr.Path], tokens(b, keys)
			for _, v := range was {
				title, ok := keys[v]
				if !ok || slices.Contains(is, v) {
					continue // not a value, or a value the variant still writes
				}
				for _, tok := range is {
					if !slices.Contains(was, tok) || f.protected[lowerASCII(tok)] {
						continue // a new value (which may happen to be near an old one), or a fixed word
					}
					if sig := missSig(v, tok, title); sig != "" {
						t.Errorf("seed %d: %s writes %q, a near miss (%s) of %q, which moved to %q", seed, fr.Path, tok, sig, v, r.replace(v, nil))
					}
				}
			}
			for _, np := range pairs[fr.Path] {
				v, m := r.replace(np.value, nil), r.replace(np.miss, nil)
				if (v != np.value || m != np.miss) && missSig(v, m, keys[np.value]) != np.sig {
					t.Errorf("seed %d: %s: %q (%s of %q) became %q, %s of %q", seed, fr.Path, np.miss, np.sig, np.value, m, missSig(v, m, keys[np.value]), v)
				}
			}
		}
		near := 0
		for _, u := range rep.Unchanged {
			if u.Check == checkNearMiss {
				near++
			}
		}
		if near != len(f.nearMisses) {
			t.Errorf("seed %d: %d files served unchanged for their near misses, %d learned", seed, near, len(f.nearMisses))
		}
	}
}

func TestLettersNamed(t *testing.T) {
	for _, c := range []struct {
		text, value, miss string
		want              bool
	}{
		{"ah sorry, capital N: tangoNight77", "tangoNight77", "tangonight77", true},
		{"it is with an o, not an a", "AmaraOkafor", "AmaraOkafur", true},
		{"the letter x is missing", "abcd", "abce", false},
		{"a capital N", "tangoNight77", "tangoNight78", false}, // the miss is in a digit the text does not name
		{"tangoNight77, then tangonight77", "tangoNight77", "tangonight77", false},
		{"capital N", "jasmine_1995", "jasmine1995", false}, // of another length
	} {
		if got := lettersNamed(c.text, c.value, c.miss); got != c.want {
			t.Errorf("lettersNamed(%q, %q, %q) = %v, want %v", c.text, c.value, c.miss, got, c.want)
		}
	}
}
