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
//
// Memory is linear in the texts: an LCS table is kept whole only while it is
// small, and larger ones are walked in row bands recomputed from a few kept
// rows. Texts beyond any reply's size (MaxTokens, MaxPairs) give ErrTooLarge
// instead of a long computation.
package rouge

import (
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"
)

// MaxTokens is the most tokens a hypothesis or a reference may have (about
// 1.5 MB of English text, several novels' worth of words for one reply):
// interning is the part of L whose memory grows with the number of tokens.
const MaxTokens = 1 << 18

// MaxPairs is the most token pairs L compares: the LCS tables of all sentence
// pairs together have (hypothesis tokens) x (reference tokens) cells, and
// each costs a few nanoseconds. A reply of 2,000 words against a reference of
// 100,000 stays below it; two texts of 16,384 words each reach it.
const MaxPairs = 1 << 28

// ErrTooLarge is returned (wrapped, with the sizes and the limit) by L when a
// text has more than MaxTokens tokens or the two have more than MaxPairs
// token pairs. It is ours: the Python package has no limit and would run for
// hours or exhaust memory instead.
var ErrTooLarge = errors.New("input too large")

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
// sentence, and an error wrapping ErrTooLarge (and 0) when the texts pass
// MaxTokens or MaxPairs. L is safe for concurrent use.
func L(hyp, ref string) (float64, error) {
	s := scratchPool.Get().(*scratch)
	defer s.release()
	s.reset()

	s.maxIDs = MaxTokens
	sents := s.addText(hyp)
	if s.over {
		return 0, fmt.Errorf("%w: the hypothesis has more than %d tokens, the most ROUGE-L takes", ErrTooLarge, MaxTokens)
	}
	if sents == 0 {
		return 0, ErrEmptyHypothesis
	}
	hypSents := len(s.ends)
	hypToks := len(s.ids)
	s.maxIDs = hypToks + MaxTokens
	sents = s.addText(ref)
	if s.over {
		return 0, fmt.Errorf("%w: the reference has more than %d tokens, the most ROUGE-L takes", ErrTooLarge, MaxTokens)
	}
	if sents == 0 {
		return 0, ErrEmptyReference
	}
	if refToks := len(s.ids) - hypToks; int64(hypToks)*int64(refToks) > MaxPairs {
		return 0, fmt.Errorf("%w: %d hypothesis tokens x %d reference tokens = %d token pairs, more than the %d ROUGE-L compares",
			ErrTooLarge, hypToks, refToks, int64(hypToks)*int64(refToks), MaxPairs)
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

// fullTable is the most cells of an LCS table built whole (4 MiB); larger
// sentence pairs are walked in bands (see walker). bandCells is the most cells
// of one band. Both are variables so that tests can force the banded walk on
// small inputs and compare it with the whole table.
var fullTable, bandCells = maxKeptTable, maxKeptTable

// scratch holds the buffers one call of L needs; it is pooled so that repeated
// calls do not allocate.
type scratch struct {
	words []string         // distinct tokens; a token's id is its index
	index map[string]int32 // id lookup, filled once words passes linearLimit
	ids   []int32          // token ids of the hypothesis, then of the reference
	ends  []int            // end offset in ids of each sentence, in order
	flags []uint8          // per token id: inHyp | inRef | inUnion
	table []int32          // LCS length table of the current sentence pair
	// maxIDs bounds ids while a text is added; over says a text passed it.
	maxIDs int
	over   bool
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
	s.over = false
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
	if cap(s.ids) > maxKeptTable {
		s.ids, s.words, s.flags = nil, nil, nil
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
// byte never occurs inside a multi-byte sequence. It stops, setting over,
// when ids would pass maxIDs.
func (s *scratch) addText(text string) int {
	count := 0
	start := 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && text[i] != '.' {
			continue
		}
		if i > start {
			if s.addSentence(text[start:i]); s.over {
				return count
			}
			count++
		}
		start = i + 1
	}
	return count
}

// addID appends a token id unless ids is full (then it sets over).
func (s *scratch) addID(w string) {
	if len(s.ids) >= s.maxIDs {
		s.over = true
		return
	}
	s.ids = append(s.ids, s.intern(w))
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
				if s.addID(piece[fieldStart:i]); s.over {
					return
				}
				fieldStart = -1
			}
		} else if fieldStart < 0 {
			fieldStart = i
		}
		i += size
	}
	if fieldStart >= 0 {
		s.addID(piece[fieldStart:])
	}
	if len(s.ids) == before {
		s.addID("")
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
	if int64(a+1)*int64(b+1) > int64(fullTable) {
		return s.walkLCS(x, y)
	}
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

// add puts token id into U and reports whether it was new.
func (s *scratch) add(id int32) int {
	if s.flags[id]&inUnion != 0 {
		return 0
	}
	s.flags[id] |= inUnion
	return 1
}

// walkLCS is unionLCS in memory linear in the sentences: the same LCS,
// recovered by the same walk, from a table that is never held whole.
//
// The walk starts at the bottom-right cell and only moves up and left. To
// take the steps of a band of rows it needs those rows and the one above, and
// a row is computed from the row above it alone. So walk keeps the row at the
// top of its band, computes a few rows evenly spaced inside it (kept), and
// walks the sub-bands from the bottom one up, each from its kept top row; a
// band small enough is computed whole and walked. The rows run along the
// longer sentence, so kept rows are as short as possible.
func (s *scratch) walkLCS(x, y []int32) int {
	w := walker{s: s, rows: x, cols: y}
	if len(y) > len(x) {
		// Transposed, the walk's rule "up only when the cell above is
		// strictly greater, else left" becomes "left only when the cell to
		// the left is strictly greater, else up".
		w.rows, w.cols, w.upOnTie = y, x, true
	}
	top := make([]int32, len(w.cols)+1)
	w.walk(0, len(w.rows), len(w.cols), top)
	return w.added
}

// walker follows the LCS walk over the table of rows (down) by cols (across).
type walker struct {
	s          *scratch
	rows, cols []int32
	// upOnTie: on a tie between the cell above and the cell to the left, go
	// up (else left).
	upOnTie bool
	added   int
}

// bandParts is how many sub-bands a band too large to compute whole is cut
// into: the kept rows per level, against the levels of recomputation.
const bandParts = 16

// walk follows the walk from cell (hi, j) until it reaches row lo or column
// 0, given top = row lo of the table (at least columns 0..j), and returns the
// column where it reached row lo (0 when it ended at column 0).
func (w *walker) walk(lo, hi, j int, top []int32) int {
	if j == 0 || hi == lo {
		return j
	}
	if hi-lo == 1 || int64(hi-lo+1)*int64(j+1) <= int64(bandCells) {
		return w.band(lo, hi, j, top)
	}
	parts := min(bandParts, hi-lo)
	bounds := make([]int, parts+1)
	for k := range bounds {
		bounds[k] = lo + (hi-lo)*k/parts
	}
	// kept[k] is row bounds[k], columns 0..j.
	kept := make([][]int32, parts)
	kept[0] = top[:j+1]
	store := make([]int32, (parts-1)*(j+1))
	roll := [2][]int32{make([]int32, j+1), make([]int32, j+1)}
	prev := top[:j+1]
	for k := 1; k < parts; k++ {
		for r := bounds[k-1] + 1; r <= bounds[k]; r++ {
			cur := roll[0]
			if &prev[0] == &cur[0] {
				cur = roll[1]
			}
			if r == bounds[k] {
				cur = store[(k-1)*(j+1) : k*(j+1)]
			}
			w.step(r, prev, cur)
			prev = cur
		}
		kept[k] = prev
	}
	for k := parts - 1; k >= 0 && j > 0; k-- {
		j = w.walk(bounds[k], bounds[k+1], j, kept[k])
	}
	return j
}

// step computes row r of the table (columns 0..len(cur)-1) into cur from row
// r-1 in prev.
func (w *walker) step(r int, prev, cur []int32) {
	xi := w.rows[r-1]
	cur[0] = 0
	for c := 1; c < len(cur); c++ {
		switch {
		case xi == w.cols[c-1]:
			cur[c] = prev[c-1] + 1
		case prev[c] >= cur[c-1]:
			cur[c] = prev[c]
		default:
			cur[c] = cur[c-1]
		}
	}
}

// band computes rows lo..hi (columns 0..j) whole from top and walks them from
// (hi, j) up to row lo or column 0.
func (w *walker) band(lo, hi, j int, top []int32) int {
	cw := j + 1
	size := (hi - lo + 1) * cw
	s := w.s
	if cap(s.table) < size {
		s.table = make([]int32, size)
	}
	t := s.table[:size]
	copy(t[:cw], top[:cw])
	for r := 1; r <= hi-lo; r++ {
		w.step(lo+r, t[(r-1)*cw:r*cw], t[r*cw:(r+1)*cw])
	}
	r, c := hi-lo, j
	for r > 0 && c > 0 {
		if id := w.rows[lo+r-1]; id == w.cols[c-1] {
			w.added += s.add(id)
			r--
			c--
			continue
		}
		up, left := t[(r-1)*cw+c], t[r*cw+c-1]
		if up > left || (w.upOnTie && up == left) {
			r--
		} else {
			c--
		}
	}
	return c
}
