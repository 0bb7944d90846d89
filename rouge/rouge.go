// Package rouge computes ROUGE-L F scores the way API-Bank's evaluator does,
// so that scores produced here can be compared one for one with the scores of
// the original Python evaluation.
//
// The evaluator calls the Python package `rouge` 1.0.1 (pltrdy) as
// Rouge().get_scores(hyp, ref)[0]['rouge-l']['f']. That package is not the
// official ROUGE: it splits sentences at every '.', does no lowercasing or
// punctuation stripping, counts distinct tokens ("exclusive" mode) and builds
// a summary-level union LCS from one particular LCS per sentence pair. This
// package reproduces those rules exactly (the F value is bit-identical for
// valid UTF-8 input), including the 1e-8 smoothing term in the F formula and
// the two errors the package raises for texts without any sentence.
//
// Known difference: for sentence pairs whose LCS walk is longer than Python's
// recursion limit (roughly a thousand tokens per sentence) the Python package
// raises RecursionError; L returns the score instead.
package rouge

import (
	"errors"
	"sync"
	"unicode/utf8"
)

// ErrEmptyHypothesis is returned by L when the hypothesis has no sentence at
// all (for example "" or "..."). The text is the one the Python package
// raises, so callers can report the same message the original evaluator did.
//
//lint:ignore ST1005 the text is the original package's exception message, shown to users as is.
var ErrEmptyHypothesis = errors.New("Hypothesis is empty.")

// ErrEmptyReference is returned by L when the hypothesis has a sentence but
// the reference has none. The hypothesis is checked first, as in the
// original, so when both are empty the error is ErrEmptyHypothesis.
//
//lint:ignore ST1005 the text is the original package's exception message, shown to users as is.
var ErrEmptyReference = errors.New("Reference is empty.")

// L returns the ROUGE-L F score of hyp (the generated text) against ref (the
// gold text), as the rouge 1.0.1 Python package computes it:
//
//  1. each text is cut at every '.'; empty pieces are dropped, and every other
//     piece becomes one sentence whose tokens are its runs of non-whitespace
//     (Python str.split semantics); a whitespace-only piece is the single
//     token "";
//  2. m and n are the numbers of distinct tokens of ref and hyp;
//  3. for every reference sentence and every hypothesis sentence one LCS is
//     recovered from the standard table (match → diagonal, else up only when
//     the cell above is strictly greater, else left) and its tokens are added
//     to a set U;
//  4. with R = |U|/m and P = |U|/n the result is 2·P·R / (P + R + 1e-8).
//
// The result is in [0, 1); identical texts score 0.999999995. L returns
// ErrEmptyHypothesis or ErrEmptyReference (and 0) when a text has no
// sentence. L is safe for concurrent use.
func L(hyp, ref string) (float64, error) {
	s := scratchPool.Get().(*scratch)
	defer s.release()
	s.reset()

	if s.addText(hyp) == 0 {
		return 0, ErrEmptyHypothesis
	}
	hypSents := len(s.ends)
	hypToks := len(s.ids)
	if s.addText(ref) == 0 {
		return 0, ErrEmptyReference
	}

	// Per-token flags: which texts hold the token, and whether it is in U.
	if cap(s.flags) < len(s.words) {
		s.flags = make([]uint8, len(s.words), 2*len(s.words))
	}
	flags := s.flags[:len(s.words)]
	clear(flags)
	s.flags = flags
	n, m := 0, 0
	for _, id := range s.ids[:hypToks] {
		if flags[id]&inHyp == 0 {
			flags[id] |= inHyp
			n++
		}
	}
	for _, id := range s.ids[hypToks:] {
		if flags[id]&inRef == 0 {
			flags[id] |= inRef
			m++
		}
	}

	llcs := 0
	refStart := hypToks
	for _, refEnd := range s.ends[hypSents:] {
		x := s.ids[refStart:refEnd]
		refStart = refEnd
		if !s.anyOutsideUnion(x) {
			// Every recovered token is a token of x, so this reference
			// sentence cannot add anything new to U.
			continue
		}
		hypStart := 0
		for _, hypEnd := range s.ends[:hypSents] {
			y := s.ids[hypStart:hypEnd]
			hypStart = hypEnd
			llcs += s.unionLCS(x, y)
		}
	}

	r := float64(llcs) / float64(m)
	p := float64(llcs) / float64(n)
	return 2.0 * ((p * r) / (p + r + 1e-8)), nil
}

// Token flag bits kept in scratch.flags.
const (
	inHyp   uint8 = 1 << iota // token occurs in the hypothesis
	inRef                     // token occurs in the reference
	inUnion                   // token is already in the union set U
)

// linearLimit is the number of distinct tokens up to which interning uses a
// linear scan; short texts (the usual case) then never touch a map.
const linearLimit = 48

// maxKeptTable bounds the LCS table kept for reuse, so that one huge call does
// not pin its memory in the pool forever.
const maxKeptTable = 1 << 20

// scratch holds the buffers one call of L needs; it is pooled so that repeated
// calls do not allocate.
type scratch struct {
	words []string         // distinct tokens; a token's id is its index
	index map[string]int32 // id lookup, filled once words passes linearLimit
	ids   []int32          // token ids of the hypothesis, then of the reference
	ends  []int            // end offset in ids of each sentence, in order
	flags []uint8          // per token id: inHyp | inRef | inUnion
	table []int32          // LCS length table of the current sentence pair
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// reset empties the buffers while keeping their storage.
func (s *scratch) reset() {
	s.words = s.words[:0]
	if s.index != nil {
		clear(s.index)
	}
	s.ids = s.ids[:0]
	s.ends = s.ends[:0]
}

// release returns s to the pool, dropping oversized buffers and the string
// references that would keep the caller's texts alive.
func (s *scratch) release() {
	clear(s.words)
	if s.index != nil {
		if len(s.index) > 4096 {
			s.index = nil
		} else {
			clear(s.index)
		}
	}
	if cap(s.table) > maxKeptTable {
		s.table = nil
	}
	scratchPool.Put(s)
}

// intern returns the id of token w, adding w when it is new.
func (s *scratch) intern(w string) int32 {
	if len(s.words) <= linearLimit {
		for i, v := range s.words {
			if v == w {
				return int32(i)
			}
		}
		id := int32(len(s.words))
		s.words = append(s.words, w)
		if len(s.words) > linearLimit {
			// Switch to the map from now on.
			if s.index == nil {
				s.index = make(map[string]int32, 64)
			}
			for i, v := range s.words {
				s.index[v] = int32(i)
			}
		}
		return id
	}
	if id, ok := s.index[w]; ok {
		return id
	}
	id := int32(len(s.words))
	s.words = append(s.words, w)
	s.index[w] = id
	return id
}

// addText splits text into sentences the way the Python package does and
// appends their token ids and sentence ends; it returns the number of
// sentences added. Splitting at the byte '.' is safe for UTF-8 because that
// byte never occurs inside a multi-byte sequence.
func (s *scratch) addText(text string) int {
	count := 0
	start := 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && text[i] != '.' {
			continue
		}
		if i > start {
			s.addSentence(text[start:i])
			count++
		}
		start = i + 1
	}
	return count
}

// addSentence appends the tokens of one non-empty piece: its fields separated
// by Python whitespace, or the single token "" when it has none. This equals
// Python's " ".join(piece.split()).split(" ").
func (s *scratch) addSentence(piece string) {
	before := len(s.ids)
	fieldStart := -1
	for i := 0; i < len(piece); {
		c := piece[i]
		size := 1
		var space bool
		if c < utf8.RuneSelf {
			space = asciiSpace[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(piece[i:])
			space = isUnicodeSpace(r)
		}
		if space {
			if fieldStart >= 0 {
				s.ids = append(s.ids, s.intern(piece[fieldStart:i]))
				fieldStart = -1
			}
		} else if fieldStart < 0 {
			fieldStart = i
		}
		i += size
	}
	if fieldStart >= 0 {
		s.ids = append(s.ids, s.intern(piece[fieldStart:]))
	}
	if len(s.ids) == before {
		s.ids = append(s.ids, s.intern(""))
	}
	s.ends = append(s.ends, len(s.ids))
}

// asciiSpace marks the ASCII characters Python's str.isspace accepts: \t \n
// \v \f \r, the separators U+001C..U+001F, and the space.
var asciiSpace = [utf8.RuneSelf]bool{
	'\t': true, '\n': true, '\v': true, '\f': true, '\r': true,
	0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true, ' ': true,
}

// isUnicodeSpace reports whether the non-ASCII rune r is whitespace for
// Python's str.split (str.isspace). This set differs from Go's unicode.IsSpace
// (Python also counts U+001C..U+001F, and neither counts U+180E), hence the
// explicit list.
func isUnicodeSpace(r rune) bool {
	switch {
	case r == 0x85, r == 0xa0, r == 0x1680:
		return true
	case r >= 0x2000 && r <= 0x200a:
		return true
	case r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// anyOutsideUnion reports whether some token of x is not yet in U.
func (s *scratch) anyOutsideUnion(x []int32) bool {
	for _, id := range x {
		if s.flags[id]&inUnion == 0 {
			return true
		}
	}
	return false
}

// unionLCS recovers one LCS of the reference sentence x and the hypothesis
// sentence y, adds its tokens to U and returns how many were new.
func (s *scratch) unionLCS(x, y []int32) int {
	a, b := len(x), len(y)
	w := b + 1
	size := (a + 1) * w
	if cap(s.table) < size {
		s.table = make([]int32, size)
	}
	t := s.table[:size]
	// Row 0 and column 0 are zero; every other cell is written below.
	clear(t[:w])
	for i := 1; i <= a; i++ {
		row := t[i*w : i*w+w]
		prev := t[(i-1)*w : i*w]
		xi := x[i-1]
		row[0] = 0
		for j := 1; j <= b; j++ {
			switch {
			case xi == y[j-1]:
				row[j] = prev[j-1] + 1
			case prev[j] >= row[j-1]:
				row[j] = prev[j]
			default:
				row[j] = row[j-1]
			}
		}
	}
	if t[size-1] == 0 {
		return 0
	}

	added := 0
	for i, j := a, b; i > 0 && j > 0; {
		switch {
		case x[i-1] == y[j-1]:
			id := x[i-1]
			if s.flags[id]&inUnion == 0 {
				s.flags[id] |= inUnion
				added++
			}
			i--
			j--
		case t[(i-1)*w+j] > t[i*w+j-1]:
			i--
		default:
			j--
		}
	}
	return added
}
