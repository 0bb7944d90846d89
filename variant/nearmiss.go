package variant

import (
	"strings"
	"unicode/utf8"
)

// A near miss is a token a text writes close to a value but not it: a mistyped password
// ("jasmine1995" for "jasmine_1995"), a username misspelt ("AmaraOkafur"), an id with two digits
// swapped, an address written "kwame.mensah(at)inbox". The texts around it say how it misses ("I
// swapped the last two digits", "theres an underscore", "with an o"): the miss must stay the same
// miss of its value's new value, or the file must stay as it is. The plan keeps some near misses (a
// mistyped secret moves with its base, see plan.secrets; a name's plural, an address's other
// domain move with the name); Learn finds the others, and every variant serves their files
// unchanged (see build). Only learn-time code is here: the engine carries the list Learn wrote, not
// the finder.

// nearSeeds are the variants Learn makes the plans of to tell a near miss the plan keeps (the same
// miss of the new value in every one) from one it does not.
const nearSeeds = 20

// missSig returns how the token b misses the value a, or "" when it does not: "case" (the same but
// for the case of letters), "sep…" (but for separators _ . - and the case), "domain"/"local …" (an
// address's local part the same or a near miss, its domain another or left out; "(at)" read as
// "@"), "swap" (two neighbouring characters swapped), "edit…" (one edit, or two in a value of eight
// characters or more: a character changed, added or dropped). title says a is a name's or a place's
// word (a capitalised word): a token in lower case is another word, not its miss. a shorter than
// four characters has no near miss but in case and separators.
func missSig(a, b string, title bool) string {
	if a == b || b == "" || title && !(b[0] >= 'A' && b[0] <= 'Z') {
		return ""
	}
	la, lb := atSign(lowerASCII(a)), atSign(lowerASCII(b))
	if la == lb {
		return "case"
	}
	if local, domain, ok := strings.Cut(la, "@"); ok {
		bl, bd, bok := strings.Cut(lb, "@")
		if bl == local {
			return "domain" // the local part as it is: the domain changed or left out
		}
		if !bok || bd == domain {
			if s := missSig(local, bl, false); s != "" && s != "case" {
				return "local " + s
			}
		}
		return ""
	}
	if sa, sb := noSeps(la), noSeps(lb); sa == sb {
		return "sep" + strings.Repeat("+", max(len(lb)-len(sb), 0)) + strings.Repeat("-", max(len(la)-len(sa), 0))
	}
	if len(la) < 4 {
		return ""
	}
	d := editDistance(la, lb, 2)
	switch {
	case d == 1 && len(la) == len(lb) && swapped(la, lb):
		return "swap"
	case d == 1, d == 2 && len(la) >= 8:
		return "edit" + string(rune('0'+d)) + strings.Repeat("+", max(len(lb)-len(la), 0)) + strings.Repeat("-", max(len(la)-len(lb), 0))
	}
	return ""
}

// atSign writes an address's "(at)" or "[at]" as "@".
func atSign(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "(at)", "@"), "[at]", "@")
}

// noSeps drops the separators _ . - of s.
func noSeps(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '.' || r == '-' {
			return -1
		}
		return r
	}, s)
}

// swapped reports whether a and b, of one length, differ by two neighbouring characters swapped.
func swapped(a, b string) bool {
	for i := 0; i+1 < len(a); i++ {
		if a[i] != b[i] {
			return a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
		}
	}
	return false
}

// editDistance is the optimal string alignment distance of a and b (a neighbouring swap is one
// edit), or limit+1 when it is more than limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, prev2[j-2]+1)
			}
			cur[j] = c
			low = min(low, c)
		}
		if low > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}

// tokens returns the words of a file's text as a value or a near miss of one may be written: its runs
// of characters between spaces and the JSON marks " { } [ ] \, each as it is when it is a value of
// keys, else with the punctuation at its ends trimmed ("AmaraOkafor," → "AmaraOkafor"); once each,
// in the order first written.
func tokens(s string, keys map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '"' || r == '{' || r == '}' || r == '[' || r == ']' || r == '\\'
	}) {
		t = trimToKey(t, keys)
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// trimToKey trims the punctuation at t's ends, a character at a time, until t is a value of keys
// ("Kente2023!." → "Kente2023!") or has none left.
func trimToKey(t string, keys map[string]bool) string {
	for {
		if _, ok := keys[t]; ok || t == "" {
			return t
		}
		switch r, n := utf8.DecodeLastRuneInString(t); {
		case strings.ContainsRune(punct, r):
			t = t[:len(t)-n]
		default:
			r, n = utf8.DecodeRuneInString(t)
			if !strings.ContainsRune(punct, r) {
				return t
			}
			t = t[n:]
		}
	}
}

// punct are the marks a text writes around a word.
const punct = ".,;:!?()'`*<>‘’“”—–"

// nearKeys returns the values of f whose near misses Learn looks for, each with whether it is a
// capitalised word (a name's or a place's: see missSig): usernames, e-mail addresses, passwords,
// tokens, appointment ids, and the words of people's names and places. Amounts and item words are
// not: readings near one another are other readings, and an item word's near words other words.
func nearKeys(f *found) map[string]bool {
	keys := map[string]bool{}
	for _, k := range []Kind{KindUsername, KindEmail, KindPassword, KindToken} {
		for v := range f.values[k] {
			keys[v] = false
		}
	}
	for v := range f.tokenArgs {
		keys[v] = false
	}
	for u, a := range f.accounts {
		keys[u], keys[a.password], keys[a.token], keys[a.email] = false, false, false, false
	}
	for id := range f.appointments {
		keys[id] = false
	}
	words := func(s string) {
		for _, w := range strings.Fields(strings.ReplaceAll(s, ",", " ")) {
			if _, ok := keys[w]; !ok && w[0] >= 'A' && w[0] <= 'Z' && !genericPlaceWords[lowerASCII(w)] {
				keys[w] = true
			}
		}
	}
	for _, k := range []Kind{KindPerson, KindPlace} {
		for v := range f.values[k] {
			words(v)
		}
	}
	for d := range f.values[kindDoctor] {
		words(strings.TrimPrefix(d, "Dr. "))
	}
	for u := range f.values[KindUsername] {
		words(strings.Join(camelHumps(u), " "))
	}
	delete(keys, "")
	return keys
}

// nearPair is a value a file writes and a near miss of it the file writes too.
type nearPair struct{ value, miss, sig string }

// nearPairs returns the near misses the text s writes of the values of keys it writes. A word of
// fixed (lower case: the tools' vocabulary, JSON's names) is never a near miss ("Meta" of "Mehta").
func nearPairs(s string, keys, fixed map[string]bool) []nearPair {
	toks := tokens(s, keys)
	var vals []string
	has := map[string]bool{}
	for _, t := range toks {
		if _, ok := keys[t]; ok {
			vals = append(vals, t)
			has[t] = true
		}
	}
	var out []nearPair
	for _, v := range vals {
		for _, t := range toks {
			if has[t] && keys[t] == keys[v] && t < v || !has[t] && fixed[lowerASCII(t)] {
				continue // two values of the file: each pair once; or a word of the tools
			}
			if sig := missSig(v, t, keys[v]); sig != "" {
				out = append(out, nearPair{v, t, sig})
			}
		}
	}
	return out
}

// nearMisses returns the files that write a near miss (see nearPairs) that the plan of a seed from
// 1 to nearSeeds does not keep: it moves the value or its miss, and the new ones are not the same
// miss (missSig) of each other. Those files are served unchanged in every variant (see build): the
// values near misses are made of (people's, accounts', appointments') move in every seed. A near
// miss no plan moves is of a value that stays whatever the seed (a fixed word, a username not made
// of names).
func nearMisses(src *source, f *found) map[string]bool {
	keys := nearKeys(f)
	type filePair struct {
		path string
		nearPair
	}
	var pairs []filePair
	for _, p := range src.texts {
		for _, np := range nearPairs(string(src.files[p]), keys, f.protected) {
			pairs = append(pairs, filePair{p, np})
		}
	}
	out := map[string]bool{}
	for _, fp := range pairs {
		if lettersNamed(string(src.files[fp.path]), fp.value, fp.miss) {
			out[fp.path] = true // "capital N": a variant's miss is another letter's
		}
	}
	for seed := uint64(1); seed <= nearSeeds && len(pairs) > 0; seed++ {
		pl := newPlan(f, seed)
		r := newReplacer(append(pl.moves, pl.pins...))
		for _, fp := range pairs {
			v, m := r.replace(fp.value, nil), r.replace(fp.miss, nil)
			if (v != fp.value || m != fp.miss) && missSig(v, m, keys[fp.value]) != fp.sig {
				out[fp.path] = true
			}
		}
	}
	return out
}

// letterWords are the words a text names a letter after ("capital N", "with an o"), space-separated.
const letterWords = " capital letter lowercase uppercase lower upper small an "

// lettersNamed reports whether the text s names a character by which miss differs from value (of
// one length) after one of letterWords ("ah sorry, capital N: tangoNight77" for "tangonight77"):
// the texts say how the miss misses by that character, which a variant's miss does not have.
func lettersNamed(s, value, miss string) bool {
	if len(value) != len(miss) {
		return false
	}
	for i := range len(value) {
		for _, c := range [2]byte{value[i], miss[i]} {
			if value[i] == miss[i] {
				break
			}
			for j := strings.IndexByte(s, c); j >= 0; {
				if j > 0 && s[j-1] == ' ' && (j+1 == len(s) || !isWordByte(s[j+1])) && listed(letterWords, lowerASCII(wordBefore(s, j))) {
					return true
				}
				k := strings.IndexByte(s[j+1:], c)
				if k < 0 {
					break
				}
				j += 1 + k
			}
		}
	}
	return false
}
