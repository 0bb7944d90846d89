package dataset

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads every line with lr as "n:text" or "n:!" for a line over the limit.
func readAll(t *testing.T, lr *LineReader) []string {
	t.Helper()
	var got []string
	for i := 0; ; i++ {
		if i > 10000 {
			t.Fatal("no end")
		}
		line, n, err := lr.Next()
		if err == io.EOF {
			return got
		}
		if errors.Is(err, ErrLineTooLong) {
			if !strings.Contains(err.Error(), "longer than") {
				t.Errorf("error text %q does not state the limit", err)
			}
			got = append(got, strconv.Itoa(n)+":!")
			continue
		}
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		got = append(got, strconv.Itoa(n)+":"+string(line))
	}
}

// TestLineReader reads the same inputs in place, from a reader, and from a reader giving one byte at a
// time (every boundary falls between two reads somewhere), with a limit of 8 bytes a line.
func TestLineReader(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // lines joined by " | "
	}{
		{"LF", "a\nbb\n", "1:a | 2:bb"},
		{"no final newline", "a\nbb", "1:a | 2:bb"},
		{"CRLF", "a\r\nbb\r\n", "1:a | 2:bb"},
		{"CR only", "a\rbb\rccc", "1:a | 2:bb | 3:ccc"},
		{"mixed", "a\r\nb\rc\nd", "1:a | 2:b | 3:c | 4:d"},
		{"LF then CR is two ends", "a\n\rb", "1:a | 2: | 3:b"},
		{"empty lines kept", "\n\r\n\ra", "1: | 2: | 3: | 4:a"},
		{"BOM skipped", bom + "{\"a\":1}\nb", "1:{\"a\":1} | 2:b"},
		{"BOM only at the start", "a\n" + bom + "b", "1:a | 2:" + bom + "b"},
		{"BOM then CRLF", bom + "\r\nx", "1: | 2:x"},
		{"BOM alone", bom, ""},
		{"part of a BOM is text", "\xef\xbbz", "1:\xef\xbbz"},
		{"empty", "", ""},
		{"line at the limit", "12345678\nx", "1:12345678 | 2:x"},
		{"line over the limit, then more", "a\n123456789\nb\r\nc", "1:a | 2:! | 3:b | 4:c"},
		{"long line over many reads", "a\n" + strings.Repeat("x", 100) + "\rb", "1:a | 2:! | 3:b"},
		{"long last line", "a\n" + strings.Repeat("x", 100), "1:a | 2:!"},
		{"long line ended by CRLF", strings.Repeat("y", 50) + "\r\nz", "1:! | 2:z"},
		{"two long lines", strings.Repeat("y", 20) + "\n" + strings.Repeat("y", 20) + "\nok", "1:! | 2:! | 3:ok"},
	}
	for _, tt := range tests {
		readers := map[string]func() *LineReader{
			"in place":    func() *LineReader { return NewBytesLineReader([]byte(tt.in), 8) },
			"reader":      func() *LineReader { return NewLineReader(strings.NewReader(tt.in), 8) },
			"byte a read": func() *LineReader { return NewLineReader(iotest.OneByteReader(strings.NewReader(tt.in)), 8) },
		}
		for how, mk := range readers {
			t.Run(tt.name+"/"+how, func(t *testing.T) {
				if got := strings.Join(readAll(t, mk()), " | "); got != tt.want {
					t.Errorf("got %q, want %q", got, tt.want)
				}
			})
		}
	}
}

// TestLineReaderError: a reader's error comes after the lines read before it.
func TestLineReaderError(t *testing.T) {
	boom := errors.New("disk on fire")
	lr := NewLineReader(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)), 0)
	var got []string
	for {
		line, _, err := lr.Next()
		if err != nil {
			if !errors.Is(err, boom) {
				t.Fatalf("error %v, want %v", err, boom)
			}
			break
		}
		got = append(got, string(line))
	}
	if strings.Join(got, ",") != "a,b" {
		t.Errorf("lines %q", got)
	}
}

// TestLineReaderMemory: a line far over the limit is read through in chunks, not kept.
func TestLineReaderMemory(t *testing.T) {
	const limit = 1 << 16
	in := io.MultiReader(strings.NewReader("first\n"), bytes.NewReader(make([]byte, 64<<20)), strings.NewReader("\nlast"))
	lr := NewLineReader(in, limit)
	got := readAll(t, lr)
	if strings.Join(got, " | ") != "1:first | 2:! | 3:last" {
		t.Errorf("got %q", got)
	}
	if cap(lr.buf) > 2*limit+64<<10 {
		t.Errorf("buffer grew to %d bytes for a limit of %d", cap(lr.buf), limit)
	}
}
