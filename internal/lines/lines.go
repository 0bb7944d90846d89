// Package lines is the one rule of what a line is, for every line-oriented text of the playground
// (dialogue and prediction JSONL, ROUGE-L pairs, a pasted box): a UTF-8 byte order mark at the start
// is skipped, and a line ends at "\n", "\r\n" or a lone "\r", so files written on any system read
// alike and every reader numbers lines as the engine numbers them in its verdicts and errors. The
// tab's JavaScript (web/engine-worker.js) counts lines by the same rule; testdata/lines.json holds the
// vectors both test suites check.
package lines

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
)

// Max is the longest line a JSONL input (dialogue, predictions, pairs) may have: 64 MiB. A longer
// line is reported as an error of its own and reading goes on with the next one.
const Max = 64 << 20

// ErrTooLong is matched (errors.Is) by the error Reader gives for a line over its limit.
var ErrTooLong = errors.New("line too long")

// BOM is the UTF-8 byte order mark some editors put at the start of a file.
const BOM = "\xef\xbb\xbf"

// Reader splits a text into lines the way every JSONL input of ours is read: a UTF-8 byte order
// mark at the start is skipped, a line ends at "\n", "\r\n" or a lone "\r" (files written on any
// system read alike), and a line longer than the limit is read through without being kept and
// answered as an error for that line alone. It reads from an io.Reader in chunks (memory stays
// within about twice the limit whatever the input's size) or walks a byte slice in place.
type Reader struct {
	r         io.Reader
	max       int
	buf       []byte
	start     int // buf[start:end] is read and not yet returned
	end       int
	eof       bool  // r has no more data (or there is no r)
	err       error // r's error other than io.EOF, answered once buf is used up
	line      int   // number of the last line returned
	atStart   bool  // nothing returned yet: a BOM may come
	skipLF    bool  // the last line ended with '\r': a '\n' right after it belongs to it
	discarded bool  // the line being read is over the limit: its bytes are dropped
}

// NewReader reads lines of at most max bytes (Max when max <= 0) from r.
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = Max
	}
	return &Reader{r: r, max: max, buf: make([]byte, 0, min(64<<10, max+1)), atStart: true}
}

// NewBytesReader reads the lines of data in place (the lines returned are slices of data).
func NewBytesReader(data []byte, max int) *Reader {
	if max <= 0 {
		max = Max
	}
	return &Reader{max: max, buf: data, end: len(data), eof: true, atStart: true}
}

// Next returns the next line without its line ending, and its 1-based number. The line is valid until
// the next call. For a line over the limit it returns nil, the number and an error matching
// ErrTooLong that states the limit; the next call goes on after that line. At the end it returns
// io.EOF (or the reader's error).
func (lr *Reader) Next() ([]byte, int, error) {
	for {
		if lr.skipLF {
			if lr.start == lr.end && !lr.eof {
				lr.fill()
				continue
			}
			if lr.start < lr.end && lr.buf[lr.start] == '\n' {
				lr.start++
			}
			lr.skipLF = false
		}
		if lr.atStart {
			if lr.end-lr.start < len(BOM) && !lr.eof && bytes.HasPrefix([]byte(BOM), lr.buf[lr.start:lr.end]) {
				lr.fill()
				continue
			}
			if bytes.HasPrefix(lr.buf[lr.start:lr.end], []byte(BOM)) {
				lr.start += len(BOM)
			}
			lr.atStart = false
		}
		seg := lr.buf[lr.start:lr.end]
		k := bytes.IndexByte(seg, '\n')
		cut := seg
		if k >= 0 {
			cut = seg[:k]
		}
		if c := bytes.IndexByte(cut, '\r'); c >= 0 {
			k = c
		}
		if k >= 0 {
			lr.start += k + 1
			lr.skipLF = seg[k] == '\r'
			return lr.emit(seg[:k])
		}
		if lr.eof {
			if len(seg) == 0 && !lr.discarded {
				if lr.err != nil {
					return nil, lr.line, lr.err
				}
				return nil, lr.line, io.EOF
			}
			lr.start = lr.end
			return lr.emit(seg)
		}
		if len(seg) > lr.max {
			// Over the limit with no end in sight: drop what is buffered, keep reading to the end.
			lr.discarded = true
			lr.start, lr.end = 0, 0
			lr.buf = lr.buf[:0]
		}
		lr.fill()
	}
}

// emit answers one complete line (or the rest of a discarded one).
func (lr *Reader) emit(line []byte) ([]byte, int, error) {
	lr.line++
	if lr.discarded || len(line) > lr.max {
		lr.discarded = false
		return nil, lr.line, fmt.Errorf("%w: the line is longer than %d bytes (%d MiB), the most a line may have; skipped", ErrTooLong, lr.max, lr.max>>20)
	}
	return line, lr.line, nil
}

// fill reads more of r into buf, moving the unread part to the front and growing buf as needed.
func (lr *Reader) fill() {
	if lr.r == nil {
		lr.eof = true
		return
	}
	if lr.start > 0 {
		n := copy(lr.buf[:cap(lr.buf)], lr.buf[lr.start:lr.end])
		lr.start, lr.end = 0, n
	}
	if lr.end == cap(lr.buf) {
		grown := make([]byte, lr.end, min(2*cap(lr.buf)+1, lr.max+64<<10))
		copy(grown, lr.buf[:lr.end])
		lr.buf = grown
	}
	n, err := lr.r.Read(lr.buf[lr.end:cap(lr.buf)])
	lr.end += n
	lr.buf = lr.buf[:lr.end]
	if err != nil {
		lr.eof = true
		if err != io.EOF {
			lr.err = err
		}
	}
}

// All yields the lines of data in place (slices of data) with their 1-based numbers, whatever their
// length: for a text already in memory, read whole (a pasted box, a request body).
func All(data []byte) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		lr := NewBytesReader(data, len(data)+1)
		for {
			line, n, err := lr.Next()
			if err != nil || !yield(n, line) {
				return
			}
		}
	}
}

// Number returns the 1-based number of the line that holds byte off of data, in its text or its line
// end; an offset at the end of data is on the last line, or on the next one when data ends with a
// line end. It places an offset (a JSON syntax error's, say) as Reader numbers lines.
func Number(data []byte, off int) int {
	lr := NewBytesReader(data, len(data)+1)
	n := 0
	for {
		_, k, err := lr.Next()
		if err != nil {
			if n == 0 || bytes.HasSuffix(data, []byte("\n")) || bytes.HasSuffix(data, []byte("\r")) {
				return n + 1
			}
			return n
		}
		n = k
		end := lr.start
		if lr.skipLF && end < len(data) && data[end] == '\n' {
			end++ // the "\n" of this line's "\r\n"
		}
		if off < end {
			return n
		}
	}
}
