package main

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/apibank-playground/apibank/api"
	"github.com/apibank-playground/apibank/class"
	"github.com/apibank-playground/apibank/protocol"
)

// maxBody is the largest request body the Worker takes: 8 MiB. The original benchmark's whole data
// with its 4,311 oracle predictions is a 5.5 MB request, for which the instance holds 74 MiB of
// memory (measured on workerd); the API's default of 16 MiB could pass the isolate's 128 MB.
const maxBody = 8 << 20

// apiHandler is /api/v1 and /healthz, cmd/server's API over fresh in-process engine sessions. Its
// other limits are the API's defaults: the time limit (20 s) is within the Workers Paid plan's 30 s of
// CPU time a request, and the concurrency gate never fills, as an instance serves one request. An
// in-process engine call cannot be interrupted: one past the time limit ends and is answered 408;
// the platform's CPU limit is what stops a runaway on Workers. opts add to it (the class endpoints).
func apiHandler(opts ...api.Option) http.Handler {
	limits := api.DefaultLimits()
	limits.MaxBody = maxBody
	return api.New(freshSessions{}, limits, opts...)
}

// under says whether path is root or below it.
func under(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }

// engineBuild names the engine compiled into the Worker: `make worker` stamps it with the build of
// web/engine.wasm made from the same source (board.Build), so the Worker's board entries and the
// server's are judged by one build.
var engineBuild = "unstamped"

// openStore opens the class store, or returns a nil store when the Worker has none configured.
type openStore func(ctx context.Context) (*class.SQLStore, error)

// classAPI is apiHandler with the class endpoints (/api/v1/classes...) over the store open gives,
// with the same handlers as cmd/server and its limits, counted in the store like the server's (so
// they hold across the Worker's isolates), each changed by a Worker variable that
// getenv reads (see limitVars). The store is opened (and its schema brought up to date) on the
// first request under /api/v1/classes only, so the other endpoints cost no database round trip.
// With no store configured the API answers as without classes (404); a store that fails to open is
// logged and answered 500 in the API's error shape, the rest of the API unaffected.
func classAPI(logger *slog.Logger, open openStore, getenv func(string) string) http.Handler {
	plain := apiHandler()
	var (
		once    sync.Once
		classes http.Handler
		err     error
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !under(r.URL.Path, api.ClassesPath) && !under(r.URL.Path, api.BoardPath) {
			plain.ServeHTTP(w, r)
			return
		}
		once.Do(func() {
			var store *class.SQLStore
			store, err = open(r.Context())
			switch {
			case err != nil:
				logger.Error("opening the class store", "error", err.Error())
			case store != nil:
				classes = apiHandler(api.WithClasses(api.Classes{Store: store, Logger: logger, Limits: classLimits(logger, getenv), ClientAddr: clientAddr}),
					api.WithBoard(api.Board{Store: store, Engine: engineBuild, Season: boardSeason(logger, getenv), Logger: logger, Limits: boardLimits(logger, getenv), ClientAddr: clientAddr}))
			}
		})
		switch {
		case err != nil:
			writeJSON(w, http.StatusInternalServerError, errorBody{Error: api.Error{Code: api.CodeInternal, Message: "the class and board store failed to open"}})
		case classes == nil:
			plain.ServeHTTP(w, r)
		default:
			classes.ServeHTTP(w, r)
		}
	})
}

// limitVars are the Worker variables (wrangler.jsonc's "vars", or `wrangler dev --var NAME:VALUE`)
// that change a class limit, as cmd/server's flags of the same names do; an unset one keeps the
// default (api.DefaultClassLimits).
var limitVars = []struct {
	name string
	set  func(*api.ClassLimits, int)
}{
	{"CLASS_ANSWERS_PER_STUDENT", func(l *api.ClassLimits, n int) { l.AnswersPerStudent = n }},
	{"CLASS_ANSWERS_PER_CLASS", func(l *api.ClassLimits, n int) { l.AnswersPerClass = n }},
	{"CLASS_CLASSES_PER_ADDRESS", func(l *api.ClassLimits, n int) { l.ClassesPerAddress = n }},
}

// boardLimits reads the board's limit from the Worker's variable BOARD_SUBMISSIONS_PER_ADDRESS (as
// cmd/server's flag of that name); the body limit is the Worker's (maxBody).
func boardLimits(logger *slog.Logger, getenv func(string) string) api.BoardLimits {
	l := api.DefaultBoardLimits()
	l.MaxBody = maxBody
	if n, ok := wholeVar(logger, getenv, "BOARD_SUBMISSIONS_PER_ADDRESS"); ok {
		l.SubmissionsPerAddress = n
	}
	return l
}

// boardSeason reads the board's season from the Worker's variable BOARD_SEASON (as cmd/server's
// --board-season): the seed of the variant of the builtin data the board ranks. Unset or 0 is no
// season; a value that is not a seed (protocol.ParseSeed reads it, as --board-season and apibank's
// --seed are read: "010" is refused, not read as 8) is logged, naming the variable, and no season
// kept, as a bad limit variable keeps its default.
func boardSeason(logger *slog.Logger, getenv func(string) string) int64 {
	raw := strings.TrimSpace(getenv("BOARD_SEASON"))
	if raw == "" {
		return 0
	}
	n, err := protocol.ParseSeed(raw)
	if err != nil {
		logger.Error("BOARD_SEASON is not a variant's seed ("+err.Error()+"); the board ranks the builtin data", "variable", "BOARD_SEASON", "value", raw)
		return 0
	}
	return n
}

// wholeVar reads a Worker variable that is a whole number above 0: unset is not ok, and a value
// that is not such a number is logged, naming the variable, and not ok.
func wholeVar(logger *slog.Logger, getenv func(string) string, name string) (int, bool) {
	raw := strings.TrimSpace(getenv(name))
	if raw == "" {
		return 0, false
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		logger.Error("a limit variable is not a whole number above 0; its default is kept", "variable", name, "value", raw)
		return 0, false
	}
	return n, true
}

// classLimits reads the class limits from the Worker's variables. A value that is not a whole
// number above 0 is logged, naming the variable, and the default kept.
func classLimits(logger *slog.Logger, getenv func(string) string) api.ClassLimits {
	l := api.DefaultClassLimits()
	for _, v := range limitVars {
		if n, ok := wholeVar(logger, getenv, v.name); ok {
			v.set(&l, n)
		}
	}
	return l
}

// clientAddr names a request's client for the classes-per-address limit: the CF-Connecting-IP
// header, which Cloudflare sets to the client's address (overwriting whatever the client sent),
// else the host of RemoteAddr.
func clientAddr(r *http.Request) string {
	if ip := strings.TrimSpace(r.Header.Get("CF-Connecting-IP")); ip != "" {
		return ip
	}
	return api.RemoteHost(r)
}
