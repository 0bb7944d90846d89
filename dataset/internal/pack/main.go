// Command pack writes dataset/builtin.pack from the dataset/builtin folder: the builtin data as the
// engine embeds it (see dataset.Pack). Run it with `go generate ./dataset` after editing the data;
// a test fails when the pack is stale.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/apibank-playground/apibank/dataset"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: pack DIR OUT")
		os.Exit(2)
	}
	files, err := dataset.ReadFS(os.DirFS(os.Args[1]), ".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
	var b bytes.Buffer
	if err := dataset.Pack(&b, files); err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
	if old, err := os.ReadFile(os.Args[2]); err == nil && bytes.Equal(old, b.Bytes()) {
		return
	}
	if err := os.WriteFile(os.Args[2], b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
}
