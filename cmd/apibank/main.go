// Command apibank is the playground's command line: it replays gold calls, scores prediction files,
// computes ROUGE-L, validates and counts datasets. It runs the engine's WebAssembly module under
// wazero by default (the same bytes the browser runs); --native runs the same engine in-process, as
// does a CLI that finds no module (installed with go install, run outside the repository).
//
// Exit status: 0 ok, 1 bad input (each problem printed as file:line: what), 2 usage.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

const usage = `usage: apibank <command> [flags]

commands:
  replay   [--data DIR] [--seed S] [--state fresh|replay] [--form text|native] [--json]
           replay every gold call; per level: total, accepted
  score    [--data DIR] [--seed S] --preds FILE [--level L] [--state fresh|replay] [--out FILE] [--json]
           judge prediction JSONL {"level"?, "file", "id", "pred"}; a run's predictions are
           judged on the data its .run.json names (the variant of run --seed S) unless told
  rouge    --pairs FILE
           ROUGE-L F of JSONL {"ref", "hyp"} lines: {"f": x} or {"error": "..."} per line
  run      --base-url URL --model NAME --out FILE [--api-key-env VAR] [--level L]...
           [--form text|native] [--concurrency N] [--limit N] [--steps N] [--stream]
           [--timeout D] [--max-answer-bytes N] [--trials N] [--variants N] [--data DIR] [--seed S]
           [--state fresh|replay] [--json]
           evaluate a model at an OpenAI-compatible endpoint: predictions (and level-3
           episodes) to FILE as they come, the run's settings and failed requests to FILE's
           .run.json, the report to stdout; an answer over --max-answer-bytes (1 MiB) or still
           coming at --timeout is cut and judged wrong; the key is read from $OPENAI_API_KEY
           (or --api-key-env), never from a flag; --variants N asks every sample in the builtin
           data, in its variants of seeds 1 to N and once more unchanged, and reports the
           robustness per level
  submit   RUN.jsonl --board URL [--json] [--timeout D]
           send a run (as run --out wrote it, with its .run.json) to a board, which judges it
           again with its own engine: the entry's scores, its page and its owner key (printed
           once) to stdout
  retract  ID --board URL
           retract a board entry; the owner key is read from $APIBANK_OWNER_KEY
  synth    --base-url URL --model NAME --style S --count N --out DIR [--tools A,B]
           [--seeds N] [--api-key-env VAR] [--timeout D] [--max-answer-bytes N] [--data DIR]
           [--seed S] [--json]
           generate verified dialogues with a model: each candidate passes format,
           execution, grounding, duplicate and judge stages; the accepted ones go to DIR as
           a dataset folder, with funnel.json and training.jsonl; the funnel to stdout;
           the seed examples and the world are --data's or --seed's (--seeds N is another flag)
  prompts  [--data DIR] [--seed S] [--level L]... [--form text|native] [--model NAME]
           every single-request sample (level-3 step samples included) as the exact
           chat-completions request body a run sends, one JSON line each (model MODEL
           unless --model names one)
  batch prepare --model NAME --out FILE [--level L]... [--form text|native] [--state fresh|replay] [--limit N] [--data DIR] [--seed S]
           a batch input file (OpenAI Batch API): {"custom_id","method","url","body"} per
           single-request sample, the body what a run sends; the file records no seed: give
           batch score the --seed or --data it was prepared with
  batch score --input FILE --output FILE [--errors FILE] [--out PREDS] [--data DIR] [--seed S]
           [--state fresh|replay] [--json]
           score a provider's batch output (and error) file as apibank run scores the same
           answers: the report to stdout, the predictions to PREDS and the data they were
           judged on to PREDS's .run.json (as run records it, so score judges them alike);
           give the --seed or --data the input was prepared with (an input of other data is
           refused, naming its first request that differs)
  compare  A.jsonl B.jsonl [--data DIR] [--seed S] [--level L] [--state fresh|replay] [--json]
           two runs' prediction files (as run --out writes them) compared on the samples
           both answered: per level the samples right in one run and wrong in the other, the
           exact McNemar test's p, a sentence, each run's accuracy and the smallest difference
           the comparison could detect; a run's trials (FILE.trial-I.jsonl) give the flip rate;
           runs are judged on the data their .run.json names, as score does
  validate [--data DIR] [--seed S] [--json]
           verify a dataset: format, execution (gold calls reproduce their results), grounding
           (argument values come from the dialogue), and for the builtin data (or a variant)
           coverage
  dataset stats [--data DIR] [--seed S] [--json]
           counts of a dataset
  dataset fill [--data DIR] [--seed S] FILE...
           write the results of draft dialogues' gold calls (result: null) by running them in
           order in the world of DIR or of the variant S (default: builtin); FILEs are in
           level-1-given-desc/, level-2-toolsearcher/ (JSONL) or level-3/ (JSON scenes)
           folders; rewritten in place

common flags: --native (run in-process instead of under wazero), --wasm PATH (the engine module;
else $APIBANK_WASM, web/engine.wasm, engine.wasm beside this executable or in the user's cache
folder under apibank/; where there is none the engine built into the CLI judges, with the same verdicts);
--seed S (wherever --data is taken, never with it) uses the variant of the builtin data that S names
(a whole number from 1 to 9007199254740991, in decimal digits without a sign or leading zeros):
its names, numbers, dates and texts redrawn, its gold calls with them, the same bytes on every host;
--seed 0 is the builtin data itself (as leaving --seed out, but said: score then refuses a variant's run)
--data DIR is a folder in the original layout (lv1-lv2-samples/, lv3-samples/, init_database/);
without it the project's own builtin data is used.
`

// exitError carries an exit status, and for a usage error (code 2) the command it was met in.
type exitError struct {
	code int
	msg  string
	cmd  string
}

func (e *exitError) Error() string { return e.msg }

func usageError(format string, a ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, a...)}
}

// errBadInput marks a run that finished but met bad input (already reported on stderr).
var errBadInput = &exitError{code: 1}

func main() {
	err := cli(os.Args[1:], os.Stdout, os.Stderr)
	if err == nil {
		return
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(os.Stderr, "apibank:", ee.msg)
		}
		if ee.code == 2 {
			fmt.Fprint(os.Stderr, helpFor(ee.cmd))
		}
		os.Exit(ee.code)
	}
	fmt.Fprintln(os.Stderr, "apibank:", err)
	os.Exit(1)
}

// common are the flags every command takes.
type common struct {
	native bool
	wasm   string
	data   string
	seed   protocol.SeedFlag
	json   bool
}

func (c *common) register(fs *flag.FlagSet, data bool) {
	fs.BoolVar(&c.native, "native", false, "run the engine in-process instead of under wazero")
	fs.StringVar(&c.wasm, "wasm", "", "path of the engine module (default: $APIBANK_WASM, web/engine.wasm, beside the executable, the user's cache)")
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if data {
		fs.StringVar(&c.data, "data", "", "folder in the original layout (default: builtin data)")
		fs.Var(&c.seed, "seed", "use the variant of the builtin data this seed names ("+protocol.SeedRule+")")
	}
}

func cli(args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	if len(args) == 0 {
		return usageError("no command")
	}
	err = dispatch(args[0], args[1:], stdout, stderr)
	if err == errHelp {
		fmt.Fprint(stdout, helpFor(commandOf(args)))
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.code == 2 && ee != errHelp {
		ee.cmd = commandOf(args)
	}
	return err
}

// commandOf names the command args ask for: its word, and a subcommand's ("batch score").
func commandOf(args []string) string {
	if len(args) > 1 && (args[0] == "batch" || args[0] == "dataset") && !strings.HasPrefix(args[1], "-") {
		return args[0] + " " + args[1]
	}
	return args[0]
}

// helpFor is the usage of one command (every command's of a word such as "batch"), with the flags
// every command takes: what a usage error of that command, or its -h, prints, rather than every
// command's, which pushed the error itself off a terminal's screen. A name usage does not have, or
// none, gets the whole usage.
func helpFor(cmd string) string {
	var section []string
	lines := strings.Split(usage, "\n")
	for i := 0; i < len(lines) && cmd != ""; i++ {
		if l := lines[i]; strings.HasPrefix(l, "  "+cmd+" ") || l == "  "+cmd {
			section = append(section, l)
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "           ") {
				i++
				section = append(section, lines[i])
			}
		}
	}
	common := strings.Index(usage, "common flags:")
	if len(section) == 0 || common < 0 {
		return usage
	}
	return "usage:\n" + strings.Join(section, "\n") + "\n\n" + usage[common:] + "apibank help lists every command.\n"
}

// dispatch runs one command.
func dispatch(cmd string, rest []string, stdout, stderr io.Writer) error {
	switch cmd {
	case "replay":
		return cmdReplay(rest, stdout, stderr)
	case "score":
		return cmdScore(rest, stdout, stderr)
	case "rouge":
		return cmdRouge(rest, stdout, stderr)
	case "validate":
		return cmdValidate(rest, stdout, stderr)
	case "run":
		return cmdRun(rest, stdout, stderr)
	case "prompts":
		return cmdPrompts(rest, stdout, stderr)
	case "compare":
		return cmdCompare(rest, stdout, stderr)
	case "submit":
		return cmdSubmit(rest, stdout, stderr)
	case "retract":
		return cmdRetract(rest, stdout, stderr)
	case "synth":
		return cmdSynth(rest, stdout, stderr)
	case "batch":
		switch {
		case len(rest) > 0 && rest[0] == "prepare":
			return cmdBatchPrepare(rest[1:], stdout, stderr)
		case len(rest) > 0 && rest[0] == "score":
			return cmdBatchScore(rest[1:], stdout, stderr)
		}
		return usageError("batch needs a subcommand: prepare or score")
	case "dataset":
		switch {
		case len(rest) > 0 && rest[0] == "stats":
			return cmdStats(rest[1:], stdout, stderr)
		case len(rest) > 0 && rest[0] == "fill":
			return cmdFill(rest[1:], stdout, stderr)
		}
		return usageError("dataset needs a subcommand: stats or fill")
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usageError("unknown command %q", cmd)
}

// errHelp ends a command that was asked for --help (the usage is printed, exit status 0).
var errHelp = &exitError{code: 0}

// parse reads the flags of a command that takes no other argument (parseFlags), and refuses flags
// that cannot go together (checkFlags).
func parse(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return checkFlags(fs)
}

// parseFlags reads args into fs, up to the first argument that is not a flag. A mistake is a
// usage error naming the command; a refused --seed says what a seed is (protocol.SeedRule) rather
// than the flag package's "parse error".
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if err == nil {
		return nil
	}
	if errors.Is(err, flag.ErrHelp) {
		return errHelp
	}
	if f := fs.Lookup("seed"); f != nil {
		if seed, ok := f.Value.(*protocol.SeedFlag); ok && seed.Problem("seed") != nil {
			err = seed.Problem("seed")
		}
	}
	return usageError("%s: %v", fs.Name(), err)
}

// checkFlags refuses, before anything is read or printed, flags that cannot go together: --seed S
// names a variant of the builtin data, which --data DIR is not.
func checkFlags(fs *flag.FlagSet) error {
	seed, data := fs.Lookup("seed"), fs.Lookup("data")
	if seed == nil || data == nil || seed.Value.String() == "0" || data.Value.String() == "" {
		return nil
	}
	return usageError("%s: --seed names a variant of the builtin data: it cannot go with --data", fs.Name())
}

func start(c common, stderr io.Writer) (runner, bool, error) {
	r, err := newRunner(c.native, c.wasm, c.data != "", stderr)
	if err != nil {
		return runner{}, false, err
	}
	bad, keepMemo, err := loadData(r, c.data, stderr)
	if err == nil && c.seed.Seed != 0 {
		err = loadVariant(r, c.seed.Seed, stderr)
	}
	if err != nil {
		r.close()
		return runner{}, false, err
	}
	closeEngine := r.close
	r.close = func() {
		keepMemo()
		closeEngine()
	}
	return r, bad, nil
}

func cmdReplay(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	state := fs.String("state", "", "fresh or replay (default: fresh for imported data, replay for the builtin)")
	form := fs.String("form", "", "how gold calls are written: text or native (default: native for the builtin data, text for imported)")
	if err := parse(fs, args); err != nil {
		return err
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	res, err := call[protocol.Replay](r, protocol.Request{Op: protocol.OpReplay, State: *state, Form: *form})
	if err != nil {
		return err
	}
	if c.json {
		writeJSON(stdout, res)
	} else {
		fmt.Fprintf(stdout, "data: %s  state: %s  form: %s\n", res.Data, res.State, res.Form)
		total, acc := 0, 0
		for _, l := range res.Levels {
			fmt.Fprintf(stdout, "%-22s total %4d  accepted %4d  (%.1f%%)\n", l.Level, l.Total, l.Accepted, pct(l.Accepted, l.Total))
			total += l.Total
			acc += l.Accepted
		}
		fmt.Fprintf(stdout, "%-22s total %4d  accepted %4d  (%.1f%%)\n", "all", total, acc, pct(acc, total))
	}
	if bad {
		return errBadInput
	}
	return nil
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func cmdScore(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	preds := fs.String("preds", "", "prediction JSONL file")
	var lineLevel levelFlag
	fs.Var(&lineLevel, "level", "level of lines without one: level-1-given-desc or level-2-toolsearcher (or 1, 2)")
	level := (*string)(&lineLevel)
	state := fs.String("state", "", "fresh or replay (default: fresh for imported data, replay for the builtin)")
	outPath := fs.String("out", "", "write one JSONL verdict per prediction line here (as they come)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *preds == "" {
		return usageError("score needs --preds FILE")
	}
	if _, err := dataOfRecords(fs, &c, []string{*preds}, stderr); err != nil {
		return err
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	if err := warnOtherData(r, *preds, stderr); err != nil {
		return err
	}
	var out io.Writer
	var outFile *os.File
	var outBuf *bufio.Writer
	if *outPath != "" {
		if err = outFolder(*outPath); err != nil {
			return err
		}
		if outFile, err = os.Create(*outPath); err != nil {
			return err
		}
		defer outFile.Close()
		outBuf = bufio.NewWriterSize(outFile, 256<<10)
		out = outBuf
	}
	rep, episodes, lineErrs, err := streamScore(r, *preds, *level, *state, out, stderr)
	if outBuf != nil {
		if ferr := outBuf.Flush(); err == nil {
			err = ferr
		}
		if cerr := outFile.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return err
	}
	switch {
	case c.json && len(episodes) > 0:
		// With level-3 episodes (a run's --out file), the summary run --json prints.
		writeJSON(stdout, Summary(&run.Result{Batch: &protocol.Batch{Report: rep}, Episodes: episodes}))
	case c.json:
		writeJSON(stdout, rep)
	default:
		printReport(stdout, rep)
		printEpisodes(stdout, episodes)
	}
	if bad || lineErrs > 0 {
		return errBadInput
	}
	return nil
}

func printReport(w io.Writer, r *protocol.Report) {
	if r == nil {
		return
	}
	fmt.Fprintf(w, "data: %s  state: %s\n", r.Data, r.State)
	fmt.Fprintf(w, "%-22s %6s %8s %9s %8s %8s\n", "level", "calls", "correct", "accuracy", "replies", "rouge-l")
	row := func(t protocol.Tally, name string) {
		fmt.Fprintf(w, "%-22s %6d %8d %8.1f%% %8d %8.4f\n", name, t.Calls, t.Correct, 100*t.Accuracy, t.Replies, t.RougeL)
	}
	for _, l := range r.Levels {
		row(l, l.Name)
	}
	row(r.Overall, "all")
	if r.Overall.Special > 0 {
		fmt.Fprintf(w, "special cases: %d of %d right\n", r.Overall.SpecialCorrect, r.Overall.Special)
	}
	var cats []string
	for _, c := range r.Categories {
		cats = append(cats, fmt.Sprintf("%s %d", c.Category, c.Count))
	}
	fmt.Fprintf(w, "categories: %s\n", strings.Join(cats, ", "))
	fmt.Fprintln(w, "per tool:")
	for _, t := range r.Tools {
		fmt.Fprintf(w, "  %-26s %4d/%-4d %6.1f%%\n", t.Name, t.Correct, t.Calls, 100*t.Accuracy)
	}
	for _, c := range r.Ceiling {
		fmt.Fprintf(w, "gold ceiling %s (%s, %s): %d/%d (%.1f%%)\n", c.Level, c.Form, r.State, c.Accepted, c.Total, pct(c.Accepted, c.Total))
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}

func cmdRouge(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rouge", flag.ContinueOnError)
	var c common
	c.register(fs, false)
	pairs := fs.String("pairs", "", "JSONL file of {\"ref\", \"hyp\"}")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *pairs == "" {
		return usageError("rouge needs --pairs FILE")
	}
	r, err := newRunner(c.native, c.wasm, false, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	bad, err := streamRouge(r, *pairs, stdout, stderr)
	if err != nil {
		return err
	}
	if bad > 0 {
		return errBadInput
	}
	return nil
}

func cmdStats(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dataset stats", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	if err := parse(fs, args); err != nil {
		return err
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	counts, err := call[protocol.Stats](r, protocol.Request{Op: protocol.OpStats})
	if err != nil {
		return err
	}
	if c.json {
		writeJSON(stdout, counts)
	} else {
		fmt.Fprintf(stdout, "dialogues %d, api calls %d, tools covered %d of %d, special cases %d\n", counts.Dialogues, counts.APICalls, counts.ToolsCovered, counts.ToolsTotal, counts.SpecialCases)
		for _, l := range []string{"1", "2", "3"} {
			fmt.Fprintf(stdout, "level %s: dialogues %d, api calls %d\n", l, counts.Levels[l].Dialogues, counts.Levels[l].APICalls)
		}
		fmt.Fprintf(stdout, "call turns by style (levels 1-2): %s\n", countList(protocol.Styles, counts.Styles))
		fmt.Fprintf(stdout, "special cases by kind: %s\n", countList(protocol.Specials, counts.Specials))
	}
	if bad {
		return errBadInput
	}
	return nil
}

func cmdFill(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dataset fill", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	names, err := parseFiles(fs, args)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return usageError("dataset fill needs files")
	}
	files := map[string][]byte{}
	for _, f := range names {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(f)] = b
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	parts, body := asParts(files)
	res, err := call[protocol.Filled](r, protocol.Request{Op: protocol.OpFill, Parts: parts, Body: body})
	if err != nil {
		return err
	}
	for _, e := range res.Errors {
		fmt.Fprintln(stderr, e.Error())
	}
	for p, text := range res.Files {
		if err := os.WriteFile(filepath.FromSlash(p), []byte(text), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "filled %d of %d files\n", len(res.Files), len(files))
	if bad || len(res.Errors) > 0 {
		return errBadInput
	}
	return nil
}

func cmdValidate(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	if err := parse(fs, args); err != nil {
		return err
	}
	r, _, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	rep, err := call[protocol.Validation](r, protocol.Request{Op: protocol.OpValidate})
	if err != nil {
		return err
	}
	if c.json {
		writeJSON(stdout, rep)
	} else {
		for _, f := range rep.Failures {
			fmt.Fprintf(stdout, "%s:%d: %s: %s\n", f.File, f.Line, f.Check, f.Why)
		}
		for _, k := range protocol.Checks {
			if t, ok := rep.Checks[k]; ok {
				fmt.Fprintf(stdout, "%-10s passed %5d  failed %4d\n", k, t.Passed, t.Failed)
			}
		}
		fmt.Fprintf(stdout, "ok: %v\n", rep.OK)
	}
	if !rep.OK {
		return errBadInput
	}
	return nil
}

// countList writes counts by name in the names' order: "a 1, b 0".
func countList(names []string, counts map[string]int) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, counts[n])
	}
	return strings.Join(parts, ", ")
}
