package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3/driver"

	"github.com/apibank-playground/apibank/class"
	"github.com/apibank-playground/apibank/class/storetest"
)

// TestContract runs the store contract against SQLite in a file.
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) class.Store {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "classes.db"), "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestRestartKeepsClass closes the store and opens the file again: the class, its key's hash and
// its answers are there, and the schema is not applied twice.
func TestRestartKeepsClass(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "classes.db")
	s, err := Open(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	key, hash := class.NewKey()
	now := time.Now().Truncate(time.Millisecond)
	if err := s.Create(ctx, class.Class{Code: "ACDEFG", Name: "kept", KeyHash: hash, Created: now, Active: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(ctx, "ACDEFG", class.Answer{Student: "ann", Level: "level-1", File: "f", ID: 2, Answer: "[A()]", Verdict: "CORRECT", Correct: true, At: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, path, "")
	if err != nil {
		t.Fatalf("reopening: %v", err)
	}
	defer s.Close()
	c, err := s.Get(ctx, "ACDEFG")
	if err != nil || c.Name != "kept" || !class.KeyMatches(key, c.KeyHash) {
		t.Fatalf("after a restart Get = %+v, %v; want the class with its key", c, err)
	}
	as, err := s.Answers(ctx, "ACDEFG")
	if err != nil || len(as) != 1 || !as[0].Correct || as[0].Student != "ann" {
		t.Fatalf("after a restart Answers = %+v, %v", as, err)
	}
}

// TestSchemaVersion checks the schema's version is recorded once per migration, and that a
// database from a newer program is refused rather than used.
func TestSchemaVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "classes.db")
	s, err := Open(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	ms, err := class.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	db, err := driver.Open("file:" + path)
	if err != nil {
		t.Fatal(err)
	}
	var n, top int
	if err := db.QueryRow(`SELECT count(*), max(version) FROM schema_version`).Scan(&n, &top); err != nil {
		t.Fatal(err)
	}
	if n != len(ms) || top != len(ms) {
		t.Errorf("schema_version has %d rows up to %d, want %d", n, top, len(ms))
	}
	if _, err := db.Exec(`INSERT INTO schema_version VALUES (?, 0)`, len(ms)+1); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctx, path, "")
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("opening a database of a newer schema: %v, want an error saying it is newer", err)
	}
}

// TestOpenErrors: a file that is not a database is an error naming it.
func TestOpenErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path, "")
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Open(junk) = %v, want an error naming %s", err, path)
	}
}
