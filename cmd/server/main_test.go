package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/app"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/serve"
)

func TestPages(t *testing.T) {
	srv, assets := testServer(t)
	for _, p := range app.Pages {
		if p.Soon {
			continue
		}
		resp, body := get(t, srv.URL+p.Path, map[string]string{"Accept-Encoding": "gzip"})
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: %d %q", p.Path, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		zr, _ := gzip.NewReader(bytes.NewReader(body))
		html, _ := io.ReadAll(zr)
		for _, want := range []string{assets.URL("/web/bridge.js"), assets.URL("/web/style.css"), `data-testid="dataset-select"`, "apibankAssets"} {
			if !bytes.Contains(html, []byte(want)) {
				t.Errorf("%s lacks %q", p.Path, want)
			}
		}
	}
	resp, body := get(t, srv.URL+"/app.js", nil)
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(assets.URL("/web/app.wasm"))) {
		t.Fatalf("app.js does not load the hashed app.wasm")
	}
	resp, body = get(t, srv.URL+"/app-worker.js", nil)
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(assets.URL("/web/engine.wasm"))) || !bytes.Contains(body, []byte(`"/sandbox"`)) {
		t.Fatalf("the service worker does not cache the engine and the pages for offline use")
	}
	// cache.addAll fails on a duplicate, and then nothing is kept for offline use.
	_, list, _ := strings.Cut(string(body), "const resourcesToCache = ")
	list, _, _ = strings.Cut(list, ";")
	var urls []string
	if err := json.Unmarshal([]byte(list), &urls); err != nil {
		t.Fatalf("resourcesToCache: %v", err)
	}
	seen := map[string]bool{}
	for _, u := range urls {
		if seen[u] {
			t.Errorf("the service worker lists %s twice", u)
		}
		seen[u] = true
		// One address that does not answer fails the whole install (heldCacheFill): no offline use.
		if resp, _ := get(t, srv.URL+u, nil); resp.StatusCode != http.StatusOK {
			t.Errorf("the service worker precaches %s, which answers %d", u, resp.StatusCode)
		}
	}
}

func TestStaticExport(t *testing.T) {
	_, assets := testServer(t)
	dir := t.TempDir()
	if err := exportStatic(dir, NewHandler(assets), assets, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "sandbox.html", "app.js", "app-worker.js", "web/engine.wasm", "web/app.wasm", "web/bridge.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("static site lacks %s", f)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "web", "engine.wasm"))
	if err != nil || !bytes.Equal(b, assets.files["engine.wasm"].Body()) {
		t.Errorf("web/engine.wasm of the static site differs from web/'s (%v)", err)
	}
	// Beside each compressible file its brotli and gzip forms, decoding to the file's bytes.
	for _, f := range []string{"engine.wasm", "app.wasm", "bridge.js"} {
		r := serve.NewResource(assets.files[f].Body(), contentType(f))
		for coding, suffix := range precompressedSuffix {
			enc, err := os.ReadFile(filepath.Join(dir, "web", f+suffix))
			if err != nil {
				t.Errorf("static site lacks web/%s%s", f, suffix)
				continue
			}
			if err := r.UsePrecompressed(coding, enc); err != nil {
				t.Errorf("web/%s%s: %v", f, suffix, err)
			}
		}
	}
	// The static host applies _headers: the same security headers as the server's, on every path.
	headers, err := os.ReadFile(filepath.Join(dir, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(headers)), "\n")
	if lines[0] != "/*" {
		t.Errorf("_headers starts with %q, want /*", lines[0])
	}
	want := serve.SecurityHeaders(policy(assets))
	got := http.Header{}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ": ")
		if !ok || !strings.HasPrefix(l, "  ") {
			t.Fatalf("_headers line %q is not an indented 'Name: value'", l)
		}
		got.Add(k, v)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("_headers gives\n%v\nwant\n%v", got, want)
	}
	// An endpoint --allow-endpoint names is in the exported policy, as in the served one.
	lan := t.TempDir()
	if err := exportStatic(lan, NewHandler(assets), assets, io.Discard, "http://192.168.1.20:11434"); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(filepath.Join(lan, "_headers"))
	if err != nil || !strings.Contains(string(b), "Content-Security-Policy: "+policy(assets, "http://192.168.1.20:11434")) || policy(assets) == policy(assets, "http://192.168.1.20:11434") {
		t.Errorf("the export with an allowed endpoint has no policy naming it (%v):\n%s", err, b)
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	web := testWeb(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing build outputs", []string{"--web", t.TempDir()}, "app.wasm is missing"},
		{"missing folder", []string{"--web", filepath.Join(t.TempDir(), "none")}, "reading "},
		{"bad log format", []string{"--web", web, "--log", "xml"}, `--log "xml": want text or json`},
		{"no connections", []string{"--web", web, "--max-conns", "0"}, "--max-conns 0: must be at least 1"},
		{"unknown flag", []string{"--port", "80"}, "flag provided but not defined: -port"},
		{"bad address", []string{"--web", web, "--addr", "256.0.0.1:0"}, "256.0.0.1"},
		{"a season with no board", []string{"--web", web, "--board-season", "7"}, "--board-season 7: the board is kept in the classes database and served by the API: give --db FILE"},
		{"a season with the API off", []string{"--web", web, "--board-season", "7", "--db", filepath.Join(t.TempDir(), "c.db"), "--api=false"}, "keep the API on"},
		{"a season out of range", []string{"--web", web, "--board-season", "-2"}, "--board-season -2: " + protocol.SeedRule},
		{"a season over the largest seed", []string{"--web", web, "--board-season", "9007199254740992"}, "--board-season 9007199254740992: " + protocol.SeedRule},
		{"a season with a leading zero", []string{"--web", web, "--board-season", "010"}, "--board-season 010: " + protocol.SeedRule},
		{"a season in hex", []string{"--web", web, "--board-season", "0x10"}, "--board-season 0x10: " + protocol.SeedRule},
		{"a season that is no number", []string{"--web", web, "--board-season", "abc"}, "--board-season abc: " + protocol.SeedRule},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if !slices.Contains(args, "--addr") {
				args = append([]string{"--addr", "127.0.0.1:0"}, args...)
			}
			err := run(context.Background(), args, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestHelpExitsCleanly(t *testing.T) {
	var out, errs strings.Builder
	if err := run(context.Background(), []string{"--help"}, &out, &errs); err != nil {
		t.Fatalf("--help: %v", err)
	}
	if !strings.Contains(out.String(), "-addr") {
		t.Fatalf("--help printed no usage: %q", out.String())
	}
	for _, args := range [][]string{{"--nope"}, {"--board-season", "abc"}, {"--max-conns", "x"}} {
		out.Reset()
		errs.Reset()
		err := run(context.Background(), args, &out, &errs)
		var ue *usageError
		if !errors.As(err, &ue) || errs.Len() > 0 || out.Len() > 0 {
			t.Errorf("%q: %v; want a usage error returned (said by main, the error first) and nothing printed:\nstdout %q\nstderr %q", args, err, out.String(), errs.String())
		}
	}
}

// TestBadFlagsSayTheErrorFirst runs the real main with flags it refuses: stderr is the error, then
// one line on how to list the flags (never the whole usage before it, which pushed the error off a
// terminal's screen), and the exit status is 2, as the CLI's usage errors. An error that is not
// the flags' is said alone, with status 1.
func TestBadFlagsSayTheErrorFirst(t *testing.T) {
	web := testWeb(t)
	for _, tt := range []struct {
		args   []string
		stderr string
		code   int
	}{
		{[]string{"--board-season", "010"}, "server: --board-season 010: " + protocol.SeedRule + "\n" + usageHint + "\n", 2},
		{[]string{"--board-season", "abc"}, "server: --board-season abc: " + protocol.SeedRule + "\n" + usageHint + "\n", 2},
		{[]string{"--port", "80"}, "server: flag provided but not defined: -port\n" + usageHint + "\n", 2},
		{[]string{"--max-conns", "x"}, "server: invalid value \"x\" for flag -max-conns: parse error\n" + usageHint + "\n", 2},
		{[]string{"--web", web, "--addr", "127.0.0.1:0", "--max-conns", "0"}, "server: --max-conns 0: must be at least 1\n", 1},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "APIBANK_SERVER_MAIN="+strings.Join(tt.args, "\x1f"))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != tt.code || stderr.String() != tt.stderr || stdout.Len() > 0 {
			t.Errorf("server %q: %v, stdout %q, stderr:\n%s\nwant exit status %d and stderr:\n%s", tt.args, err, stdout.String(), stderr.String(), tt.code, tt.stderr)
		}
	}
}

// A site exported for a plain static host tells its pages so (they read board.json and ask no API
// for the live board); one exported to be served beside the API (the Worker's, --static-api) does not.
func TestStaticSiteEnv(t *testing.T) {
	engine, err := os.ReadFile(filepath.Join("..", "..", "web", "engine.wasm")) // the board's export judges with it
	if err != nil {
		t.Fatalf("web/engine.wasm is missing: run `make wasm` (make test does): %v", err)
	}
	web := testWeb(t)
	if err := os.WriteFile(filepath.Join(web, "engine.wasm"), engine, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args   []string
		static bool
	}{
		{nil, true},
		{[]string{"--static-api"}, false},
	} {
		dir := t.TempDir()
		if err := run(context.Background(), append([]string{"--web", web, "--static", dir}, tt.args...), io.Discard, io.Discard); err != nil {
			t.Fatalf("run --static %v: %v", tt.args, err)
		}
		js, err := os.ReadFile(filepath.Join(dir, "app.js"))
		if err != nil {
			t.Fatal(err)
		}
		says := strings.Contains(string(js), `"`+app.SiteEnv+`":"`+app.StaticSite+`"`)
		if says != tt.static {
			t.Errorf("--static %v: app.js names the site static: %v, want %v", tt.args, says, tt.static)
		}
	}
}
