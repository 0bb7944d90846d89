// Package lz is a byte-oriented LZ77 codec: no entropy coding, so decoding is little more than
// copying. The engine embeds its builtin data compressed, and inflating it with compress/flate was
// 21 ms of every start of the module under wazero; this format decodes in a fraction of that, for a
// larger but still budgeted embedding (see RATIONALE "The builtin pack").
//
// A stream is the decoded size (uvarint) and then sequences, each a literal run and a match: the run's
// length (uvarint) and bytes, then the match's length (uvarint; 0 ends the stream) and its distance
// back into the output (uvarint, 1 is the last byte written).
package lz

import (
	"encoding/binary"
	"errors"
)

// minMatch is the shortest match worth a sequence (its two varints cost up to four bytes).
const minMatch = 4

// chainDepth bounds how many earlier positions of a hash the compressor tries: compression runs at
// build time, so it looks far for the longest match.
const chainDepth = 256

// Compress returns src encoded.
func Compress(src []byte) []byte {
	out := binary.AppendUvarint(nil, uint64(len(src)))
	const hashBits = 16
	head := make([]int32, 1<<hashBits)
	for i := range head {
		head[i] = -1
	}
	prev := make([]int32, len(src))
	hash := func(i int) uint32 {
		return (binary.LittleEndian.Uint32(src[i:]) * 2654435761) >> (32 - hashBits)
	}
	insert := func(i int) {
		if i+minMatch <= len(src) {
			h := hash(i)
			prev[i], head[h] = head[h], int32(i)
		}
	}
	lit := 0 // start of the pending literal run
	for i := 0; i+minMatch <= len(src); {
		bestLen, bestDist := 0, 0
		for j, depth := head[hash(i)], 0; j >= 0 && depth < chainDepth; j, depth = prev[j], depth+1 {
			n := 0
			for i+n < len(src) && src[int(j)+n] == src[i+n] {
				n++
			}
			if n > bestLen {
				bestLen, bestDist = n, i-int(j)
			}
		}
		if bestLen < minMatch {
			insert(i)
			i++
			continue
		}
		out = binary.AppendUvarint(out, uint64(i-lit))
		out = append(out, src[lit:i]...)
		out = binary.AppendUvarint(out, uint64(bestLen))
		out = binary.AppendUvarint(out, uint64(bestDist))
		for k := range bestLen {
			insert(i + k)
		}
		i += bestLen
		lit = i
	}
	out = binary.AppendUvarint(out, uint64(len(src)-lit))
	out = append(out, src[lit:]...)
	return binary.AppendUvarint(out, 0)
}

// ErrCorrupt is returned for a stream Compress did not write.
var ErrCorrupt = errors.New("lz: corrupt stream")

// Decompress returns the bytes src encodes. A stream that declares more than limit bytes, or that is
// corrupt in any way, is an error, never a panic.
func Decompress(src []byte, limit int) ([]byte, error) {
	size, k := binary.Uvarint(src)
	if k <= 0 || size > uint64(limit) {
		return nil, ErrCorrupt
	}
	src = src[k:]
	out := make([]byte, 0, size)
	next := func() (int, bool) {
		v, k := binary.Uvarint(src)
		if k <= 0 || v > size {
			return 0, false
		}
		src = src[k:]
		return int(v), true
	}
	for {
		n, ok := next()
		if !ok || n > len(src) || len(out)+n > int(size) {
			return nil, ErrCorrupt
		}
		out = append(out, src[:n]...)
		src = src[n:]
		m, ok := next()
		if !ok {
			return nil, ErrCorrupt
		}
		if m == 0 {
			if len(out) != int(size) || len(src) != 0 {
				return nil, ErrCorrupt
			}
			return out, nil
		}
		dist, ok := next()
		if !ok || dist == 0 || dist > len(out) || len(out)+m > int(size) {
			return nil, ErrCorrupt
		}
		from := len(out) - dist
		for m > 0 {
			// A match may overlap what it writes (dist < m): copy what exists, then again.
			c := min(m, dist)
			out = append(out, out[from:from+c]...)
			from += c
			m -= c
		}
	}
}
