package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/stats"
)

// cmdCompare compares two runs as paired samples: both prediction files are judged by the engine
// (their level-3 episodes replayed in it), the tasks both judged are paired, and per level it
// prints the tasks one run got right and the other wrong, the exact McNemar test's p, a sentence,
// each run's accuracy and the smallest difference the comparison could detect.
func cmdCompare(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	var lineLevel levelFlag
	fs.Var(&lineLevel, "level", "level of lines without one: level-1-given-desc or level-2-toolsearcher (or 1, 2)")
	level := (*string)(&lineLevel)
	state := fs.String("state", "", "fresh or replay (default: fresh for imported data, replay for the builtin)")
	files, err := parseFiles(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 2 {
		return usageError("compare needs two files, A and B (got %d)", len(files))
	}
	var sides [2]side
	for i, f := range files {
		if sides[i].files, err = trialFiles(f); err != nil {
			return err
		}
	}
	perFile, err := dataOfRecords(fs, &c, append(slices.Clone(sides[0].files), sides[1].files...), stderr)
	if err != nil {
		return err
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	held := c.seed.Seed // the variant the engine holds (0: the builtin data, or --data's folder)
	for i := range sides {
		for _, f := range sides[i].files {
			// Runs asked on different data are each judged on theirs: a sample keeps its id in
			// every variant, so they pair as two runs of the same data do.
			if seed, ok := perFile[f]; ok && seed != held {
				if err := loadVariant(r, seed, stderr); err != nil {
					return err
				}
				held = seed
			}
			if err := warnOtherData(r, f, stderr); err != nil {
				return err
			}
			res, nbad, err := readRun(r, f, *level, *state, stderr)
			if err != nil {
				return err
			}
			bad = bad || nbad > 0
			sides[i].results = append(sides[i].results, res)
		}
	}
	cmp := run.Compare(sides[0].results, sides[1].results)
	if c.json {
		writeJSON(stdout, compareSummary{A: sides[0].files, B: sides[1].files, Comparison: cmp})
	} else {
		printComparison(stdout, sides, cmp)
	}
	if bad {
		return errBadInput
	}
	return nil
}

// side is one run of a comparison: its file, or its trials' files (the first is compared).
type side struct {
	files   []string
	results []*run.Result
}

// compareSummary is what `compare --json` prints.
type compareSummary struct {
	// A and B are the files read for each run: one, or its trials' in order.
	A []string `json:"a"`
	B []string `json:"b"`
	run.Comparison
}

// parseFiles parses flags given before, between and after the file arguments.
func parseFiles(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return files, checkFlags(fs)
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// trialFiles are the files of one side: the file itself when it exists, else the trials `run
// --trials N --out FILE` wrote (FILE.trial-1.jsonl, FILE.trial-2.jsonl, ... while they exist).
func trialFiles(path string) ([]string, error) {
	if _, err := os.Stat(path); err == nil {
		return []string{path}, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var out []string
	for i := 1; i <= run.MaxTrials; i++ {
		p := trialPath(path, i, 2) // (any count above 1 names trial i's file)
		if _, err := os.Stat(p); err != nil {
			break
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no such file (nor trials of it: %s, ...)", path, trialPath(path, 1, 2))
	}
	return out, nil
}

// readRun reads a run's predictions file as `apibank run --out` writes it (and the Runs page
// exports it): prediction lines, judged by the engine as `score --preds` judges them, and level-3
// episode lines, whose calls are replayed in the engine (the outcome a line carries is not
// believed). Each bad line is reported on stderr as file:line and left out; the count of them is
// returned.
func readRun(r runner, path, level, state string, stderr io.Writer) (*run.Result, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	bad := 0
	lineErr := func(line int, format string, a ...any) {
		fmt.Fprintln(stderr, protocol.LineError{File: path, Line: line, Message: fmt.Sprintf(format, a...)}.Error())
		bad++
	}
	out, err := run.ReadOut(data, lineLimit)
	if err != nil {
		return nil, bad, fmt.Errorf("%s: %w", path, err)
	}
	for _, e := range out.Errors {
		lineErr(e.Line, "%s", e.Message)
	}
	preds := bytes.NewBuffer(out.Preds)
	var verdicts bytes.Buffer
	_, nbad, err := scoreReader(r, path, preds, level, state, &verdicts, stderr)
	if err != nil {
		return nil, bad, err
	}
	bad += nbad
	res := &run.Result{Batch: &protocol.Batch{Results: []protocol.Verdict{}}}
	for _, l := range lines.All(verdicts.Bytes()) {
		if len(bytes.TrimSpace(l)) == 0 || bytes.HasPrefix(l, []byte(`{"error":`)) {
			continue // a blank line, or a line error (already reported)
		}
		var v protocol.Verdict
		if err := json.Unmarshal(l, &v); err != nil {
			return nil, bad, fmt.Errorf("%s: the engine's verdict: %w", path, err)
		}
		res.Batch.Results = append(res.Batch.Results, v)
	}
	for _, le := range out.Episodes {
		o, err := run.ReplayEpisode(context.Background(), r.do, le.Episode)
		if err != nil {
			lineErr(le.Line, "level-3 episode %s: %v", le.Episode.File, err)
			continue
		}
		le.Episode.Outcome = &o
		res.Episodes = append(res.Episodes, le.Episode)
	}
	return res, bad, nil
}

// printComparison writes the comparison as text: per level a row of counts, p, accuracies and the
// smallest detectable difference, then the sentences.
func printComparison(w io.Writer, sides [2]side, c run.Comparison) {
	for i, s := range sides {
		name := "A"
		if i == 1 {
			name = "B"
		}
		if len(s.files) == 1 {
			fmt.Fprintf(w, "%s: %s\n", name, s.files[0])
		} else {
			fmt.Fprintf(w, "%s: %d trials, %s ... %s (the first is compared; the others give the flip rate)\n", name, len(s.files), s.files[0], s.files[len(s.files)-1])
		}
	}
	fmt.Fprintf(w, "%-32s %6s %6s %6s  %-9s %10s %10s %11s %7s %7s\n", "level", "paired", "broken", "fixed", "p", "accuracy A", "accuracy B", "detectable", "flips A", "flips B")
	rows := append(append([]run.Compared{}, c.Levels...), c.Overall)
	for _, l := range rows {
		p := strings.TrimPrefix(strings.TrimPrefix(stats.FormatP(l.P), "p = "), "p ")
		fmt.Fprintf(w, "%-32s %6d %6d %6d  %-9s %9.1f%% %9.1f%% %11s %7s %7s\n", rowName(l), l.Paired, l.Broken, l.Fixed, p,
			100*l.AccuracyA, 100*l.AccuracyB, points(l.MinDetectable), flipText(l.FlipA), flipText(l.FlipB))
	}
	fmt.Fprintln(w, "paired: judged in both runs; broken: right in A, wrong in B; fixed: wrong in A, right in B;")
	fmt.Fprintln(w, "p: exact McNemar test, two-sided; accuracy: on the paired tasks; detectable: the smallest")
	fmt.Fprintln(w, "difference in accuracy this comparison would detect (80% power, 5% level); flips: the flip")
	fmt.Fprintln(w, "rate between a run's repeated trials (the chance two trials judge a task differently)")
	for _, l := range rows {
		fmt.Fprintln(w, l.Sentence+".")
		if l.OnlyA+l.OnlyB > 0 {
			fmt.Fprintf(w, "  left out, judged in one run only: %d in A, %d in B\n", l.OnlyA, l.OnlyB)
		}
	}
}

// rowName names a row in the table: the level's folder, "(episodes)" for level-3 episodes.
func rowName(l run.Compared) string {
	switch {
	case l.Level == "":
		return "all"
	case l.Unit == "episode":
		return l.Level + " (episodes)"
	}
	return l.Level
}

// points writes a difference in accuracy in percentage points: "±3.9 pts", "none" when no
// difference is detectable.
func points(d float64) string {
	if d >= 1 {
		return "none"
	}
	return fmt.Sprintf("±%.1f pts", 100*d)
}

func flipText(f *run.Flip) string {
	if f == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*f.Rate)
}
