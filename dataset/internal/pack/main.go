// Command pack writes dataset/builtin.pack from the dataset/builtin folder: the builtin data as the
// engine embeds it (see dataset.Pack), and dataset/builtin.stats, its counts (see dataset.Stats).
// Run it with `go generate ./dataset` after editing the data; a test fails when either is stale.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/apibank-playground/apibank/dataset"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: pack DIR PACK STATS")
		os.Exit(2)
	}
	files, err := dataset.ReadFS(os.DirFS(os.Args[1]), ".")
	if err != nil {
		fail(err)
	}
	var b bytes.Buffer
	if err := dataset.Pack(&b, files); err != nil {
		fail(err)
	}
	stats, err := dataset.StatsText(files)
	if err != nil {
		fail(err)
	}
	write(os.Args[2], b.Bytes())
	write(os.Args[3], stats)
}

// write writes b to path unless path holds it already: an unchanged file keeps its date.
func write(path string, b []byte) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pack:", err)
	os.Exit(1)
}
