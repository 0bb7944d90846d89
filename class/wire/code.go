package wire

import "strings"

// CodeLen is the length of a class code.
const CodeLen = 6

// CodeAlphabet is what a class code is written with: no letters or digits that read alike (0/O,
// 1/I/L, 5/S, 2/Z, 8/B, U/V), so a code read out in a classroom is typed right.
const CodeAlphabet = "ACDEFGHJKMNPQRTWXY345679"

// NormalCode returns code as it is kept: upper case, spaces and dashes dropped. ok is false when
// it cannot be a class code. The server and the student's page read a code by this one rule.
func NormalCode(code string) (string, bool) {
	code = strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(code)))
	if len(code) != CodeLen {
		return "", false
	}
	for _, c := range code {
		if !strings.ContainsRune(CodeAlphabet, c) {
			return "", false
		}
	}
	return code, true
}

// CodeRule says what a class code is, for a message about one that is not.
const CodeRule = "a class code is 6 of the letters and digits " + CodeAlphabet
