package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/synth"
)

// Files `apibank synth` writes in --out beside the dataset folder.
const (
	funnelFile   = "funnel.json"
	trainingFile = "training.jsonl"
)

// cmdSynth generates verified dialogues with a model, as the Synthesize page does.
func cmdSynth(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	var endpoint endpointFlags
	endpoint.register(fs)
	style := fs.String("style", "", "simple, multiple, parallel, parallel-multiple, or a special case (missing_value, no_tool, ambiguous, wrong_value)")
	count := fs.Int("count", 0, "how many candidates to ask for")
	toolList := fs.String("tools", "", "comma-separated tools the candidates may call (default: any)")
	seeds := fs.Int("seeds", 0, fmt.Sprintf("seed examples in the prompt (default %d; -1 none)", synth.DefaultSeeds))
	out := fs.String("out", "", "folder to write the dataset, "+funnelFile+" and "+trainingFile+" into (new or empty)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if !endpoint.given() || *out == "" || *style == "" || *count == 0 {
		return usageError("synth needs --base-url URL, --model NAME, --style S, --count N and --out DIR")
	}
	settings := endpoint.settings()
	if err := settings.Validate(); err != nil {
		return usageError("synth: %v", err)
	}
	cfg := synth.Config{Style: *style, Count: *count, Seeds: *seeds}
	for _, t := range strings.Split(*toolList, ",") {
		if t = strings.TrimSpace(t); t != "" {
			cfg.Tools = append(cfg.Tools, t)
		}
	}
	if err := cfg.Validate(); err != nil {
		return usageError("synth: %v", err)
	}
	if entries, err := os.ReadDir(*out); err == nil && len(entries) > 0 {
		return usageError("synth: --out %s is not empty (it would mix with another dataset)", *out)
	}
	r, bad, err := start(c, stderr)
	if err != nil {
		return err
	}
	defer r.close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var opt synth.Options
	if isTerminal(stderr) {
		opt.Progress = func(p synth.Progress) {
			fmt.Fprintf(stderr, "\r%d/%d candidates, %d accepted   ", p.Done, p.Total, p.Accepted)
		}
	}
	o, err := synth.Run(ctx, r.do, model.New(settings), cfg, opt)
	if opt.Progress != nil {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return err
	}
	files, err := synth.Dataset(context.Background(), r.do, o)
	if err != nil {
		return err
	}
	training, err := synth.Training(context.Background(), r.do, o)
	if err != nil {
		return err
	}
	report, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return err
	}
	files[funnelFile] = string(report) + "\n"
	files[trainingFile] = string(training)
	if err := writeFolder(*out, files); err != nil {
		return err
	}
	if c.json {
		writeJSON(stdout, o.Funnel)
	} else {
		o.Funnel.Write(stdout)
		fmt.Fprintf(stdout, "wrote %d dialogues to %s (and %s, %s)\n", o.Funnel.Accepted, *out, funnelFile, trainingFile)
	}
	if bad || o.Funnel.RequestsFailed > 0 || o.Cancelled {
		return errBadInput
	}
	return nil
}

// writeFolder writes files (slash paths) under dir, making the folders.
func writeFolder(dir string, files map[string]string) error {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			return err
		}
	}
	return nil
}
