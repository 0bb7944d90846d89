package bm25

import (
	"strings"
	"unicode/utf8"
)

// Tokenize splits text into words the way NLTK's English word_tokenize does
// (NLTK 3.8): the text is cut into sentences, and every sentence goes
// through the improved Treebank word tokenizer, whose rewrite steps are
// reproduced here one by one, in NLTK's order and with Python's regular
// expression semantics (leftmost, non-overlapping matches; Unicode \w, \d
// and \s). Hyphens, slashes and inner periods stay inside words ("u.s.",
// "ai-based", "5g"), "3,36" stays one token, a sentence-final period is split
// off, and clitics are separated ("don't" gives "do", "n't").
//
// Sentence splitting approximates NLTK's pre-trained English Punkt model,
// whose data is not available: a sentence ends after "?" or "!", and after a
// single "." that is not part of an abbreviation (a word with an inner period
// such as "u.s.", a single letter, or a common abbreviation such as "dr" or
// "etc"), provided that the end mark (with any closing quotes or brackets
// right after it) is followed by whitespace and then some other character.
// The only visible effect is that the final period of every sentence, not
// just the last one, becomes a token of its own. Texts of one sentence, such
// as the documents and typical queries of the SearchEngine tool, are
// unaffected.
//
// Tokenize does not change letter case; the SearchEngine tool lower-cases
// first (see QueryTokens).
func Tokenize(text string) []string {
	var out []string
	for _, sent := range splitSentences([]rune(text)) {
		out = treebank(out, sent)
	}
	return out
}

// QueryTokens prepares a SearchEngine keyword as the original tool does:
// Python's str.strip, then str.lower, then Tokenize.
func QueryTokens(keyword string) []string {
	return Tokenize(pyLower(pyStrip(keyword)))
}

// commonAbbrevs are period-final words after which splitSentences does not
// end a sentence (a small stand-in for Punkt's learnt abbreviation list).
var commonAbbrevs = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true,
	"jr": true, "st": true, "vs": true, "etc": true, "inc": true, "ltd": true,
	"co": true, "corp": true, "vol": true, "fig": true,
	"approx": true, "dept": true, "est": true, "gov": true, "jan": true,
	"feb": true, "mar": true, "apr": true, "jun": true, "jul": true,
	"aug": true, "sep": true, "sept": true, "oct": true, "nov": true,
	"dec": true, "mt": true, "ft": true, "gen": true, "rev": true,
}

// isCloser reports whether c may follow a sentence-final mark and still
// belong to the sentence (closing quotes and brackets).
func isCloser(c rune) bool {
	switch c {
	case '"', '\'', ')', ']', '}', '»', '”', '’':
		return true
	}
	return false
}

// splitSentences cuts text into sentences (see Tokenize). The whitespace
// between two sentences belongs to neither.
func splitSentences(s []rune) [][]rune {
	var out [][]rune
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		j := i
		periods, other := 0, 0
		for j < len(s) && (s[j] == '.' || s[j] == '?' || s[j] == '!') {
			if s[j] == '.' {
				periods++
			} else {
				other++
			}
			j++
		}
		if other == 0 && (periods > 1 || isAbbrev(s[start:i])) {
			i = j - 1
			continue
		}
		k := j
		for k < len(s) && isCloser(s[k]) {
			k++
		}
		m := k
		for m < len(s) && isPySpace(s[m]) {
			m++
		}
		if m == k || m == len(s) {
			i = j - 1
			continue
		}
		out = append(out, s[start:k])
		start = m
		i = m - 1
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// isAbbrev reports whether the word that ends text (text stops right before
// a single period) looks like an abbreviation.
func isAbbrev(text []rune) bool {
	a := len(text)
	for a > 0 && !isPySpace(text[a-1]) {
		a--
	}
	w := text[a:]
	for len(w) > 0 && strings.ContainsRune("\"'([{«“‘`", w[0]) {
		w = w[1:]
	}
	if len(w) == 0 {
		return false
	}
	word := strings.ToLower(string(w))
	if strings.Contains(word, ".") || len(w) == 1 && isPyWord(w[0]) {
		return true
	}
	if commonAbbrevs[word] {
		return true
	}
	if h := strings.LastIndexByte(word, '-'); h >= 0 {
		return commonAbbrevs[word[h+1:]]
	}
	return false
}

// matcher tries the pattern of one rewrite rule at position i of s. When it
// matches, it returns the end of the match and the replacement text.
type matcher func(s []rune, i int) (end int, repl string, ok bool)

// subAll rewrites every leftmost, non-overlapping match of m, like Python's
// re.sub: the match is tried at each position in turn and scanning resumes
// after the end of a match. Context a pattern inspects outside its match
// (word boundaries) is read from the unmodified input, as re.sub does. s
// itself is returned when nothing matches, as for most rules and texts.
func subAll(s []rune, m matcher) []rune {
	var out []rune
	last := 0 // where the text not yet copied to out starts
	for i := 0; i < len(s); {
		end, repl, ok := m(s, i)
		if !ok {
			i++
			continue
		}
		if out == nil {
			out = make([]rune, 0, len(s)+8)
		}
		out = append(out, s[last:i]...)
		for _, r := range repl {
			out = append(out, r)
		}
		i, last = end, end
	}
	if out == nil {
		return s
	}
	return append(out, s[last:]...)
}

// spaced surrounds s with single spaces.
func spaced(s string) string { return " " + s + " " }

// wordBoundary reports whether Python's \b holds at position i of s
// (between a \w character and a non-\w character or an end).
func wordBoundary(s []rune, i int) bool {
	before := i > 0 && isPyWord(s[i-1])
	after := i < len(s) && isPyWord(s[i])
	return before != after
}

// The Treebank rewrite rules, grouped and ordered as NLTK applies them.

// rule is one rewrite rule: apply rewrites a text; needs lists characters
// of which every match holds at least one ("" for a rule that may match any
// text), so a text that holds none of them is left as it is without a pass.
type rule struct {
	needs string
	apply func([]rune) []rune
}

// charSet is the set of ASCII characters a text holds, as a bitmap. Every
// non-ASCII character counts as NUL, which over-approximates the set: a rule
// that needs only non-ASCII characters runs whenever the text has any.
type charSet [2]uint64

// add puts c in the set.
func (cs *charSet) add(c rune) {
	if c >= utf8.RuneSelf {
		c = 0
	}
	cs[c>>6] |= 1 << (c & 63)
}

// hasAny reports whether the set holds one of the characters of chars, or
// chars is empty.
func (cs *charSet) hasAny(chars string) bool {
	for _, c := range chars {
		if c >= utf8.RuneSelf {
			c = 0
		}
		if cs[c>>6]&(1<<(c&63)) != 0 {
			return true
		}
	}
	return chars == ""
}

// Opening quotes.
var startingQuotes = []rule{
	// Opening quote characters, and runs of backticks, stand apart.
	{"«“‘„`", func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			switch s[i] {
			case '«', '“', '‘', '„':
				return i + 1, spaced(string(s[i])), true
			case '`':
				j := i
				for j < len(s) && s[j] == '`' {
					j++
				}
				return j, spaced(string(s[i:j])), true
			}
			return 0, "", false
		})
	}},
	// A double quote at the very start becomes ``.
	{`"`, func(s []rune) []rune {
		if len(s) > 0 && s[0] == '"' {
			return append([]rune("``"), s[1:]...)
		}
		return s
	}},
	// Every `` pair stands apart.
	{"`", func(s []rune) []rune { return spacePairs(s, '`') }},
	// A double quote (or '') after a space or opening bracket becomes ``.
	{`"'`, func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			switch s[i] {
			case ' ', '(', '[', '{', '<':
			default:
				return 0, "", false
			}
			if i+1 < len(s) && s[i+1] == '"' {
				return i + 2, string(s[i]) + " `` ", true
			}
			if i+2 < len(s) && s[i+1] == '\'' && s[i+2] == '\'' {
				return i + 3, string(s[i]) + " `` ", true
			}
			return 0, "", false
		})
	}},
	// An apostrophe before a one-character word that is not a clitic
	// letter (m, t, s, d, n in any case) is split from it: "'a b" gives
	// "' a b".
	{"'", func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if s[i] != '\'' || i+1 >= len(s) || !isPyWord(s[i+1]) {
				return 0, "", false
			}
			for _, w := range []string{"re", "ve", "ll", "m", "t", "s", "d", "n"} {
				if foldHas(s, i+1, w) {
					return 0, "", false
				}
			}
			if i+2 < len(s) && isPyWord(s[i+2]) {
				return 0, "", false
			}
			return i + 2, "' " + string(s[i+1]), true
		})
	}},
}

// Punctuation.
var punctuation = []rule{
	// The final period, followed only by closing brackets, quotes and
	// spaces, then whitespace, is split off.
	{".", func(s []rune) []rune {
		return finalPeriod(s, "])}>\"'»”’ ", true)
	}},
	// A colon or comma not followed by a digit stands apart.
	{":,", func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if (s[i] == ':' || s[i] == ',') && i+1 < len(s) && !isPyDigit(s[i+1]) {
				return i + 2, " " + string(s[i]) + " " + string(s[i+1]), true
			}
			return 0, "", false
		})
	}},
	// A colon or comma at the end (Python's $: the very end, or before a
	// final newline) stands apart.
	{":,", func(s []rune) []rune {
		n := len(s)
		at := -1
		if n >= 1 && (s[n-1] == ':' || s[n-1] == ',') {
			at = n - 1
		} else if n >= 2 && s[n-1] == '\n' && (s[n-2] == ':' || s[n-2] == ',') {
			at = n - 2
		}
		if at < 0 {
			return s
		}
		out := make([]rune, at, n+2)
		copy(out, s)
		out = append(out, ' ', s[at], ' ')
		return append(out, s[at+1:]...)
	}},
	// Runs of two or more periods stand apart.
	{".", func(s []rune) []rune {
		if !hasPair(s, '.') {
			return s
		}
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			j := i
			for j < len(s) && s[j] == '.' {
				j++
			}
			if j-i >= 2 {
				return j, spaced(string(s[i:j])), true
			}
			return 0, "", false
		})
	}},
	// Each of ; @ # $ % & stands apart.
	{";@#$%&", func(s []rune) []rune { return spaceOut(s, ";@#$%&") }},
	// The final period again (narrower closers, no space inside).
	{".", func(s []rune) []rune {
		return finalPeriod(s, "])}>\"'", false)
	}},
	// ? and ! stand apart.
	{"?!", func(s []rune) []rune { return spaceOut(s, "?!") }},
	// An apostrophe followed by a space is split from the preceding
	// character (unless that is an apostrophe too).
	{"'", func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if s[i] != '\'' && i+2 < len(s) && s[i+1] == '\'' && s[i+2] == ' ' {
				return i + 3, string(s[i]) + " ' ", true
			}
			return 0, "", false
		})
	}},
	// * stands apart.
	{"*", func(s []rune) []rune { return spaceOut(s, "*") }},
}

// spaceOut surrounds every character of set found in s with spaces.
//
// Not inlined: a copy in each rule that calls it would cost the engine module more than the call.
//
//go:noinline
func spaceOut(s []rune, set string) []rune {
	return subAll(s, func(s []rune, i int) (int, string, bool) {
		for _, c := range set {
			if c == s[i] {
				return i + 1, spaced(string(c)), true
			}
		}
		return 0, "", false
	})
}

// hasPair reports whether s holds c twice in a row.
func hasPair(s []rune, c rune) bool {
	for i := 1; i < len(s); i++ {
		if s[i] == c && s[i-1] == c {
			return true
		}
	}
	return false
}

// spacePairs surrounds every pair of c in s, taken from the left, with
// spaces.
func spacePairs(s []rune, c rune) []rune {
	if !hasPair(s, c) {
		return s
	}
	return subAll(s, func(s []rune, i int) (int, string, bool) {
		if s[i] == c && i+1 < len(s) && s[i+1] == c {
			return i + 2, " " + string(c) + string(c) + " ", true
		}
		return 0, "", false
	})
}

// finalPeriod splits off a period that follows a non-period character and
// is followed, up to the end, only by characters of closers and then
// whitespace. The rest of the text is replaced by " . " + closers + " " when
// wide, else by " ." + closers + " ".
func finalPeriod(s []rune, closers string, wide bool) []rune {
	n := len(s)
	p := n - 1
	for p >= 0 && (strings.ContainsRune(closers, s[p]) || isPySpace(s[p])) {
		p--
	}
	if p < 1 || s[p] != '.' || s[p-1] == '.' {
		return s
	}
	k := p + 1
	for k < n && strings.ContainsRune(closers, s[k]) {
		k++
	}
	for _, c := range s[k:] {
		if !isPySpace(c) {
			return s
		}
	}
	out := make([]rune, p, n+3)
	copy(out, s)
	if wide {
		out = append(out, ' ', '.', ' ')
	} else {
		out = append(out, ' ', '.')
	}
	out = append(out, s[p+1:k]...)
	return append(out, ' ')
}

// Brackets and double dashes.
var bracketsAndDashes = []rule{
	// Each bracket stands apart.
	{"[](){}<>", func(s []rune) []rune { return spaceOut(s, "[](){}<>") }},
	// -- stands apart.
	{"-", func(s []rune) []rune { return spacePairs(s, '-') }},
}

// Closing quotes and clitics, once the text is padded.
var endingQuotes = []rule{
	// The text is padded with a space at both ends.
	{"", func(s []rune) []rune {
		padded := make([]rune, 0, len(s)+2)
		padded = append(padded, ' ')
		padded = append(padded, s...)
		return append(padded, ' ')
	}},
	// Closing quote characters stand apart.
	{"»”’", func(s []rune) []rune { return spaceOut(s, "»”’") }},
	// '' stands apart.
	{"'", func(s []rune) []rune { return spacePairs(s, '\'') }},
	// A remaining double quote becomes ''.
	{`"`, func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if s[i] == '"' {
				return i + 1, " '' ", true
			}
			return 0, "", false
		})
	}},
	// 's 'm 'd (either case) or a lone ' before a space are split from the
	// preceding character (unless that is an apostrophe or a space).
	{"'", func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if s[i] == '\'' || s[i] == ' ' || i+2 >= len(s) || s[i+1] != '\'' {
				return 0, "", false
			}
			switch s[i+2] {
			case 's', 'S', 'm', 'M', 'd', 'D':
				if i+3 < len(s) && s[i+3] == ' ' {
					return i + 4, string(s[i]) + " " + string(s[i+1:i+3]) + " ", true
				}
			}
			if s[i+2] == ' ' {
				return i + 3, string(s[i]) + " ' ", true
			}
			return 0, "", false
		})
	}},
	// 'll 're 've n't (all lower or all upper case) before a space are split
	// from the preceding character (unless that is an apostrophe or space).
	{"'", func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if s[i] == '\'' || s[i] == ' ' || i+4 >= len(s) || s[i+4] != ' ' {
				return 0, "", false
			}
			switch string(s[i+1 : i+4]) {
			case "'ll", "'LL", "'re", "'RE", "'ve", "'VE", "n't", "N'T":
				return i + 5, string(s[i]) + " " + string(s[i+1:i+4]) + " ", true
			}
			return 0, "", false
		})
	}},
}

// twoPartWords are the contractions split in two wherever they form a whole
// word (any letter case): first part, second part.
var twoPartWords = [][2]string{
	{"can", "not"}, {"d", "'ye"}, {"gim", "me"}, {"gon", "na"},
	{"got", "ta"}, {"lem", "me"}, {"more", "'n"}, {"wan", "na"},
}

// Contractions, each as a separate pass like NLTK.
var contractions = []rule{
	{"", splitTwoParts},
	// "'tis" and "'twas" after a space.
	{"'", func(s []rune) []rune {
		for _, tail := range []string{"is", "was"} {
			s = subAll(s, func(s []rune, i int) (int, string, bool) {
				if s[i] != ' ' || i+1 >= len(s) || s[i+1] != '\'' || !foldHas(s, i+2, "t"+tail) {
					return 0, "", false
				}
				e := i + 3 + len(tail)
				if !wordBoundary(s, e) {
					return 0, "", false
				}
				return e, " " + string(s[i+1:i+3]) + " " + string(s[i+3:e]) + " ", true
			})
		}
		return s
	}},
}

// splitTwoParts splits the words of twoPartWords, each as a separate pass.
func splitTwoParts(s []rune) []rune {
	// Most texts hold none of the words, and a pass only inserts spaces, so
	// which words s holds anywhere is found once, before the passes.
	held := twoPartsHeld(s)
	for k, w := range twoPartWords {
		if held&(1<<k) == 0 {
			continue
		}
		a, b := w[0], w[1]
		whole := a + b
		lookaheadSpace := whole == "wanna"
		s = subAll(s, func(s []rune, i int) (int, string, bool) {
			if !foldHas(s, i, whole) || !wordBoundary(s, i) {
				return 0, "", false
			}
			e := i + len(whole)
			if lookaheadSpace {
				if e >= len(s) || !isPySpace(s[e]) {
					return 0, "", false
				}
			} else if !wordBoundary(s, e) {
				return 0, "", false
			}
			return e, " " + string(s[i:i+len(a)]) + " " + string(s[i+len(a):e]) + " ", true
		})
	}
	return s
}

// treebank tokenizes one sentence with the rules of NLTK's improved
// Treebank word tokenizer and appends its tokens to out. A rule runs only
// when the sentence holds a character it needs (see rule); the rules add no
// characters but spaces and those of the sentence, except that a double
// quote may become two backticks or two apostrophes.
func treebank(out []string, s []rune) []string {
	var chars charSet
	for _, c := range s {
		chars.add(c)
	}
	if chars.hasAny(`"`) {
		chars.add('`')
		chars.add('\'')
	}
	for _, rules := range [...][]rule{startingQuotes, punctuation, bracketsAndDashes, endingQuotes, contractions} {
		for _, r := range rules {
			if chars.hasAny(r.needs) {
				s = r.apply(s)
			}
		}
	}
	return pyFields(out, s)
}

// pyFields splits s on runs of Python whitespace, as str.split() does, and
// appends the words to out. The words are written one after the other to a
// builder, which keeps the text written so far when it grows: each word is
// a substring of the builder's text once written.
func pyFields(out []string, s []rune) []string {
	words, space := 0, true
	for _, c := range s {
		if isPySpace(c) {
			space = true
		} else if space {
			words, space = words+1, false
		}
	}
	if words == 0 {
		return out
	}
	if out == nil {
		out = make([]string, 0, words)
	}
	var b strings.Builder
	b.Grow(len(s))
	start := 0 // where the current word starts in b
	for i := 0; i <= len(s); i++ {
		if i < len(s) && !isPySpace(s[i]) {
			b.WriteRune(s[i])
		} else if b.Len() > start {
			out = append(out, b.String()[start:])
			start = b.Len()
		}
	}
	return out
}

// twoPartsHeld returns the set of the words of twoPartWords that s holds
// anywhere under Python's case-insensitive matching, as a bitmap (bit k for
// twoPartWords[k]).
func twoPartsHeld(s []rune) uint {
	var held uint
	for i := 0; i+3 < len(s); i++ { // every word has 4 characters or more
		// When ASCII, the first two characters of a word fold to one of
		// these pairs.
		if c, d := s[i], s[i+1]; c|d < utf8.RuneSelf {
			switch (c|0x20)<<8 | d | 0x20 {
			case 'c'<<8 | 'a', 'd'<<8 | '\'', 'g'<<8 | 'i', 'g'<<8 | 'o', 'l'<<8 | 'e', 'm'<<8 | 'o', 'w'<<8 | 'a':
			default:
				continue
			}
		}
		for k, w := range twoPartWords {
			if foldHas(s, i, w[0]) && foldHas(s, i+len(w[0]), w[1]) {
				held |= 1 << k
			}
		}
	}
	return held
}
