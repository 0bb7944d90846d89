package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/score"
)

// cmdBatchPrepare writes a batch input file: every single-request sample as the request a run
// sends, with a custom id naming the sample.
func cmdBatchPrepare(args []string, stdout, stderr io.Writer) error {
	fset := flag.NewFlagSet("batch prepare", flag.ContinueOnError)
	var c common
	c.register(fset, true)
	name := fset.String("model", "", "the model's name at the provider")
	form := fset.String("form", run.Text, "text (the original's format) or native (tool calling)")
	var levels levelsFlag
	fset.Var(&levels, "level", "a level (repeatable; default every level; level-3 means its step samples)")
	limit := fset.Int("limit", 0, "only the first N samples of each level")
	out := fset.String("out", "", "the batch input file to write")
	state := fset.String("state", "", "fresh or replay: the mode the answers will be judged in (the prompts are the same in both; pass it to batch score)")
	if err := parse(fset, args); err != nil {
		return err
	}
	if *name == "" || *out == "" {
		return usageError("batch prepare needs --model NAME and --out FILE")
	}
	if _, err := score.ParseMode(*state, score.Replay); err != nil {
		return usageError("batch prepare: %v", err)
	}
	cfg := run.Config{Form: *form, Levels: levels, Limit: *limit}
	if err := cfg.Validate(); err != nil {
		return usageError("batch prepare: %v", err)
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	text, err := run.BatchInput(context.Background(), r.do, cfg, model.Settings{Model: *name})
	if err != nil {
		return err
	}
	if err := outFolder(*out); err != nil {
		return err
	}
	if err := os.WriteFile(*out, text, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d requests written to %s\n", countLines(text), *out)
	if give := dataFlags(c); give != "" {
		// The input holds no record of its data: scored without these flags, it would be refused.
		fmt.Fprintf(stderr, "apibank: %s was prepared from %s and does not record it: give batch score %s too\n", *out, dataWords(c), give)
	}
	if *state != "" {
		// A sample's prompt holds the recorded results of earlier calls, not a world: the file is the
		// same in both modes, and the mode is the scorer's.
		fmt.Fprintf(stdout, "judge the answers in %s state: batch score --state %s\n", *state, *state)
	}
	if bad {
		return errBadInput
	}
	return nil
}

// dataFlags are the flags that named the data a command was given ("--seed 7", "--data DIR"; ""
// for the builtin data itself).
func dataFlags(c common) string {
	switch {
	case c.data != "":
		return "--data " + c.data
	case c.seed.Seed != 0:
		return "--seed " + strconv.FormatInt(c.seed.Seed, 10)
	}
	return ""
}

// dataWords names the data a command was given: the folder of --data, or the builtin data or its
// variant (dataName).
func dataWords(c common) string {
	if c.data != "" {
		return "the folder " + c.data
	}
	return dataName(c.seed.Seed)
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// cmdBatchScore scores a provider's batch output as `run` scores the same answers live.
func cmdBatchScore(args []string, stdout, stderr io.Writer) error {
	fset := flag.NewFlagSet("batch score", flag.ContinueOnError)
	var c common
	c.register(fset, true)
	input := fset.String("input", "", "the batch input file (as batch prepare wrote it)")
	output := fset.String("output", "", "the provider's output file")
	errs := fset.String("errors", "", "the provider's error file, if it gave one")
	out := fset.String("out", "", "write the predictions here as JSONL (the format score --preds reads)")
	state := fset.String("state", "", "fresh or replay (default: the data's)")
	if err := parse(fset, args); err != nil {
		return err
	}
	if *input == "" || *output == "" {
		return usageError("batch score needs --input FILE and --output FILE")
	}
	read := func(name string) (run.BatchFile, error) {
		if name == "" {
			return run.BatchFile{}, nil
		}
		b, err := os.ReadFile(name)
		return run.BatchFile{Name: name, Data: b}, err
	}
	in, err := read(*input)
	if err != nil {
		return err
	}
	outF, err := read(*output)
	if err != nil {
		return err
	}
	errF, err := read(*errs)
	if err != nil {
		return err
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	res, lineErrs, err := run.ScoreBatch(context.Background(), r.do, in, outF, errF, *state, nil)
	for _, le := range lineErrs {
		fmt.Fprintln(stderr, le.Error())
	}
	if err != nil {
		return err
	}
	if *out != "" {
		if err := writeBatchPreds(r, c, res, in.Data, *out); err != nil {
			return err
		}
	}
	for _, f := range res.Failures {
		fmt.Fprintf(stderr, "%s/%s#%d: request failed (status %d): %s\n", f.Level, f.File, f.ID, f.Status, f.Message)
	}
	if c.json {
		writeJSON(stdout, Summary(res))
	} else {
		printRun(stdout, res)
	}
	if bad || len(lineErrs) > 0 || len(res.Failures) > 0 {
		return errBadInput
	}
	return nil
}

// writeBatchPreds writes the predictions of a scored batch to path, in the format score --preds
// reads, and beside them (run.RecordPath) the record of the data they were judged on, as apibank
// run records a run (batchRecord): score and compare then judge them on the same data without
// being told (recordOf), where a file with no record would be judged on the builtin data.
func writeBatchPreds(r runner, c common, res *run.Result, input []byte, path string) error {
	if err := outFolder(path); err != nil {
		return err
	}
	rec, err := batchRecord(r, c, res, input, filepath.Base(path))
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, run.OutJSONL(res.Predictions, res.Episodes), 0o644); err != nil {
		return err
	}
	return writeRecord(path, rec)
}

// batchRecord is the run record (run.Record, Source run.SourceBatch) of a scored batch whose
// predictions file is named file: the data the answers were judged on (its seed and its hash), the
// model the input asked, the form, levels and state they were judged in, the tokens and the
// requests that failed. A batch has no endpoint and no times of its own: those are left empty.
func batchRecord(r runner, c common, res *run.Result, input []byte, file string) (run.Record, error) {
	info := run.Info{Model: batchModel(input), Form: res.Config.Form, Stream: false, Levels: res.Config.Levels, State: res.Config.State,
		Trials: 1, TokensIn: res.TokensIn, TokensOut: res.TokensOut, Encoder: run.EncoderVersion, Engine: r.build,
		Source: run.SourceBatch, Seed: c.seed.Seed}
	var err error
	if info.DataHash, err = run.DataHash(context.Background(), r.do, info.Levels, nil); err != nil {
		return run.Record{}, err
	}
	trial := run.RecordTrial{File: file, Seed: c.seed.Seed, Failures: append([]run.Failure{}, res.Failures...)}
	return run.Record{Format: run.RecordFormat, Run: info, Trials: []run.RecordTrial{trial}}, nil
}

// batchModel is the model a batch input's requests name (its first request's), "" when none does.
func batchModel(input []byte) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(input), []byte("\n"))
	var in struct {
		Body struct {
			Model string `json:"model"`
		} `json:"body"`
	}
	_ = json.Unmarshal(line, &in)
	return in.Body.Model
}
