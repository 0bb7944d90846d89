package value

// ScanObjects reads text, a JSON array, without building it: for each element that is an object, f
// gets the raw JSON of its members named in keys, in that order (the last one where a key repeats,
// as Decode keeps; nil where a key is absent), as subslices of text that Decode reads. Everything
// else is checked for syntax and skipped. An index over two members of a large array (an image's
// caption by its url) then costs a scan, not a tree of every element: the original's 2.5 MB
// ImageCaptioning database was most of a one-prediction run's gold ceiling, decoded whole. An error
// is a syntax error of text, with its offset; f has then been called for the elements before it.
func ScanObjects(text []byte, keys []string, f func(members [][]byte)) error {
	d := decoder{data: text}
	members := make([][]byte, len(keys))
	d.skip()
	if d.pos >= len(d.data) || d.data[d.pos] != '[' {
		return d.errorf("a JSON array is expected")
	}
	d.pos++
	d.skip()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return d.end()
	}
	for {
		d.skip()
		if d.pos < len(d.data) && d.data[d.pos] == '{' {
			clear(members)
			if err := d.scanObject(keys, members); err != nil {
				return err
			}
			f(members)
		} else if err := d.skipValue(1); err != nil {
			return err
		}
		d.skip()
		if d.pos >= len(d.data) {
			return d.errorf("unexpected end of JSON input")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return d.end()
		default:
			return d.errorf("expected ',' or ']'")
		}
	}
}

// scanObject reads the object at d.pos, setting members[i] to the raw value of keys[i].
func (d *decoder) scanObject(keys []string, members [][]byte) error {
	d.pos++ // '{'
	d.skip()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return nil
	}
	for {
		d.skip()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return d.errorf("object key must be a string")
		}
		k, err := d.key()
		if err != nil {
			return err
		}
		d.skip()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return d.errorf("expected ':' after an object key")
		}
		d.pos++
		d.skip()
		start := d.pos
		if err := d.skipValue(2); err != nil {
			return err
		}
		for i, want := range keys {
			if k == want {
				members[i] = d.data[start:d.pos:d.pos]
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
			return d.errorf("expected ',' or '}'")
		}
	}
}

// end checks that only spaces follow the value read.
func (d *decoder) end() error {
	d.skip()
	if d.pos < len(d.data) {
		return d.errorf("unexpected data after the JSON value")
	}
	return nil
}
