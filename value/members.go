package value

import "unsafe"

// A Member is one member of an object read by a MemberReader. A text value is in Text (IsText set,
// Value nil): handed out as a string, it costs no interface value (an allocation a line, the most of
// what a prediction line's reading allocated); any other value is in Value.
type Member struct {
	// Present is set when the object has the member.
	Present bool
	Text    string
	IsText  bool
	Value   any
	// Raw is the member's JSON text, a subslice of the object's, for a reader that keeps members raw
	// (an ObjectScanner's); Text and Value are then left unset.
	Raw []byte
}

// A MemberReader reads a few named members of many JSON objects of one shape (the lines of a JSONL
// file) into the caller's own variables: it checks the syntax of each object as Decode does, with
// the same errors, but builds no Map, boxes no text, and calls nothing per member (the members it
// does not read are checked and skipped). The texts of the members named to be shared (a
// prediction file's levels and file names, which repeat from one line to the next) are one copy for
// all the lines, as a FieldReader shares them. It is not safe for concurrent use.
type MemberReader struct {
	keys  []string
	share []bool
	// texts are the shared texts, one set a member (so each member's last text is tried first).
	texts []recentTexts
	// buf is where texts with escapes are decoded, kept from one object to the next.
	buf []byte
	// raw keeps each member as its JSON text (Member.Raw), checked but not decoded.
	raw bool
}

// sharedMemberMax is the longest text of a shared member that a MemberReader shares: the members
// named are the ones that repeat (a prediction file's dialogue file names, some longer than
// sharedTextMax), and a search of the shared texts compares lengths first.
const sharedMemberMax = 256

// NewMemberReader returns a reader of the members keys of objects; the texts of the members named in
// share are shared (see MemberReader).
func NewMemberReader(keys []string, share ...string) *MemberReader {
	r := &MemberReader{keys: keys, share: make([]bool, len(keys)), texts: make([]recentTexts, len(keys))}
	for i, k := range keys {
		for _, s := range share {
			r.share[i] = r.share[i] || s == k
		}
	}
	return r
}

// Read reads one JSON object: out[i] gets the member keys[i] (out must have one element per key),
// the last one when the key is repeated (what a decoded object holds), or is left with Present
// unset when the object has none. It returns the error Decode would return for the same input.
func (r *MemberReader) Read(data []byte, out []Member) error {
	clear(out)
	d := decoder{data: data, buf: r.buf}
	d.skip()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return d.errorf("a JSON object is expected")
	}
	err := d.members(r, out, 0)
	if cap(d.buf) <= sharedMemberMax*16 {
		r.buf = d.buf // a short one: kept (a long text's is let go)
	}
	if err != nil {
		return err
	}
	d.skip()
	if d.pos < len(d.data) {
		return d.errorf("unexpected data after the JSON value")
	}
	return nil
}

// members is object for a MemberReader: the same scan (and errors, in the same order), with each
// member read stored in out rather than set in a map. depth is the object's own nesting depth.
func (d *decoder) members(r *MemberReader, out []Member, depth int) error {
	d.pos++ // '{'
	d.skip()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return nil
	}
	for {
		d.skip()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			if d.pos >= len(d.data) {
				return d.errorf("unexpected end of JSON input")
			}
			return d.errorf("object key must be a string")
		}
		i, err := d.memberKey(r.keys)
		if err != nil {
			return err
		}
		d.skip()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return d.errorf("expected ':' after an object key")
		}
		d.pos++
		d.skip()
		if i < 0 {
			if err := d.skipValue(depth + 1); err != nil {
				return err
			}
		} else {
			m := &out[i]
			*m = Member{Present: true}
			if r.raw {
				start := d.pos
				err = d.skipValue(depth + 1)
				m.Raw = d.data[start:d.pos:d.pos]
			} else if d.pos < len(d.data) && d.data[d.pos] == '"' {
				m.IsText = true
				if r.share[i] {
					m.Text, err = d.sharedText(&r.texts[i])
				} else {
					m.Text, err = d.string()
				}
			} else {
				m.Value, err = d.value(depth + 1)
			}
			if err != nil {
				return err
			}
		}
		d.skip()
		if d.pos >= len(d.data) {
			return d.errorf("unexpected end of JSON input")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return nil
		default:
			return d.errorf("expected ',' or '}' in an object")
		}
	}
}

// memberKey reads an object key as fieldKey does and returns its index in keys, or -1. A plain ASCII
// key (keys are short: a byte loop here costs less than a call to the word scan) is compared where
// it is, never copied.
func (d *decoder) memberKey(keys []string) (int, error) {
	start := d.pos + 1
	end := start
	for end < len(d.data) && plainASCII[d.data[end]] {
		end++
	}
	var k string
	if end >= len(d.data) || d.data[end] != '"' || end == start {
		// Escapes, other than ASCII or empty: decoded as fieldKey decodes them.
		var err error
		if k, err = d.string(); err != nil {
			return -1, err
		}
	} else {
		d.pos = end + 1
		k = unsafe.String(&d.data[start], end-start)
	}
	for i, key := range keys {
		if key == k {
			return i, nil
		}
	}
	return -1, nil
}

// sharedText reads a string value as string does, handing out the copy in texts of a plain ASCII
// text of at most sharedMemberMax bytes.
func (d *decoder) sharedText(texts *recentTexts) (string, error) {
	data := d.data
	start := d.pos + 1
	pos, ascii := plainEndASCII(data, start)
	if pos < len(data) && data[pos] == '"' && ascii && pos-start <= sharedMemberMax {
		d.pos = pos + 1
		return texts.get(data[start:pos]), nil
	}
	return d.string()
}
