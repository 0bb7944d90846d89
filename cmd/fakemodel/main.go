// Command fakemodel serves a scripted OpenAI-compatible endpoint (internal/fakemodel) for the
// browser suite and for trying the CLI without a real model.
//
//	fakemodel [--addr 127.0.0.1:0] [--script FILE]
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
	"syscall"

	"github.com/apibank-playground/apibank/internal/fakemodel"
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
	if err := fs.Parse(args); err != nil {
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
