// Package sqlite opens a class store in an SQLite file with github.com/ncruces/go-sqlite3: SQLite
// compiled to WebAssembly and run by wazero (no cgo), the runtime the server already runs the
// engine with.
package sqlite

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/driver"
	_ "github.com/ncruces/go-sqlite3/embed" // SQLite's module
	"github.com/tetratelabs/wazero"
	wasmapi "github.com/tetratelabs/wazero/api"

	"github.com/apibank-playground/apibank/class"
)

var configure sync.Once

// Open opens (creating it and its folder if need be) the class store in the SQLite file at path and
// brings its schema up to date. cacheDir, when not empty, keeps wazero's compilation of SQLite's
// module between runs (the first Open of a process decides it). The file is in WAL mode, so the
// teacher's reads do not wait for the students' writes.
func Open(ctx context.Context, path, cacheDir string) (*class.SQLStore, error) {
	configure.Do(func() {
		cfg := wazero.NewRuntimeConfig().WithMemoryLimitPages(4096) // 256 MiB, as the driver's default
		if cacheDir != "" {
			if cache, err := wazero.NewCompilationCacheWithDir(cacheDir); err == nil {
				cfg = cfg.WithCompilationCache(cache)
			}
		}
		sqlite3.RuntimeConfig = cfg.WithCoreFeatures(wasmapi.CoreFeaturesV2)
	})
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("class store %s: %w", path, err)
		}
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(wal)&_pragma=synchronous(normal)"
	db, err := driver.Open(dsn)
	if err != nil {
		return nil, fmt.Errorf("class store %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("class store %s: %w", path, err)
	}
	s, err := class.NewSQLStore(ctx, db)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("class store %s: %w", path, err)
	}
	return s, nil
}
