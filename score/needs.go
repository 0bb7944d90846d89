package score

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/protocol"
)

// A special case is right when the reply makes no call and does what the case needs: what every
// special case of a kind needs (KindNeed), and what this case needs (its Meta's Needs: the missing
// value, the wrong value, the candidates, the missing tool). Both are phrases looked for in the reply,
// deterministically: "OK.", a claim of success, an unrelated sentence or a vague catch-all names
// nothing of the case and is wrong.

// KindNeed returns what every reply to a special case of kind must do, whatever the case: ask (a
// missing value, an ambiguous request), point out or ask again (a wrong value), say it cannot (no
// tool). ok is false for an unknown kind.
func KindNeed(kind string) (protocol.Need, bool) {
	n, ok := kindNeeds[kind]
	return n, ok
}

// asking are the phrases of a reply that asks the user something.
var asking = []string{"?", "please", "could you", "can you", "would you", "let me know", "tell me", "i need", "i'll need",
	"need to know", "which", "what", "when", "who", "where", "confirm", "specify", "provide", "share"}

var kindNeeds = map[string]protocol.Need{
	protocol.SpecialMissingValue: {What: "asks the user for it", Any: asking},
	protocol.SpecialAmbiguous:    {What: "asks which one is meant", Any: asking},
	protocol.SpecialWrongValue: {What: "says the value is wrong or asks for it again", Any: append([]string{
		"not a valid", "invalid", "not valid", "isn't", "is not", "doesn't", "does not", "wrong", "incorrect",
		"incomplete", "missing", "malformed", "typo", "mistake", "no such", "not exist", "out of range", "impossible",
		"can't", "cannot", "looks like", "seems", "should be", "must be", "needs", "only", "not a"}, asking...)},
	protocol.SpecialNoTool: {What: "says it cannot do that", Any: []string{
		"can't", "cannot", "can not", "unable", "not able", "don't have", "do not have", "no tool", "not possible",
		"isn't possible", "not supported", "isn't supported", "not something i can", "sorry", "unfortunately",
		"i'm afraid", "not available", "beyond", "outside", "no way to", "only able", "no access"}},
}

// Unmet returns the first need of needs that reply does not meet, or nil when it meets them all.
func Unmet(reply string, needs []protocol.Need) *protocol.Need {
	text := normalizeReply(reply)
	for i := range needs {
		if !meets(text, needs[i]) {
			return &needs[i]
		}
	}
	return nil
}

// Meets reports whether reply meets need: it contains one of the need's phrases.
func Meets(reply string, need protocol.Need) bool {
	return meets(normalizeReply(reply), need)
}

func meets(text string, need protocol.Need) bool {
	for _, p := range need.Any {
		if containsPhrase(text, normalizeReply(p)) {
			return true
		}
	}
	return false
}

// normalizeReply lowercases s, writes typographic quotes and dashes as ASCII ones and collapses every
// run of white space to one space, so that a phrase is found however the reply is typeset.
func normalizeReply(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		switch r {
		case '\u2018', '\u2019', '\u02bc':
			r = '\''
		case '\u201c', '\u201d':
			r = '"'
		case '\u2013', '\u2014':
			r = '-'
		}
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimSpace(b.String())
}

// containsPhrase reports whether phrase occurs in text at word boundaries: a phrase that starts
// (ends) with a letter or digit must not continue a word of text there ("time" is not in
// "sometimes"; "?" is anywhere).
func containsPhrase(text, phrase string) bool {
	if phrase == "" {
		return false
	}
	for from := 0; from <= len(text)-len(phrase); {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(phrase)
		if boundaryBefore(text, i, phrase) && boundaryAfter(text, end, phrase) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		from = i + size
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func boundaryBefore(text string, i int, phrase string) bool {
	first, _ := utf8.DecodeRuneInString(phrase)
	if !isWordRune(first) || i == 0 {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:i])
	return !isWordRune(prev)
}

func boundaryAfter(text string, end int, phrase string) bool {
	last, _ := utf8.DecodeLastRuneInString(phrase)
	if !isWordRune(last) || end == len(text) {
		return true
	}
	next, _ := utf8.DecodeRuneInString(text[end:])
	return !isWordRune(next)
}
