package value

// An ObjectScanner reads a JSON array without building it, one object element at a time: Next gives
// the raw JSON of the element's members named in keys, in that order (the last one where a key
// repeats, as Decode keeps; nil where a key is absent), as subslices of the text that Decode reads.
// Everything else is checked for syntax and skipped. An index over two members of a large array (an
// image's caption by its url) then costs a scan of the part it needs, not a tree of every element:
// the original's 2.5 MB ImageCaptioning database was most of a one-prediction run's gold ceiling,
// decoded whole. It is not safe for concurrent use.
type ObjectScanner struct {
	d decoder
	// reader reads an element's members raw into out, and members holds their texts.
	reader  *MemberReader
	out     []Member
	members [][]byte
	started bool
	// afterElement is set once an element is read, until its separator is.
	afterElement bool
	done         bool
	err          error
}

// NewObjectScanner returns a scanner of text, a JSON array, for the members named in keys.
func NewObjectScanner(text []byte, keys ...string) *ObjectScanner {
	r := NewMemberReader(keys)
	r.raw = true
	return &ObjectScanner{d: decoder{data: text}, reader: r, out: make([]Member, len(keys)), members: make([][]byte, len(keys))}
}

// Next reads on to the next element that is an object and returns its members (valid until the
// next call); ok is false at the end of the array or at a syntax error (see Err).
func (s *ObjectScanner) Next() (members [][]byte, ok bool) {
	d := &s.d
	for !s.done {
		d.skip()
		switch {
		case !s.started:
			s.started = true
			if d.pos >= len(d.data) || d.data[d.pos] != '[' {
				return s.fail(d.errorf("a JSON array is expected"))
			}
			d.pos++
			d.skip()
			if d.pos < len(d.data) && d.data[d.pos] == ']' {
				d.pos++
				return s.fail(d.end())
			}
			continue
		case s.afterElement:
			// The separator after the element the last call read.
			if d.pos >= len(d.data) {
				return s.fail(d.errorf("unexpected end of JSON input"))
			}
			switch d.data[d.pos] {
			case ',':
				d.pos++
				s.afterElement = false
				continue
			case ']':
				d.pos++
				return s.fail(d.end())
			}
			return s.fail(d.errorf("expected ',' or ']' in an array"))
		}
		s.afterElement = true
		if d.pos < len(d.data) && d.data[d.pos] == '{' {
			clear(s.out)
			if err := d.members(s.reader, s.out, 1); err != nil {
				return s.fail(err)
			}
			for i := range s.out {
				s.members[i] = s.out[i].Raw // nil where the member is absent
			}
			return s.members, true
		}
		if err := d.skipValue(1); err != nil {
			return s.fail(err)
		}
	}
	return nil, false
}

// fail ends the scan with err (nil at a clean end).
func (s *ObjectScanner) fail(err error) ([][]byte, bool) {
	s.done, s.err = true, err
	return nil, false
}

// Err returns the syntax error that ended the scan, with its offset; nil before and at a clean end.
// The elements before the error have been returned.
func (s *ObjectScanner) Err() error { return s.err }

// end checks that only spaces follow the value read.
func (d *decoder) end() error {
	d.skip()
	if d.pos < len(d.data) {
		return d.errorf("unexpected data after the JSON value")
	}
	return nil
}
