package docs

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// module is the import path every package of ours starts with.
const module = "github.com/apibank-playground/apibank"

// testModelsCommand may import the test models: it is their own command, a tool of the tests.
const testModelsCommand = "cmd/fakemodel"

// floors maps a folder (a path relative to the repository's root) to its floor; a folder names
// itself and every folder in it.
type floors map[string]int

// floorRow is a row of ARCHITECTURE.md's floors table: "| 3 data | `dataset` |".
var floorRow = regexp.MustCompile("^\\| (\\d+) [^|]*\\|((?: `[^`]+`)+) \\|$")

// readFloors reads the floors table from ARCHITECTURE.md, so the picture and this test agree.
func readFloors(t *testing.T) floors {
	t.Helper()
	text, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	f := floors{}
	for i, line := range strings.Split(string(text), "\n") {
		m := floorRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		for _, folder := range strings.Fields(strings.ReplaceAll(m[2], "`", "")) {
			if _, dup := f[folder]; dup {
				t.Errorf("ARCHITECTURE.md:%d: %s is on two floors", i+1, folder)
			}
			f[folder] = n
		}
	}
	if len(f) == 0 {
		t.Fatal("ARCHITECTURE.md has no floors table (rows like | 3 data | `dataset` |)")
	}
	return f
}

// place says which table entry holds a package (the longest folder that is it or contains it) and
// that entry's floor; ok is false when no entry does.
func (f floors) place(pkg string) (entry string, floor int, ok bool) {
	for p := pkg; ; {
		if n, found := f[p]; found {
			return p, n, true
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			return "", 0, false
		}
		p = p[:i]
	}
}

// imports maps each package (its folder) to the packages of ours its non-test files import, and to
// the files that import each, for the messages.
type imports map[string]map[string][]string

// problems lists every import that breaks the floors: one that goes up or sideways to another
// entry on the same floor, one of a package the table does not place, and one of the test models
// by a product package. Each says which file imports what.
func (f floors) problems(all imports) []string {
	var out []string
	for pkg, deps := range all {
		entry, floor, ok := f.place(pkg)
		if !ok {
			out = append(out, fmt.Sprintf("%s: not on any floor of ARCHITECTURE.md's table", pkg))
			continue
		}
		for dep, files := range deps {
			depEntry, depFloor, ok := f.place(dep)
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("%s imports %s, which is on no floor", files[0], dep))
			case depEntry == entry:
				// the same folder's tree: class/sqlite imports class
			case depEntry == "testkit" && pkg != testModelsCommand && entry != "testkit":
				out = append(out, fmt.Sprintf("%s imports the test model %s: only tests and %s may", files[0], dep, testModelsCommand))
			case depFloor >= floor:
				out = append(out, fmt.Sprintf("%s (floor %d) imports %s (floor %d): a package imports only lower floors", files[0], floor, dep, depFloor))
			}
		}
	}
	sort.Strings(out)
	return out
}

// readImports parses the import clauses of every non-test Go file of the module under root.
func readImports(t *testing.T, root string) imports {
	t.Helper()
	all := imports{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "node_modules" || name == "testdata" || name == "third_party" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if all[pkg] == nil {
			all[pkg] = map[string][]string{}
		}
		for _, spec := range file.Imports {
			dep, _ := strconv.Unquote(spec.Path.Value)
			if dep != module && !strings.HasPrefix(dep, module+"/") {
				continue
			}
			dep = strings.TrimPrefix(strings.TrimPrefix(dep, module), "/")
			shown, _ := filepath.Rel(root, path)
			all[pkg][dep] = append(all[pkg][dep], filepath.ToSlash(shown))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestFloors holds the house to ARCHITECTURE.md's floors: no package imports one above it, the
// test models stay out of the product, and every package has a floor.
func TestFloors(t *testing.T) {
	f := readFloors(t)
	all := readImports(t, "..")
	if len(all) < 30 {
		t.Fatalf("found only %d packages under the repository's root: is the test run from docs/?", len(all))
	}
	for _, p := range f.problems(all) {
		t.Error(p)
	}
	for entry := range f {
		if _, err := os.Stat(filepath.Join("..", entry)); err != nil {
			t.Errorf("ARCHITECTURE.md's floors name %s, which is not a folder", entry)
		}
	}
}

// TestFloorProblems checks the rule itself on made-up imports: it must catch what it is for.
func TestFloorProblems(t *testing.T) {
	f := floors{"internal/py": 0, "internal/lz": 0, "value": 1, "engine": 6, "class": 8, "api": 9, "testkit": 10, "cmd": 11}
	tests := []struct {
		name string
		pkg  string
		deps []string
		want string // a part of the one problem expected; empty for none
	}{
		{"down", "engine", []string{"value", "internal/py"}, ""},
		{"own tree", "class/sqlite", []string{"class"}, ""},
		{"up", "value", []string{"engine"}, "value/x.go (floor 1) imports engine (floor 6)"},
		{"sideways between leaves", "internal/py", []string{"internal/lz"}, "imports internal/lz (floor 0)"},
		{"product uses a test model", "api", []string{"testkit/fakemodel"}, "only tests and cmd/fakemodel may"},
		{"an entry point uses a test model", "cmd/server", []string{"testkit/goldmodel"}, "only tests and cmd/fakemodel may"},
		{"the test models' command", "cmd/fakemodel", []string{"testkit/fakemodel"}, ""},
		{"test models among themselves", "testkit/boardtest", []string{"testkit/goldmodel", "engine"}, ""},
		{"no floor", "newthing", nil, "newthing: not on any floor"},
		{"import of a package with no floor", "engine", []string{"newthing"}, "imports newthing, which is on no floor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			deps := map[string][]string{}
			for _, d := range tt.deps {
				deps[d] = []string{tt.pkg + "/x.go"}
			}
			got := f.problems(imports{tt.pkg: deps})
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("problems = %q, want none", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("problems = %q, want one containing %q", got, tt.want)
			}
		})
	}
}
