package rouge

import (
	"bufio"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestL pins exact (bit-identical) scores and errors for hand-checked inputs:
// the examples of the specification plus the edge cases of sentence
// splitting, Python whitespace and LCS tie-breaking.
func TestL(t *testing.T) {
	tests := []struct {
		name     string
		hyp, ref string
		want     float64
		err      error
	}{
		{"spec: one word differs", "the cat sat on the mat", "the cat is on the mat", 0.7999999950000002, nil},
		{"spec: whitespace piece is an empty sentence", "hello. ", "hello", 0.6666666622222223, nil},
		{"spec: reversed order", "a b c", "c b a", 0.3333333283333334, nil},
		{"spec: no lowercasing or punctuation removal", "Hello, world!", "hello world", 0, nil},
		{"spec: identical texts", "I have retrieved your token. Now I will add it.", "I have retrieved your token. Now I will add it.", 0.999999995, nil},
		{"whitespace-only hypothesis scores 0", "   ", "hello", 0, nil},
		{"dots only between spaces give empty sentences", ". .", "x", 0, nil},
		{"NBSP separates tokens", "a\u00a0b", "a b", 0.999999995, nil},
		{"U+001C separates tokens", "a\x1cb", "a b", 0.999999995, nil},
		{"U+3000 and U+2028 separate tokens", "a\u3000b\u2028c", "a b c", 0.999999995, nil},
		{"zero width space does not separate", "a\u200bb", "a b", 0, nil},
		{"U+180E does not separate", "a\u180eb", "a b", 0, nil},
		{"repeated sentences count once", "x. y. x", "x", 0.6666666622222223, nil},
		{"sentences across boundaries", "one two. three four.", "four three two one", 0.4999999950000001, nil},
		{"duplicate tokens are a set", "a a a b", "a b b", 0.999999995, nil},
		{"sentence order does not matter", "the cat. the dog", "the dog. the cat", 0.999999995, nil},
		// The walk prefers moving left on ties, so "a b" vs "b a" recovers
		// "b"; the second reference sentence then adds "a".
		{"tie goes left (adds)", "b a", "a b. a", 0.999999995, nil},
		{"tie goes left (repeats)", "b a", "a b. b", 0.4999999950000001, nil},
		{"empty hypothesis", "", "x", 0, ErrEmptyHypothesis},
		{"dots-only hypothesis", "...", "x", 0, ErrEmptyHypothesis},
		{"both empty reports hypothesis", "", "", 0, ErrEmptyHypothesis},
		{"empty reference", "x", "", 0, ErrEmptyReference},
		{"dots-only reference", "x", "..", 0, ErrEmptyReference},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := L(tc.hyp, tc.ref)
			if !errors.Is(err, tc.err) {
				t.Fatalf("L(%q, %q) error = %v, want %v", tc.hyp, tc.ref, err, tc.err)
			}
			if got != tc.want {
				t.Fatalf("L(%q, %q) = %v, want %v", tc.hyp, tc.ref, got, tc.want)
			}
		})
	}
}

// TestErrorTexts checks the error texts, which callers compare with the
// messages of the original evaluator.
func TestErrorTexts(t *testing.T) {
	if got := ErrEmptyHypothesis.Error(); got != "Hypothesis is empty." {
		t.Errorf("ErrEmptyHypothesis = %q", got)
	}
	if got := ErrEmptyReference.Error(); got != "Reference is empty." {
		t.Errorf("ErrEmptyReference = %q", got)
	}
}

// TestLongTexts crosses the switch from linear interning to the map and
// reuses pooled buffers of different sizes, checking against values that are
// known without computing an LCS.
func TestLongTexts(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		b.WriteString("w")
		b.WriteString(strings.Repeat("x", i%37))
		b.WriteByte(byte('a' + i%26))
		if i%9 == 8 {
			b.WriteString(". ")
		} else {
			b.WriteByte(' ')
		}
	}
	long := b.String()
	for range 3 {
		if got, err := L(long, long); err != nil || got != 0.999999995 {
			t.Fatalf("L(long, long) = %v, %v; want 0.999999995", got, err)
		}
		if got, err := L("the cat", "the cat"); err != nil || got != 0.999999995 {
			t.Fatalf("L(short, short) after long = %v, %v", got, err)
		}
		if got, err := L(long, "zzz"); err != nil || got != 0 {
			t.Fatalf("L(long, disjoint) = %v, %v; want 0", got, err)
		}
	}
}

// TestConcurrent runs L from several goroutines so that the race detector
// can see the pooled buffers are not shared.
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				hyp, ref := benchPairs[(g+i)%len(benchPairs)][0], benchPairs[(g+i)%len(benchPairs)][1]
				want, _ := L(hyp, ref)
				got, err := L(hyp, ref)
				if err != nil || got != want {
					t.Errorf("concurrent L(%q, %q) = %v, %v; want %v", hyp, ref, got, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// oracleLine is one line of oracle/rouge-l.jsonl: a (ref, hyp) pair and what
// the Python package returned for it, either f rounded to 10 decimals or the
// raised exception as "ValueError: <text>".
type oracleLine struct {
	File    string   `json:"file"`
	Ref     string   `json:"ref"`
	Hyp     string   `json:"hyp"`
	Variant string   `json:"variant"`
	F       *float64 `json:"f"`
	Error   *string  `json:"error"`
}

// round10 rounds to 10 decimals, as the oracle values were rounded.
func round10(v float64) float64 { return math.Round(v*1e10) / 1e10 }

// TestOracleParity checks L against every score the original Python package
// produced on API-Bank texts and their variants.
func TestOracleParity(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "apibank", "oracle", "rouge-l.jsonl")
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("../shared/apibank not found: parity against the original needs the reference data beside the repo")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	checked, errLines, unroundedOff := 0, 0, 0
	for lineNo := 1; sc.Scan(); lineNo++ {
		var o oracleLine
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatalf("line %d: %v", lineNo, err)
		}
		got, err := L(o.Hyp, o.Ref)
		checked++
		switch {
		case o.Error != nil:
			errLines++
			// The oracle records the Python exception as "Class: text".
			want := *o.Error
			if _, text, ok := strings.Cut(want, ": "); ok {
				want = text
			}
			if err == nil || err.Error() != want {
				t.Errorf("line %d (%s, %s): error = %v, want %q", lineNo, o.File, o.Variant, err, want)
			}
		case o.F == nil:
			t.Fatalf("line %d: neither f nor error", lineNo)
		case err != nil:
			t.Errorf("line %d (%s, %s): unexpected error %v, want %v", lineNo, o.File, o.Variant, err, *o.F)
		default:
			if d := math.Abs(round10(got) - *o.F); d > 1e-9 {
				t.Errorf("line %d (%s, %s): L = %v (rounded %v), want %v\nhyp=%q\nref=%q",
					lineNo, o.File, o.Variant, got, round10(got), *o.F, o.Hyp, o.Ref)
			}
			if d := math.Abs(got - *o.F); d > 1e-9 {
				unroundedOff++
				t.Logf("line %d (%s, %s): unrounded L = %v differs from %v by %g", lineNo, o.File, o.Variant, got, *o.F, d)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("oracle file has no lines")
	}
	if unroundedOff > 0 {
		t.Errorf("%d lines differ from the oracle by more than 1e-9 before rounding", unroundedOff)
	}
	t.Logf("checked %d oracle lines (%d expecting an error)", checked, errLines)
}

// FuzzL checks that L never panics and always returns either an error with
// a zero score or a score in [0, 1), and that identical texts with a
// sentence score 0.999999995. The seeds include texts of hundreds of KB:
// a long reply against a short reference (banded walk), one long sentence
// each way round, and two texts beyond MaxPairs.
func FuzzL(f *testing.F) {
	f.Add("the cat sat on the mat", "the cat is on the mat")
	f.Add("hello. ", "hello")
	f.Add("...", "x")
	f.Add("a\u00a0b\u2028c. \x1c", "c b a")
	f.Add("\xff\xfe. \xc2", "\xc2\x85")
	f.Add(strings.Repeat("the cat sat on the mat. ", 12_000), "the cat is on the mat")
	f.Add(wordText(40_000, 50, 1), wordText(600, 50, 2))
	f.Add(wordText(600, 50, 3), wordText(40_000, 50, 4))
	f.Add(wordText(60_000, 1000, 5), wordText(60_000, 1000, 6))
	f.Fuzz(func(t *testing.T, hyp, ref string) {
		got, err := L(hyp, ref)
		if err != nil {
			if err != ErrEmptyHypothesis && err != ErrEmptyReference && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error %v", err)
			}
			if got != 0 {
				t.Fatalf("score %v with error %v", got, err)
			}
			return
		}
		if !(got >= 0 && got < 1) {
			t.Fatalf("L(%q, %q) = %v, outside [0, 1)", hyp, ref, got)
		}
		if self, err := L(hyp, hyp); errors.Is(err, ErrTooLarge) {
			return
		} else if err != nil || self != 0.999999995 {
			t.Fatalf("L(hyp, hyp) = %v, %v; want 0.999999995", self, err)
		}
	})
}

// wordText is n tokens drawn from a vocabulary of v words, one sentence.
func wordText(n, v int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("w")
		b.WriteString(strconv.Itoa(rng.IntN(v)))
	}
	return b.String()
}

// withWholeTables sets the sizes that decide between the whole LCS table and
// the banded walk, runs f, and restores them.
func withWholeTables(whole, band int, f func()) {
	oldWhole, oldBand := fullTable, bandCells
	fullTable, bandCells = whole, band
	defer func() { fullTable, bandCells = oldWhole, oldBand }()
	f()
}

// TestBandedWalkAgrees forces the banded walk (no whole tables, bands of a
// few cells) and compares every score, bit for bit, with the whole-table
// walk: random texts over small vocabularies (many ties), several sentences,
// the hypothesis longer, shorter and as long as the reference.
func TestBandedWalkAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	text := func(n, v int) string {
		var b strings.Builder
		for range n {
			b.WriteString(strconv.Itoa(rng.IntN(v)))
			switch rng.IntN(12) {
			case 0:
				b.WriteString(". ")
			default:
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	type pair struct{ hyp, ref string }
	var pairs []pair
	for _, p := range benchPairs {
		pairs = append(pairs, pair{p[1], p[0]}, pair{p[0], p[1]})
	}
	for range 400 {
		v := 2 + rng.IntN(8)
		pairs = append(pairs, pair{text(1+rng.IntN(60), v), text(1+rng.IntN(60), v)})
	}
	pairs = append(pairs, pair{text(3000, 5), text(40, 5)}, pair{text(40, 5), text(3000, 5)}, pair{text(700, 3), text(700, 3)})
	for _, band := range []int{1, 6, 50, 999} {
		for _, p := range pairs {
			want, wantErr := L(p.hyp, p.ref)
			var got float64
			var err error
			withWholeTables(0, band, func() { got, err = L(p.hyp, p.ref) })
			if got != want || !errors.Is(err, wantErr) {
				t.Fatalf("bands of %d cells: L(%q, %q) = %v, %v; the whole table gives %v, %v", band, p.hyp, p.ref, got, err, want, wantErr)
			}
		}
	}
}

// TestLargeInputs: long texts are scored in memory linear in their size, and
// texts beyond the limits give ErrTooLarge (with the limit in the message)
// at once, without building their tables.
func TestLargeInputs(t *testing.T) {
	long := wordText(50_000, 400, 11) // one sentence of 50,000 tokens
	short := wordText(300, 400, 12)
	huge := strings.Repeat("word ", 8_000_000) // a 40 MB reply
	cases := []struct {
		name     string
		hyp, ref string
		err      error
		inText   string // in the error message
		maxAlloc uint64 // bytes L may allocate
	}{
		{"long reply, short reference", long, short, nil, "", 8 << 20},
		{"short reply, long reference", short, long, nil, "", 8 << 20},
		{"a 40 MB reply", huge, short, ErrTooLarge, "more than 262144 tokens", 16 << 20},
		{"a 40 MB reference", short, huge, ErrTooLarge, "the reference has more than 262144 tokens", 16 << 20},
		{"two long texts", wordText(20_000, 400, 13), wordText(20_000, 400, 14), ErrTooLarge, "more than the 268435456", 16 << 20},
		{"an empty reply before a huge reference", "", huge, ErrEmptyHypothesis, "", 1 << 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := L(c.hyp, c.ref)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, c.err) || (err != nil && !strings.Contains(err.Error(), c.inText)) {
				t.Fatalf("error = %v, want %v containing %q", err, c.err, c.inText)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > c.maxAlloc {
				t.Errorf("allocated %d bytes, more than %d", alloc, c.maxAlloc)
			}
			if c.err != nil {
				return
			}
			// The same score from whole tables (60 MB of them here).
			var want float64
			withWholeTables(1<<30, 1<<30, func() { want, err = L(c.hyp, c.ref) })
			if err != nil || got != want {
				t.Errorf("L = %v; whole tables give %v, %v", got, want, err)
			}
		})
	}
}

// benchPairs are realistic (reference, generated) turns in the style of
// API-Bank dialogues.
var benchPairs = [][2]string{
	{"I have retrieved your authentication token. Now I will add the schedule and alarm for you.",
		"Sure, I have got your token. Now I am adding the schedule and the alarm for you."},
	{"Your appointment has been successfully registered, and your appointment ID is 12345. Is there anything else I can do for you today?",
		"Your appointment is registered. The appointment ID is 12345. Can I help you with anything else?"},
	{"The result is 33.", "The result of the calculation is 33."},
	{"According to my search, on October 6th, 1962, the Second Vatican Council opened. Ralph Vaughan Williams, the composer, passed away on this day in 1958. Also, Carole Lombard, the actress, was born on this day in 1908.",
		"On October 6th the Second Vatican Council opened in 1962, Ralph Vaughan Williams died in 1958 and Carole Lombard was born in 1908."},
	{"Okay, I got your token. What time do you want the alarm to be set for?",
		"What time should I set the alarm for?"},
}

// BenchmarkL measures L over realistic API-Bank responses.
func BenchmarkL(b *testing.B) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := benchPairs[i%len(benchPairs)]
		if _, err := L(p[1], p[0]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
