package bm25

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"testing"
)

func TestArgsortHand(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want []int
	}{
		{"empty", nil, []int{}},
		{"one", []float64{5}, []int{0}},
		{"sorted", []float64{1, 2, 3}, []int{0, 1, 2}},
		{"reversed", []float64{3, 2, 1}, []int{2, 1, 0}},
		// Up to 16 elements only the insertion sort runs: stable, so equal
		// values keep their index order.
		{"ties small", []float64{1, 0, 1, 0}, []int{1, 3, 0, 2}},
		{"ties with negative zero", []float64{0, math.Copysign(0, -1), 0}, []int{0, 1, 2}},
		{"16 equal", make([]float64, 16), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
		{"16 two values", []float64{2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1},
			[]int{1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 14}},
		// 17 equal values, worked by hand: m = 8; the three compare-and-swaps
		// do nothing (no value is strictly less); pivot = value of index 8;
		// swap positions 8 and 15 -> [0..7, 15, 9..14, 8, 16]. Then i and j
		// stop at every step (nothing is strictly less or greater): swap
		// (1,14), (2,13), (3,12), (4,11), (5,10), (6,9), (7,8); next i = 8,
		// j = 7, they cross. Swapping i = 8 with r-1 = 15 puts the pivot
		// (index 8) at position 8 and index 7 at position 15:
		// [0 14 13 12 11 10 9 15 8 6 5 4 3 2 1 7 16]. Both sides (8
		// elements each) are then insertion-sorted, which changes nothing
		// for equal values. numpy 1.24.2 gives the same.
		{"17 equal", make([]float64, 17), []int{0, 14, 13, 12, 11, 10, 9, 15, 8, 6, 5, 4, 3, 2, 1, 7, 16}},
		// 18 equal values, numpy 1.24.2's answer.
		{"18 equal", make([]float64, 18), []int{0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 16, 17}},
		{"NaN last", []float64{math.NaN(), 1, math.Inf(1), 0}, []int{3, 1, 2, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Argsort(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Argsort(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// Test73Zeros is the SearchEngine case of a query without known tokens.
func Test73Zeros(t *testing.T) {
	want := []int{0, 51, 50, 49, 48, 47, 46, 52, 45, 43, 42, 41, 40, 39, 38, 44, 53, 54, 55, 70, 69, 68, 67, 66,
		65, 64, 63, 62, 61, 60, 59, 58, 57, 56, 37, 71, 36, 34, 14, 13, 12, 11, 10, 9, 15, 8, 6, 5, 4, 3, 2, 1,
		7, 16, 17, 18, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 35, 72} // numpy 1.24.2
	if got := Argsort(make([]float64, 73)); !reflect.DeepEqual(got, want) {
		t.Errorf("Argsort(73 zeros) = %v\nwant %v", got, want)
	}
}

// TestArgsortNumpy compares with numpy 1.24.2's np.argsort on tie-heavy
// arrays (testdata/argsort_numpy.json; null stands for NaN). The cases
// marked heapsort are built against the median-of-three pivot so that the
// depth limit is reached and a partition is heap-sorted.
func TestArgsortNumpy(t *testing.T) {
	b, err := os.ReadFile("testdata/argsort_numpy.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []struct {
			Values   []*float64
			Perm     []int
			Heapsort bool
		}
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	heapCases := 0
	for ci, c := range golden.Cases {
		v := make([]float64, len(c.Values))
		for i, p := range c.Values {
			if p == nil {
				v[i] = math.NaN()
			} else {
				v[i] = *p
			}
		}
		if got := Argsort(v); !reflect.DeepEqual(got, c.Perm) {
			t.Errorf("case %d (n=%d): Argsort = %v\nwant %v", ci, len(v), got, c.Perm)
		}
		if c.Heapsort {
			heapCases++
			heaps := 0
			introArgsort(len(v), func(a, b int) bool { return v[a] < v[b] }, &heaps)
			if heaps == 0 {
				t.Errorf("case %d: expected the heapsort fallback to run", ci)
			}
		}
	}
	if heapCases == 0 || len(golden.Cases) < 50 {
		t.Errorf("golden file too small: %d cases, %d heapsort", len(golden.Cases), heapCases)
	}
}

func BenchmarkArgsort73(b *testing.B) {
	v := make([]float64, 73)
	for i := range v {
		v[i] = float64(i % 7)
	}
	for b.Loop() {
		Argsort(v)
	}
}
