package variant

import (
	"math/rand/v2"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Move is one value of the data and the value that replaces it in a variant.
type Move struct {
	Kind Kind   `json:"kind"`
	From string `json:"from"`
	To   string `json:"to"`
	// mode is how From is matched in a text (see match); upper is From in capitals (title mode).
	mode  matchMode
	upper string
	// alias marks another way of writing the value of the move before it (an amount's "15,207.74"
	// beside its "15207.74"): a report counts the value once.
	alias bool
}

// matchMode says how a move's value is found in a text; every mode matches whole words only.
type matchMode uint8

const (
	// exact: byte for byte (passwords, tokens, ids).
	exact matchMode = iota
	// fold: in any ASCII letter case, the replacement written in the surface's case ("dinner with
	// Arjun's parents" for "Dinner with Arjun's parents").
	fold
	// title: as written or in capitals (a name part: "Min" is a name, "min" a word), a plural "s"
	// kept ("the Ferraris").
	title
)

// plan is a variant's moves, by original value, and the order they were made in.
type plan struct {
	moves []Move
	by    map[string]int // From → index in moves
	// taken holds the new values given so far, lower case: no two values get the same new one.
	taken map[string]bool
	// pins are the values that stay but must be found as themselves (see pinStaying).
	pins   []Move
	pinned map[string]bool
	f      *found
	rng    *rand.Rand
}

// newPlan draws the moves of seed from what discover found. Every draw happens in a fixed order
// (kinds in turn, values sorted), so a seed always gives the same moves.
func newPlan(f *found, seed uint64) *plan {
	p := &plan{by: map[string]int{}, taken: map[string]bool{}, pinned: map[string]bool{}, f: f,
		rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	p.names()
	p.usernames()
	p.emails()
	p.secrets()
	p.ids()
	p.places()
	p.amounts()
	p.items()
	p.pinStaying()
	return p
}

// pinStaying pins the usernames, e-mail addresses, passwords and tokens that stay: the replacer
// finds them as themselves, so that no moved value is found inside one ("Kente2023" inside the
// password "Kente2023!" of an account that stays).
func (p *plan) pinStaying() {
	var stay []string
	for _, k := range []Kind{KindUsername, KindEmail, KindPassword} {
		stay = append(stay, sorted(p.f.values[k])...)
	}
	for _, u := range sortedKeys(p.f.accounts) {
		stay = append(stay, p.f.accounts[u].token)
	}
	stay = append(stay, sorted(p.f.tokenArgs)...)
	for _, s := range stay {
		if _, moved := p.by[s]; !moved && startsWord(s) && !p.pinned[s] {
			p.pinned[s] = true
			p.pins = append(p.pins, Move{From: s, To: s, mode: exact})
		}
	}
}

// add records a move unless its value already has one (the first kind to claim a value keeps it).
func (p *plan) add(k Kind, from, to string, mode matchMode) {
	if from == to || from == "" || !startsWord(from) {
		return
	}
	if _, ok := p.by[from]; ok {
		return
	}
	p.by[from] = len(p.moves)
	p.moves = append(p.moves, Move{Kind: k, From: from, To: to, mode: mode, upper: strings.ToUpper(from)})
	p.taken[lowerASCII(to)] = true
}

// to returns the new value of from, or from when it does not move.
func (p *plan) to(from string) string {
	if i, ok := p.by[from]; ok {
		return p.moves[i].To
	}
	return from
}

// startsWord reports whether s starts and ends where a word can: the matcher finds values at word
// starts only.
func startsWord(s string) bool { return s != "" && isWordByte(s[0]) }

// isTaken reports whether a candidate new value is a word of the data (a pool entry), a value
// found, or already given.
func (p *plan) isTaken(s string) bool {
	l := lowerASCII(s)
	return p.f.words[l] || p.f.known[l] || p.taken[l]
}

// draw draws an entry of pool (one of pools) that is not taken (see isTaken), near in length to want
// (within nameSlack), as draw does: from the pool's open entries (found.open), which leave out the
// entries taken whatever the seed, so only those given so far are looked up.
func (p *plan) draw(pool []string, want int) (string, bool) {
	o, ok := p.f.open[&pool[0]]
	if !ok {
		return draw(p.rng, pool, want, nameSlack, p.isTaken)
	}
	i := drawIndex(p.rng, len(o.words), want, nameSlack, func(i int) int { return len(o.words[i]) }, func(i int) bool { return p.taken[o.lower[i]] })
	if i < 0 {
		return "", false
	}
	return o.words[i], true
}

// safePart reports whether a word of a name or a place may move: a capitalised word of two letters
// or more (a hyphen or an apostrophe inside), not fixed vocabulary, never written in lower case in a
// text.
func (p *plan) safePart(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	if len(w) < 2 || !unicode.IsUpper(r) {
		return false
	}
	for _, c := range w {
		if !unicode.IsLetter(c) && c != '-' && c != '\'' {
			return false
		}
	}
	l := lowerASCII(w)
	return !p.f.protected[l] && !p.f.lowered[l]
}

// names moves people: each name part once (a family shared by two people stays shared), then the
// full names. A person moves only when every part of the name may (safePart). A first name part is
// given a name of the gender the data gives it (givenPool), every other part a family name; a part
// whose pool is all drawn stays (the pools hold more than the data needs: a test checks it).
func (p *plan) names() {
	role := map[string]bool{} // part → is a first name somewhere
	var persons [][]string
	for _, full := range sorted(p.f.values[KindPerson]) {
		persons = append(persons, strings.Fields(full))
	}
	for _, u := range sorted(p.f.values[KindUsername]) {
		if humps := camelHumps(u); humps != nil {
			persons = append(persons, humps)
		}
	}
	var doctors [][]string
	for _, d := range sorted(p.f.values[kindDoctor]) {
		if rest, ok := strings.CutPrefix(d, "Dr. "); ok {
			doctors = append(doctors, strings.Fields(rest))
		}
	}
	moving := func(parts []string) bool {
		for _, w := range parts {
			if !p.safePart(w) {
				return false
			}
		}
		return len(parts) > 0
	}
	var parts []string
	for _, ps := range persons {
		if !moving(ps) {
			continue
		}
		for i, w := range ps {
			if _, seen := role[w]; !seen {
				parts = append(parts, w)
			}
			role[w] = role[w] || i == 0 // a name of one part is a first name too ("Baraka" of baraka.m)
		}
	}
	for _, ps := range doctors {
		if !moving(ps) {
			continue
		}
		for _, w := range ps {
			if _, seen := role[w]; !seen {
				parts = append(parts, w)
				role[w] = false
			}
		}
	}
	sort.Strings(parts)
	for _, w := range parts {
		pool := pools[familyPool]
		if role[w] {
			pool = givenPool(w) // a name of the gender the data gives the person
		}
		n, ok := p.draw(pool, utf8.RuneCountInString(w))
		if !ok {
			continue
		}
		p.add(KindName, w, recase(n, w), title)
	}
	for _, ps := range persons {
		if !moving(ps) || len(ps) < 2 {
			continue
		}
		news := make([]string, len(ps))
		for i, w := range ps {
			news[i] = p.to(w)
		}
		p.add(KindPerson, strings.Join(ps, " "), strings.Join(news, " "), fold)
	}
}

// camelHumps splits a CamelCase username of two or three capitalised ASCII words ("AmaraOkafor")
// into them, or returns nil.
func camelHumps(s string) []string {
	var humps []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || (i > 0 && s[i] >= 'A' && s[i] <= 'Z') {
			h := s[start:i]
			if len(h) < 2 || h[0] < 'A' || h[0] > 'Z' {
				return nil
			}
			for j := 1; j < len(h); j++ {
				if h[j] < 'a' || h[j] > 'z' {
					return nil
				}
			}
			humps = append(humps, h)
			start = i
		}
	}
	if len(humps) < 2 || len(humps) > 3 {
		return nil
	}
	return humps
}

// partsByFold maps the moved name parts as a username writes them (foldAccents) to the parts.
func (p *plan) partsByFold() map[string]string {
	m := map[string]string{}
	for _, mv := range p.moves {
		if mv.Kind == KindName {
			if k := foldAccents(mv.From); m[k] == "" || mv.From < m[k] {
				m[k] = mv.From
			}
		}
	}
	return m
}

// rebuild writes a username or an e-mail's local part again from moved name parts: its letter runs
// are name parts (in any case, accents dropped, two parts glued in one run too: "liwei88"), each
// replaced by the part's new name in the run's case; separators, digits and single letters
// (initials) stay, and so do other words after two name parts ("ravi.menon.savings": a full
// name's account). ok is false when a longer letter run is not a moved name part, but such a word.
func (p *plan) rebuild(s string, parts map[string]string) (string, bool) {
	var b strings.Builder
	named := 0 // the name parts read so far
	for i := 0; i < len(s); {
		c := s[i]
		// A letter alone (an initial: "nadia_k") stays as a separator does: it names no part a
		// reader could tell apart.
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') || i+1 == len(s) || !(s[i+1]|0x20 >= 'a' && s[i+1]|0x20 <= 'z') {
			b.WriteByte(c)
			i++
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' && !(s[j-1] >= 'a' && s[j-1] <= 'z')) {
			j++
		}
		run := s[i:j]
		if part, ok := parts[lowerASCII(run)]; ok {
			b.WriteString(recase(foldAccents(p.to(part)), run))
			named++
		} else if a, z, ok := splitParts(run, parts); ok && run == lowerASCII(run) {
			b.WriteString(strings.ToLower(foldAccents(p.to(a)) + foldAccents(p.to(z))))
			named += 2
		} else if named >= 2 {
			b.WriteString(run)
		} else {
			return "", false
		}
		i = j
	}
	return b.String(), true
}

// splitParts splits a lower-case run into two moved name parts ("liwei" → Li, Wei).
func splitParts(run string, parts map[string]string) (string, string, bool) {
	for k := 2; k+2 <= len(run); k++ {
		a, okA := parts[run[:k]]
		z, okZ := parts[run[k:]]
		if okA && okZ {
			return a, z, true
		}
	}
	return "", "", false
}

// usernames moves the usernames built from moved names; others stay.
func (p *plan) usernames() {
	parts := p.partsByFold()
	for _, u := range sorted(p.f.values[KindUsername]) {
		if n, ok := p.rebuild(u, parts); ok && !p.isTaken(n) {
			p.add(KindUsername, u, n, fold)
		}
	}
}

// emails moves the e-mail addresses whose local part is built from moved names; the domain stays.
func (p *plan) emails() {
	parts := p.partsByFold()
	for _, e := range sorted(p.f.values[KindEmail]) {
		local, domain, ok := strings.Cut(e, "@")
		if !ok || local == "" || strings.ContainsAny(domain, "@ ") {
			continue
		}
		if n, ok := p.rebuild(local, parts); ok && !p.isTaken(n+"@"+domain) {
			p.add(KindEmail, e, n+"@"+domain, fold)
		}
	}
}

// secrets moves passwords and tokens: the passwords and tokens of the moved accounts, the
// passwords users state, and the mistyped tokens and passwords (a near miss of a moved value moves
// with it, so that it stays a near miss). A secret keeps its length and character classes.
func (p *plan) secrets() {
	moved := func(u string) bool { _, ok := p.by[u]; return ok }
	var tokens []string
	keep := map[string]bool{} // the secrets of accounts that stay
	// bases are the passwords a stated one may miss: the accounts' own first, then each stated one
	// that misses none ("Kente2023" and "Kente2022!" miss the world's "Kente2023!", whatever
	// their order).
	bases := map[string]bool{}
	for _, u := range sortedKeys(p.f.accounts) {
		a := p.f.accounts[u]
		if moved(u) {
			tokens = append(tokens, a.token)
			bases[a.password] = true
		} else {
			keep[a.password], keep[a.token] = true, true
		}
	}
	for _, t := range tokens {
		p.add(KindToken, t, p.reshape(t), exact)
	}
	var passwords, near []string
	for _, pw := range sorted(p.f.values[KindPassword]) {
		if len(pw) < 4 || keep[pw] {
			continue
		}
		passwords = append(passwords, pw)
	}
	// A near miss is derived from the value it misses, which moves first.
	for pw := range keep {
		bases[pw] = true
	}
	for _, pw := range passwords {
		if base := p.nearMiss(pw, bases); keep[base] {
			continue // a near miss of a password that stays: it stays too (pinned)
		} else if base != "" {
			near = append(near, pw)
			continue
		}
		bases[pw] = true
		p.add(KindPassword, pw, p.reshape(pw), exact)
	}
	for _, pw := range near {
		p.add(KindPassword, pw, p.missLike(pw, p.nearMiss(pw, bases)), exact)
	}
	tbases := map[string]bool{}
	for _, t := range tokens {
		tbases[t] = true
	}
	for t := range keep {
		tbases[t] = true
	}
	for _, t := range sorted(p.f.tokenArgs) {
		if base := p.nearMiss(t, tbases); base != "" && !keep[t] && !keep[base] {
			p.add(KindToken, t, p.missLike(t, base), exact)
		}
	}
}

// nearMiss returns the value of bases that s mistypes (the same length and at most two characters
// differ, or one is the other with up to two characters more at the end), or "".
func (p *plan) nearMiss(s string, bases map[string]bool) string {
	for _, b := range sortedKeys(bases) {
		if b == s {
			continue
		}
		switch {
		case len(b) == len(s):
			diff := 0
			for i := 0; i < len(s); i++ {
				if s[i] != b[i] {
					diff++
				}
			}
			if diff <= 2 {
				return b
			}
		case len(s) < len(b) && len(b)-len(s) <= 2 && strings.HasPrefix(b, s),
			len(s) > len(b) && len(s)-len(b) <= 2 && strings.HasPrefix(s, b):
			return b
		}
	}
	return ""
}

// missLike returns the near miss of base's new value that s is of base: the same characters
// changed, dropped or added.
func (p *plan) missLike(s, base string) string {
	nb := p.to(base)
	switch {
	case len(s) < len(base):
		return nb[:len(s)]
	case len(s) > len(base):
		return nb + s[len(base):]
	}
	b := []byte(nb)
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == base[i]:
		case lowerByte(s[i]) == lowerByte(base[i]):
			// The same letter in the other case: so is the miss's.
			b[i] ^= 'a' - 'A'
		case class(s[i]) == class(base[i]):
			// Another character of the class: another one of the new value's.
			for b[i] == nb[i] {
				b[i] = reshape(p.rng, string(nb[i]))[0]
			}
		default:
			b[i] = s[i]
		}
	}
	return string(b)
}

// reshape draws a new secret of s's shape, not taken.
func (p *plan) reshape(s string) string {
	for range 8 {
		if n := reshape(p.rng, s); n != s && !p.isTaken(n) {
			return n
		}
	}
	return s
}

// redigit draws new digits for the digits of s (a house or room number: "12B" → "47B").
func (p *plan) redigit(s string) string {
	for range 8 {
		b := []byte(s)
		for i, c := range b {
			if c >= '0' && c <= '9' {
				b[i] = reshape(p.rng, string(c))[0]
			}
		}
		if n := string(b); n != s {
			return n
		}
	}
	return s
}

// ids moves the ids of the appointments of moved patients (their copies' ids, see worldCopies).
func (p *plan) ids() {
	for _, id := range sortedKeys(p.f.appointments) {
		if _, ok := p.by[p.f.appointments[id]]; ok {
			p.add(KindID, id, p.reshape(id), exact)
		}
	}
}

// places moves locations: each proper word of a place's name once (safePart, not a word saying what
// kind of place it is), then the places and their parts between commas, numbers redrawn ("Room
// 12B" → "Room 47B"). A place with no proper word and no number ("planetarium") stays.
func (p *plan) places() {
	places := sorted(p.f.values[KindPlace])
	var words []string
	seen := map[string]bool{}
	for _, pl := range places {
		for _, w := range strings.Fields(strings.ReplaceAll(pl, ",", " ")) {
			if !genericPlaceWords[lowerASCII(w)] && p.safePart(w) && !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	sort.Strings(words)
	for _, w := range words {
		if _, ok := p.by[w]; ok {
			continue // a name part too: it already moves
		}
		if n, ok := p.draw(pools[placePool], utf8.RuneCountInString(w)); ok {
			p.add(KindPlaceWord, w, n, title)
		}
	}
	for _, pl := range places {
		var whole []string
		for _, part := range strings.Split(pl, ", ") {
			np := p.placePart(part)
			if np != part {
				p.add(KindPlace, part, np, fold)
			}
			whole = append(whole, p.to(part))
		}
		p.add(KindPlace, pl, strings.Join(whole, ", "), fold)
	}
}

// placePart writes a part of a place again: its moved words replaced, its numbers redrawn.
func (p *plan) placePart(part string) string {
	if i, ok := p.by[part]; ok {
		return p.moves[i].To
	}
	ws := strings.Fields(part)
	for i, w := range ws {
		switch {
		case strings.ContainsAny(w, digitChars) && isAlnum(w):
			ws[i] = p.redigit(w)
		default:
			ws[i] = p.to(w)
		}
	}
	return strings.Join(ws, " ")
}

// isAlnum reports whether s is ASCII letters and digits only.
func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// sorted returns a set's members in order.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func sorted(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
