package value

import (
	"slices"
	"unicode/utf8"
	"unsafe"
)

// A Member is one member of an object read by FieldReader.Members. A text value is in Text (IsText
// set, Value nil): handed out as a string, it costs no interface value (an allocation a line, the
// most of what a prediction line's reading allocated); any other value is in Value.
type Member struct {
	// Key is the member's key. It may point into the input: valid only during the call it is
	// given to.
	Key    string
	Text   string
	IsText bool
	Value  any
}

// sharedMemberMax is the longest text of a shared member (see NewFieldReader's share) that Members
// shares: the members named are the ones that repeat (a prediction file's dialogue file names,
// some longer than sharedTextMax), and a search of the shared texts compares lengths first.
const sharedMemberMax = 256

// Members reads one JSON object as Decode does, with the same syntax checks and the same errors,
// but builds no Map: f is called with each member whose key the reader wants, in input order, its
// value decoded (a repeated key is given again, so a reader that keeps the last one gets what the
// Map would hold). A caller that reads a few members of each line into its own fields (the scorer's
// prediction lines) is spared the Map and the interface value of each text.
func (r *FieldReader) Members(data []byte, f func(m Member)) error {
	d := decoder{data: data, fieldKeys: &r.keys, texts: &r.texts, shareKeys: r.share}
	d.skip()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return d.errorf("a JSON object is expected")
	}
	if err := d.members(r.want, f); err != nil {
		return err
	}
	d.skip()
	if d.pos < len(d.data) {
		return d.errorf("unexpected data after the JSON value")
	}
	return nil
}

// members is object for Members: the same scan (and errors, in the same order), with each wanted
// member handed to f instead of set in a map.
func (d *decoder) members(want func(key string) bool, f func(m Member)) error {
	d.pos++ // '{'
	d.skip()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return nil
	}
	var m Member
	for {
		d.skip()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			if d.pos >= len(d.data) {
				return d.errorf("unexpected end of JSON input")
			}
			return d.errorf("object key must be a string")
		}
		key, wanted, err := d.memberKey(want)
		if err != nil {
			return err
		}
		d.skip()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return d.errorf("expected ':' after an object key")
		}
		d.pos++
		d.skip()
		if !wanted {
			if err := d.skipValue(1); err != nil {
				return err
			}
		} else {
			m = Member{Key: key}
			if d.pos < len(d.data) && d.data[d.pos] == '"' {
				m.IsText = true
				if d.shareKeys == nil || slices.Contains(d.shareKeys, key) {
					m.Text, err = d.sharedText()
				} else {
					m.Text, err = d.string()
				}
			} else {
				m.Value, err = d.value(1)
			}
			if err != nil {
				return err
			}
			f(m)
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

// memberKey reads an object key for members as fieldKey does, and whether want accepts it. A plain
// key is given as a view of the input, never copied (Member.Key is valid only during f).
func (d *decoder) memberKey(want func(key string) bool) (string, bool, error) {
	start := d.pos + 1
	end, ascii := plainEndASCII(d.data, start)
	if end >= len(d.data) || d.data[end] != '"' || end == start || (!ascii && !utf8.Valid(d.data[start:end])) {
		// Escapes, invalid UTF-8 or empty: decoded as fieldKey decodes them.
		k, err := d.string()
		return k, err == nil && want(k), err
	}
	d.pos = end + 1
	k := unsafe.String(&d.data[start], end-start)
	return k, want(k), nil
}

// sharedText reads a string value as string does, handing out the shared copy of a plain ASCII
// text of at most sharedMemberMax bytes.
func (d *decoder) sharedText() (string, error) {
	data := d.data
	start := d.pos + 1
	pos, ascii := plainEndASCII(data, start)
	if pos < len(data) && data[pos] == '"' && ascii && pos-start <= sharedMemberMax {
		d.pos = pos + 1
		return d.texts.get(data[start:pos]), nil
	}
	return d.string()
}
