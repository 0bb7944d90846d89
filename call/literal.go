package call

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/value"
)

// Reading says how the argument values of a text call are read. It is chosen per dataset
// (ReadingFor): the original's data must be read as the original reads it, our own data as the
// Python its prompts teach. Native calls are JSON under either reading.
type Reading uint8

const (
	// Regex reads a text call as the original's regular expressions do (Find, Parse): every value is
	// the text written, a quoted one cut at the first quote of either kind, an empty one dropped, a
	// list kept as its text. Verdicts on the original's data depend on these quirks.
	Regex Reading = iota
	// Literal reads a text call as Python reads a call written with literals: 'single' or "double"
	// quoted strings (triple quotes, r and u prefixes, adjacent strings joined, backslash escapes
	// decoded), the empty string, numbers, True, False and None, and lists and dicts of them, each
	// giving its Python value (a number an int64 or a float64). An unquoted word that is none of
	// these (key=value) is that word, as Regex reads it. Calls may span lines, and a call's text may
	// hold ")]" inside a string. Where the text from the first "[Name(" to the end of its calls does
	// not read as Python (an unterminated quote, an apostrophe left unescaped inside single quotes, a
	// stray character), the output is read as Regex reads it: such text means what it always meant.
	Literal
)

// ReadingFor returns the reading of a dataset's text calls: Literal for our own data (repaired,
// dataset.Data.Repaired), whose prompts teach [Tool(key='value')] and whose every gold call must be
// writable in it; Regex for data in the original's layout, whose verdicts need the original's reading.
func ReadingFor(repaired bool) Reading {
	if repaired {
		return Literal
	}
	return Regex
}

// String names the reading: "regex" or "literal".
func (r Reading) String() string {
	if r == Literal {
		return "literal"
	}
	return "regex"
}

// Find is Find under the reading r: a native call, else the leftmost text call read as r reads it.
func (r Reading) Find(output string) (*Call, bool) {
	if r != Literal {
		return Find(output)
	}
	f := &Finder{Reading: r}
	return f.Find(output)
}

// FindAll is FindAll under the reading r: the calls of a native list, else of the text list at the
// leftmost text call, read as r reads them.
func (r Reading) FindAll(output string) ([]*Call, bool) {
	if r != Literal {
		return FindAll(output)
	}
	if cs, ok := parseNativeAll(output); ok {
		return cs, true
	}
	if cs, ok := readLiteral(output, new(Call), true); ok {
		return cs, true
	}
	// Not Python: the original's reading, as if Literal had not been asked.
	return FindAll(output)
}

// Several is Several under the reading r: whether r.FindAll might find more than one call, without
// allocating. Under Literal it says yes where either reading does (Literal falls back to Regex).
func (r Reading) Several(output string) bool {
	if Several(output) {
		return true
	}
	return r == Literal && textSeveral(output, literalClose)
}

// FormatLiteral renders a call as Python writes a call of these values, the text form of our data:
// [Name(key=value, ...)] with every value as Python's repr writes it — a string in the quotes repr
// chooses (single, or double when it holds an apostrophe and no double quote, with the quote,
// backslashes and control characters escaped), numbers, True, False and None bare, lists and dicts
// as literals. The Literal reading reads it back as exactly these values, whatever text they hold
// (any value JSON can hold: a tuple would be written as one, which Literal does not read).
func FormatLiteral(name string, args *value.Map) string {
	return format(name, args, func(b *strings.Builder, v any) { b.WriteString(value.Repr(v)) })
}

// readLiteral reads under Literal the text list at the leftmost call of s, in the shapes textList
// accepts ([A(...), B(...)], [A(...)] [B(...)], [A(...)], [B(...)]). The first call is read into first;
// with keep, every call is returned (first included), else the later calls are read to check the
// text and dropped. ok is false when the text there does not read as Python calls.
func readLiteral(s string, first *Call, keep bool) (calls []*Call, ok bool) {
	open := callStart(s)
	if open < 0 {
		return nil, false
	}
	p := literal{s: s}
	var scratch *Call
	i, n := open+1, 0
	for {
		c := first
		if n > 0 {
			switch {
			case keep:
				c = new(Call)
			case scratch == nil:
				scratch = new(Call)
				c = scratch
			default:
				c = scratch
			}
		}
		end, ok := p.call(c, i)
		if !ok {
			return nil, false
		}
		if keep {
			calls = append(calls, c)
		}
		n++
		j := spaceEnd(s, end)
		if j < len(s) && s[j] == ',' {
			j = spaceEnd(s, j+1)
			if j >= len(s) || s[j] != ']' {
				// [A(), B()]: the next call of the same list.
				if keep || n == 1 {
					c.Raw = "[" + s[i:end] + "]"
				}
				i = j
				continue
			}
			// [A(), ]: a trailing comma ends the list.
		}
		if j >= len(s) || s[j] != ']' {
			return nil, false
		}
		switch {
		case i == open+1:
			// The call alone in its brackets: its text, as written.
			c.Raw = s[open : j+1]
		case keep || n == 1:
			c.Raw = "[" + s[i:end] + "]"
		}
		// The list ends; another bracketed call may follow ([A()] [B()] or [A()], [B()]).
		k := spaceEnd(s, j+1)
		if k < len(s) && s[k] == ',' {
			k = spaceEnd(s, k+1)
		}
		if k >= len(s) || s[k] != '[' {
			return calls, true
		}
		open, i = k, k+1
	}
}

// maxLiteralDepth bounds the nesting of lists and dicts in a value: text nested deeper does not read
// as Python here (it falls back to Regex), so hostile text cannot exhaust the stack.
const maxLiteralDepth = 64

// literal reads Python call syntax from s, from position i.
type literal struct {
	s string
	i int
}

// space skips whitespace (line breaks included: inside brackets Python ignores them).
func (p *literal) space() { p.i = spaceEnd(p.s, p.i) }

// eat consumes c when it is next.
func (p *literal) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// call reads into c, which it overwrites, the call whose name starts at i: Name(key=value, ...),
// keyword arguments only, a trailing comma allowed. It returns the index just past the ')'. A later
// duplicate key overwrites the earlier value and keeps its position, as Regex reads it.
func (p *literal) call(c *Call, i int) (end int, ok bool) {
	s := p.s
	name := wordEnd(s, i)
	if name == i || name >= len(s) || s[name] != '(' {
		return 0, false
	}
	*c = Call{Name: s[i:name], Form: Text, Reading: Literal}
	c.Args = c.args.Map()
	p.i = name + 1
	for {
		p.space()
		if p.eat(')') {
			return p.i, true
		}
		k := wordEnd(s, p.i)
		if k == p.i {
			return 0, false
		}
		key := s[p.i:k]
		p.i = k
		p.space()
		if !p.eat('=') {
			return 0, false
		}
		p.space()
		v, ok := p.value(0)
		if !ok {
			return 0, false
		}
		c.Args.Set(key, v)
		p.space()
		if p.eat(',') {
			continue
		}
		if p.eat(')') {
			return p.i, true
		}
		return 0, false
	}
}

// value reads one value: a literal, or an unquoted word.
func (p *literal) value(depth int) (any, bool) {
	s := p.s
	if depth > maxLiteralDepth || p.i >= len(s) {
		return nil, false
	}
	switch c := s[p.i]; {
	case stringStart(s, p.i):
		return p.str()
	case c == '[':
		return p.list(depth)
	case c == '{':
		return p.dict(depth)
	case c == '-' || c == '+':
		p.i++
		p.space()
		v, ok := p.number()
		if !ok || c == '+' {
			return v, ok
		}
		if n, isInt := v.(int64); isInt {
			return -n, true
		}
		return -v.(float64), true
	}
	if v, ok := p.number(); ok {
		return v, true
	}
	e := wordEnd(s, p.i)
	if e == p.i {
		return nil, false
	}
	w := s[p.i:e]
	p.i = e
	switch w {
	case "True":
		return true, true
	case "False":
		return false, true
	case "None":
		return nil, true
	}
	return w, true
}

// list reads [v, ...].
func (p *literal) list(depth int) (any, bool) {
	p.i++
	list := []any{}
	for {
		p.space()
		if p.eat(']') {
			return list, true
		}
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		list = append(list, v)
		p.space()
		if p.eat(',') {
			continue
		}
		if p.eat(']') {
			return list, true
		}
		return nil, false
	}
}

// dict reads {k: v, ...}; a key is kept as Python's str() of it (a JSON object's keys are text), and
// a list or dict cannot be a key (Python's dicts refuse them).
func (p *literal) dict(depth int) (any, bool) {
	p.i++
	m := value.NewMap(2)
	for {
		p.space()
		if p.eat('}') {
			return m, true
		}
		k, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		switch k.(type) {
		case []any, *value.Map:
			return nil, false
		}
		p.space()
		if !p.eat(':') {
			return nil, false
		}
		p.space()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		m.Set(value.Str(k), v)
		p.space()
		if p.eat(',') {
			continue
		}
		if p.eat('}') {
			return m, true
		}
		return nil, false
	}
}

// isDigit reports whether c is an ASCII digit (Python's number literals have no other).
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digitsEnd returns the end of Python's digitpart at i, digits with single underscores between them
// (1_000), or i when there is none.
func digitsEnd(s string, i int, digit func(byte) bool) int {
	if i >= len(s) || !digit(s[i]) {
		return i
	}
	for i++; i < len(s); {
		switch {
		case digit(s[i]):
			i++
		case s[i] == '_' && i+1 < len(s) && digit(s[i+1]):
			i += 2
		default:
			return i
		}
	}
	return i
}

// number reads a Python number literal: a decimal, 0x, 0o or 0b integer (an int64; a larger one is not
// read), or a float (1.5, .5, 1., 1e-3). A decimal integer with a leading zero (007), or a number run
// into letters (5abc), is not a number (Python refuses them); value then reads it as a word.
func (p *literal) number() (any, bool) {
	s, i := p.s, p.i
	if i >= len(s) || !isDigit(s[i]) && (s[i] != '.' || i+1 >= len(s) || !isDigit(s[i+1])) {
		return nil, false
	}
	if s[i] == '0' && i+1 < len(s) {
		base, digit := 0, isDigit
		switch s[i+1] | 0x20 {
		case 'x':
			base, digit = 16, func(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
		case 'o':
			base, digit = 8, func(c byte) bool { return '0' <= c && c <= '7' }
		case 'b':
			base, digit = 2, func(c byte) bool { return c == '0' || c == '1' }
		}
		if base != 0 {
			// Python allows an underscore right after the prefix (0x_ff).
			from := i + 2
			if from+1 < len(s) && s[from] == '_' && digit(s[from+1]) {
				from++
			}
			j := digitsEnd(s, from, digit)
			if j == from || wordEnd(s, j) > j {
				return nil, false
			}
			n, err := strconv.ParseInt(strings.ReplaceAll(s[from:j], "_", ""), base, 64)
			if err != nil {
				return nil, false
			}
			p.i = j
			return n, true
		}
	}
	j := digitsEnd(s, i, isDigit)
	float := false
	if j < len(s) && s[j] == '.' {
		float = true
		j = digitsEnd(s, j+1, isDigit)
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if e := digitsEnd(s, k, isDigit); e > k {
			j, float = e, true
		}
	}
	if wordEnd(s, j) > j {
		return nil, false
	}
	text := s[i:j]
	if strings.IndexByte(text, '_') >= 0 {
		text = strings.ReplaceAll(text, "_", "")
	}
	if float {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, false
		}
		p.i = j
		return f, true
	}
	if len(text) > 1 && text[0] == '0' && strings.Trim(text, "0") != "" {
		return nil, false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return nil, false
	}
	p.i = j
	return n, true
}

// stringStart reports whether a string literal starts at i: a quote, or an r, R, u or U prefix and a
// quote.
func stringStart(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	switch s[i] {
	case '\'', '"':
		return true
	case 'r', 'R', 'u', 'U':
		return i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '"')
	}
	return false
}

// str reads a string value: one string literal, or several side by side ('a' "b"), which Python joins.
// A literal without escapes is a part of s, not a copy.
func (p *literal) str() (string, bool) {
	var joined []byte
	first := ""
	for n := 0; ; n++ {
		piece, ok := p.piece()
		if !ok {
			return "", false
		}
		switch {
		case n == 0:
			first = piece
		case joined == nil:
			joined = append(append(make([]byte, 0, len(first)+len(piece)), first...), piece...)
		default:
			joined = append(joined, piece...)
		}
		j := spaceEnd(p.s, p.i)
		if !stringStart(p.s, j) {
			break
		}
		p.i = j
	}
	if joined != nil {
		return string(joined), true
	}
	return first, true
}

// piece reads one string literal at p.i (stringStart holds there).
func (p *literal) piece() (string, bool) {
	s := p.s
	raw := false
	if c := s[p.i]; c != '\'' && c != '"' {
		raw = c == 'r' || c == 'R'
		p.i++
	}
	open := p.i
	end, escaped := stringEnd(s, open)
	if end < 0 {
		return "", false
	}
	quotes := 1
	if isTriple(s, open) {
		quotes = 3
	}
	p.i = end
	body := s[open+quotes : end-quotes]
	if raw || !escaped {
		return body, true
	}
	return unescape(body)
}

// isTriple reports whether the quote at i opens a triple-quoted string: three quotes of one kind.
func isTriple(s string, i int) bool {
	return i+2 < len(s) && s[i+1] == s[i] && s[i+2] == s[i]
}

// stringEnd returns the index just past the end of the string literal whose opening quote is at i, and
// whether its body has a backslash; end is -1 when the literal does not end (no closing quote, or a
// line break inside a single-quoted one). A backslash always takes the next character with it, so \'
// never ends a string, raw or not, as in Python.
func stringEnd(s string, i int) (end int, escaped bool) {
	q := s[i]
	triple := isTriple(s, i)
	k := i + 1
	if triple {
		k = i + 3
	}
	for ; k < len(s); k++ {
		switch c := s[k]; {
		case c == '\\':
			escaped = true
			k++
		case c == '\n' && !triple:
			return -1, escaped
		case c == q && !triple:
			return k + 1, escaped
		case c == q && k+2 < len(s) && s[k+1] == q && s[k+2] == q:
			return k + 3, escaped
		}
	}
	return -1, escaped
}

// unescape decodes the backslash escapes of a string literal's body as Python does: \\ \' \" \a \b
// \f \n \r \t \v, octal \ooo, \xhh, \uXXXX and \UXXXXXXXX (a surrogate pair written as two \u
// escapes is its one character; a lone surrogate, which Go text cannot hold, is U+FFFD), and a
// backslash before a line break joins the lines. Any other escape, \N{...} included, is kept as
// written (Python keeps unknown escapes; it would look a \N name up). ok is false for a \x, \u or \U
// without its hex digits, which Python refuses.
func unescape(s string) (string, bool) {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b = append(b, c)
			i++
			continue
		}
		e := s[i+1]
		i += 2
		switch e {
		case '\n':
		case '\\', '\'', '"':
			b = append(b, e)
		case 'a':
			b = append(b, '\a')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'v':
			b = append(b, '\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			r := rune(e - '0')
			for n := 0; n < 2 && i < len(s) && '0' <= s[i] && s[i] <= '7'; n++ {
				r = r*8 + rune(s[i]-'0')
				i++
			}
			b = utf8.AppendRune(b, r)
		case 'x', 'u', 'U':
			width := 2
			switch e {
			case 'u':
				width = 4
			case 'U':
				width = 8
			}
			r, ok := hexRune(s, i, width)
			if !ok || r > unicode.MaxRune {
				return "", false
			}
			i += width
			if 0xD800 <= r && r < 0xDC00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
				if lo, ok := hexRune(s, i+2, 4); ok && 0xDC00 <= lo && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					i += 6
				}
			}
			b = utf8.AppendRune(b, r) // a lone surrogate appends U+FFFD
		default:
			b = append(b, '\\', e)
		}
	}
	return string(b), true
}

// hexRune reads width hex digits at i.
func hexRune(s string, i, width int) (rune, bool) {
	if i+width > len(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(s[i:i+width], 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(n), true
}

// literalClose is closeParen for the Literal reading: the index of the ')' that closes a call's
// parameter text starting at i, or -1, with strings skipped as Python reads them (either quote, a
// backslash escaping the next character, triple quotes) and brackets nesting.
func literalClose(s string, i int) int {
	return closeWith(s, i, func(s string, i int) int {
		end, _ := stringEnd(s, i)
		return end
	})
}
