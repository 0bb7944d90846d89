package class

import (
	"slices"
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
	for _, tt := range []struct {
		what, sql string
		want      []string
	}{
		{"comments dropped, one statement a semicolon at a line's end",
			"-- a comment\nCREATE TABLE a (x INTEGER);\n\nCREATE INDEX b\n  ON a (x);\n",
			[]string{"CREATE TABLE a (x INTEGER);", "CREATE INDEX b\n  ON a (x);"}},
		{"a trigger on one line",
			"CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 1; END;\nCREATE TABLE c (y);\n",
			[]string{"CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 1; END;", "CREATE TABLE c (y);"}},
		{"a trigger's own statements stay in it",
			"create trigger t instead of insert on v begin\n  insert into a values (1);\n  insert into a values (2);\nend;\nCREATE TABLE c (y);\n",
			[]string{"create trigger t instead of insert on v begin\n  insert into a values (1);\n  insert into a values (2);\nend;", "CREATE TABLE c (y);"}},
		{"a last statement without its semicolon", "CREATE TABLE a (x)", []string{"CREATE TABLE a (x)"}},
	} {
		if got := Statements(tt.sql); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Statements = %q, want %q", tt.what, got, tt.want)
		}
	}
}
