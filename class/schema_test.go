package class

import (
	"strings"
	"testing"
)

func TestMigrations(t *testing.T) {
	ms, err := Migrations()
	if err != nil || len(ms) == 0 {
		t.Fatalf("Migrations = %v, %v", ms, err)
	}
	for i, m := range ms {
		if m.Version != i+1 || len(Statements(m.SQL)) == 0 {
			t.Errorf("migration %d: %+v", i, m)
		}
	}
	got := Statements("-- a comment\nCREATE TABLE a (x INTEGER);\n\nCREATE INDEX b\n  ON a (x);\n")
	if len(got) != 2 || got[0] != "CREATE TABLE a (x INTEGER);" || !strings.HasPrefix(got[1], "CREATE INDEX b") {
		t.Errorf("Statements = %q", got)
	}
}
