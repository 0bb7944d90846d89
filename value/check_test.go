package value

import (
	"strings"
	"testing"
)

// checkCases are texts Decode accepts and texts it refuses, each for a different rule.
var checkCases = []string{
	`{}`, `[]`, ` [1, 2.5, -3e2, "a", true, false, null, NaN, Infinity, -Infinity] `,
	`{"a": {"b": [{"c": "d"}]}, "e": ""}`, `"\u00e9\n\"\\\/\b\f\r\t"`, `"\ud83d\ude00"`, `"\ud83d"`,
	"\"caf\xc3\xa9 \xff\"", `{"k": 1, "k": 2}`, `[[[[]]]]`,
	``, ` `, `{`, `[`, `"abc`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{1:2}`, `{"a":1 "b":2}`,
	`"\x"`, `"\u12"`, `"\u12g4"`, "\"a\x01b\"", `tru`, `nul`, `-`, `01x`, `1.`, `{} {}`, `[]]`,
	`{"a": "\q"}`, `["ok", "\u00"]`, `{"\z": 1}`, `"\ud800\u12"`, `"\ud800\u0041"`, `"a\\"`, `"\"`, `"\u0041`,
	`"\u004`, `"\`, `["\uABCD", "\uabcd", "x\/y"]`, `"long plain text, longer than a word\n, then more text"`,
	strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2),
	strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
}

// TestCheckAgreesWithDecode: Check accepts exactly what Decode accepts.
func TestCheckAgreesWithDecode(t *testing.T) {
	for _, c := range checkCases {
		_, decodeErr := Decode([]byte(c))
		checkErr := Check([]byte(c))
		if (decodeErr == nil) != (checkErr == nil) {
			t.Errorf("%.60q: Decode error %v, Check error %v", c, decodeErr, checkErr)
		}
	}
}

// FuzzCheck: on any input, Check accepting means Decode accepts, and the other way round.
func FuzzCheck(f *testing.F) {
	for _, c := range checkCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, decodeErr := Decode(data)
		if checkErr := Check(data); (decodeErr == nil) != (checkErr == nil) {
			t.Fatalf("%q: Decode error %v, Check error %v", data, decodeErr, checkErr)
		}
	})
}

// TestPlainEnd: the scan a word at a time stops where a byte loop does, wherever the end falls in a
// word, and plainEndASCII also tells whether the run is ASCII.
func TestPlainEnd(t *testing.T) {
	byteLoop := func(b []byte, i int) (int, bool) {
		ascii := true
		for i < len(b) && plainByte[b[i]] {
			ascii = ascii && b[i] < 0x80
			i++
		}
		return i, ascii
	}
	for _, end := range []byte{'"', '\\', 0x00, 0x1f, '\n'} {
		for n := range 20 {
			for start := range 3 {
				b := []byte(strings.Repeat("a\xc3\xa9~ \x7f\xff", 4)[:n+start])
				b = append(b, end, 'x', 'y')
				want, wantASCII := byteLoop(b, start)
				if got := plainEnd(b, start); got != want {
					t.Errorf("%q from %d: %d, want %d", b, start, got, want)
				}
				if got, ascii := plainEndASCII(b, start); got != want || ascii != wantASCII {
					t.Errorf("plainEndASCII(%q, %d) = %d, %v; want %d, %v", b, start, got, ascii, want, wantASCII)
				}
			}
		}
	}
	if got := plainEnd([]byte("abcdefghijklmnop"), 0); got != 16 {
		t.Errorf("no end: %d, want 16", got)
	}
}

// TestSkipWide: the wide skip stops where skip does, after any mix and length of white space.
func TestSkipWide(t *testing.T) {
	for _, ws := range []string{"", " ", "        ", "         x", "\n" + strings.Repeat(" ", 23) + "1", "\t \r\n        \t       y", strings.Repeat(" ", 16)} {
		a, b := decoder{data: []byte(ws)}, decoder{data: []byte(ws)}
		a.skip()
		b.skipWide()
		if a.pos != b.pos {
			t.Errorf("%q: skipWide at %d, skip at %d", ws, b.pos, a.pos)
		}
	}
}
