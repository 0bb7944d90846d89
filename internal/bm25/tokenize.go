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
		out = append(out, treebank(sent)...)
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

// Opening quotes.
var startingQuotes = []func([]rune) []rune{
	// Opening quote characters, and runs of backticks, stand apart.
	func(s []rune) []rune {
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
	},
	// A double quote at the very start becomes ``.
	func(s []rune) []rune {
		if len(s) > 0 && s[0] == '"' {
			return append([]rune("``"), s[1:]...)
		}
		return s
	},
	// Every `` pair stands apart.
	func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if s[i] == '`' && i+1 < len(s) && s[i+1] == '`' {
				return i + 2, " `` ", true
			}
			return 0, "", false
		})
	},
	// A double quote (or '') after a space or opening bracket becomes ``.
	func(s []rune) []rune {
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
	},
	// An apostrophe before a one-character word that is not a clitic
	// letter (m, t, s, d, n in any case) is split from it: "'a b" gives
	// "' a b".
	func(s []rune) []rune {
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
	},
}

// Punctuation.
var punctuation = []func([]rune) []rune{
	// The final period, followed only by closing brackets, quotes and
	// spaces, then whitespace, is split off.
	func(s []rune) []rune {
		return finalPeriod(s, "])}>\"'»”’ ", true)
	},
	// A colon or comma not followed by a digit stands apart.
	func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if (s[i] == ':' || s[i] == ',') && i+1 < len(s) && !isPyDigit(s[i+1]) {
				return i + 2, " " + string(s[i]) + " " + string(s[i+1]), true
			}
			return 0, "", false
		})
	},
	// A colon or comma at the end (Python's $: the very end, or before a
	// final newline) stands apart.
	func(s []rune) []rune {
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
		out := append([]rune{}, s[:at]...)
		out = append(out, []rune(spaced(string(s[at])))...)
		return append(out, s[at+1:]...)
	},
	// Runs of two or more periods stand apart.
	func(s []rune) []rune {
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
	},
	// Each of ; @ # $ % & stands apart.
	func(s []rune) []rune { return spaceOut(s, ";@#$%&") },
	// The final period again (narrower closers, no space inside).
	func(s []rune) []rune {
		return finalPeriod(s, "])}>\"'", false)
	},
	// ? and ! stand apart.
	func(s []rune) []rune { return spaceOut(s, "?!") },
	// An apostrophe followed by a space is split from the preceding
	// character (unless that is an apostrophe too).
	func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if s[i] != '\'' && i+2 < len(s) && s[i+1] == '\'' && s[i+2] == ' ' {
				return i + 3, string(s[i]) + " ' ", true
			}
			return 0, "", false
		})
	},
	// * stands apart.
	func(s []rune) []rune { return spaceOut(s, "*") },
}

// spaceOut surrounds every character of set found in s with spaces.
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
	out := append([]rune{}, s[:p]...)
	if wide {
		out = append(out, ' ', '.', ' ')
	} else {
		out = append(out, ' ', '.')
	}
	out = append(out, s[p+1:k]...)
	return append(out, ' ')
}

// Closing quotes and clitics; the text is padded with a space at both ends
// before these run.
var endingQuotes = []func([]rune) []rune{
	// Closing quote characters stand apart.
	func(s []rune) []rune { return spaceOut(s, "»”’") },
	// '' stands apart.
	func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if s[i] == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				return i + 2, " '' ", true
			}
			return 0, "", false
		})
	},
	// A remaining double quote becomes ''.
	func(s []rune) []rune {
		return subAll(s, func(s []rune, i int) (int, string, bool) {
			if s[i] == '"' {
				return i + 1, " '' ", true
			}
			return 0, "", false
		})
	},
	// 's 'm 'd (either case) or a lone ' before a space are split from the
	// preceding character (unless that is an apostrophe or a space).
	func(s []rune) []rune {
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
	},
	// 'll 're 've n't (all lower or all upper case) before a space are split
	// from the preceding character (unless that is an apostrophe or space).
	func(s []rune) []rune {
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
	},
}

// twoPartWords are the contractions split in two wherever they form a whole
// word (any letter case): first part, second part.
var twoPartWords = [][2]string{
	{"can", "not"}, {"d", "'ye"}, {"gim", "me"}, {"gon", "na"},
	{"got", "ta"}, {"lem", "me"}, {"more", "'n"}, {"wan", "na"},
}

// contractions splits the words of twoPartWords, then "'tis" and "'twas"
// after a space, each as a separate pass like NLTK.
func contractions(s []rune) []rune {
	for _, w := range twoPartWords {
		a, b := w[0], w[1]
		whole := a + b
		if !hasFold(s, whole) {
			continue // most texts hold none: the pass would only look
		}
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
}

// treebank tokenizes one sentence with the rules of NLTK's improved
// Treebank word tokenizer.
func treebank(s []rune) []string {
	for _, f := range startingQuotes {
		s = f(s)
	}
	for _, f := range punctuation {
		s = f(s)
	}
	s = spaceOut(s, "[](){}<>")
	s = subAll(s, func(s []rune, i int) (int, string, bool) {
		if s[i] == '-' && i+1 < len(s) && s[i+1] == '-' {
			return i + 2, " -- ", true
		}
		return 0, "", false
	})
	padded := make([]rune, 0, len(s)+2)
	padded = append(padded, ' ')
	padded = append(padded, s...)
	s = append(padded, ' ')
	for _, f := range endingQuotes {
		s = f(s)
	}
	s = contractions(s)
	return pyFields(s)
}

// pyFields splits on runs of Python whitespace, as str.split() does.
func pyFields(s []rune) []string {
	var out []string
	start := -1
	for i, c := range s {
		if isPySpace(c) {
			if start >= 0 {
				out = append(out, string(s[start:i]))
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, string(s[start:]))
	}
	return out
}

// hasFold reports whether s holds the lower-case ASCII word w, which starts
// with a letter, anywhere (see foldHas).
func hasFold(s []rune, w string) bool {
	c := rune(w[0])
	for i, r := range s {
		// Only c, its capital and non-ASCII letters (see foldIs) fold to c.
		if (r == c || r == c-'a'+'A' || r >= utf8.RuneSelf) && foldHas(s, i, w) {
			return true
		}
	}
	return false
}
