// Command fakemodel serves a scripted OpenAI-compatible endpoint (testkit/fakemodel) for the
// browser suite and for trying the CLI without a real model.
//
//	fakemodel [--addr 127.0.0.1:0] [--script FILE] [--gold DATA [--adversarial | --hostile all|B,B...] [--variants N] [--seed S]]
//
// With --gold it is the perfect model of a dataset (testkit/goldmodel): it recognises each request a
// run makes of the data's samples (DATA: builtin, or a folder as apibank --data reads it) and answers
// the sample's gold; with --adversarial, one bad behaviour per sample instead; with --hostile, one of
// goldmodel.Hostile's (all of them in turn, or those named: garbage, huge, cut, drop, deep, endless,
// trickle), the endpoint a run's memory and time bounds are measured against. The script's rules
// answer what it does not recognise, and their faults come first.
//
// Its first line on stdout is the base URL it serves (http://127.0.0.1:PORT/v1), so that a harness
// that started it on port 0 can read where it is. It runs until interrupted or terminated. The
// script (JSON, see fakemodel.Script) can be replaced while it runs: POST it to /_fake/script.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fakemodel:", err)
		os.Exit(1)
	}
}

// run serves until ctx ends or a signal comes.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("fakemodel", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (port 0: a free port)")
	scriptPath := fs.String("script", "", "script file (JSON); none: every request gets a no-rule error until a script is posted")
	gold := fs.String("gold", "", "answer every sample of this data with its gold (builtin, or a folder)")
	adversarial := fs.Bool("adversarial", false, "with --gold: answer each sample with one of goldmodel.Behaviours instead")
	hostile := fs.String("hostile", "", "with --gold: answer each sample with one of these behaviours in turn (all: "+strings.Join(goldmodel.Hostile, ",")+")")
	variants := fs.Int("variants", 0, "with --gold builtin: also answer the variants of the builtin data of seeds 1 to N with their gold")
	var seedFlag protocol.SeedFlag
	fs.Var(&seedFlag, "seed", "with --gold builtin: also answer the variant of the builtin data of this seed with its gold ("+protocol.SeedRule+")")
	seed := &seedFlag.Seed
	if err := fs.Parse(args); err != nil {
		if p := seedFlag.Problem("seed"); p != nil {
			return p
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	var script fakemodel.Script
	if *scriptPath != "" {
		s, err := fakemodel.LoadScript(*scriptPath)
		if err != nil {
			return err
		}
		script = s
	}
	srv, err := fakemodel.New(script)
	if err != nil {
		return err
	}
	if (*adversarial || *hostile != "") && *gold == "" {
		return fmt.Errorf("--adversarial and --hostile need --gold")
	}
	if *adversarial && *hostile != "" {
		return fmt.Errorf("--adversarial and --hostile: give one")
	}
	if (*variants != 0 || *seed != 0) && *gold != "builtin" {
		return fmt.Errorf("--variants and --seed need --gold builtin: a variant is one of the builtin data")
	}
	if *gold != "" {
		var behaviours []string
		switch {
		case *adversarial:
			behaviours = goldmodel.Behaviours
		case *hostile == "all":
			behaviours = goldmodel.Hostile
		case *hostile != "":
			behaviours = strings.Split(*hostile, ",")
		}
		m, err := goldmodel.LoadWith(*gold, behaviours)
		if err != nil {
			return err
		}
		seeds := make([]int64, 0, *variants+1)
		for s := int64(1); s <= int64(*variants); s++ {
			seeds = append(seeds, s)
		}
		if *seed != 0 {
			seeds = append(seeds, *seed)
		}
		if err := m.LearnVariants(seeds); err != nil {
			return err
		}
		srv.SetOracle(m)
	}
	if err := srv.Listen(*addr); err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintln(stdout, srv.URL())
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	return nil
}
