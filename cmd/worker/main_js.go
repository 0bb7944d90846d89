//go:build js && wasm

package main

import (
	"log/slog"
	"os"

	"github.com/syumai/workers"
)

// main serves one request (the glue starts a Go instance per request) and returns when its
// response is sent. Logs go to stdout, which the Workers runtime shows as console output.
func main() {
	logger := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	workers.Serve(newHandler(logger, apiHandler()))
}
