package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// robustnessRun is `run --variants N`: it asks every sample of the builtin data, then of each of its
// first n variants, then of the builtin data once more, each pass with pass (which writes its
// predictions and the run's record), and prints the robustness per level. ended says why no further
// pass is run, or "" (the passes that ran are summed up); bad whether a file or a request failed.
func robustnessRun(r runner, c common, stdout, stderr io.Writer, out string, n int, pass func(path string, seed int64) (*run.Result, error), ended func() string, bad func() bool) error {
	original, err := pass(out, 0)
	if err != nil {
		return err
	}
	seeds := run.VariantSeeds(n)
	variants := make([]*run.Result, n)
	for i, seed := range seeds {
		if ended() != "" {
			break
		}
		if err := loadVariant(r, seed, stderr); err != nil {
			return err
		}
		if variants[i], err = pass(passPath(out, "variant-"+strconv.FormatInt(seed, 10)), seed); err != nil {
			return err
		}
	}
	var rerun *run.Result
	if ended() == "" {
		if _, err := call[protocol.Loaded](r, protocol.Request{Op: protocol.OpLoad, Builtin: true}); err != nil {
			return err
		}
		if rerun, err = pass(passPath(out, "rerun"), 0); err != nil {
			return err
		}
	}
	rb := run.Robust(original, seeds, variants, rerun)
	if c.json {
		writeJSON(stdout, robustSummary{Original: Summary(original), Robustness: rb})
	} else {
		printRun(stdout, original)
		printRobust(stdout, rb, ended())
	}
	if bad() || ended() != "" {
		return errBadInput
	}
	return nil
}

// passPath is where a pass of a robustness run writes its predictions: the --out file with the
// pass's name before its extension (runs.jsonl → runs.variant-2.jsonl, runs.rerun.jsonl).
func passPath(out, name string) string {
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + "." + name + ext
}

// robustSummary is what `run --variants N --json` prints: the original pass as `run --json` prints
// it, and the robustness per level.
type robustSummary struct {
	Original   runSummary       `json:"original"`
	Robustness []run.Robustness `json:"robustness"`
}

// printRobust writes the robustness table: per level, the accuracy on the originals, its mean and
// spread over the variants, the share right in every variant, and beside them the original asked
// again, with how often each changes a verdict.
func printRobust(w io.Writer, rbs []run.Robustness, cut string) {
	if len(rbs) == 0 {
		fmt.Fprintln(w, "robustness: nothing was judged")
		return
	}
	fmt.Fprintf(w, "== robustness: the original samples, %s and the originals asked again (the baseline: how much verdicts change when nothing does); tasks are call samples and level-3 episodes\n", variantCount(rbs[0].Seeds))
	if cut != "" {
		fmt.Fprintln(w, cut+": only the passes that ran are counted")
	}
	level3 := false
	for _, rb := range rbs {
		if rb.Tasks == 0 {
			// No task was judged in every pass: accuracies of nothing would read as 0.
			fmt.Fprintf(w, "%-22s tasks 0: none was judged in every pass", rb.Level)
			if rb.LeftOut > 0 {
				fmt.Fprintf(w, " (%d left out: a request failed in some pass)", rb.LeftOut)
			}
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "%-22s tasks %d  original %.4f  variants %s  right in every variant %s\n",
			rb.Level, rb.Tasks, rb.Original, variantsText(rb), orNoVariant(rb, rb.EveryVariant))
		fmt.Fprintf(w, "%-22s rerun %s  verdicts changed: by asking again %s, by a variant %s", "", orNotAsked(rb.Rerun), orNotAsked(rb.RerunFlips), orNoVariant(rb, rb.VariantFlips))
		if rb.LeftOut > 0 {
			fmt.Fprintf(w, "; %d tasks left out (a request failed in some pass)", rb.LeftOut)
		}
		fmt.Fprintln(w)
		level3 = level3 || rb.Level == run.Level3
	}
	if level3 {
		fmt.Fprintln(w, "level 3 hardly varies: a scene's people, accounts, dates and places are the level-3 tools' own facts, so a variant keeps them and its level-3 tasks are mostly the originals asked again; levels 1 and 2 measure robustness")
	}
}

// variantsText is a level's accuracy over its variants: mean ± sd, min and max; one variant's
// alone (one value has no spread); "none ran" when the run was cancelled before any.
func variantsText(rb run.Robustness) string {
	switch len(rb.Seeds) {
	case 0:
		return "none ran"
	case 1:
		return fmt.Sprintf("%.4f (1 variant: no spread)", rb.Mean)
	}
	return fmt.Sprintf("%.4f ± %.4f (sd), min %.4f, max %.4f", rb.Mean, rb.StdDev, rb.Min, rb.Max)
}

// orNoVariant is x, a figure over the variants, or "none ran" when no variant ran.
func orNoVariant(rb run.Robustness, x float64) string {
	if len(rb.Seeds) == 0 {
		return "none ran"
	}
	return fmt.Sprintf("%.4f", x)
}

// orNotAsked is a figure of the rerun, or "not asked" when it never ran.
func orNotAsked(x *float64) string {
	if x == nil {
		return "not asked"
	}
	return fmt.Sprintf("%.4f", *x)
}

// variantCount says how many variants ran, and their seeds.
func variantCount(seeds []int64) string {
	switch len(seeds) {
	case 0:
		return "no variant (none ran)"
	case 1:
		return "1 variant (seed " + seedList(seeds) + ")"
	}
	return fmt.Sprintf("%d variants (seeds %s)", len(seeds), seedList(seeds))
}

// seedList writes seeds as "1-3" when they run on by one, else with commas.
func seedList(seeds []int64) string {
	if len(seeds) == 0 {
		return "none"
	}
	consecutive := true
	for i := 1; i < len(seeds); i++ {
		consecutive = consecutive && seeds[i] == seeds[i-1]+1
	}
	if consecutive && len(seeds) > 1 {
		return fmt.Sprintf("%d-%d", seeds[0], seeds[len(seeds)-1])
	}
	parts := make([]string, len(seeds))
	for i, s := range seeds {
		parts[i] = strconv.FormatInt(s, 10)
	}
	return strings.Join(parts, ", ")
}
