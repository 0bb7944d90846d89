package class

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/board"
)

// The SQL store keeps the public board too (board.Store), in the same database and schema as the
// classes: one store to open on the server and one D1 binding on the Worker.
var _ board.Store = (*SQLStore)(nil)

// blobPart is the most bytes of one part of an entry's file: D1 keeps a row, and a bound value, to
// a few MB, and a part this size is one statement either way.
const blobPart = 256 << 10

// AddEntry keeps the entry's files first, then the entry, so an entry is never listed without
// them (a failure between the two leaves parts no entry names, which no read reaches).
func (s *SQLStore) AddEntry(ctx context.Context, e board.Entry, blobs map[string][]byte) error {
	doc, err := json.Marshal(e)
	if err != nil {
		return wrap("board add", err)
	}
	for name, b := range blobs {
		for i, part := range parts(string(b), blobPart) {
			if _, err := s.db.ExecContext(ctx, `INSERT INTO board_blobs (entry, name, part, data) VALUES (?, ?, ?, ?)`, e.ID, name, i, part); err != nil {
				return wrap("board add file", err)
			}
		}
	}
	var retracted any
	if e.Retracted != nil {
		retracted = ms(*e.Retracted)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO board_entries (id, created, key_hash, retracted, doc) VALUES (?, ?, ?, ?, ?)`,
		e.ID, ms(e.Created), e.KeyHash, retracted, string(doc)); err != nil {
		return wrap("board add", err)
	}
	return nil
}

// parts cuts s into pieces of at most n bytes, each whole UTF-8 (a TEXT value must be): an empty s
// is one empty part, so that an empty file is kept too.
func parts(s string, n int) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	for len(s) > 0 {
		cut := min(n, len(s))
		for cut < len(s) && cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

// Entries returns every entry, newest first.
func (s *SQLStore) Entries(ctx context.Context) ([]board.Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, created, key_hash, retracted, doc FROM board_entries ORDER BY created DESC, id`)
	if err != nil {
		return nil, wrap("board entries", err)
	}
	defer rows.Close()
	out := []board.Entry{}
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("board entries", err)
	}
	return out, nil
}

// Entry returns one entry.
func (s *SQLStore) Entry(ctx context.Context, id string) (board.Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, created, key_hash, retracted, doc FROM board_entries WHERE id = ?`, id)
	if err != nil {
		return board.Entry{}, wrap("board entry", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return board.Entry{}, wrap("board entry", err)
		}
		return board.Entry{}, board.ErrNotFound
	}
	return scanEntry(rows)
}

func scanEntry(rows *sql.Rows) (board.Entry, error) {
	var (
		id, doc   string
		created   int64
		keyHash   []byte
		retracted sql.NullInt64
	)
	if err := rows.Scan(&id, &created, &keyHash, &retracted, &doc); err != nil {
		return board.Entry{}, wrap("board entry", err)
	}
	var e board.Entry
	if err := json.Unmarshal([]byte(doc), &e); err != nil {
		return board.Entry{}, wrap("board entry "+id, err)
	}
	e.ID, e.Created, e.KeyHash = id, fromMS(created), keyHash
	e.Retracted = nil
	if retracted.Valid {
		t := fromMS(retracted.Int64)
		e.Retracted = &t
	}
	return e, nil
}

// Blob returns one of an entry's files, its parts joined.
func (s *SQLStore) Blob(ctx context.Context, id, name string) ([]byte, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT data FROM board_blobs WHERE entry = ? AND name = ? ORDER BY part`, id, name)
	if err != nil {
		return nil, wrap("board file", err)
	}
	defer rows.Close()
	var b strings.Builder
	found := false
	for rows.Next() {
		var part string
		if err := rows.Scan(&part); err != nil {
			return nil, wrap("board file", err)
		}
		b.WriteString(part)
		found = true
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("board file", err)
	}
	if !found {
		return nil, board.ErrNotFound
	}
	return []byte(b.String()), nil
}

// Retract marks the entry retracted at t, once: a second retraction keeps the first time.
func (s *SQLStore) Retract(ctx context.Context, id string, t time.Time) error {
	r, err := s.db.ExecContext(ctx, `UPDATE board_entries SET retracted = coalesce(retracted, ?) WHERE id = ?`, ms(t), id)
	if err != nil {
		return wrap("board retract", err)
	}
	if affected(r) == 0 {
		return board.ErrNotFound
	}
	return nil
}

// Season answers since when the board ranks season seed, keeping at when the season has no time
// kept or an earlier one than at: the upsert keeps the earlier of the two (by this or another
// process), and the read answers the time kept. Two statements, no transaction: the time kept only
// moves earlier, so every read answers a time no later than any call's that came before it.
func (s *SQLStore) Season(ctx context.Context, seed int64, at time.Time) (time.Time, error) {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO board_seasons (seed, since) VALUES (?, ?) ON CONFLICT (seed) DO UPDATE SET since = min(since, excluded.since)`, seed, ms(at)); err != nil {
		return time.Time{}, wrap("board season", err)
	}
	var since int64
	if err := s.db.QueryRowContext(ctx, `SELECT since FROM board_seasons WHERE seed = ?`, seed).Scan(&since); err != nil {
		return time.Time{}, wrap("board season", err)
	}
	return fromMS(since), nil
}
