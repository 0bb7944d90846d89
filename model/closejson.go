package model

import "unicode/utf8"

// closeJSON turns the prefix of a JSON text cut at the size cap into valid JSON that keeps as much
// of it as possible: a string value cut in the middle is closed where it was cut (so a cut answer
// keeps its text up to the cap), an unfinished key, number or literal is dropped back to the last
// complete value, and every open object and array is closed. It returns nil when nothing of the
// prefix can be kept.
func closeJSON(b []byte) []byte {
	var (
		stack    []byte // open containers: '{' or '['
		safe     = -1   // b[:safe] + closers(stackAtSafe) is valid JSON
		safeOpen []byte
		prev     byte // last structural token: '{', '[', ',', ':', or 'v' for a value
	)
	mark := func(at int) {
		safe = at
		safeOpen = append(safeOpen[:0], stack...)
	}
	for i := 0; i < len(b); {
		switch c := b[i]; c {
		case ' ', '\t', '\r', '\n':
			i++
		case '{', '[':
			stack = append(stack, c)
			prev = c
			i++
			mark(i)
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			prev = 'v'
			i++
			mark(i)
		case ',', ':':
			prev = c
			i++
		case '"':
			isKey := len(stack) > 0 && stack[len(stack)-1] == '{' && (prev == '{' || prev == ',')
			end, cut := scanString(b, i)
			if end < 0 { // the text ends inside this string
				if isKey {
					return closeAt(b, safe, safeOpen)
				}
				out := append(append([]byte{}, b[:cut]...), '"')
				return append(out, closers(stack)...)
			}
			i = end
			if isKey {
				prev = ':' // a key is not a value; the ':' that follows keeps it so
			} else {
				prev = 'v'
				mark(i)
			}
		default: // a number or a literal: complete only when something follows it
			j := i
			for j < len(b) && !isDelimiter(b[j]) {
				j++
			}
			if j == len(b) {
				return closeAt(b, safe, safeOpen)
			}
			i = j
			prev = 'v'
			mark(i)
		}
	}
	return closeAt(b, safe, safeOpen)
}

// closeAt is b cut at the safe point with the containers open there closed.
func closeAt(b []byte, safe int, open []byte) []byte {
	if safe < 0 {
		return nil
	}
	return append(append([]byte{}, b[:safe]...), closers(open)...)
}

// closers closes the open containers, innermost first.
func closers(open []byte) []byte {
	out := make([]byte, 0, len(open))
	for i := len(open) - 1; i >= 0; i-- {
		if open[i] == '{' {
			out = append(out, '}')
		} else {
			out = append(out, ']')
		}
	}
	return out
}

func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

// scanString scans the string starting at b[start] == '"'. It returns the index after its closing
// quote, or -1 and the index where the cut string may be closed: after its last whole character,
// never inside an escape or a UTF-8 sequence.
func scanString(b []byte, start int) (end, cut int) {
	i := start + 1
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			return i + 1, 0
		case c == '\\':
			n := 2
			if i+1 < len(b) && b[i+1] == 'u' {
				n = 6
			}
			if i+n > len(b) {
				return -1, i
			}
			i += n
		case c < utf8.RuneSelf:
			i++
		default:
			if !utf8.FullRune(b[i:]) {
				return -1, i
			}
			_, size := utf8.DecodeRune(b[i:])
			i += size
		}
	}
	return -1, i
}
