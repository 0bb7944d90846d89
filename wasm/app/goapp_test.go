//go:build !(js && wasm)

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goApp is the module the UI is built on; the repository carries it patched in goAppCopy
// (third_party/go-app/PATCH.md) so that the UI's wasm build does not link net/http.
const (
	goApp     = "github.com/maxence-charriere/go-app/v10"
	goAppCopy = "./third_party/go-app"
)

// TestGoAppPatch fails when a go-app upgrade or a go.mod edit drops the patched copy: go.mod must
// replace go-app by the copy, the copy must say it is patched from the version go.mod requires, and
// the UI's GOOS=js build must not reach the packages the patch keeps out.
func TestGoAppPatch(t *testing.T) {
	root := repoRoot(t)

	var mod struct {
		Version string
		Replace *struct{ Path, Version string }
	}
	out := goCmd(t, root, nil, "list", "-m", "-json", goApp)
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatalf("go list -m -json %s: %v\n%s", goApp, err, out)
	}
	if mod.Replace == nil || mod.Replace.Path != goAppCopy {
		t.Fatalf("go.mod: %s %s is not replaced by %s (see %s/PATCH.md)", goApp, mod.Version, goAppCopy, goAppCopy)
	}

	patchDoc := filepath.Join(root, goAppCopy, "PATCH.md")
	doc, err := os.ReadFile(patchDoc)
	if err != nil {
		t.Fatal(err)
	}
	base := regexp.MustCompile(`(?m)^Base: ` + regexp.QuoteMeta(goApp) + ` (\S+)$`).FindSubmatch(doc)
	if base == nil {
		t.Fatalf("%s: no line %q", patchDoc, "Base: "+goApp+" <version>")
	}
	if string(base[1]) != mod.Version {
		t.Errorf("%s: the copy is patched from %s but go.mod requires %s: copy the new release and apply the patch again (see PATCH.md)", patchDoc, base[1], mod.Version)
	}

	deps := map[string]bool{}
	js := []string{"GOOS=js", "GOARCH=wasm"}
	for _, p := range strings.Fields(string(goCmd(t, root, js, "list", "-deps", "./wasm/app"))) {
		deps[p] = true
	}
	if !deps[goApp+"/pkg/app"] {
		t.Fatalf("the GOOS=js build of ./wasm/app does not import %s/pkg/app: this test checks nothing", goApp)
	}
	for _, kept := range []string{"net/http", "crypto/tls", "crypto/x509"} {
		if deps[kept] {
			t.Errorf("the GOOS=js build of ./wasm/app links %s again: is the patch in %s applied, or does the UI import it now?", kept, goAppCopy)
		}
	}
}

// repoRoot is the folder holding go.mod, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	return root
}

// goCmd runs the go command in dir with extra environment variables and returns its output.
func goCmd(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return out
}

// TestUINoRegexp fails when a package of the UI's GOOS=js build other than go-app imports regexp, or
// when the UI calls go-app's RouteWithRegexp: either links package regexp (its compiler and Unicode
// tables, about 85 KB of app.wasm on the wire) back into the module, which go-app's patched router
// (third_party/go-app/PATCH.md, routes-without-regexp.patch) keeps out otherwise.
func TestUINoRegexp(t *testing.T) {
	root := repoRoot(t)
	js := []string{"GOOS=js", "GOARCH=wasm"}
	out := goCmd(t, root, js, "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./wasm/app")
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		if pkg == goApp+"/pkg/app" || strings.HasPrefix(pkg, "regexp") {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if imp == "regexp" {
				t.Errorf("%s imports regexp: the UI's module links it again (use a scanner, as app/hint.go does)", pkg)
			}
		}
	}
	out = goCmd(t, root, js, "list", "-deps", "-f", `{{if not .Standard}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{end}}`, "./wasm/app")
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.Contains(f[0], filepath.FromSlash("third_party/go-app")) {
			continue
		}
		for _, name := range f[1:] {
			src, err := os.ReadFile(filepath.Join(f[0], name))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(src), ".RouteWithRegexp(") {
				t.Errorf("%s calls RouteWithRegexp, which links regexp into the UI's module: use app.RouteMatching", filepath.Join(f[0], name))
			}
		}
	}
}
