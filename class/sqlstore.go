package class

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// SQLStore is a Store over a database/sql handle to SQLite or anything that speaks its dialect
// (Cloudflare D1). It uses no transactions across statements (D1's driver has none): each method's
// statements are ordered so that a concurrent one never leaves an answer without its class.
type SQLStore struct {
	db *sql.DB
}

// NewSQLStore applies the schema's migrations that db has not had yet (see Migrations) and returns
// the store. The store owns db from then on: Close closes it.
func NewSQLStore(ctx context.Context, db *sql.DB) (*SQLStore, error) {
	if err := Migrate(ctx, db); err != nil {
		return nil, err
	}
	return &SQLStore{db: db}, nil
}

// Migrate applies, in order, every migration above the version db records, each recorded in
// schema_version once its statements ran.
func Migrate(ctx context.Context, db *sql.DB) error {
	ms, err := Migrations()
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, VersionTable); err != nil {
		return fmt.Errorf("class schema: %w", err)
	}
	var have sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_version`).Scan(&have); err != nil {
		return fmt.Errorf("class schema: reading its version: %w", err)
	}
	if int(have.Int64) > len(ms) {
		return fmt.Errorf("class schema: the database is at version %d, newer than this program's %d", have.Int64, len(ms))
	}
	for _, m := range ms[have.Int64:] {
		for i, st := range Statements(m.SQL) {
			if _, err := db.ExecContext(ctx, st); err != nil {
				return fmt.Errorf("class schema %s, statement %d: %w", m.Name, i+1, err)
			}
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO schema_version (version, applied) VALUES (?, ?)`, m.Version, time.Now().UnixMilli()); err != nil {
			return fmt.Errorf("class schema %s: %w", m.Name, err)
		}
	}
	return nil
}

func ms(t time.Time) int64            { return t.UnixMilli() }
func fromMS(v int64) time.Time        { return time.UnixMilli(v).UTC() }
func boolInt(b bool) int64            { return map[bool]int64{true: 1}[b] }
func affected(r sql.Result) int64     { n, _ := r.RowsAffected(); return n }
func wrap(op string, err error) error { return fmt.Errorf("class store: %s: %w", op, err) }

// Create adds a class; ErrExists when the code is taken.
func (s *SQLStore) Create(ctx context.Context, c Class) error {
	r, err := s.db.ExecContext(ctx, `INSERT INTO classes (code, name, key_hash, created, active) VALUES (?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING`,
		c.Code, c.Name, c.KeyHash, ms(c.Created), ms(c.Active))
	if err != nil {
		return wrap("create", err)
	}
	if affected(r) == 0 {
		return ErrExists
	}
	return nil
}

// Get returns the class with code.
func (s *SQLStore) Get(ctx context.Context, code string) (Class, error) {
	var c Class
	var created, active int64
	err := s.db.QueryRowContext(ctx, `SELECT code, name, key_hash, created, active FROM classes WHERE code = ?`, code).
		Scan(&c.Code, &c.Name, &c.KeyHash, &created, &active)
	if errors.Is(err, sql.ErrNoRows) {
		return Class{}, ErrNotFound
	}
	if err != nil {
		return Class{}, wrap("get", err)
	}
	c.Created, c.Active = fromMS(created), fromMS(active)
	return c, nil
}

// Touch marks the class used at t (a later use is kept).
func (s *SQLStore) Touch(ctx context.Context, code string, t time.Time) error {
	r, err := s.db.ExecContext(ctx, `UPDATE classes SET active = max(active, ?) WHERE code = ?`, ms(t), code)
	if err != nil {
		return wrap("touch", err)
	}
	if affected(r) == 0 {
		return ErrNotFound
	}
	return nil
}

// Add keeps an answer. The insert itself checks the class exists, so an answer never outlives a class
// deleted at the same time (Delete removes the class first), and a trigger marks the class used
// (schema/0004_touch.sql): one statement.
func (s *SQLStore) Add(ctx context.Context, code string, a Answer) error {
	r, err := s.db.ExecContext(ctx, `INSERT INTO answers (class, student, level, file, sample, answer, verdict, correct, at)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM classes WHERE code = ?)`,
		code, a.Student, a.Level, a.File, a.ID, a.Answer, a.Verdict, boolInt(a.Correct), ms(a.At), code)
	if err != nil {
		return wrap("add", err)
	}
	if affected(r) == 0 {
		return ErrNotFound
	}
	return nil
}

// Answers returns the class's answers in the order they were added.
func (s *SQLStore) Answers(ctx context.Context, code string) ([]Answer, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT student, level, file, sample, answer, verdict, correct, at FROM answers WHERE class = ? ORDER BY seq`, code)
	if err != nil {
		return nil, wrap("answers", err)
	}
	defer rows.Close()
	var out []Answer
	for rows.Next() {
		var a Answer
		var correct, at int64
		if err := rows.Scan(&a.Student, &a.Level, &a.File, &a.ID, &a.Answer, &a.Verdict, &correct, &at); err != nil {
			return nil, wrap("answers", err)
		}
		a.Correct, a.At = correct != 0, fromMS(at)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("answers", err)
	}
	return out, nil
}

// Delete removes the class, then its answers (an Add racing with it finds no class).
func (s *SQLStore) Delete(ctx context.Context, code string) error {
	r, err := s.db.ExecContext(ctx, `DELETE FROM classes WHERE code = ?`, code)
	if err != nil {
		return wrap("delete", err)
	}
	if affected(r) == 0 {
		return ErrNotFound
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM answers WHERE class = ?`, code); err != nil {
		return wrap("delete", err)
	}
	return nil
}

// DeleteIdle removes each class not used since before (checked again as it is deleted, so a class
// used meanwhile stays), then its answers.
func (s *SQLStore) DeleteIdle(ctx context.Context, before time.Time) (int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT code FROM classes WHERE active < ?`, ms(before))
	if err != nil {
		return 0, wrap("delete idle", err)
	}
	var codes []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			rows.Close()
			return 0, wrap("delete idle", err)
		}
		codes = append(codes, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, wrap("delete idle", err)
	}
	n := 0
	for _, c := range codes {
		r, err := s.db.ExecContext(ctx, `DELETE FROM classes WHERE code = ? AND active < ?`, c, ms(before))
		if err != nil {
			return n, wrap("delete idle", err)
		}
		if affected(r) == 0 {
			continue
		}
		n++
		if _, err := s.db.ExecContext(ctx, `DELETE FROM answers WHERE class = ?`, c); err != nil {
			return n, wrap("delete idle", err)
		}
	}
	return n, nil
}

// Close closes the database.
func (s *SQLStore) Close() error { return s.db.Close() }

// Hit counts an event in one statement (an upsert that adds one only below the limit and returns
// the new count), so concurrent requests never both take the last place of a window.
func (s *SQLStore) Hit(ctx context.Context, name string, length time.Duration, limit int, now time.Time) (bool, time.Time, error) {
	start, end, err := window(now, length)
	if err != nil {
		return false, time.Time{}, fmt.Errorf("class store: hit %q: %w", name, err)
	}
	ends := fromMS(end)
	if limit < 1 {
		return false, ends, nil
	}
	var n int64
	err = s.db.QueryRowContext(ctx, `INSERT INTO hits (name, start, ends, n) VALUES (?, ?, ?, 1)
		ON CONFLICT (name, start) DO UPDATE SET n = n + 1 WHERE n < ? RETURNING n`,
		name, start, end, int64(limit)).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) { // the window is full: nothing was counted
		return false, ends, nil
	}
	if err != nil {
		return false, ends, wrap("hit", err)
	}
	return true, ends, nil
}

// window returns the fixed window of length that holds now, as Unix milliseconds: windows start at
// whole multiples of length since the epoch (also before it), and are counted in whole milliseconds.
func window(now time.Time, length time.Duration) (start, end int64, err error) {
	if length < time.Millisecond {
		return 0, 0, fmt.Errorf("a window of %v (at least 1ms)", length)
	}
	l, t := length.Milliseconds(), ms(now)
	start = t - t%l
	if t < 0 && t%l != 0 {
		start -= l
	}
	return start, start + l, nil
}

// The messages with which answer_take (schema/0005_take.sql) refuses an answer; the store
// recognises them in the error the database returns (SQLite's, or D1's, which wraps it).
const (
	refusedNoClass = "take refused: no class"
	refusedStudent = "take refused: student limit"
	refusedClass   = "take refused: class limit"
)

// Take is one statement: an insert into the view answer_takes, whose trigger checks the class and
// both limits, then counts and keeps the answer (schema/0005_take.sql); a refusal aborts the
// statement, so nothing of it stays.
func (s *SQLStore) Take(ctx context.Context, code string, a Answer, q Quota) error {
	start, end, err := window(a.At, q.Window)
	if err != nil {
		return fmt.Errorf("class store: take: %w", err)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO answer_takes (class, student, level, file, sample, answer, verdict, correct, at,
		student_hits, class_hits, start, ends, student_limit, class_limit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		code, a.Student, a.Level, a.File, a.ID, a.Answer, a.Verdict, boolInt(a.Correct), ms(a.At),
		q.Student, q.Class, start, end, int64(q.PerStudent), int64(q.PerClass))
	if err == nil {
		return nil
	}
	switch msg := err.Error(); {
	case strings.Contains(msg, refusedNoClass):
		return ErrNotFound
	case strings.Contains(msg, refusedStudent):
		return &LimitError{Student: true, Ends: fromMS(end)}
	case strings.Contains(msg, refusedClass):
		return &LimitError{Ends: fromMS(end)}
	}
	return wrap("take", err)
}

// PruneHits deletes the counts of ended windows.
func (s *SQLStore) PruneHits(ctx context.Context, now time.Time) (int, error) {
	r, err := s.db.ExecContext(ctx, `DELETE FROM hits WHERE ends <= ?`, ms(now))
	if err != nil {
		return 0, wrap("prune hits", err)
	}
	return int(affected(r)), nil
}
