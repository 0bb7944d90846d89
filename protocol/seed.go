package protocol

import (
	"errors"
	"path"
	"strconv"
	"strings"
)

// SeedRule says what a seed is written as, in the words every refusal of one uses.
var SeedRule = "a seed is a whole number from 1 to " + strconv.FormatInt(MaxSeed, 10) +
	", in decimal digits without a sign or leading zeros (0: the builtin data itself)"

// errSeed is every refusal of ParseSeed: the text was not a seed as SeedRule says.
var errSeed = errors.New(SeedRule)

// ValidSeed says whether n names the builtin data (0) or one of its variants (1 to MaxSeed).
func ValidSeed(n int64) bool { return n >= 0 && n <= MaxSeed }

// ParseSeed reads a seed as a person writes it on a command line or in a variable: plain decimal
// digits, from 0 (the builtin data itself) to MaxSeed. It is the one reader of a seed's text, so
// every host reads "010" alike: it refuses it (Go's base prefixes would read it as 8, a person
// means 10), and refuses a sign, an underscore, a base prefix, spaces and anything out of range.
func ParseSeed(text string) (int64, error) {
	if text == "" || len(text) > 1 && text[0] == '0' {
		return 0, errSeed
	}
	for _, c := range []byte(text) {
		if c < '0' || c > '9' {
			return 0, errSeed
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || !ValidSeed(n) {
		return 0, errSeed
	}
	return n, nil
}

// SeedFlag is a seed given as a command-line flag (a flag.Value), read by ParseSeed. A text it
// refused is kept (Refused), so that a command can say what is wrong in its own words (Problem)
// rather than in the flag package's.
type SeedFlag struct {
	// Seed is the seed read (0 until one is).
	Seed int64
	// Refused is the last text Set refused ("" when none was).
	Refused string
	refusal error
}

// String is the seed in decimal.
func (f *SeedFlag) String() string {
	if f == nil {
		return "0"
	}
	return strconv.FormatInt(f.Seed, 10)
}

// Set reads text with ParseSeed; a text it refuses leaves Seed as it was.
func (f *SeedFlag) Set(text string) error {
	n, err := ParseSeed(text)
	if err != nil {
		f.Refused, f.refusal = text, err
		return err
	}
	f.Seed = n
	return nil
}

// Problem is the refusal of the text the flag named name was given, as "--name TEXT: SeedRule",
// or nil when Set refused none.
func (f *SeedFlag) Problem(name string) error {
	if f.refusal == nil {
		return nil
	}
	text := f.Refused
	if text == "" || strings.ContainsAny(text, " \t\n") {
		text = strconv.Quote(text)
	}
	return errors.New("--" + name + " " + text + ": " + f.refusal.Error())
}

// VariantName is the name a variant's data is loaded under: the original's name (base), VariantMark
// and the seed; seed 0 is the original itself. The engine names variants so and pages read a
// variant's seed back from the name (VariantSeed), so both follow this one rule.
func VariantName(base string, seed uint64) string {
	if seed == 0 {
		return base
	}
	return base + VariantMark + strconv.FormatUint(seed, 10)
}

// VariantSeed is the seed of the variant of the data named base that name names (VariantName's),
// 0 for any other name.
func VariantSeed(base, name string) int64 {
	digits, ok := strings.CutPrefix(name, base+VariantMark)
	if !ok {
		return 0
	}
	seed, err := ParseSeed(digits)
	if err != nil {
		return 0
	}
	return seed
}

// VariantMark comes between the original's name and the seed in a variant's name.
const VariantMark = "~s"

// SeedInName reads the variant a predictions file's name says its answers were asked on, as every
// host names such a file: a part ".seed-S" (a board's download, MODEL-ID.seed-S.jsonl, and its
// trials, MODEL-ID.seed-S.trial-2.jsonl; a run exported from the Runs page, apibank-run-ID.seed-S.jsonl)
// or ".variant-S" (a robustness run's pass, FILE.variant-S.jsonl) before the extension .jsonl or
// .json, or "-seedS" ending the name (the Runs page's older exports). ok is false when the name says
// no seed, or says 0 (the builtin data itself). It is one reader for the Score page and the CLI, so
// both judge one file on the same data. (Read by hand: the regexp package would add half a
// megabyte to the UI's module.)
func SeedInName(name string) (seed int64, ok bool) {
	stem, found := strings.CutSuffix(path.Base(name), ".jsonl")
	if !found {
		if stem, found = strings.CutSuffix(path.Base(name), ".json"); !found {
			return 0, false
		}
	}
	parts := strings.Split(stem, ".")
	for _, part := range parts[1:] { // the first part is the name itself
		digits, found := strings.CutPrefix(part, "seed-")
		if !found {
			digits, found = strings.CutPrefix(part, "variant-")
		}
		if found {
			n, err := ParseSeed(digits)
			return n, err == nil && n != 0
		}
	}
	if i := strings.LastIndex(stem, "-seed"); i > 0 && len(parts) == 1 {
		n, err := ParseSeed(stem[i+len("-seed"):])
		return n, err == nil && n != 0
	}
	return 0, false
}
