package bm25

// Argsort returns the permutation that numpy 1.24's default argsort
// (kind='quicksort', an introsort that is not stable) gives for values, so
// equal values come out in the same order as in the original tool.
//
// The algorithm works on an index array. While a partition [l, r] holds more
// than 16 elements it is split around a median of three: with m = l+(r-l)/2,
// the indexes at m and l, r and m, then m and l are swapped when the first's
// value is strictly less; the value at m is the pivot; m is swapped with
// r-1; i moves right from l while values are below the pivot and j moves
// left from r-1 while values are above it, swapping until they cross; the
// pivot goes to i. The larger side is pushed on a stack and the smaller one
// is split further. Partitions of 16 or fewer elements are finished by an
// insertion sort (stable). Each split lowers a depth budget of
// 2*floor(log2 n); a partition taken from the stack when the budget is
// exhausted is heap-sorted instead. NaN sorts after every number, as in
// numpy.
func Argsort(values []float64) []int {
	return introArgsort(len(values), func(a, b int) bool {
		x, y := values[a], values[b]
		return x < y || (y != y && x == x)
	}, nil)
}

// introArgsort is Argsort for n elements compared by less (on element
// indexes). When heapSorts is not nil it counts the partitions that were
// heap-sorted.
func introArgsort(n int, less func(a, b int) bool, heapSorts *int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if n < 2 {
		return idx
	}
	swap := func(a, b int) { idx[a], idx[b] = idx[b], idx[a] }

	type part struct{ l, r, depth int }
	var stack []part
	l, r := 0, n-1
	depth := 2 * floorLog2(n)
	for {
		if depth < 0 {
			if heapSorts != nil {
				*heapSorts++
			}
			heapSortRange(idx[l:r+1], less)
		} else {
			for r-l+1 > 16 {
				m := l + (r-l)/2
				if less(idx[m], idx[l]) {
					swap(m, l)
				}
				if less(idx[r], idx[m]) {
					swap(r, m)
				}
				if less(idx[m], idx[l]) {
					swap(m, l)
				}
				pivot := idx[m]
				swap(m, r-1)
				i, j := l, r-1
				for {
					i++
					for less(idx[i], pivot) {
						i++
					}
					j--
					for less(pivot, idx[j]) {
						j--
					}
					if i >= j {
						break
					}
					swap(i, j)
				}
				swap(i, r-1)
				depth--
				if i-l < r-i {
					stack = append(stack, part{i + 1, r, depth})
					r = i - 1
				} else {
					stack = append(stack, part{l, i - 1, depth})
					l = i + 1
				}
			}
			insertionSortRange(idx, l, r, less)
		}
		if len(stack) == 0 {
			return idx
		}
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		l, r, depth = top.l, top.r, top.depth
	}
}

// floorLog2 returns floor(log2 n) for n >= 1, and 0 for n < 1.
func floorLog2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// insertionSortRange sorts idx[l..r] by shifting each element left past the
// elements whose value is strictly greater, so equal values keep their order.
func insertionSortRange(idx []int, l, r int, less func(a, b int) bool) {
	for i := l + 1; i <= r; i++ {
		v := idx[i]
		j := i
		for j > l && less(v, idx[j-1]) {
			idx[j] = idx[j-1]
			j--
		}
		idx[j] = v
	}
}

// heapSortRange sorts a with a binary max-heap (children of the 1-based
// position k at 2k and 2k+1): the heap is built by sifting down from the
// middle, then the root is repeatedly exchanged with the last element of the
// shrinking heap. A sift moves down to the larger child (the right one only
// when the left is strictly less) while the moved element is strictly less
// than that child.
func heapSortRange(a []int, less func(x, y int) bool) {
	n := len(a)
	// sift places v at the 1-based heap position k of a heap of size
	// elements, moving larger children up.
	sift := func(k, size, v int) {
		for c := 2 * k; c <= size; c = 2 * k {
			if c < size && less(a[c-1], a[c]) {
				c++
			}
			if !less(v, a[c-1]) {
				break
			}
			a[k-1] = a[c-1]
			k = c
		}
		a[k-1] = v
	}
	for k := n / 2; k > 0; k-- {
		sift(k, n, a[k-1])
	}
	for size := n; size > 1; {
		v := a[size-1]
		a[size-1] = a[0]
		size--
		sift(1, size, v)
	}
}
