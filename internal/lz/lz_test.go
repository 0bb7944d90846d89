package lz

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRoundTrip: whatever the input, Decompress gives back what Compress was given.
func TestRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 70000)
	for i := range random {
		random[i] = byte(rnd.Uint32())
	}
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"one byte", []byte("x")},
		{"shorter than a match", []byte("abc")},
		{"a run (matches overlap what they copy)", bytes.Repeat([]byte("a"), 1000)},
		{"a short period", bytes.Repeat([]byte("ab"), 777)},
		{"JSON lines", []byte(strings.Repeat(`{"role": "API", "api_name": "GetUserToken", "param_dict": {"username": "x"}}`+"\n", 300))},
		{"random (nothing matches)", random},
		{"random twice (a match from far back)", append(append([]byte{}, random...), random...)},
		{"every byte", func() []byte {
			b := make([]byte, 256*3)
			for i := range b {
				b[i] = byte(i)
			}
			return b
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Compress(tc.in)
			got, err := Decompress(c, len(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.in) {
				t.Fatalf("round trip changed %d bytes into %d", len(tc.in), len(got))
			}
			if len(tc.in) > 500 && bytes.Count(tc.in, tc.in[:1]) == len(tc.in) && len(c) > 20 {
				t.Errorf("a run of %d bytes compressed to %d", len(tc.in), len(c))
			}
		})
	}
}

// TestCorrupt: a stream Compress did not write is an error, never a panic or a wrong answer.
func TestCorrupt(t *testing.T) {
	good := Compress([]byte(strings.Repeat("hello, world ", 50)))
	seq := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.AppendUvarint(b, v)
		}
		return b
	}
	cases := map[string][]byte{
		"nothing":                   nil,
		"size over the limit":       seq(1<<40, 0, 0),
		"literals past the end":     seq(5, 9, 'a'),
		"more literals than size":   append(seq(2, 3), 'a', 'b', 'c'),
		"distance before the start": append(seq(8, 1), 'a', 4, 9),
		"distance zero":             append(seq(8, 1), 'a', 4, 0),
		"match past the size":       append(seq(3, 1), 'a', 9, 1),
		"ends short of the size":    append(seq(3, 1), 'a', 0),
		"data after the end":        append(append(seq(1, 1), 'a', 0), 'z'),
	}
	for n := range len(good) {
		cases[fmt.Sprintf("cut at %d", n)] = good[:n]
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got, err := Decompress(c, 1<<20); err == nil {
				t.Fatalf("accepted, gave %q", got)
			}
		})
	}
	if _, err := Decompress(good, 10); err == nil {
		t.Error("a stream over the limit was accepted")
	}
}

// FuzzDecompress: Decompress never panics, and Compress round-trips anything.
func FuzzDecompress(f *testing.F) {
	f.Add([]byte("aaaaaaaaab"), Compress([]byte("abcabcabcabc")))
	f.Fuzz(func(t *testing.T, plain, stream []byte) {
		_, _ = Decompress(stream, 1<<20)
		got, err := Decompress(Compress(plain), len(plain))
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%q: round trip gave %q, %v", plain, got, err)
		}
	})
}

func ExampleCompress() {
	text := []byte(strings.Repeat(`{"role": "User"}`, 4))
	packed := Compress(text)
	back, err := Decompress(packed, len(text))
	fmt.Println(len(text), len(packed), err == nil && bytes.Equal(back, text))
	// Output: 64 22 true
}
