//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main refuses to run natively: this program is the Cloudflare Worker, built for GOOS=js. The
// native server with the same API is cmd/server.
func main() {
	fmt.Fprintln(os.Stderr, "worker: this is the Cloudflare Worker; build it with `make worker` and run it with `cd worker && npx wrangler dev` (cmd/server serves the same natively)")
	os.Exit(2)
}
