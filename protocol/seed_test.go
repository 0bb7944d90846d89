package protocol

import (
	"flag"
	"io"
	"strings"
	"testing"
)

// TestParseSeed: plain decimal digits from 0 to MaxSeed are seeds; Go's other spellings of a
// number (base prefixes, a leading zero read as octal, underscores, a sign) and anything out of
// range are refused with SeedRule, so "010" never names variant 8 in one host and 10 in another.
func TestParseSeed(t *testing.T) {
	for _, tt := range []struct {
		text string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"7", 7, true},
		{"10", 10, true},
		{"1000", 1000, true},
		{"9007199254740991", MaxSeed, true},
		{"010", 0, false},
		{"00", 0, false},
		{"0b111", 0, false},
		{"0o7", 0, false},
		{"0x10", 0, false},
		{"1_000", 0, false},
		{"+7", 0, false},
		{"-1", 0, false},
		{"-0", 0, false},
		{"1.5", 0, false},
		{"1e3", 0, false},
		{"abc", 0, false},
		{"", 0, false},
		{" 7", 0, false},
		{"7 ", 0, false},
		{"９", 0, false},
		{"9007199254740992", 0, false},
		{"99999999999999999999", 0, false},
	} {
		got, err := ParseSeed(tt.text)
		if tt.ok != (err == nil) || got != tt.want {
			t.Errorf("ParseSeed(%q) = %d, %v; want %d, ok %v", tt.text, got, err, tt.want, tt.ok)
		}
		if err != nil && err.Error() != SeedRule {
			t.Errorf("ParseSeed(%q): %q, want the rule %q", tt.text, err, SeedRule)
		}
	}
	if !strings.Contains(SeedRule, "9007199254740991") {
		t.Errorf("the rule does not state the largest seed: %q", SeedRule)
	}
}

// TestSeedFlag: as a flag, a seed is read by ParseSeed; a refused text stops the parse and its
// Problem names the flag and the text, then says what a seed is.
func TestSeedFlag(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		want    int64
		problem string
	}{
		{nil, 0, ""},
		{[]string{"--seed", "7"}, 7, ""},
		{[]string{"--seed=0"}, 0, ""},
		{[]string{"--seed", "010"}, 0, "--seed 010: " + SeedRule},
		{[]string{"--seed", "0x10"}, 0, "--seed 0x10: " + SeedRule},
		{[]string{"--seed", "1.5"}, 0, "--seed 1.5: " + SeedRule},
		{[]string{"--seed="}, 0, `--seed "": ` + SeedRule},
		{[]string{"--seed", "7", "--seed", "abc"}, 7, "--seed abc: " + SeedRule},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var f SeedFlag
		fs.Var(&f, "seed", "a seed")
		err := fs.Parse(tt.args)
		problem := ""
		if p := f.Problem("seed"); p != nil {
			problem = p.Error()
		}
		if f.Seed != tt.want || problem != tt.problem || (err != nil) != (tt.problem != "") {
			t.Errorf("%q: seed %d, problem %q, parse error %v; want %d, %q", tt.args, f.Seed, problem, err, tt.want, tt.problem)
		}
	}
}

func TestVariantName(t *testing.T) {
	for _, seed := range []uint64{1, 42, MaxSeed} {
		name := VariantName("builtin", seed)
		if got := VariantSeed("builtin", name); got != int64(seed) {
			t.Errorf("VariantSeed(%q) = %d, want %d", name, got, seed)
		}
	}
	if got := VariantName("builtin", 42); got != "builtin~s42" {
		t.Errorf("VariantName(builtin, 42) = %q", got)
	}
	if got := VariantName("builtin", 0); got != "builtin" {
		t.Errorf("VariantName(builtin, 0) = %q, want the original's name", got)
	}
	for _, name := range []string{"builtin", "my-folder", "builtin~s0", "builtin~s07", "builtin~sx", "other~s7", "builtin~s"} {
		if got := VariantSeed("builtin", name); got != 0 {
			t.Errorf("VariantSeed(%q) = %d, want 0", name, got)
		}
	}
}

func TestSeedInName(t *testing.T) {
	for _, c := range []struct {
		name string
		seed int64
		ok   bool
	}{
		{"gpt-4o-mini-3f2a.seed-7.jsonl", 7, true},
		{"gpt-4o-mini-3f2a.seed-7.trial-2.jsonl", 7, true}, // a board entry's second trial
		{"apibank-run-k3j2.seed-5.jsonl", 5, true},         // a run exported from the Runs page
		{"apibank-run-k3j2-seed5.jsonl", 5, true},          // as the Runs page named it before
		{"runs/robust.variant-12.jsonl", 12, true},
		{"robust.variant-3.json", 3, true},
		{"robust.jsonl", 0, false},
		{"robust.rerun.jsonl", 0, false},
		{"robust.trial-2.jsonl", 0, false},
		{"x.seed-0.jsonl", 0, false},   // 0 is the builtin data itself
		{"x.seed-007.jsonl", 0, false}, // not a seed as every host reads one
		{"x.seed-7.jsonl.txt", 0, false},
		{"seed-7.jsonl", 0, false},
		{"x.seed-7x.jsonl", 0, false},
		{"my-seedling.jsonl", 0, false},
		{"run-seed5.part.jsonl", 0, false}, // "-seedS" only ends a name of one part
	} {
		if seed, ok := SeedInName(c.name); seed != c.seed || ok != c.ok {
			t.Errorf("SeedInName(%q) = %d, %v; want %d, %v", c.name, seed, ok, c.seed, c.ok)
		}
	}
}
