package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// levelsFlag collects repeated --level flags, each a level's folder name or its number
// (run.LevelNamed); a level named twice is asked once.
type levelsFlag []string

func (l *levelsFlag) String() string { return fmt.Sprint(*l) }
func (l *levelsFlag) Set(v string) error {
	level, ok := run.LevelNamed(v)
	if !ok {
		return run.UnknownLevel(v)
	}
	if !slices.Contains(*l, level) {
		*l = append(*l, level)
	}
	return nil
}

// levelFlag is a --level flag given once: a level's folder name or its number (run.LevelNamed).
type levelFlag string

func (l *levelFlag) String() string { return string(*l) }
func (l *levelFlag) Set(v string) error {
	level, ok := run.LevelNamed(v)
	if !ok {
		return run.UnknownLevel(v)
	}
	*l = levelFlag(level)
	return nil
}

// endpointFlags are the flags that name a model endpoint, shared by run and synth.
type endpointFlags struct {
	baseURL, name, keyEnv *string
	timeout               *time.Duration
	maxAnswer             *int
}

func (e *endpointFlags) register(fs *flag.FlagSet) {
	e.baseURL = fs.String("base-url", "", "the endpoint's OpenAI-compatible root, e.g. https://api.openai.com/v1")
	e.name = fs.String("model", "", "the model's name at the endpoint")
	e.keyEnv = fs.String("api-key-env", "OPENAI_API_KEY", "environment variable holding the API key (the key is never a flag)")
	e.timeout = fs.Duration("timeout", model.DefaultTimeout, "time limit of one model request (an answer still coming then is cut and judged wrong)")
	e.maxAnswer = fs.Int("max-answer-bytes", model.DefaultMaxResponseBytes, "size limit of one answer (an answer over it is cut and judged wrong)")
}

// given says whether both the base URL and the model are named.
func (e *endpointFlags) given() bool { return *e.baseURL != "" && *e.name != "" }

// settings are the model settings the flags say, the key read from the environment variable.
func (e *endpointFlags) settings() model.Settings {
	return model.Settings{BaseURL: *e.baseURL, Model: *e.name, APIKey: os.Getenv(*e.keyEnv), Timeout: *e.timeout, MaxResponseBytes: *e.maxAnswer}
}

// cmdRun evaluates a model at an OpenAI-compatible endpoint with the same loop the tab runs.
func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	var endpoint endpointFlags
	endpoint.register(fs)
	form := fs.String("form", run.Text, "text (the original's format) or native (tool calling)")
	var levels levelsFlag
	fs.Var(&levels, "level", "a level to run (repeatable; default every level)")
	concurrency := fs.Int("concurrency", run.DefaultConcurrency, "model requests in flight at once")
	limit := fs.Int("limit", 0, "run only the first N samples (and scenes) of each level")
	steps := fs.Int("steps", run.DefaultSteps, "the most answers a model gives in a level-3 episode (an answer may make several calls)")
	state := fs.String("state", "", "fresh or replay (default: the data's)")
	stream := fs.Bool("stream", false, "ask for streamed answers (server-sent events)")
	out := fs.String("out", "", "write the predictions (and level-3 episodes) here as JSONL")
	trials := fs.Int("trials", 1, "run N times: pass^k and the spread per level (each trial's predictions in FILE.trial-I.jsonl)")
	variants := fs.Int("variants", 0, "also ask every sample in N variants of the builtin data (seeds 1 to N) and once more unchanged: robustness per level (predictions in FILE.variant-S.jsonl and FILE.rerun.jsonl)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if !endpoint.given() || *out == "" {
		return usageError("run needs --base-url URL, --model NAME and --out FILE")
	}
	if *trials < 1 || *trials > run.MaxTrials {
		return usageError("run: --trials must be between 1 and %d, not %d", run.MaxTrials, *trials)
	}
	if *variants < 0 || *variants > run.MaxVariants {
		return usageError("run: --variants must be between 0 and %d, not %d", run.MaxVariants, *variants)
	}
	if *variants > 0 && (*trials > 1 || c.seed.Seed != 0 || c.data != "") {
		return usageError("run: --variants asks the builtin data and its variants once each: it cannot go with --trials, --seed or --data")
	}
	settings := endpoint.settings()
	settings.Stream = *stream
	if err := settings.Validate(); err != nil {
		return usageError("run: %v", err)
	}
	cfg := run.Config{Form: *form, Levels: levels, State: *state, Concurrency: *concurrency, Limit: *limit, Steps: *steps}
	if err := cfg.Validate(); err != nil {
		return usageError("run: %v", err)
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var opt run.Options
	if isTerminal(stderr) {
		opt.Progress = func(p run.Progress) {
			fmt.Fprintf(stderr, "\r%d/%d done, %d failed, calls right %d/%d, tokens %d in %d out, %s   ", p.Done, p.Total, p.Failed, p.Correct, p.Judged, p.TokensIn, p.TokensOut, p.Elapsed.Round(time.Second))
		}
	}
	client := model.New(settings)
	record := run.Record{Format: run.RecordFormat, Run: run.Info{Model: settings.Model, Host: endpointHost(settings.BaseURL), Form: cfg.Form,
		Stream: settings.Stream, Temperature: settings.Temperature, Levels: run.LevelsOf(cfg), Limit: cfg.Limit, State: cfg.State, Steps: cfg.Steps,
		Started: time.Now().UTC().Format(time.RFC3339), Encoder: run.EncoderVersion, Engine: r.build, Source: "cli", Seed: c.seed.Seed, Variants: *variants}}
	if record.Run.DataHash, err = run.DataHash(ctx, r.do, record.Run.Levels, nil); err != nil {
		return err
	}
	var results []*run.Result
	failed, cancelled, stopped := false, false, false
	// ended says why no further pass or trial is run: the last one was cancelled, or stopped asking
	// an unusable endpoint (which the next would only find again); "" to go on.
	ended := func() string {
		switch {
		case cancelled:
			return "cancelled"
		case stopped:
			return "stopped asking the endpoint"
		}
		return ""
	}
	// pass asks every sample once, its predictions going to path as they come, in the run's order,
	// and not kept: the run's memory grows with --concurrency, not with the samples.
	pass := func(path string, seed int64) (*run.Result, error) {
		if err := outFolder(path); err != nil {
			return nil, err
		}
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		w := bufio.NewWriterSize(f, 64<<10)
		opt.Out = w
		res, err := run.Run(ctx, r.do, client, cfg, opt)
		if opt.Progress != nil {
			fmt.Fprintln(stderr)
		}
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		notAsked := 0
		for _, f := range res.Failures {
			if f.NotAsked {
				notAsked++
				continue
			}
			fmt.Fprintf(stderr, "%s/%s#%d: request failed (status %d): %s\n", f.Level, f.File, f.ID, f.Status, f.Message)
		}
		if res.StoppedAsking != "" {
			fmt.Fprintf(stderr, "apibank: run: %s: the %d other samples were not asked; check --base-url and that its server runs\n", res.StoppedAsking, notAsked)
		}
		failed = failed || len(res.Failures) > 0
		cancelled = res.Cancelled
		stopped = stopped || res.StoppedAsking != ""
		record.Trials = append(record.Trials, run.RecordTrial{File: filepath.Base(path), Seed: seed, Failures: append([]run.Failure{}, res.Failures...)})
		record.Run.Trials = len(record.Trials)
		record.Run.TokensIn += res.TokensIn
		record.Run.TokensOut += res.TokensOut
		record.Run.Ended = time.Now().UTC().Format(time.RFC3339)
		return res, writeRecord(*out, record)
	}
	if *variants > 0 {
		return robustnessRun(r, c, stdout, stderr, *out, *variants, pass, ended, func() bool { return bad || failed })
	}
	for i := 1; i <= *trials && ended() == ""; i++ {
		res, err := pass(trialPath(*out, i, *trials), c.seed.Seed)
		if err != nil {
			return err
		}
		results = append(results, res)
	}
	if *trials == 1 {
		if c.json {
			writeJSON(stdout, Summary(results[0]))
		} else {
			printRun(stdout, results[0])
		}
	} else {
		stats := run.Trials(results)
		if c.json {
			t := trialsSummary{PassK: stats}
			for _, res := range results {
				t.Trials = append(t.Trials, Summary(res))
			}
			writeJSON(stdout, t)
		} else {
			for i, res := range results {
				fmt.Fprintf(stdout, "== trial %d of %d (%s)\n", i+1, *trials, trialPath(*out, i+1, *trials))
				printRun(stdout, res)
			}
			cut := ""
			if len(results) < *trials {
				cut = ended()
			}
			printTrials(stdout, stats, cut)
		}
	}
	if bad || failed || cancelled {
		return errBadInput
	}
	return nil
}

// writeRecord writes the run's record beside its predictions (run.RecordPath), whole or not at all.
func writeRecord(out string, rec run.Record) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	path := run.RecordPath(out)
	tmp := path + ".part"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// endpointHost is the host of an endpoint's base URL (the record keeps no full URL).
func endpointHost(base string) string {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return ""
	}
	return u.Host
}

// trialPath is where trial i of n writes its predictions: the --out file itself for a single
// trial, else the file with ".trial-I" before its extension (runs.jsonl → runs.trial-2.jsonl).
func trialPath(out string, i, n int) string {
	if n == 1 {
		return out
	}
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + ".trial-" + strconv.Itoa(i) + ext
}

// trialsSummary is what `run --trials N --json` prints (N > 1): each trial as `run --json` prints
// it, then pass^k and the spread per level.
type trialsSummary struct {
	Trials []runSummary     `json:"trials"`
	PassK  []run.TrialStats `json:"pass_k"`
}

// printTrials writes the repeated-trials table: pass^k for every k, and each level's accuracy
// spread over the trials; cut, when not "", says why a trial was not run.
func printTrials(w io.Writer, stats []run.TrialStats, cut string) {
	if len(stats) == 0 {
		fmt.Fprintln(w, "repeated trials: nothing was judged")
		return
	}
	fmt.Fprintf(w, "== repeated trials: %d (pass^k: the chance that k trials of a task all succeed; flip rate: that two trials judge it differently; tasks are call samples and level-3 episodes)\n", stats[0].Trials)
	if cut != "" {
		fmt.Fprintln(w, cut+": only the trials that ran are counted")
	}
	for _, st := range stats {
		fmt.Fprintf(w, "%-22s tasks %d", st.Level, st.Tasks)
		for k, p := range st.PassK {
			fmt.Fprintf(w, "  pass^%d %.4f", k+1, p)
		}
		fmt.Fprintf(w, "\n%-22s accuracy mean %.4f ± %.4f (sd), min %.4f, max %.4f; flip rate %.4f", "", st.Mean, st.StdDev, st.Min, st.Max, st.FlipRate)
		if st.LeftOut > 0 {
			fmt.Fprintf(w, "; %d tasks left out (a request failed in some trial)", st.LeftOut)
		}
		fmt.Fprintln(w)
	}
}

// runSummary is what `run --json` prints: the report as `score --json` prints it, with the
// episodes, the failed requests and the tokens.
type runSummary struct {
	Report    *protocol.Report `json:"report"`
	Episodes  []episodeSummary `json:"episodes"`
	Failed    int              `json:"failed_requests"`
	TokensIn  int              `json:"tokens_in"`
	TokensOut int              `json:"tokens_out"`
	Cancelled bool             `json:"cancelled,omitempty"`
	// Cut counts the answers over a limit (judged wrong) and states the limits.
	Cut run.CutCount `json:"cut_answers"`
}

type episodeSummary struct {
	File    string            `json:"file"`
	Stopped string            `json:"stopped"`
	Outcome *protocol.Outcome `json:"outcome"`
}

// Summary is a run's result as `run --json` prints it.
func Summary(res *run.Result) runSummary {
	s := runSummary{Failed: len(res.Failures), TokensIn: res.TokensIn, TokensOut: res.TokensOut, Cancelled: res.Cancelled, Episodes: []episodeSummary{}, Cut: res.Cut}
	if res.Batch != nil {
		s.Report = res.Batch.Report
	}
	for _, ep := range res.Episodes {
		s.Episodes = append(s.Episodes, episodeSummary{File: ep.File, Stopped: ep.Stopped, Outcome: ep.Outcome})
	}
	return s
}

// printEpisodes writes the line that sums up level-3 episodes (nothing when there are none).
func printEpisodes(w io.Writer, episodes []run.Episode) {
	if ep := run.SumEpisodes(episodes); ep.Episodes > 0 {
		fmt.Fprintf(w, "level-3 episodes: %d, success %d (%.1f%%), world match %d, milestone credit %.4f\n", ep.Episodes, ep.Success, pct(ep.Success, ep.Episodes), ep.WorldMatch, ep.Milestone)
	}
}

func printRun(w io.Writer, res *run.Result) {
	if res.Batch != nil {
		printReport(w, res.Batch.Report)
	}
	printEpisodes(w, res.Episodes)
	printCut(w, res.Cut)
	fmt.Fprintf(w, "%d requests failed; tokens %d in, %d out\n", len(res.Failures), res.TokensIn, res.TokensOut)
	if res.Cancelled {
		fmt.Fprintln(w, "cancelled: the finished samples are kept")
	}
}

// printCut writes the line that counts the answers cut at a limit (nothing when none was).
func printCut(w io.Writer, c run.CutCount) {
	if c.Size == 0 && c.Timeout == 0 {
		return
	}
	fmt.Fprintf(w, "answers over a limit, cut and judged wrong: %d over %s, %d still coming at the %s time limit\n", c.Size, orLimit(c.SizeLimit, "the size limit"), c.Timeout, orLimit(c.TimeLimit, "request's"))
}

func orLimit(limit, none string) string {
	if limit == "" {
		return none
	}
	return limit
}

// cmdPrompts writes every single-request sample's request body as JSONL, so any model anywhere
// can answer it.
func cmdPrompts(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("prompts", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	form := fs.String("form", run.Text, "text or native")
	name := fs.String("model", run.DefaultPromptModel, "the model named in each request body")
	var levels levelsFlag
	fs.Var(&levels, "level", "a level (repeatable; default every level)")
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg := run.Config{Form: *form, Levels: levels}
	if err := cfg.Validate(); err != nil {
		return usageError("prompts: %v", err)
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	text, err := run.Prompts(context.Background(), r.do, cfg, model.Settings{Model: *name})
	if err != nil {
		return err
	}
	if _, err := stdout.Write(text); err != nil {
		return err
	}
	if bad {
		return errBadInput
	}
	return nil
}

// isTerminal reports whether w is a terminal (a character device), where a progress line belongs.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
