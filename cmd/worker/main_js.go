//go:build js && wasm

package main

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"os"
	"syscall/js"

	"github.com/apibank-playground/apibank/class"
	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/d1"
)

// classBinding is the name of the D1 binding (worker/wrangler.jsonc's d1_databases) that keeps the
// classes; without it the Worker serves no class endpoints.
const classBinding = "DB"

// main starts the Worker's Go program once per isolate: it hands bridge the handler and tells the
// entry module it is ready, then stays up, serving every request the isolate gets, until the
// isolate ends (see bridge). Logs go to stdout, which the Workers runtime shows as console output.
func main() {
	logger := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	bridge(js.Global().Get("context").Get("binding"), newHandler(logger, classAPI(logger, openD1, cloudflare.Getenv)))
	workers.Ready()
	select {}
}

// openD1 opens the D1 database bound as classBinding through syumai/workers' database/sql
// connector and builds the same SQL store cmd/server uses over SQLite, applying the schema's
// missing migrations; no binding is no store (nil, nil).
func openD1(ctx context.Context) (*class.SQLStore, error) {
	conn, err := d1.OpenConnector(classBinding)
	if errors.Is(err, d1.ErrDatabaseNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return class.NewSQLStore(ctx, sql.OpenDB(conn))
}
