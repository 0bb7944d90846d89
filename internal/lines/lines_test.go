package lines

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads every line with lr as "n:text" or "n:!" for a line over the limit.
func readAll(t *testing.T, lr *Reader) []string {
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
		if errors.Is(err, ErrTooLong) {
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

// TestReader reads the same inputs in place, from a reader, and from a reader giving one byte at a
// time (every boundary falls between two reads somewhere), with a limit of 8 bytes a line.
func TestReader(t *testing.T) {
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
		{"BOM skipped", BOM + "{\"a\":1}\nb", "1:{\"a\":1} | 2:b"},
		{"BOM only at the start", "a\n" + BOM + "b", "1:a | 2:" + BOM + "b"},
		{"BOM then CRLF", BOM + "\r\nx", "1: | 2:x"},
		{"BOM alone", BOM, ""},
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
		readers := map[string]func() *Reader{
			"in place":    func() *Reader { return NewBytesReader([]byte(tt.in), 8) },
			"reader":      func() *Reader { return NewReader(strings.NewReader(tt.in), 8) },
			"byte a read": func() *Reader { return NewReader(iotest.OneByteReader(strings.NewReader(tt.in)), 8) },
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

// TestReaderError: a reader's error comes after the lines read before it.
func TestReaderError(t *testing.T) {
	boom := errors.New("disk on fire")
	lr := NewReader(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)), 0)
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

// TestReaderMemory: a line far over the limit is read through in chunks, not kept.
func TestReaderMemory(t *testing.T) {
	const limit = 1 << 16
	in := io.MultiReader(strings.NewReader("first\n"), bytes.NewReader(make([]byte, 64<<20)), strings.NewReader("\nlast"))
	lr := NewReader(in, limit)
	got := readAll(t, lr)
	if strings.Join(got, " | ") != "1:first | 2:! | 3:last" {
		t.Errorf("got %q", got)
	}
	if cap(lr.buf) > 2*limit+64<<10 {
		t.Errorf("buffer grew to %d bytes for a limit of %d", cap(lr.buf), limit)
	}
}

// vectors are the shared cases of testdata/lines.json (the browser suite's lines.test.mjs checks
// the tab's JavaScript against the same file).
type vector struct {
	Name  string   `json:"name"`
	Input string   `json:"input"`
	Lines [][2]int `json:"lines"`
}

func readVectors(t *testing.T) []vector {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "lines.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Vectors []vector }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("testdata/lines.json: %v", err)
	}
	if len(f.Vectors) == 0 {
		t.Fatal("testdata/lines.json has no vectors")
	}
	return f.Vectors
}

// TestVectors: every reader gives each vector's lines, in place at its spans; All yields the same
// lines with their numbers; Number places every byte of a line (its text and its line end) on it.
func TestVectors(t *testing.T) {
	for _, v := range readVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			data := []byte(v.Input)
			var want []string
			for i, s := range v.Lines {
				want = append(want, strconv.Itoa(i+1)+":"+string(data[s[0]:s[1]]))
			}
			for how, lr := range map[string]*Reader{
				"in place":    NewBytesReader(data, 0),
				"reader":      NewReader(strings.NewReader(v.Input), 0),
				"byte a read": NewReader(iotest.OneByteReader(strings.NewReader(v.Input)), 0),
			} {
				if got := readAll(t, lr); strings.Join(got, " | ") != strings.Join(want, " | ") {
					t.Errorf("%s: lines %q, want %q", how, got, want)
				}
			}
			k := 0
			for n, line := range All(data) {
				if k >= len(v.Lines) || n != k+1 {
					t.Fatalf("All: line %d after %d lines; want %d lines", n, k, len(v.Lines))
				}
				// In place: the line is data's own bytes at the vector's span.
				if start := cap(data) - cap(line); start != v.Lines[k][0] || start+len(line) != v.Lines[k][1] {
					t.Errorf("All: line %d at [%d, %d), want %v", n, start, start+len(line), v.Lines[k])
				}
				k++
			}
			if k != len(v.Lines) {
				t.Errorf("All: %d lines, want %d", k, len(v.Lines))
			}
			for i, s := range v.Lines {
				end := len(data) // the line's end runs to the next line's text
				if i+1 < len(v.Lines) {
					end = v.Lines[i+1][0]
				}
				for off := s[0]; off < end; off++ {
					if got := Number(data, off); got != i+1 {
						t.Errorf("Number(%d) = %d, want %d", off, got, i+1)
					}
				}
			}
		})
	}
}

// TestNumber: an offset at the end is on the last line, or on the next one after a final line end;
// one in a leading byte order mark is on line 1.
func TestNumber(t *testing.T) {
	tests := []struct {
		in       string
		off, out int
	}{
		{"", 0, 1},
		{"a", 1, 1},
		{"a\n", 2, 2},
		{"a\r", 2, 2},
		{"a\r\nb", 2, 1},
		{"a\r\nb", 3, 2},
		{BOM, 0, 1},
		{BOM + "a\rb", 1, 1},
		{BOM + "a\rb", 5, 2},
	}
	for _, tt := range tests {
		if got := Number([]byte(tt.in), tt.off); got != tt.out {
			t.Errorf("Number(%q, %d) = %d, want %d", tt.in, tt.off, got, tt.out)
		}
	}
}
