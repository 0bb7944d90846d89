// Command wasmsize prints a WebAssembly module's size profile: its sections, then the code each Go
// package contributes (bytes and gzip estimate), largest first, with subtotals for this module's
// own packages, the standard library and other modules. `make sizes` runs it on the unstripped
// builds of app.wasm and engine.wasm.
//
//	go run ./cmd/wasmsize [-top N] module.wasm [more modules]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/apibank-playground/apibank/internal/wasmsize"
)

// ownModule is this repository's module path as the name section spells it (see
// wasmsize.PackageOf): its packages are subtotalled as "ours" and shown as "~/...".
const ownModule = "github.com_apibank_playground_apibank"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("wasmsize", flag.ContinueOnError)
	top := fs.Int("top", 40, "packages to list per module (the rest are summed in one line)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("usage: wasmsize [-top N] module.wasm [more modules]")
	}
	for _, path := range fs.Args() {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m, err := wasmsize.Parse(b)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		report(w, path, m, *top)
	}
	return nil
}

func report(w io.Writer, path string, m *wasmsize.Module, top int) {
	fmt.Fprintf(w, "%s: %d bytes, %d functions\n", path, m.Total, len(m.Funcs))
	secs := make([]string, 0, len(m.Sections))
	for s := range m.Sections {
		secs = append(secs, s)
	}
	sort.Slice(secs, func(a, b int) bool { return m.Sections[secs[a]] > m.Sections[secs[b]] })
	for _, s := range secs {
		fmt.Fprintf(w, "  section %-20s %10d\n", s, m.Sections[s])
	}
	pkgs := m.ByPackage()
	groups := map[string][2]int{}
	for _, p := range pkgs {
		g := group(p.Path)
		v := groups[g]
		groups[g] = [2]int{v[0] + p.Code, v[1] + p.Gzip}
	}
	fmt.Fprintf(w, "  code by origin (bytes, gzip of each package alone):\n")
	for _, g := range []string{"ours", "std", "others", "(other)"} {
		fmt.Fprintf(w, "    %-10s %10d %9d\n", g, groups[g][0], groups[g][1])
	}
	fmt.Fprintf(w, "  code by package:\n")
	rest := wasmsize.Package{Path: "(the rest)"}
	for i, p := range pkgs {
		if i >= top {
			rest.Funcs += p.Funcs
			rest.Code += p.Code
			rest.Gzip += p.Gzip
			continue
		}
		fmt.Fprintf(w, "    %10d %9d %5d  %s\n", p.Code, p.Gzip, p.Funcs, strings.Replace(p.Path, ownModule, "~", 1))
	}
	if rest.Funcs > 0 {
		fmt.Fprintf(w, "    %10d %9d %5d  %s (%d packages)\n", rest.Code, rest.Gzip, rest.Funcs, rest.Path, len(pkgs)-top)
	}
}

// group tells where a package comes from: this module, the standard library or another module.
func group(path string) string {
	switch {
	case strings.HasPrefix(path, "("):
		return "(other)"
	case path == ownModule || strings.HasPrefix(path, ownModule+"_"):
		return "ours"
	case strings.Contains(strings.SplitN(path, "_", 2)[0], "."):
		return "others"
	}
	return "std"
}
