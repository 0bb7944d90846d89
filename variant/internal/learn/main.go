// Command learn writes variant/builtin.learned from the dataset/builtin folder: what variant.Make
// finds in the builtin data before it draws (see variant.Learn). `go generate ./variant` runs it
// after the data is edited (make does, with the pack); a test fails when the file is stale.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/variant"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: learn DIR OUT")
		os.Exit(2)
	}
	files, err := dataset.ReadFS(os.DirFS(os.Args[1]), ".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "learn:", err)
		os.Exit(1)
	}
	b, err := variant.Learn(files)
	if err != nil {
		fmt.Fprintln(os.Stderr, "learn:", err)
		os.Exit(1)
	}
	if old, err := os.ReadFile(os.Args[2]); err == nil && bytes.Equal(old, b) {
		return
	}
	if err := os.WriteFile(os.Args[2], b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "learn:", err)
		os.Exit(1)
	}
}
