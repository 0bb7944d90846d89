// Package bm25 reproduces the ranking of the original API-Bank SearchEngine
// tool: NLTK-style word tokenization (Tokenize), BM25Okapi scoring with the
// defaults of the rank_bm25 package (k1 = 1.5, b = 0.75, epsilon = 0.25) and
// numpy 1.24's argsort tie order (Argsort). Scores are computed with the same
// float64 operations in the same order as rank_bm25's numpy code, so they
// are bit-identical, and ties are broken exactly as the original.
package bm25

// BM25Okapi parameters used by the original tool (rank_bm25's defaults).
const (
	K1      = 1.5
	B       = 0.75
	Epsilon = 0.25
)

// posting is one document containing a word, with the word's count there.
type posting struct {
	doc int
	tf  int
}

// Index is a BM25Okapi index over pre-tokenised documents. It is built once
// by New and read-only afterwards, so it is safe for concurrent use.
type Index struct {
	n        int                  // number of documents
	docLen   []int                // tokens per document
	avgdl    float64              // total tokens / n
	idf      map[string]float64   // idf per word, negatives floored
	postings map[string][]posting // documents containing each word, in order
	// lenNorm[d] = k1 * (1 - b + b*dl/avgdl), rounded exactly as numpy's
	// left-to-right evaluation does.
	lenNorm    []float64
	averageIdf float64
}

// New builds the index over docs (each a list of tokens), as rank_bm25's
// BM25Okapi(corpus) does: avgdl is total tokens / number of documents; the
// raw idf of a word w found in n(w) documents is ln(N - n + 0.5) - ln(n + 0.5);
// the mean of the raw idfs over the vocabulary, summed in order of first
// appearance, gives the floor epsilon * mean that replaces every negative idf.
func New(docs [][]string) *Index {
	ix := &Index{
		n:        len(docs),
		docLen:   make([]int, len(docs)),
		idf:      map[string]float64{},
		postings: map[string][]posting{},
		lenNorm:  make([]float64, len(docs)),
	}
	var vocab []string // words in order of first appearance
	total := 0
	for d, doc := range docs {
		ix.docLen[d] = len(doc)
		total += len(doc)
		counts := map[string]int{}
		var order []string
		for _, w := range doc {
			if counts[w] == 0 {
				order = append(order, w)
			}
			counts[w]++
		}
		for _, w := range order {
			if _, seen := ix.postings[w]; !seen {
				vocab = append(vocab, w)
			}
			ix.postings[w] = append(ix.postings[w], posting{doc: d, tf: counts[w]})
		}
	}
	if ix.n == 0 {
		return ix
	}
	ix.avgdl = float64(total) / float64(ix.n)

	logs := logMemo{}
	idfSum := 0.0
	var negative []string
	for _, w := range vocab {
		nw := len(ix.postings[w])
		raw := logs.get(float64(ix.n-nw)+0.5) - logs.get(float64(nw)+0.5)
		ix.idf[w] = raw
		idfSum += raw
		if raw < 0 {
			negative = append(negative, w)
		}
	}
	if len(vocab) > 0 {
		ix.averageIdf = idfSum / float64(len(vocab))
	}
	floor := Epsilon * ix.averageIdf
	for _, w := range negative {
		ix.idf[w] = floor
	}

	// numpy evaluates 1 - b + b*doc_len/avgdl as (1-b) + ((b*dl)/avgdl) and
	// then multiplies by k1. The explicit float64 conversions force each
	// product to be rounded on its own (no fused multiply-add).
	for d, dl := range ix.docLen {
		t := float64(B*float64(dl)) / ix.avgdl
		ix.lenNorm[d] = float64(K1 * ((1 - B) + t))
	}
	return ix
}

// Len returns the number of documents in the index.
func (ix *Index) Len() int { return ix.n }

// IDF returns the idf the index uses for word (after the floor for negative
// values) and whether the word occurs in any document.
func (ix *Index) IDF(word string) (float64, bool) {
	v, ok := ix.idf[word]
	return v, ok
}

// Scores returns the BM25Okapi score of every document for the query tokens,
// as rank_bm25's get_scores: starting from zero, each query token in order
// (repeats counted) adds idf(q) * (tf*(k1+1) / (tf + k1*(1 - b + b*dl/avgdl)))
// to every document, evaluated with numpy's float64 operation order, so the
// result is bit-identical. Tokens absent from the vocabulary add nothing. (A
// corpus without any token, which rank_bm25 rejects with a division by zero,
// scores 0 everywhere.)
func (ix *Index) Scores(query []string) []float64 {
	scores := make([]float64, ix.n)
	if ix.n == 0 {
		return scores
	}
	const k1p1 = K1 + 1
	for _, q := range query {
		idf, ok := ix.idf[q]
		if !ok {
			continue
		}
		// Documents without q add idf * (0 / positive) = ±0, which leaves
		// the sum unchanged, so only the postings are visited.
		for _, p := range ix.postings[q] {
			tf := float64(p.tf)
			num := float64(tf * k1p1)
			den := tf + ix.lenNorm[p.doc]
			scores[p.doc] += float64(idf * (num / den))
		}
	}
	return scores
}

// Top returns the indexes of the n best documents for the query, as the
// original tool orders them: numpy's argsort (numpy 1.24 introsort, not
// stable) of the negated scores, first n. Fewer are returned when the index
// has fewer documents; n <= 0 gives none.
func (ix *Index) Top(query []string, n int) []int {
	scores := ix.Scores(query)
	for i, s := range scores {
		scores[i] = -s
	}
	order := Argsort(scores)
	if n < 0 {
		n = 0
	}
	if n > len(order) {
		n = len(order)
	}
	return order[:n]
}

// logMemo caches pyLog per argument while an index is built (arguments
// repeat: there are at most N+1 distinct ones).
type logMemo map[float64]float64

func (m logMemo) get(x float64) float64 {
	v, ok := m[x]
	if !ok {
		v = pyLog(x)
		m[x] = v
	}
	return v
}
