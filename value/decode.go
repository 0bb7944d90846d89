package value

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// SyntaxError is a JSON syntax error at a byte offset of the input.
type SyntaxError struct {
	Offset int64
	msg    string
}

func (e *SyntaxError) Error() string { return e.msg }

// Decode parses one JSON text into a value, as Python's json.loads does: object keys keep their order
// (a repeated key keeps its first place and its last value), a number without '.', 'e' or 'E' is an
// integer (beyond int64 it becomes a float), NaN, Infinity and -Infinity are accepted, and invalid
// UTF-8 becomes U+FFFD. Text after the value is an error.
//
// It is a hand-written parser: decoding is on the hot path of every load and every prediction line,
// and encoding/json's token API allocates several times more.
func Decode(data []byte) (any, error) {
	d := decoder{data: data}
	d.skip()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.skip()
	if d.pos < len(d.data) {
		return nil, d.errorf("unexpected data after the JSON value")
	}
	return v, nil
}

// DecodeHead parses the JSON value at the start of data (after any white space), as Decode does, and
// returns what follows it unread: a message whose JSON head is followed by raw bytes (the engine
// protocol's request body) is split without scanning the bytes.
func DecodeHead(data []byte) (v any, rest []byte, err error) {
	d := decoder{data: data}
	d.skip()
	v, err = d.value(0)
	if err != nil {
		return nil, nil, err
	}
	return v, data[d.pos:], nil
}

// SkipHead checks the syntax of the JSON value at the start of data (after any white space), as
// DecodeFields checks the members it skips, and returns what follows it, building nothing: a reader
// that needs only where values end (a database's records) copies none of their texts.
func SkipHead(data []byte) (rest []byte, err error) {
	d := decoder{data: data}
	d.skip()
	if err := d.skipValue(0); err != nil {
		return nil, err
	}
	return data[d.pos:], nil
}

// DecodeFields parses a JSON object but builds only the members whose key want accepts; the values of
// the others are checked for syntax and skipped. want must not keep the key it is given. Prediction files often carry large fields a reader
// does not need (the oracle's lines hold whole tool results): skipping them is several times faster.
func DecodeFields(data []byte, want func(key string) bool) (*Map, error) {
	d := decoder{data: data}
	d.skip()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return nil, d.errorf("a JSON object is expected")
	}
	m, err := d.object(0, want)
	if err != nil {
		return nil, err
	}
	d.skip()
	if d.pos < len(d.data) {
		return nil, d.errorf("unexpected data after the JSON value")
	}
	return m, nil
}

// A FieldReader decodes many JSON objects of one shape, the lines of a JSONL file, as DecodeFields
// does, at a fraction of the allocations: it reuses one Map for every object and shares one copy of
// each wanted key and of the short texts that repeat from one line to the next (a file's lines
// repeat their levels and file names). What it shares is a few recent strings searched in order, not
// a table: hashing every text cost more than the copies it saved under WebAssembly, and its memory
// cannot grow with the input. It is not safe for concurrent use.
type FieldReader struct {
	want  func(key string) bool
	share []string
	m     Map
	keys  recentTexts
	texts recentTexts
	// d is the decoder of every object: its room and the keys it shares go on to the next one.
	d decoder
}

// roomKept is the most room for a text's escapes a FieldReader keeps between objects.
const roomKept = 1024

// fieldReaderTexts bounds how many distinct keys a decoder shares; later ones are copied.
const fieldReaderTexts = 4096

// sharedTextMax is the longest text a FieldReader shares.
const sharedTextMax = 64

// recentTexts holds a few distinct strings met, to hand out one copy of each. Each is also kept as
// a value (an interface holding it), so a shared text stored in a Map costs no allocation. A new
// text replaces one not met again since the hand last passed it (the clock algorithm): a file's
// levels and names stay while the short texts met once (predictions) come and go.
type recentTexts struct {
	t     [8]string
	boxed [8]any
	used  [8]bool
	next  int
	// last is the slot of the last text handed out, tried first: a file's lines come grouped by
	// dialogue file, so one member's text is mostly the last one's.
	last int
}

// get returns the shared copy of b, copying it in (over the oldest) when it is not among them.
func (r *recentTexts) get(b []byte) string {
	return r.t[r.find(b)]
}

// value returns the shared copy of b as a value.
func (r *recentTexts) value(b []byte) any {
	return r.boxed[r.find(b)]
}

// find returns the slot of the shared copy of b, copying it in over the oldest when it is absent.
func (r *recentTexts) find(b []byte) int {
	raw := unsafe.String(unsafe.SliceData(b), len(b))
	if r.t[r.last] == raw && r.boxed[r.last] != nil {
		r.used[r.last] = true
		return r.last
	}
	for i := range r.t {
		if r.t[i] == raw && r.boxed[i] != nil {
			r.used[i], r.last = true, i
			return i
		}
	}
	for r.used[r.next] {
		r.used[r.next] = false
		r.next = (r.next + 1) % len(r.t)
	}
	i := r.next
	r.t[i] = string(b)
	r.boxed[i] = r.t[i]
	r.next = (r.next + 1) % len(r.t)
	r.last = i
	return i
}

// NewFieldReader returns a reader that builds only the members whose key want accepts (see
// DecodeFields). share, when given, names the members whose text values repeat from one object to
// the next (a prediction file's levels and file names): only theirs are shared, and other texts
// (predictions, met once) are plain copies, which cost less than a search of the shared ones.
// Without share, every short text is shared.
func NewFieldReader(want func(key string) bool, share ...string) *FieldReader {
	r := &FieldReader{want: want, share: share}
	r.d = decoder{fieldKeys: &r.keys, texts: &r.texts, shareKeys: share}
	return r
}

// Decode is DecodeFields for one object. The Map it returns is the reader's own: it is valid until
// the next Decode (the values in it are not: they may be kept). The object's texts are copied into
// room they share with the next objects' (see copyText).
func (r *FieldReader) Decode(data []byte) (*Map, error) {
	d := &r.d
	d.data, d.pos, d.reuse = data, 0, &r.m
	d.skip()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return nil, d.errorf("a JSON object is expected")
	}
	m, err := d.object(0, r.want)
	if err == nil {
		if d.skip(); d.pos < len(d.data) {
			err = d.errorf("unexpected data after the JSON value")
		}
	}
	d.data = nil // the caller's
	if cap(d.buf) > roomKept {
		d.buf = nil // a long text's room is let go
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// skipValue checks the syntax of one value and moves past it without building it. Its checks are
// decoding's but for escapes, which it passes over unread (a skipped text is never decoded). It is a loop over the value's tokens with a stack
// of the containers open, not a recursion: the values skipped (a prediction line's other members)
// are most of what a stream reads, and a call costs much more than a loop step under WebAssembly.
func (d *decoder) skipValue(depth int) error {
	var room [32]byte
	open := room[:0] // the containers entered and not yet closed, innermost last: '{' or '['
	data := d.data
	key := false // whether the token to read is an object member's key (then its ':')
	for {
		// A value or a key, at depth depth+len(open).
		if key {
			d.skip()
			if d.pos >= len(data) || data[d.pos] != '"' {
				return d.errorf("object key must be a string")
			}
		}
		if depth+len(open) > maxDepth {
			return d.errorf("JSON nested too deeply")
		}
		if d.pos >= len(data) {
			return d.errorf("unexpected end of JSON input")
		}
		switch c := data[d.pos]; c {
		case '"':
			// The string's scan, written out here (a call per string was most of a skip's cost under
			// WebAssembly): runs of plain bytes eight at a time, an escape passed over unread.
			pos := d.pos + 1
			for pos < len(data) {
				for pos+8 <= len(data) && !special8(word8(data, pos)) {
					pos += 8
				}
				for pos < len(data) && plainByte[data[pos]] {
					pos++
				}
				if pos >= len(data) {
					break
				}
				if data[pos] == '"' {
					break
				}
				if data[pos] != '\\' {
					d.pos = pos
					return d.errorf("control character in a string")
				}
				pos += 2
			}
			if pos >= len(data) {
				d.pos = pos
				return d.errorf("unterminated string")
			}
			d.pos = pos + 1
			if key {
				d.skip()
				if d.pos >= len(data) || data[d.pos] != ':' {
					return d.errorf("expected ':' after an object key")
				}
				d.pos++
				d.skip()
				key = false
				continue // the member's value
			}
		case '{', '[':
			d.pos++
			d.skip()
			if d.pos < len(data) && data[d.pos] == closeOf(c) {
				d.pos++
				break // an empty container: a whole value
			}
			open = append(open, c)
			key = c == '{'
			continue // the container's first key or value
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if !d.literal("-Infinity") {
				if err := d.skipNumber(); err != nil {
					return err
				}
			}
		default:
			if _, err := d.value(depth + len(open)); err != nil { // the other literals, or an error
				return err
			}
		}
		// A value has ended: close the containers it ends, up to the next key or value.
		for {
			if len(open) == 0 {
				return nil
			}
			d.skip()
			if d.pos >= len(data) {
				return d.errorf("unexpected end of JSON input")
			}
			top := open[len(open)-1]
			if data[d.pos] == ',' {
				d.pos++
				if key = top == '{'; !key {
					d.skip()
				}
				break
			}
			if data[d.pos] == closeOf(top) {
				d.pos++
				open = open[:len(open)-1]
				continue
			}
			return d.errorf("expected ',' or %q", closeOf(top))
		}
	}
}

// closeOf returns the byte that closes a container opened by open ('{' or '[').
func closeOf(open byte) byte {
	if open == '{' {
		return '}'
	}
	return ']'
}

// DecodeString is Decode for a string.
func DecodeString(s string) (any, error) { return Decode([]byte(s)) }

// maxDepth bounds nesting so hostile input cannot exhaust the stack: a browser worker's stack
// (V8's, which Go's wasm calls use) held a call's arguments nested 2,000 deep through decoding and
// judging, and not 5,000, which a hostile model sends; no tool's arguments nest past a few levels.
const maxDepth = 1000

type decoder struct {
	data []byte
	pos  int
	buf  []byte
	// recent and keys intern object keys: the same few keys repeat across records. The first
	// distinct keys go to recent, searched in order (a map made and filled for every small text, such
	// as a dialogue's line, cost more than it saved), the rest to keys.
	recent  [16]string
	nrecent int
	keys    map[string]string
	// fieldKeys and texts, when not nil, share wanted keys and short plain texts (a FieldReader's):
	// the texts of the top-level members named in shareKeys, or with none named every short text.
	fieldKeys, texts *recentTexts
	shareKeys        []string
	// reuse, when not nil, is the map the top-level object is decoded into (a FieldReader's).
	reuse *Map
	// chunk is room for copies of texts, shared by many texts (see copyText).
	chunk []byte
}

func (d *decoder) errorf(format string, a ...any) error {
	return &SyntaxError{Offset: int64(d.pos), msg: fmt.Sprintf(format, a...) + fmt.Sprintf(" (offset %d)", d.pos)}
}

func (d *decoder) skip() {
	data, pos := d.data, d.pos
	for pos < len(data) && (data[pos] == ' ' || data[pos] == '\n' || data[pos] == '\t' || data[pos] == '\r') {
		pos++
	}
	d.pos = pos
}

func (d *decoder) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, d.errorf("JSON nested too deeply")
	}
	if d.pos >= len(d.data) {
		return nil, d.errorf("unexpected end of JSON input")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth, nil)
	case c == '[':
		return d.array(depth)
	case c == '"':
		if d.texts != nil && d.shareKeys == nil {
			return d.sharedString()
		}
		return d.string()
	case c == '-' || (c >= '0' && c <= '9'):
		if d.literal("-Infinity") {
			return math.Inf(-1), nil
		}
		return d.number()
	case c == 't':
		if d.literal("true") {
			return true, nil
		}
	case c == 'f':
		if d.literal("false") {
			return false, nil
		}
	case c == 'n':
		if d.literal("null") {
			return nil, nil
		}
	case c == 'N':
		if d.literal("NaN") {
			return math.NaN(), nil
		}
	case c == 'I':
		if d.literal("Infinity") {
			return math.Inf(1), nil
		}
	}
	return nil, d.errorf("invalid character %q looking for a value", d.data[d.pos])
}

func (d *decoder) literal(word string) bool {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

// object reads an object; when want is not nil, only the members whose key it accepts are built and
// the other values are checked for syntax and skipped.
func (d *decoder) object(depth int, want func(key string) bool) (*Map, error) {
	d.pos++ // '{'
	var m *Map
	if d.reuse != nil {
		m, d.reuse = d.reuse, nil
		clear(m.entries)
		m.entries, m.index = m.entries[:0], nil
	} else {
		m = NewMap(4)
	}
	d.skip()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return m, nil
	}
	for {
		d.skip()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			if d.pos >= len(d.data) {
				return nil, d.errorf("unexpected end of JSON input")
			}
			return nil, d.errorf("object key must be a string")
		}
		var key string
		var err error
		if want != nil {
			key, err = d.fieldKey(want)
		} else {
			key, err = d.key()
		}
		if err != nil {
			return nil, err
		}
		d.skip()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.errorf("expected ':' after an object key")
		}
		d.pos++
		d.skip()
		if want != nil && !want(key) {
			if err := d.skipValue(depth + 1); err != nil {
				return nil, err
			}
		} else {
			var v any
			var err error
			if d.texts != nil && d.shareKeys != nil && d.pos < len(d.data) && d.data[d.pos] == '"' && slices.Contains(d.shareKeys, key) {
				v, err = d.sharedString()
			} else {
				v, err = d.value(depth + 1)
			}
			if err != nil {
				return nil, err
			}
			m.Set(key, v)
		}
		d.skip()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of JSON input")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return m, nil
		default:
			return nil, d.errorf("expected ',' or '}' in an object")
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	d.pos++ // '['
	list := []any{}
	d.skip()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return list, nil
	}
	for {
		d.skip()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		d.skip()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of JSON input")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return list, nil
		default:
			return nil, d.errorf("expected ',' or ']' in an array")
		}
	}
}

// key reads an object key, sharing one copy of each distinct short key.
func (d *decoder) key() (string, error) {
	start := d.pos + 1
	end := plainEnd(d.data, start)
	if end < len(d.data) && d.data[end] == '"' && end-start <= 32 {
		raw := unsafe.String(unsafe.SliceData(d.data[start:]), end-start)
		for _, k := range d.recent[:d.nrecent] {
			if k == raw {
				d.pos = end + 1
				return k, nil
			}
		}
		if k, ok := d.keys[raw]; ok {
			d.pos = end + 1
			return k, nil
		}
	}
	k, err := d.string()
	if err == nil && len(k) <= 32 {
		switch {
		case d.nrecent < len(d.recent):
			d.recent[d.nrecent] = k
			d.nrecent++
		case d.keys == nil:
			d.keys = map[string]string{k: k}
		case len(d.keys) < fieldReaderTexts:
			d.keys[k] = k
		}
	}
	return k, err
}

// fieldKey reads an object key for DecodeFields. A plain key (no escapes, the usual case) is shown to
// want without being copied, and copied only when wanted: the keys of skipped members cost nothing.
func (d *decoder) fieldKey(want func(key string) bool) (string, error) {
	start := d.pos + 1
	end, ascii := plainEndASCII(d.data, start)
	if end >= len(d.data) || d.data[end] != '"' || end == start || (!ascii && !utf8.Valid(d.data[start:end])) {
		return d.string()
	}
	d.pos = end + 1
	raw := unsafe.String(&d.data[start], end-start)
	if !want(raw) {
		return raw, nil // only compared by want again, never kept
	}
	if d.fieldKeys != nil {
		return d.fieldKeys.get(d.data[start:end]), nil
	}
	return string(d.data[start:end]), nil
}

// sharedString reads a string value as string does, handing out the shared copy (already a value)
// of a short plain text: a FieldReader's lines repeat their levels and file names.
func (d *decoder) sharedString() (any, error) {
	data := d.data
	start := d.pos + 1
	pos, ascii := plainEndASCII(data, start)
	if pos < len(data) && data[pos] == '"' && ascii && pos-start <= sharedTextMax {
		d.pos = pos + 1
		return d.texts.value(data[start:pos]), nil
	}
	return d.string()
}

func (d *decoder) string() (string, error) {
	data := d.data
	start := d.pos + 1 // past the opening quote
	pos, ascii := plainEndASCII(data, start)
	// Fast path: no escapes, valid UTF-8, no control characters.
	if pos < len(data) && data[pos] == '"' {
		d.pos = pos + 1
		s := data[start:pos]
		if ascii || utf8.Valid(s) {
			if d.texts != nil && d.shareKeys == nil && len(s) <= sharedTextMax {
				return d.texts.get(s), nil
			}
			return d.copyText(s), nil
		}
		return string([]rune(string(s))), nil
	}
	buf := append(d.buf[:0], data[start:pos]...)
	for pos < len(data) {
		c := data[pos]
		switch {
		case c == '"':
			d.pos, d.buf = pos+1, buf // keep the grown buffer for the next string
			if utf8.Valid(buf) {
				return d.copyText(buf), nil
			}
			return string([]rune(string(buf))), nil
		case c < 0x20:
			d.pos = pos
			return "", d.errorf("control character in a string")
		case c != '\\':
			// A run of plain characters, copied at once.
			end := plainEnd(data, pos)
			buf = append(buf, data[pos:end]...)
			pos = end
			continue
		}
		if pos+1 >= len(data) {
			break
		}
		e := data[pos+1]
		pos += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			d.pos = pos
			r, ok := d.hex4()
			if !ok {
				return "", d.errorf("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A pair makes one character; a lone surrogate becomes U+FFFD.
				save := d.pos
				if d.pos+1 < len(data) && data[d.pos] == '\\' && data[d.pos+1] == 'u' {
					d.pos += 2
					if r2, ok := d.hex4(); ok {
						if c := utf16.DecodeRune(r, r2); c != utf8.RuneError {
							buf = utf8.AppendRune(buf, c)
							pos = d.pos
							continue
						}
					}
				}
				d.pos = save
				r = utf8.RuneError
			}
			pos = d.pos
			buf = utf8.AppendRune(buf, r)
		default:
			d.pos = pos - 2
			return "", d.errorf("invalid escape \\%c", e)
		}
	}
	d.pos = pos
	return "", d.errorf("unterminated string")
}

// textChunk is the most room for texts copyText allocates at once.
const textChunk = 4096

// copyText returns a copy of b. Texts of up to a quarter of textChunk are copied into a chunk they
// share: one allocation for many texts, where each was one (the decoder's most frequent). A new
// chunk has room for b and the rest of the input, the most its other texts need (but for escapes),
// up to textChunk: a small input allocates little.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (d *decoder) copyText(b []byte) string {
	if len(b) > cap(d.chunk)-len(d.chunk) {
		if len(b) > textChunk/4 {
			return string(b)
		}
		d.chunk = make([]byte, 0, min(len(b)+len(d.data)-d.pos, textChunk))
	}
	text := d.chunk[len(d.chunk) : len(d.chunk)+len(b)]
	d.chunk = d.chunk[:len(d.chunk)+len(b)]
	copy(text, b)
	return unsafe.String(unsafe.SliceData(text), len(b))
}

// scanNumber moves past the JSON number at d.pos, checking its syntax: it returns where its integer
// digits start and whether it has a fraction or an exponent (a float).
func (d *decoder) scanNumber() (intStart int, isFloat bool, err error) {
	if d.data[d.pos] == '-' {
		d.pos++
	}
	intStart = d.pos
	if d.digits() == 0 {
		return 0, false, d.errorf("invalid number")
	}
	if d.data[intStart] == '0' && d.pos-intStart > 1 {
		d.pos = intStart + 1
		return 0, false, d.errorf("invalid number: leading zero")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		isFloat = true
		d.pos++
		if d.digits() == 0 {
			return 0, false, d.errorf("invalid number: no digits after '.'")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		isFloat = true
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.digits() == 0 {
			return 0, false, d.errorf("invalid number: no digits in the exponent")
		}
	}
	return intStart, isFloat, nil
}

// skipNumber moves past the number at d.pos as number does, without its value: a number of valid
// syntax always has one (strconv reads every such text: beyond the float range it gives an infinity,
// below it zero, neither an error that number reports).
func (d *decoder) skipNumber() error {
	_, _, err := d.scanNumber()
	return err
}

// digits moves past a run of decimal digits and returns its length.
func (d *decoder) digits() int {
	start := d.pos
	for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
		d.pos++
	}
	return d.pos - start
}

// plainEnd returns the end of the run of string characters from i that need no decoding: up to a
// quote, a backslash, a control character or the end.
func plainEnd(data []byte, i int) int {
	for i+8 <= len(data) && !special8(word8(data, i)) {
		i += 8
	}
	for i < len(data) && plainByte[data[i]] {
		i++
	}
	return i
}

// plainEndASCII is plainEnd that also reports whether the run is all ASCII (then valid UTF-8
// without a check of its own).
func plainEndASCII(data []byte, i int) (int, bool) {
	var high8 uint64
	for i+8 <= len(data) {
		x := word8(data, i)
		if special8(x) {
			break
		}
		high8 |= x
		i += 8
	}
	var high byte
	for i < len(data) && plainByte[data[i]] {
		high |= data[i]
		i++
	}
	return i, high < utf8.RuneSelf && high8&highs8 == 0
}

// Strings are scanned eight bytes at a time where they can be (a word's test costs about what one
// byte's does, and the scans are the decoder's and the encoder's hot loops, slowest under
// WebAssembly); the bytes of a word holding one to stop at are then scanned one by one, so the
// result is the byte loop's.
const (
	ones8  = 0x0101010101010101 // 0x01 in every byte
	highs8 = 0x8080808080808080 // 0x80 in every byte
)

// word8 returns the eight bytes of b from i as a number, in the machine's byte order (the tests on
// words look at every byte alike, so any order does). It is one load: written as eight byte loads
// shifted together, as it was, Go's WebAssembly code kept the eight loads (a scan of 320 bytes took
// 548 ns under wazero, against 306 with one load; natively 166 against 139). The index is checked.
func word8(b []byte, i int) uint64 {
	_ = b[i+7]
	return *(*uint64)(unsafe.Pointer(&b[i]))
}

// word8Text is word8 for a text.
func word8Text(s string, i int) uint64 {
	_ = s[i+7]
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
}

// special8 reports whether a word holds a quote, a backslash or a control character. (y-ones8)&^y
// has a byte's high bit set where y has a zero byte, and x-0x20.. likewise where x has a byte
// below 0x20 (a borrow can only mark bytes above a true one, so the test of the word is exact).
func special8(x uint64) bool {
	q := x ^ (ones8 * '"')
	bs := x ^ (ones8 * '\\')
	return ((x-ones8*0x20)&^x|(q-ones8)&^q|(bs-ones8)&^bs)&highs8 != 0
}

// plainByte tells the bytes a string's plain run may hold: not a quote, a backslash or a control
// character. A table, as every scan of a string tests each byte (the scans are the decoder's hot
// loop, and a load beats three comparisons under WebAssembly).
var plainByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c != '"' && c != '\\' && c >= 0x20
	}
	return t
}()

func (d *decoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	d.pos += 4
	return r, true
}

func (d *decoder) number() (any, error) {
	start := d.pos
	intStart, isFloat, err := d.scanNumber()
	if err != nil {
		return nil, err
	}
	if !isFloat && d.pos-intStart <= 18 {
		// At most 18 digits always fit an int64: no text to make for strconv.
		var n int64
		for _, c := range d.data[intStart:d.pos] {
			n = n*10 + int64(c-'0')
		}
		if d.data[start] == '-' {
			n = -n
		}
		return n, nil
	}
	text := string(d.data[start:d.pos])
	if !isFloat {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n, nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && f == 0 {
		return nil, d.errorf("invalid number %s", text)
	}
	return f, nil
}
