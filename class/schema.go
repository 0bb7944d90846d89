package class

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed schema/*.sql
var schemaFS embed.FS

// Migration is one step of the schema: the SQL that takes a database from version Version-1 to
// Version. A store applies, in order, those above the version it records in schema_version.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// VersionTable is the statement that makes the table where a store records the schema's version
// (one row per migration applied), before any migration runs.
const VersionTable = `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)`

// Migrations returns the schema's migrations in version order: schema/NNNN_name.sql, numbered from
// 1 without gaps (a gap or a bad name is a build defect, reported with the file's name).
func Migrations() ([]Migration, error) {
	names, err := fs.Glob(schemaFS, "schema/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Migration
	for _, n := range names {
		base := strings.TrimPrefix(n, "schema/")
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("class: %s: want NNNN_name.sql", n)
		}
		if v != len(out)+1 {
			return nil, fmt.Errorf("class: %s: version %d, want %d (versions run from 1 without gaps)", n, v, len(out)+1)
		}
		b, err := schemaFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: base, SQL: string(b)})
	}
	return out, nil
}

// Statements splits a migration's SQL into its statements at semicolons that end a line, dropping
// comment lines (D1 runs one statement a call; the schema's files keep to that form). A CREATE
// TRIGGER statement holds statements of its own: it ends at a line that ends with "END;".
func Statements(sql string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(sql, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		trigger := strings.HasPrefix(strings.ToUpper(strings.TrimSpace(cur.String())), "CREATE TRIGGER")
		if strings.HasSuffix(t, ";") && (!trigger || strings.HasSuffix(strings.ToUpper(t), "END;")) {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}
