package value

import "unsafe"

// Check reports whether data is one JSON text that Decode accepts, without building its value, so a
// large document a run may never read (a database no tool of the run calls) can be checked when it
// is loaded and decoded on first use. Check(data) == nil guarantees Decode(data) succeeds; when Check
// fails, its error may differ from Decode's (decode to report it).
func Check(data []byte) error {
	d := decoder{data: data}
	d.skipWide()
	if err := d.check(0); err != nil {
		return err
	}
	d.skipWide()
	if d.pos < len(d.data) {
		return d.errorf("unexpected data after the JSON value")
	}
	return nil
}

// check passes over one value as value(depth) reads it, and the white space around it, building
// nothing but numbers (and the texts string reads for its message, when one is refused).
func (d *decoder) check(depth int) error {
	if depth > maxDepth {
		return d.errorf("JSON nested too deeply")
	}
	if d.pos >= len(d.data) {
		return d.errorf("unexpected end of JSON input")
	}
	switch open := d.data[d.pos]; open {
	case '"':
		return d.checkString()
	case '{', '[':
		closing := byte('}')
		if open == '[' {
			closing = ']'
		}
		d.pos++
		d.skipWide()
		if d.pos < len(d.data) && d.data[d.pos] == closing {
			d.pos++
			return nil
		}
		for {
			d.skipWide()
			if open == '{' {
				if d.pos >= len(d.data) || d.data[d.pos] != '"' {
					return d.errorf("object key must be a string")
				}
				if err := d.checkString(); err != nil {
					return err
				}
				d.skipWide()
				if d.pos >= len(d.data) || d.data[d.pos] != ':' {
					return d.errorf("expected ':' after an object key")
				}
				d.pos++
				d.skipWide()
			}
			var err error
			if d.pos < len(d.data) && d.data[d.pos] == '"' {
				err = d.checkString() // most members are texts: a call less (calls cost under WebAssembly)
			} else {
				err = d.check(depth + 1)
			}
			if err != nil {
				return err
			}
			d.skipWide()
			if d.pos >= len(d.data) {
				return d.errorf("unexpected end of JSON input")
			}
			switch d.data[d.pos] {
			case ',':
				d.pos++
			case closing:
				d.pos++
				return nil
			default:
				return d.errorf("expected ',' or %q", closing)
			}
		}
	}
	_, err := d.value(depth)
	return err
}

// checkString passes over a string, its escapes included. Anything else than a valid escape (a
// control character, a missing end) is left to string, whose error it is.
func (d *decoder) checkString() error {
	data, pos := d.data, d.pos+1
	for {
		pos = plainEnd(data, pos)
		if pos+1 >= len(data) {
			break
		}
		if c := data[pos]; c == '"' {
			d.pos = pos + 1
			return nil
		} else if c != '\\' {
			break
		}
		switch data[pos+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			pos += 2
			continue
		case 'u':
			if pos+6 <= len(data) && hexByte[data[pos+2]] && hexByte[data[pos+3]] && hexByte[data[pos+4]] && hexByte[data[pos+5]] {
				pos += 6 // a surrogate is checked as any \u (string makes an unpaired one U+FFFD)
				continue
			}
		}
		break
	}
	if pos < len(data) && data[pos] == '"' {
		d.pos = pos + 1
		return nil
	}
	_, err := d.string()
	return err
}

// hexByte tells the hexadecimal digits.
var hexByte = func() (t [256]bool) {
	for _, c := range "0123456789abcdefABCDEF" {
		t[c] = true
	}
	return t
}()

// space is a word of eight spaces (skipRun).
const space = ' ' * ones8

// skipWide is skip eight spaces at a step: pretty-printed databases are a fifth indentation. Small
// enough to be inlined where no white space follows (most places).
func (d *decoder) skipWide() {
	if d.pos < len(d.data) && d.data[d.pos] > ' ' {
		return
	}
	d.skipRun()
}

func (d *decoder) skipRun() {
	data, pos := d.data, d.pos
	for pos+8 <= len(data) && *(*uint64)(unsafe.Pointer(&data[pos])) == space {
		pos += 8
	}
	d.pos = pos
	d.skip()
}
