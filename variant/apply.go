package variant

import (
	"sort"
	"strings"
)

// replacer finds the moves' values in a text and writes their new values: at every word start, the
// longest value that matches there as a whole word (leftmost-longest, one pass, no value found inside
// a new one). Texts are the files' bytes: the data's JSON writes its texts unescaped (UTF-8, no \u),
// and no value or new value holds a quote or a backslash, so a JSON text is replaced as it reads.
type replacer struct {
	moves []Move
	// heads holds, for the first two bytes of a value (lower case, see head: fewer than 65535 keys), 1
	// + the index in lists of the moves that start so, longest first (0: none): an array, not a map,
	// as it is read at every word start whose pair (below) is a value's.
	heads *[1 << 16]uint16
	lists [][]int32
	// short are the moves of one-byte values.
	short []int32
	// pairs has a bit set for the first two bytes of every value (lower case, seven bits each): a
	// word that starts otherwise is no value's, without a look in heads.
	pairs [128 * 128 / 64]uint64
	// triples has a bit set for a hash of the first three bytes of every value of three bytes or
	// more (see triple), and twos for the first two of a two-byte value: most words that start as a
	// value's pair do not go on as one ("text" and "Teresa"), so heads is read for few of them.
	triples [1 << 16 / 64]uint64
	twos    [128 * 128 / 64]uint64
}

// triple is the bit of replacer.triples for a value that starts with a, b, c (in any case).
func triple(a, b, c byte) int {
	h := (int(lowerByte(a)&0x7f)*131+int(lowerByte(b)&0x7f))*131 + int(lowerByte(c)&0x7f)
	return h & (1<<16 - 1)
}

// newReplacer indexes moves.
func newReplacer(moves []Move) *replacer {
	r := &replacer{moves: moves, heads: new([1 << 16]uint16)}
	for i, m := range moves {
		if strings.ContainsAny(m.From+m.To, "\"\\\n") {
			continue // not written as is in a JSON text (see replacer)
		}
		if len(m.From) < 2 {
			r.short = append(r.short, int32(i))
			continue
		}
		k := head(m.From[0], m.From[1])
		if r.heads[k] == 0 {
			r.lists = append(r.lists, nil)
			r.heads[k] = uint16(len(r.lists))
		}
		r.lists[r.heads[k]-1] = append(r.lists[r.heads[k]-1], int32(i))
		b := pair(m.From[0], m.From[1])
		r.pairs[b/64] |= 1 << (b % 64)
		if len(m.From) == 2 {
			r.twos[b/64] |= 1 << (b % 64)
		} else {
			t := triple(m.From[0], m.From[1], m.From[2])
			r.triples[t/64] |= 1 << (t % 64)
		}
	}
	for _, list := range r.lists {
		sort.SliceStable(list, func(a, b int) bool { return len(moves[list[a]].From) > len(moves[list[b]].From) })
	}
	return r
}

func head(a, b byte) uint16 { return uint16(lowerByte(a))<<8 | uint16(lowerByte(b)) }

// pair is the index of the bit of pairs for a value that starts with a, b.
func pair(a, b byte) int { return int(lowerByte(a)&0x7f)<<7 | int(lowerByte(b)&0x7f) }

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
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
		m := r.moves[mi]
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
	if len(r.short) == 0 {
		b := pair(s[i], s[i+1])
		if r.pairs[b/64]&(1<<(b%64)) == 0 {
			return -1, 0, ""
		}
		if r.twos[b/64]&(1<<(b%64)) == 0 {
			if i+2 >= len(s) {
				return -1, 0, ""
			}
			if t := triple(s[i], s[i+1], s[i+2]); r.triples[t/64]&(1<<(t%64)) == 0 {
				return -1, 0, ""
			}
		}
	}
	var list []int32
	if h := r.heads[head(s[i], s[i+1])]; h != 0 {
		list = r.lists[h-1]
	}
	for _, mi := range list {
		m := r.moves[mi]
		if n, suffix, ok := matchAt(m, s, i); ok {
			return int(mi), n, suffix
		}
	}
	for _, mi := range r.short {
		if n, suffix, ok := matchAt(r.moves[mi], s, i); ok {
			return int(mi), n, suffix
		}
	}
	return -1, 0, ""
}

// matchAt reports whether m's value is at s[i:] in its mode, ending a word (or, a name, followed
// by a plural "s" that does).
func matchAt(m Move, s string, i int) (int, string, bool) {
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

// equalFoldASCII compares two texts of one length ignoring the case of ASCII letters.
func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}

// surface writes m's new value in the case the text writes its value: as written, all lower case,
// all capitals, or with the first letter's case changed.
func surface(m Move, written string) string {
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
