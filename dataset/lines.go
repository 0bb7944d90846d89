package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLine is the longest line a JSONL input (dialogue, predictions, pairs) may have: 64 MiB. A longer
// line is reported as an error of its own and reading goes on with the next one.
const MaxLine = 64 << 20

// ErrLineTooLong is matched (errors.Is) by the error LineReader gives for a line over its limit.
var ErrLineTooLong = errors.New("line too long")

// bom is the UTF-8 byte order mark some editors put at the start of a file.
const bom = "\xef\xbb\xbf"

// LineReader splits a text into lines the way every JSONL input of ours is read: a UTF-8 byte order
// mark at the start is skipped, a line ends at "\n", "\r\n" or a lone "\r" (files written on any
// system read alike), and a line longer than the limit is read through without being kept and
// answered as an error for that line alone. It reads from an io.Reader in chunks (memory stays
// within about twice the limit whatever the input's size) or walks a byte slice in place.
type LineReader struct {
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

// NewLineReader reads lines of at most max bytes (MaxLine when max <= 0) from r.
func NewLineReader(r io.Reader, max int) *LineReader {
	if max <= 0 {
		max = MaxLine
	}
	return &LineReader{r: r, max: max, buf: make([]byte, 0, min(64<<10, max+1)), atStart: true}
}

// NewBytesLineReader reads the lines of data in place (the lines returned are slices of data).
func NewBytesLineReader(data []byte, max int) *LineReader {
	if max <= 0 {
		max = MaxLine
	}
	return &LineReader{max: max, buf: data, end: len(data), eof: true, atStart: true}
}

// Next returns the next line without its line ending, and its 1-based number. The line is valid until
// the next call. For a line over the limit it returns nil, the number and an error matching
// ErrLineTooLong that states the limit; the next call goes on after that line. At the end it returns
// io.EOF (or the reader's error).
func (lr *LineReader) Next() ([]byte, int, error) {
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
			if lr.end-lr.start < len(bom) && !lr.eof && bytes.HasPrefix([]byte(bom), lr.buf[lr.start:lr.end]) {
				lr.fill()
				continue
			}
			if bytes.HasPrefix(lr.buf[lr.start:lr.end], []byte(bom)) {
				lr.start += len(bom)
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
func (lr *LineReader) emit(line []byte) ([]byte, int, error) {
	lr.line++
	if lr.discarded || len(line) > lr.max {
		lr.discarded = false
		return nil, lr.line, fmt.Errorf("%w: the line is longer than %d bytes (%d MiB), the most a line may have; skipped", ErrLineTooLong, lr.max, lr.max>>20)
	}
	return line, lr.line, nil
}

// fill reads more of r into buf, moving the unread part to the front and growing buf as needed.
func (lr *LineReader) fill() {
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
