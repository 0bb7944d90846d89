package variant

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"sort"
	"strings"
)

// replacer finds the moves' values in a text and writes their new values: at every word start, the
// longest value that matches there as a whole word (leftmost-longest, one pass, no value found inside
// a new one). Texts are the files' bytes: the data's JSON writes its texts unescaped (UTF-8, no \u),
// and no value or new value holds a quote or a backslash, so a JSON text is replaced as it reads.
type replacer struct {
	moves []Move
	// cands are the moves of values of two bytes or more, by their first two bytes (see pair), the
	// longest first: those of the kth pair of pairs are cands[from[k]:from[k+1]].
	cands []cand
	from  []int32
	// rank holds, for each word of pairs, the number of bits set in the words before it (see group).
	rank [128 * 128 / 64]uint16
	// short are the moves of one-byte values.
	short []int32
	// pairs has a bit set for the first two bytes of every value (lower case, seven bits each): a
	// word that starts otherwise is no value's.
	pairs [128 * 128 / 64]uint64
	// triples has a bit set for a hash of the first three bytes of every value of three bytes or
	// more (see triple), and twos for the first two of a two-byte value: most words that start as a
	// value's pair do not go on as one ("text" and "Teresa"), so few are compared with cands.
	triples [1 << 16 / 64]uint64
	twos    [128 * 128 / 64]uint64
}

// cand is a move a word start is compared with: the first eight bytes of its value in lower case
// (zeros after a shorter value) under mask, which a text's bytes there must match (see lower8)
// before the move is matched in full.
type cand struct {
	_         noCompare
	key, mask uint64
	move      int32
}

// triple is the bit of replacer.triples for a value whose first bytes are x (see lower8).
func triple(x uint64) int {
	h := (int(x&0x7f)*131+int(x>>8&0x7f))*131 + int(x>>16&0x7f)
	return h & (1<<16 - 1)
}

// newReplacer indexes moves.
func newReplacer(moves []Move) *replacer {
	r := &replacer{moves: moves}
	for i, m := range moves {
		if strings.ContainsAny(m.From+m.To, "\"\\\n") {
			continue // not written as is in a JSON text (see replacer)
		}
		if len(m.From) < 2 {
			r.short = append(r.short, int32(i))
			continue
		}
		x := lower8(m.From)
		r.cands = append(r.cands, cand{key: x, mask: 1<<(8*min(len(m.From), 8)) - 1, move: int32(i)})
		b := pair(x)
		r.pairs[b/64] |= 1 << (b % 64)
		if len(m.From) == 2 {
			r.twos[b/64] |= 1 << (b % 64)
		} else {
			t := triple(x)
			r.triples[t/64] |= 1 << (t % 64)
		}
	}
	for w := 1; w < len(r.rank); w++ {
		r.rank[w] = r.rank[w-1] + uint16(bits.OnesCount64(r.pairs[w-1]))
	}
	// By pair, then the longest first, then in the moves' order.
	sort.Slice(r.cands, func(i, j int) bool {
		a, b := r.cands[i], r.cands[j]
		return cmp.Or(pair(a.key)-pair(b.key), len(moves[b.move].From)-len(moves[a.move].From), int(a.move-b.move)) < 0
	})
	for i, c := range r.cands {
		if i == 0 || pair(c.key) != pair(r.cands[i-1].key) {
			r.from = append(r.from, int32(i))
		}
	}
	r.from = append(r.from, int32(len(r.cands)))
	return r
}

// group is k for the kth bit set in pairs, b (see replacer.cands).
func (r *replacer) group(b int) int {
	return int(r.rank[b/64]) + bits.OnesCount64(r.pairs[b/64]&(1<<(b%64)-1))
}

// pair is the bit of replacer.pairs for a value whose first bytes are x (see lower8).
func pair(x uint64) int { return int(x&0x7f)<<7 | int(x>>8&0x7f) }

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// lower8 is the first eight bytes of s (fewer when s is shorter, zeros after), little-endian, with
// their ASCII capitals in lower case: a word start's, read once for every test of match.
func lower8(s string) uint64 {
	var x uint64
	if len(s) >= 8 {
		x = load8(s)
	} else {
		for i := len(s) - 1; i >= 0; i-- {
			x = x<<8 | uint64(s[i])
		}
	}
	return x | inRange(x, 'A', 'Z')>>2
}

// load8 is the first eight bytes of s, little-endian: one load.
func load8(s string) uint64 { return binary.LittleEndian.Uint64(bytesOf(s[:8])) }

// inRange has the top bit set of each byte of x from lo to hi (ASCII bytes both), eight bytes
// compared at once.
func inRange(x uint64, lo, hi byte) uint64 {
	const ones = 0x0101010101010101
	low := x & (0x7f * ones)
	return (low + uint64(0x80-lo)*ones) &^ (low + uint64(0x80-hi-1)*ones) &^ x & (0x80 * ones)
}

// replace returns s with every move's value replaced, and sets hit[i] for each move i found whose
// value changes (hit may be nil). It returns s itself when nothing moved.
func (r *replacer) replace(s string, hit []bool) string {
	var b strings.Builder
	last := 0
	for i := 0; i+1 < len(s); i++ {
		if !isWordByte(s[i]) {
			continue
		}
		if i > 0 && isWordByte(s[i-1]) {
			// Inside a word: skip to its end (the loop's i++ steps past the byte that ends it).
			for i+1 < len(s) && isWordByte(s[i+1]) {
				i++
			}
			continue
		}
		mi, n, suffix := r.match(s, i)
		if mi < 0 {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 64)
		}
		b.WriteString(s[last:i])
		m := &r.moves[mi]
		b.WriteString(surface(m, s[i:i+n-len(suffix)]))
		b.WriteString(suffix)
		if hit != nil && m.From != m.To {
			hit[mi] = true
		}
		last = i + n
		i = last - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// match returns the move whose value is at s[i:] as whole words, the length matched and the
// suffix kept (a plural "s"), or -1.
func (r *replacer) match(s string, i int) (int, int, string) {
	x := lower8(s[i:])
	b := pair(x)
	if r.pairs[b/64]&(1<<(b%64)) != 0 && (r.twos[b/64]&(1<<(b%64)) != 0 ||
		i+2 < len(s) && r.triples[triple(x)/64]&(1<<(triple(x)%64)) != 0) {
		k := r.group(b)
		for _, c := range r.cands[r.from[k]:r.from[k+1]] {
			if x&c.mask != c.key {
				continue
			}
			if n, suffix, ok := matchAt(&r.moves[c.move], s, i); ok {
				return int(c.move), n, suffix
			}
		}
	}
	for _, mi := range r.short {
		if n, suffix, ok := matchAt(&r.moves[mi], s, i); ok {
			return int(mi), n, suffix
		}
	}
	return -1, 0, ""
}

// matchAt reports whether m's value is at s[i:] in its mode, ending a word (or, a name, followed
// by a plural "s" that does).
func matchAt(m *Move, s string, i int) (int, string, bool) {
	v := m.From
	if len(s)-i < len(v) {
		return 0, "", false
	}
	w := s[i : i+len(v)]
	switch m.mode {
	case exact:
		if w != v {
			return 0, "", false
		}
	case fold:
		if !equalFoldASCII(w, v) {
			return 0, "", false
		}
	case title:
		if w != v && w != m.upper {
			return 0, "", false
		}
	}
	end := i + len(v)
	if !isWordByte(v[len(v)-1]) || end == len(s) || !isWordByte(s[end]) {
		return len(v), "", true
	}
	if m.mode == title && s[end] == 's' && (end+1 == len(s) || !isWordByte(s[end+1])) {
		return len(v) + 1, "s", true
	}
	return 0, "", false
}

// equalFoldASCII compares two texts ignoring the case of ASCII letters (texts of two lengths are
// not equal).
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}

// surface writes m's new value in the case the text writes its value: as written, all lower case,
// all capitals, or with the first letter's case changed.
func surface(m *Move, written string) string {
	switch {
	case written == m.From:
		return m.To
	case written == strings.ToLower(m.From):
		return strings.ToLower(m.To)
	case written == strings.ToUpper(m.From):
		return strings.ToUpper(m.To)
	case len(written) > 0 && written[1:] == m.From[1:] && len(m.To) > 0:
		// Only the first letter's case differs: "dinner with ..." for "Dinner with ...".
		if written[0] >= 'a' && written[0] <= 'z' {
			return string(lowerByte(m.To[0])) + m.To[1:]
		}
		return strings.ToUpper(m.To[:1]) + m.To[1:]
	}
	return m.To
}
