// Package call finds and parses the tool call in a model's output, in the two forms the playground
// accepts: the original text format `[ApiName(key='value', ...)]`, and native tool calls, JSON
// `{"name": ..., "arguments": {...}}` as function-calling models emit them. Text calls are read in one
// of two ways (Reading): exactly as the original's two regular expressions read them (Regex, quirks
// included: they decide verdicts on the original's data), or as Python reads a call written with
// literals (Literal, for our own data, whose prompts teach that form).
package call

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// Form says how a call was written.
type Form string

const (
	// Text is the original format, [ApiName(key='value', ...)].
	Text Form = "text"
	// Native is a function-calling JSON object {"name", "arguments"}.
	Native Form = "native"
)

// Call is a parsed tool call.
type Call struct {
	// Name is the tool name as written.
	Name string
	// Args maps parameter names to values in order of first appearance. Text calls read by Regex
	// give only strings (lists stay the text that was written); text calls read by Literal give the
	// Python values written (strings, int64, float64, bool, nil, lists, maps); native calls give typed
	// JSON values.
	Args *value.Map
	// Form is the form the call was written in.
	Form Form
	// Reading is how a text call's values were read: Regex, or Literal when the call was asked for
	// under Literal and read as Python. A Literal call's values are typed, as a native call's are.
	Reading Reading
	// Raw is the text the call was extracted from: the matched [..] span for text calls, the JSON
	// for native calls.
	Raw string
	// args is where a text call's Args live, made with the call.
	args value.MapWithRoom
}

// Extract returns the leftmost text call in output, exactly as the original's get_api_call, whose
// pattern is \[(\w+)\((.*)\)\]: a '[', a run of word characters (Python's Unicode \w), a '(', then
// the greediest run of non-newline characters that ends with ")]". So the match runs from the '[' to
// the last ")]" on that line. ok is false when there is none. (The scan is hand-written; a test checks
// it against the regular expression on many inputs.)
func Extract(output string) (string, bool) {
	start, _, _, end := find(output)
	if start < 0 {
		return "", false
	}
	return output[start:end], true
}

// find locates the leftmost call: the '[' at start, the name in [start+1, paren), the parameter text
// in [paren+1, end-2), end just past the ")]".
func find(s string) (start, paren, params, end int) {
	var close lastOnLine
	for i := 0; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		j := wordEnd(s, i+1)
		if j == i+1 || j >= len(s) || s[j] != '(' {
			continue
		}
		if k := close.find(s, j+1, ")]"); k >= 0 {
			return i, j, j + 1, k + 2
		}
	}
	return -1, -1, -1, -1
}

// lastOnLine answers "where is the last sep between from and the end of its line" for a scan that
// asks with from never decreasing and always the same sep. It searches each line once, so a scan
// that meets many candidate starts on one long line (a '[' then a name then '(' repeated, with no
// ")]" after them) stays linear in the text's length.
type lastOnLine struct {
	valid   bool
	lineEnd int // the '\n' (or the text's end) that ends the line searched
	last    int // the start of the last sep on it at or after the first from asked, or -1
}

// find returns the start of the last sep in s[from:e], e the first '\n' at or after from (or the
// text's end), or -1 when there is none.
func (c *lastOnLine) find(s string, from int, sep string) int {
	if !c.valid || from > c.lineEnd {
		e := len(s)
		if k := strings.IndexByte(s[from:], '\n'); k >= 0 {
			e = from + k
		}
		c.valid, c.lineEnd, c.last = true, e, -1
		if k := strings.LastIndex(s[from:e], sep); k >= 0 {
			c.last = from + k
		}
	}
	// An occurrence of sep inside s[from:lineEnd] is one inside the part searched, and the last one
	// there starts at or after from exactly when any does.
	if c.last >= from {
		return c.last
	}
	return -1
}

// isWord reports whether r is in Python's Unicode \w: letters and numbers of any script, and '_'.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// isSpace reports whether r is in Python's Unicode \s.
func isSpace(r rune) bool { return py.IsSpace(r) }

// asciiWord and asciiSpace are isWord and isSpace for the ASCII characters, as tables: the scans
// below test a byte without a call (a call per character dominated parsing under WebAssembly).
var asciiWord, asciiSpace = func() (w, sp [utf8.RuneSelf]bool) {
	for c := range rune(utf8.RuneSelf) {
		w[c], sp[c] = isWord(c), isSpace(c)
	}
	return w, sp
}()

// wordEnd returns the end of the run of word characters starting at i.
func wordEnd(s string, i int) int {
	for i < len(s) && s[i] < utf8.RuneSelf {
		if !asciiWord[s[i]] {
			return i
		}
		i++
	}
	return runEnd(s, i, isWord)
}

// spaceEnd returns the end of the run of whitespace starting at i.
func spaceEnd(s string, i int) int {
	for i < len(s) && s[i] < utf8.RuneSelf {
		if !asciiSpace[s[i]] {
			return i
		}
		i++
	}
	return runEnd(s, i, isSpace)
}

// runEnd returns the end of the run of characters starting at i for which in holds.
func runEnd(s string, i int, in func(rune) bool) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !in(r) {
			return i
		}
		i += n
	}
	return i
}

// ErrNoCall is returned by Parse when the text holds no call.
var ErrNoCall = errors.New("no API call found")

// Parse parses a text call as the original's parse_api_call: the name, then the parameter text
// scanned left to right for non-overlapping matches of three alternatives, tried in this order at each
// position: name='value' (either quote, the shortest value of at least one character, ending at the
// first quote of either kind), name=[...] (up to the last ']' on the line, brackets kept), and
// name=word. Later duplicates overwrite earlier values but keep their first position.
func Parse(text string) (*Call, error) {
	start, paren, params, end := find(text)
	if start < 0 {
		return nil, ErrNoCall
	}
	c := new(Call)
	parseSpan(c, text, start, paren, params, end)
	return c, nil
}

// parseSpan parses into c, which it overwrites, the call find located in text.
func parseSpan(c *Call, text string, start, paren, params, end int) {
	*c = Call{Name: text[start+1 : paren], Form: Text, Raw: text[start:end]}
	c.Args = c.args.Map()
	p := text[params : end-2]
	var brackets lastOnLine
	for i := 0; i < len(p); {
		name, val, next, ok := param(p, i, &brackets)
		if ok {
			c.Args.Set(name, val)
			i = next
			continue
		}
		if next > i {
			i = next
			continue
		}
		_, n := utf8.DecodeRuneInString(p[i:])
		i += n
	}
}

// param tries the three alternatives at position i. On failure, next is where the scan may resume
// (past a word that cannot start a match anywhere inside it) or i. brackets serves the search for a
// list's last ']' (positions only grow during one Parse).
func param(s string, i int, brackets *lastOnLine) (name, val string, next int, ok bool) {
	we := wordEnd(s, i)
	if we == i {
		return "", "", i, false
	}
	name = s[i:we]
	j := spaceEnd(s, we)
	if j >= len(s) || s[j] != '=' {
		// Every later start inside this word sees the same text after it: skip the word.
		return "", "", we, false
	}
	j = spaceEnd(s, j+1)
	if j < len(s) {
		switch s[j] {
		case '\'', '"':
			// (.+?) then a quote: at least one non-newline character, then the first quote.
			v := j + 1
			if v < len(s) && s[v] != '\n' {
				_, n := utf8.DecodeRuneInString(s[v:])
				for k := v + n; k < len(s); {
					c := s[k]
					if c == '\n' {
						break
					}
					if c == '\'' || c == '"' {
						return name, s[v:k], k + 1, true
					}
					_, n := utf8.DecodeRuneInString(s[k:])
					k += n
				}
			}
		case '[':
			// \[.*\]: up to the last ']' on the line.
			if k := brackets.find(s, j+1, "]"); k >= 0 {
				return name, s[j : k+1], k + 1, true
			}
		}
	}
	if e := wordEnd(s, j); e > j {
		return name, s[j:e], e, true
	}
	return "", "", we, false
}

// Find returns the call in a model's output: a native call when the output is a function-calling
// JSON object (possibly inside a ```json fence, or an OpenAI tool_calls message), else the text call
// found by Extract, read as the original reads it (Regex; Literal.Find reads it as Python, for our
// data). ok is false when there is neither (the NO_API_CALL verdict).
func Find(output string) (*Call, bool) {
	if c, ok := parseNative(output); ok {
		return c, true
	}
	raw, ok := Extract(output)
	if !ok {
		return nil, false
	}
	c, err := Parse(raw)
	if err != nil {
		return nil, false
	}
	return c, true
}

// A Finder finds calls as Find does (as Reading.Find does under its Reading), reusing one Call for
// every text call it finds: a scorer judges one call at a time and keeps nothing of it (the call and
// its argument map were an allocation a verdict). The zero Finder is ready to use and reads as the
// original does; it is not safe for concurrent use.
type Finder struct {
	// Reading is how text calls are read: Regex (the zero value) or Literal.
	Reading Reading
	c       Call
}

// Find is Find, or Reading.Find under the Finder's Reading. A text call it returns is the Finder's
// own, valid until its next Find (what is in it, the name and the argument values, may be kept); a
// native call is made anew.
func (f *Finder) Find(output string) (*Call, bool) {
	if c, ok := parseNative(output); ok {
		return c, true
	}
	if f.Reading == Literal {
		if _, ok := readLiteral(output, &f.c, false); ok {
			return &f.c, true
		}
		// Not Python: the original's reading, as if Literal had not been asked.
	}
	// Extract then Parse, with the call located once: find locates in the extracted text the call
	// it located in the whole output.
	start, paren, params, end := find(output)
	if start < 0 {
		return nil, false
	}
	parseSpan(&f.c, output, start, paren, params, end)
	return &f.c, true
}

// Format renders a call in the original text format the way its prompts render past calls:
// [Name(key='value', ...)] with each value as Python's str().
func Format(name string, args *value.Map) string {
	return format(name, args, func(b *strings.Builder, v any) {
		b.WriteByte('\'')
		b.WriteString(value.Str(v))
		b.WriteByte('\'')
	})
}

// format renders [Name(key=value, ...)], each value as writeValue writes it.
func format(name string, args *value.Map, writeValue func(b *strings.Builder, v any)) string {
	var b strings.Builder
	b.WriteByte('[')
	b.WriteString(name)
	b.WriteByte('(')
	for i, k := range args.Keys() {
		if i > 0 {
			b.WriteString(", ")
		}
		v, _ := args.Get(k)
		b.WriteString(k)
		b.WriteByte('=')
		writeValue(&b, v)
	}
	b.WriteString(")]")
	return b.String()
}
