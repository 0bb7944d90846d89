// Command server serves the playground: the go-app pages (rendered once at start-up, then run by
// web/app.wasm) and the static files of web/ (the UI and engine modules, the worker, the WASI shim,
// styles), with the right types, brotli or gzip made once, cache headers keyed on content hashes,
// security headers on every response, every timeout set, a cap on open connections, an access log,
// and a graceful stop on SIGINT or SIGTERM. The playground's benchmark work happens in the visitor's
// tab; the server also answers the scoring API (/api/v1, package api) with web/engine.wasm
// under wazero, a fresh engine session per request (--api=false turns it off).
//
//	go run ./cmd/server [--addr :8080] [--web web] [--max-conns 4096] [--log text|json] [--db classes.db]
//	                    [--api-instances N] [--api-max-body B] [--api-max-lines N] [--api-timeout D] [--api-max-concurrent N]
//	go run ./cmd/server --static dist    # write the same pages as a static site instead
//	go run ./cmd/server --precompress    # write the best .br and .gz beside web/'s large files (make precompressed)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/api"
	"github.com/apibank-playground/apibank/app"
	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/class"
	"github.com/apibank-playground/apibank/class/sqlite"
	"github.com/apibank-playground/apibank/host"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/serve"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		code := report(os.Stderr, err)
		stop()
		os.Exit(code)
	}
}

// usageError is a mistake in the command line's flags.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usageHint is the line that follows a usage error: how to read every flag, rather than all of
// them printed (which pushed the error itself off a terminal's screen).
const usageHint = "server -h lists every flag."

// report says err on w as main ends with it, and answers the exit status: the error first, and
// after a mistake in the flags the one line of usageHint (status 2, as the CLI's usage errors);
// any other error alone (status 1).
func report(w io.Writer, err error) int {
	fmt.Fprintln(w, "server:", err)
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(w, usageHint)
		return 2
	}
	return 1
}

// parseFlags reads args into fs. Asked for -h, it prints the usage to stdout and says so (helped);
// a mistake prints nothing and is answered as a *usageError for the caller to say, the error first
// (report). (Left to itself, the flag package prints the usage and then the mistake, on its own.)
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) (helped bool, err error) {
	fs.SetOutput(io.Discard)
	err = fs.Parse(args)
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		return true, nil
	}
	return false, &usageError{err}
}

// routesOnce registers the pages with go-app once per process (tests call run more than once).
var routesOnce sync.Once

// run serves until ctx ends. The address goes to stdout (the browser suite reads it there), the
// logs to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	addr := fs.String("addr", ":8080", "address to listen on (host:port; port 0 picks a free one)")
	web := fs.String("web", "web", "folder of the static files (app.wasm, engine.wasm, scripts, styles)")
	static := fs.String("static", "", "write the site as static files to this folder and exit, instead of serving")
	staticAPI := fs.Bool("static-api", false, "with --static: the pages will be served beside this API (as the Worker serves them), so they ask it for the live board rather than read board.json")
	precompress := fs.Bool("precompress", false, "write the best brotli and gzip forms (name.br, name.gz) beside every compressible file of --web over 1 MB, and exit")
	maxConns := fs.Int("max-conns", 4096, "most connections open at once (lowered to fit the file descriptor limit)")
	logFormat := fs.String("log", "text", "access log format on stderr: text or json")
	dbPath := fs.String("db", "", "SQLite file of the classes and the board (/api/v1/classes, /api/v1/board; made if missing); empty: neither")
	cd := api.DefaultClassLimits()
	var classLimits api.ClassLimits
	fs.IntVar(&classLimits.AnswersPerClass, "class-answers-per-class", cd.AnswersPerClass, "most answers a class takes a minute (429 above)")
	fs.IntVar(&classLimits.AnswersPerStudent, "class-answers-per-student", cd.AnswersPerStudent, "most answers a student of a class sends a minute (429 above)")
	fs.IntVar(&classLimits.ClassesPerAddress, "class-classes-per-address", cd.ClassesPerAddress, "most classes a client address makes an hour (429 above)")
	bd := api.DefaultBoardLimits()
	var boardLimits api.BoardLimits
	fs.IntVar(&boardLimits.SubmissionsPerAddress, "board-submissions-per-address", bd.SubmissionsPerAddress, "most board submissions a client address makes a day (429 above)")
	var seasonFlag protocol.SeedFlag
	fs.Var(&seasonFlag, "board-season", "the board's season: the seed of the variant of the builtin data it ranks (runs made with apibank run --seed S; "+protocol.SeedRule+")")
	season := &seasonFlag.Seed
	var allow endpointsFlag
	fs.Var(&allow, "allow-endpoint", "a model endpoint the pages may also reach, such as an Ollama on the LAN over plain HTTP (http://192.168.1.20:11434/v1); repeatable (https anywhere and http on loopback are always allowed)")
	var apiCfg apiFlags
	apiCfg.register(fs)
	if helped, err := parseFlags(fs, args, stdout); helped || err != nil {
		if p := seasonFlag.Problem("board-season"); p != nil {
			return &usageError{p}
		}
		return err // nil when the usage was asked for: printed, it is no error
	}
	logger, err := newLogger(stderr, *logFormat)
	if err != nil {
		return err
	}
	if *maxConns < 1 {
		return fmt.Errorf("--max-conns %d: must be at least 1", *maxConns)
	}
	if err := apiCfg.check(); err != nil {
		return err
	}
	if *season != 0 && *static == "" && !*precompress && (*dbPath == "" || !apiCfg.on) {
		// A served board lives in the classes database, behind the API: without them the flag
		// would rank nothing, silently.
		return fmt.Errorf("--board-season %d: the board is kept in the classes database and served by the API: give --db FILE, and keep the API on", *season)
	}
	if *precompress {
		return Precompress(*web, largeAsset, stdout)
	}
	assets, err := LoadAssets(*web)
	if err != nil {
		return err
	}
	for _, need := range []string{"app.wasm", "engine.wasm", "bridge.js", "bridge/engine.js", "engine-worker.js", "wasi.js"} {
		if assets.Size(need) == 0 {
			return fmt.Errorf("%s is missing: run `make` first", filepath.Join(*web, need))
		}
	}
	routesOnce.Do(app.Routes)
	h := NewHandler(assets)
	if *static != "" {
		if !*staticAPI {
			// The pages of a plain static host read the exported board.json and ask no API for it.
			h.Env = map[string]string{app.SiteEnv: app.StaticSite}
		}
		if err := exportStatic(*static, h, assets, stdout, allow...); err != nil {
			return err
		}
		return exportBoard(ctx, *static, filepath.Join(*web, "engine.wasm"), *dbPath, *season, time.Now(), stdout)
	}
	site, err := NewSite(h, assets)
	if err != nil {
		return err
	}
	if len(allow) > 0 {
		site.Headers.Set("Content-Security-Policy", policy(assets, allow...))
		logger.Info("model endpoints allowed", "origins", strings.Join(allow, " "))
	}
	// The compressors' buffers (hundreds of MB for the wasm modules) are garbage now: give them back
	// rather than keep them in the resident set for the process's life.
	debug.FreeOSMemory()
	limits := serve.Defaults(fitConns(*maxConns, logger))
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	var routes []Route
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if apiCfg.on {
		pool := &startingPool{}
		stopPool := pool.start(filepath.Join(*web, "engine.wasm"), apiCfg.instances, warmRequests(*season), logger, func(err error) {
			cancel(fmt.Errorf("the API's engine: %w", err))
		})
		defer stopPool()
		var opts []api.Option
		if *dbPath != "" {
			store, err := openClasses(ctx, *dbPath)
			if err != nil {
				return err
			}
			defer store.Close()
			build, err := engineBuild(filepath.Join(*web, "engine.wasm"))
			if err != nil {
				return err
			}
			opts = append(opts, api.WithClasses(api.Classes{Store: store, Logger: logger, Limits: classLimits}),
				api.WithBoard(api.Board{Store: store, Engine: build, Season: *season, Logger: logger, Limits: boardLimits}))
			logger.Info("classes and board", "db", *dbPath, "engine", build, "season", *season)
		}
		routes = apiRoutes(api.New(pool, apiCfg.limits, opts...))
	}
	fmt.Fprintf(stdout, "API-Bank Playground at %s\n", displayURL(ln.Addr()))
	logger.Info("listening", "addr", ln.Addr().String(), "max_conns", limits.MaxConns, "api", apiCfg.on)
	srv := serve.NewServer(site.Handler(logger, routes...), limits, logger)
	err = serve.Run(ctx, srv, serve.LimitListener(ln, limits.MaxConns), limits.Grace, logger)
	if cause := context.Cause(ctx); err == nil && cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	return err
}

// engineBuild names the build of the engine module at path (board.Build of its bytes).
func engineBuild(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return board.Build(b), nil
}

// openClasses opens the class store, keeping wazero's compilation of SQLite in the user's cache.
func openClasses(ctx context.Context, path string) (*class.SQLStore, error) {
	cache := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(dir, "apibank-sqlite")
	}
	return sqlite.Open(ctx, path, cache)
}

// newLogger makes the structured logger of the access log and the server's messages.
func newLogger(w io.Writer, format string) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("--log %q: want text or json", format)
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
func NewHandler(assets *Assets) *goapp.Handler {
	pages := []string{}
	for _, p := range app.Pages {
		if !p.Soon && p.Path != "/" {
			pages = append(pages, p.Path)
		}
	}
	worker := workerURL(assets)
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
	swTemplate, _ := offlineWorker()
	return &goapp.Handler{
		ServiceWorkerTemplate: swTemplate,
		Name:                  "API-Bank Playground",
		ShortName:             "API-Bank",
		Title:                 "API-Bank Playground",
		Description:           "How well does a language model use tools? API-Bank's tools, call parser and scorer, in your browser.",
		Lang:                  "en",
		Icon:                  goapp.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", Maskable: "/web/icon-512.png", SVG: "/web/icon.svg"},
		BackgroundColor:       "#ffffff",
		ThemeColor:            "#1d4f7c",
		LoadingLabel:          "Loading the playground… {progress}%",
		Styles:                []string{assets.URL("/web/style.css")},
		// The bridge is ES modules, which go-app's Scripts cannot declare: it comes with RawHeaders,
		// after the inline script that names the hashed asset addresses (see moduleHeaders).
		RawHeaders:         append([]string{"<script>" + bootScript(assets) + "</script>"}, moduleHeaders(assets)...),
		CacheableResources: cacheable,
		Resources:          assets,
		Version:            assets.Version,
		WasmContentLength:  fmt.Sprint(assets.Size("app.wasm")),
	}
}

// workerURL is the address the tab starts the engine worker at: the worker's hashed URL with its
// shim's, so that is also the address to keep offline.
func workerURL(assets *Assets) string {
	return assets.URL("/web/engine-worker.js") + "&wasi=" + strings.ReplaceAll(assets.URL("/web/wasi.js"), "?", "%3F")
}

// largeAsset is the size from which --precompress makes a file's best forms ahead of time: smaller
// files get the best settings at start-up already (see serve.Precompress).
const largeAsset = 1 << 20

// exportStatic writes the pages with go-app's GenerateStaticWebsite, copies web/ beside them, and
// writes _headers: the security headers of every response in the format static hosts that read one
// (Cloudflare Pages, Netlify) apply, the endpoints --allow-endpoint named in their policy as when served.
func exportStatic(dir string, h *goapp.Handler, assets *Assets, stdout io.Writer, endpoints ...string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := goapp.GenerateStaticWebsite(dir, h); err != nil {
		return fmt.Errorf("static site: %w", err)
	}
	loader := filepath.Join(dir, "app.js") // served as the server serves it
	js, err := os.ReadFile(loader)
	if err != nil {
		return fmt.Errorf("static site: %w", err)
	}
	if err := os.WriteFile(loader, ourChanges("/app.js", js, bootScript(assets)), 0o644); err != nil {
		return err
	}
	// Each page as the server serves it (its boot script first in the head).
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		return err
	}
	for _, p := range pages {
		page, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("static site: %w", err)
		}
		if err := os.WriteFile(p, ourChanges("/"+filepath.Base(p), page, bootScript(assets)), 0o644); err != nil {
			return err
		}
	}
	// Beside each file its brotli and gzip forms, as a static host that serves precompressed files
	// (name.br, name.gz) would send them: the same forms the server sends.
	serve.Precompress(assets.resources()...)
	for _, n := range assets.Names() {
		dst := filepath.Join(dir, "web", filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		r := assets.files[n]
		if err := os.WriteFile(dst, r.Body(), 0o644); err != nil {
			return err
		}
		for _, coding := range r.Codings() {
			if suffix := precompressedSuffix[coding]; suffix != "" {
				if err := os.WriteFile(dst+suffix, r.Encoded(coding), 0o644); err != nil {
					return err
				}
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("static site: %s/index.html was not written", dir)
	}
	if err := os.WriteFile(filepath.Join(dir, "_headers"), staticHeaders(serve.SecurityHeaders(policy(assets, endpoints...))), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "static site written to %s (%d files of web/ copied)\n", dir, len(assets.Names()))
	return nil
}

// exportBoard writes the board of the store at dbPath (an empty board when there is none) to dir
// as board.json, and each entry's verdicts (board-data/ID.json), predictions files
// (board-data/ID.trial-N.jsonl) and run record beside them (board-data/ID.run.json, board.RecordOf:
// apibank score finds it there and judges the files on the entry's data, a season's variant), for
// the read-only board page of a static host. The engine module
// at enginePath says what the board judges with now, on the variant of season when it is not 0; the
// store says since when the season is ranked (kept there now, or when the first entry it ranks came,
// if it never was: board.SeasonStart).
func exportBoard(ctx context.Context, dir, enginePath, dbPath string, season int64, now time.Time, stdout io.Writer) error {
	module, err := os.ReadFile(enginePath)
	if err != nil {
		return err
	}
	cache := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(dir, "apibank-wazero") // the CLI's compilation cache
	}
	rt, err := host.New(ctx, module, host.Config{CacheDir: cache})
	if err != nil {
		rt, err = host.New(ctx, module, host.Config{}) // an unusable cache must not stop the export
	}
	if err != nil {
		return err
	}
	defer rt.Close(context.Background())
	s, err := rt.NewSession(ctx)
	if err != nil {
		return err
	}
	var entries []board.Entry
	var since *time.Time
	files := map[string][]byte{}
	if dbPath != "" {
		store, err := openClasses(ctx, dbPath)
		if err != nil {
			return err
		}
		defer store.Close()
		if entries, err = store.Entries(ctx); err != nil {
			return err
		}
		if season != 0 {
			t, err := store.Season(ctx, season, board.SeasonStart(entries, season, now).Truncate(time.Millisecond).UTC())
			if err != nil {
				return err
			}
			since = &t
		}
		for _, e := range entries {
			raw, err := store.Blob(ctx, e.ID, board.BlobVerdicts)
			if err != nil {
				return err
			}
			vs, err := board.ReadVerdicts(raw)
			if err != nil {
				return err
			}
			if files["board-data/"+e.ID+".json"], err = json.Marshal(board.EntryView{Entry: e, Verdicts: vs}); err != nil {
				return err
			}
			trialFile := func(i int) string { return fmt.Sprintf("%s.trial-%d.jsonl", e.ID, i) }
			for i := 1; i <= max(1, e.Run.Trials); i++ {
				if files["board-data/"+trialFile(i)], err = store.Blob(ctx, e.ID, board.BlobTrial(i)); err != nil {
					return err
				}
			}
			if files["board-data/"+e.ID+".run.json"], err = json.Marshal(board.RecordOf(e, vs, trialFile)); err != nil {
				return err
			}
		}
	}
	view, err := api.BoardExport(ctx, entries, s.Handle, board.Build(module), season, since, now)
	if err != nil {
		return err
	}
	if files["board.json"], err = json.Marshal(view); err != nil {
		return err
	}
	for name, b := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "board written to %s (%d entries%s)\n", filepath.Join(dir, "board.json"), len(entries), map[bool]string{true: fmt.Sprintf(", season %d", season)}[season != 0])
	return nil
}

// endpointsFlag collects --allow-endpoint: each URL's origin, as a connect-src source.
type endpointsFlag []string

func (e *endpointsFlag) String() string { return strings.Join(*e, " ") }

func (e *endpointsFlag) Set(v string) error {
	origin, err := serve.EndpointOrigin(v)
	if err != nil {
		return err
	}
	*e = append(*e, origin)
	return nil
}

// staticHeaders writes headers as a _headers file that applies them to every path.
func staticHeaders(headers http.Header) []byte {
	var b strings.Builder
	b.WriteString("/*\n")
	keys := make([]string, 0, len(headers))
	for k := range headers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s: %s\n", k, headers.Get(k))
	}
	return []byte(b.String())
}
