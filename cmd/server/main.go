// Command server serves the playground: the go-app pages (pre-rendered, then run by web/app.wasm)
// and the static files of web/ (the UI and engine modules, the worker, the WASI shim, styles), with
// the right types, gzip, and cache headers keyed on content hashes. All benchmark work happens in the
// visitor's tab; the server only hands out files.
//
//	go run ./cmd/server [--addr :8080] [--web web]
//	go run ./cmd/server --static dist    # write the same pages as a static site instead
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "github.com/apibank-playground/apibank/app"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	addr := fs.String("addr", ":8080", "address to listen on (host:port; port 0 picks a free one)")
	web := fs.String("web", "web", "folder of the static files (app.wasm, engine.wasm, scripts, styles)")
	static := fs.String("static", "", "write the site as static files to this folder and exit, instead of serving")
	if err := fs.Parse(args); err != nil {
		return err
	}
	assets, err := LoadAssets(*web)
	if err != nil {
		return err
	}
	for _, need := range []string{"app.wasm", "engine.wasm", "bridge.js", "engine-worker.js", "wasi.js"} {
		if assets.Size(need) == 0 {
			return fmt.Errorf("%s is missing: run `make` first", filepath.Join(*web, need))
		}
	}
	ui.Routes()
	h := NewHandler(assets)
	if *static != "" {
		return exportStatic(*static, *web, h, assets)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "API-Bank Playground at %s\n", displayURL(ln.Addr()))
	return http.Serve(ln, NewMux(h, assets))
}

// displayURL is the address to open in a browser.
func displayURL(a net.Addr) string {
	host, port, _ := net.SplitHostPort(a.String())
	if host == "" || host == "::" || host == "0.0.0.0" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// NewHandler configures go-app's handler for the playground's pages.
func NewHandler(assets *Assets) *app.Handler {
	pages := []string{}
	for _, p := range ui.Pages {
		if !p.Soon && p.Path != "/" {
			pages = append(pages, p.Path)
		}
	}
	// The worker is started with its shim's hashed URL, so that is the address to keep offline.
	worker := assets.URL("/web/engine-worker.js") + "&wasi=" + strings.ReplaceAll(assets.URL("/web/wasi.js"), "?", "%3F")
	cacheable := append([]string{}, pages...)
	for _, n := range assets.Names() {
		switch n {
		case "app.wasm", "icon-192.png", "icon-512.png", "icon.svg":
			// go-app lists these itself (a duplicate would make the service worker's cache.addAll fail).
		case "engine-worker.js":
			cacheable = append(cacheable, worker)
		default:
			cacheable = append(cacheable, assets.URL("/web/"+n))
		}
	}
	return &app.Handler{
		Name:            "API-Bank Playground",
		ShortName:       "API-Bank",
		Title:           "API-Bank Playground",
		Description:     "How well does a language model use tools? API-Bank's tools, call parser and scorer, in your browser.",
		Lang:            "en",
		Icon:            app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", Maskable: "/web/icon-512.png", SVG: "/web/icon.svg"},
		BackgroundColor: "#ffffff",
		ThemeColor:      "#1d4f7c",
		LoadingLabel:    "Loading the playground… {progress}%",
		Styles:          []string{assets.URL("/web/style.css")},
		Scripts:         []string{assets.URL("/web/bridge.js") + " defer"},
		RawHeaders: []string{
			fmt.Sprintf(`<script>window.apibankAssets={engine:%q,worker:%q};</script>`, assets.URL("/web/engine.wasm"), worker),
		},
		CacheableResources: cacheable,
		Resources:          assets,
		Version:            assets.Version,
		WasmContentLength:  fmt.Sprint(assets.Size("app.wasm")),
	}
}

// NewMux routes /web/ to the static files and everything else to go-app.
func NewMux(h *app.Handler, assets *Assets) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/web/", assets)
	mux.Handle("/", gzipText(h))
	return mux
}

// exportStatic writes the pages with go-app's GenerateStaticWebsite and copies web/ beside them.
func exportStatic(dir, web string, h *app.Handler, assets *Assets) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := app.GenerateStaticWebsite(dir, h); err != nil {
		return fmt.Errorf("static site: %w", err)
	}
	for _, n := range assets.Names() {
		src := filepath.Join(web, filepath.FromSlash(n))
		dst := filepath.Join(dir, "web", filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("static site: %s/index.html was not written", dir)
	}
	log.Printf("static site written to %s (%d files of web/ copied)", dir, len(assets.Names()))
	return nil
}
