// Package storetest is the contract every class.Store keeps, as a test suite run against each
// implementation (SQLite in a file, D1 through workerd): the same calls, the same answers.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/class"
)

// Run runs the contract against stores made by open (a new, empty store for each subtest; the
// suite closes it).
func Run(t *testing.T, open func(t *testing.T) class.Store) {
	tests := []struct {
		name string
		f    func(t *testing.T, s class.Store)
	}{
		{"CreateGet", createGet},
		{"CodeTaken", codeTaken},
		{"Unknown", unknown},
		{"AnswersInOrder", answersInOrder},
		{"ClassesApart", classesApart},
		{"Touch", touch},
		{"Delete", deleteClass},
		{"DeleteIdle", deleteIdle},
		{"Concurrent", concurrent},
		{"Hits", hits},
		{"HitsAtOnce", hitsAtOnce},
		{"PruneHits", pruneHits},
		{"Take", take},
		{"TakeAtOnce", takeAtOnce},
		{"BoardSeason", boardSeason},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			}()
			tc.f(t, s)
		})
	}
}

var ctx = context.Background()

// at is a time kept to the millisecond, as stores keep times.
func at(day, ms int) time.Time {
	return time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC).AddDate(0, 0, day).Add(time.Duration(ms) * time.Millisecond)
}

func newClass(t *testing.T, s class.Store, code, name string, active time.Time) class.Class {
	t.Helper()
	_, hash := class.NewKey()
	c := class.Class{Code: code, Name: name, KeyHash: hash, Created: active, Active: active}
	if err := s.Create(ctx, c); err != nil {
		t.Fatalf("Create(%s): %v", code, err)
	}
	return c
}

func createGet(t *testing.T, s class.Store) {
	want := newClass(t, s, "ACDEFG", "Tools 101 — «morning» group", at(0, 123))
	got, err := s.Get(ctx, "ACDEFG")
	if err != nil {
		t.Fatal(err)
	}
	if got.Code != want.Code || got.Name != want.Name || !bytes.Equal(got.KeyHash, want.KeyHash) ||
		!got.Created.Equal(want.Created) || !got.Active.Equal(want.Active) {
		t.Errorf("Get = %+v, want %+v", got, want)
	}
}

func codeTaken(t *testing.T, s class.Store) {
	first := newClass(t, s, "HJKMNP", "first", at(0, 0))
	err := s.Create(ctx, class.Class{Code: "HJKMNP", Name: "second", KeyHash: []byte("x"), Created: at(1, 0), Active: at(1, 0)})
	if !errors.Is(err, class.ErrExists) {
		t.Fatalf("Create of a taken code = %v, want ErrExists", err)
	}
	got, err := s.Get(ctx, "HJKMNP")
	if err != nil || got.Name != first.Name || !bytes.Equal(got.KeyHash, first.KeyHash) {
		t.Errorf("after a refused Create the class is %+v, %v; want the first one kept", got, err)
	}
}

func unknown(t *testing.T, s class.Store) {
	if _, err := s.Get(ctx, "QRTWXY"); !errors.Is(err, class.ErrNotFound) {
		t.Errorf("Get unknown = %v, want ErrNotFound", err)
	}
	if err := s.Touch(ctx, "QRTWXY", at(0, 0)); !errors.Is(err, class.ErrNotFound) {
		t.Errorf("Touch unknown = %v, want ErrNotFound", err)
	}
	if err := s.Add(ctx, "QRTWXY", class.Answer{Student: "a", Level: "level-1", File: "f", Answer: "x", Verdict: "CORRECT", At: at(0, 0)}); !errors.Is(err, class.ErrNotFound) {
		t.Errorf("Add to unknown = %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "QRTWXY"); !errors.Is(err, class.ErrNotFound) {
		t.Errorf("Delete unknown = %v, want ErrNotFound", err)
	}
	if as, err := s.Answers(ctx, "QRTWXY"); err != nil || len(as) != 0 {
		t.Errorf("Answers of unknown = %v, %v; want none", as, err)
	}
}

func answersInOrder(t *testing.T, s class.Store) {
	newClass(t, s, "ACDEFG", "c", at(0, 0))
	want := []class.Answer{
		{Student: "Zoë O'Brien", Level: "level-1", File: "AddAlarm-level-1-1.jsonl", ID: 2, Answer: "[AddAlarm(time='08:00')]", Verdict: "CORRECT", Correct: true, At: at(0, 1)},
		{Student: "李雷", Level: "level-1", File: "AddAlarm-level-1-1.jsonl", ID: 2, Answer: "<b>not html</b>\n'quoted' \"twice\"", Verdict: "NO_API_CALL", At: at(0, 2)},
		{Student: "Zoë O'Brien", Level: "level-3", File: "scene-1.json", ID: 0, Answer: "", Verdict: "NO_API_CALL", At: at(0, 2)},
	}
	for _, a := range want {
		if err := s.Add(ctx, "ACDEFG", a); err != nil {
			t.Fatalf("Add: %v", err)
		}
	}
	got, err := s.Answers(ctx, "ACDEFG")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("Answers = %d answers, want %d", len(got), len(want))
	}
	for i := range want {
		if !got[i].At.Equal(want[i].At) {
			t.Errorf("answer %d at %v, want %v", i, got[i].At, want[i].At)
		}
		got[i].At = want[i].At
		if got[i] != want[i] {
			t.Errorf("answer %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	c, err := s.Get(ctx, "ACDEFG")
	if err != nil || !c.Active.Equal(at(0, 2)) {
		t.Errorf("after answers the class was active at %v (%v), want the last answer's time %v", c.Active, err, at(0, 2))
	}
}

func classesApart(t *testing.T, s class.Store) {
	newClass(t, s, "AAAAAA", "a", at(0, 0))
	newClass(t, s, "CCCCCC", "c", at(0, 0))
	for i, code := range []string{"AAAAAA", "CCCCCC", "AAAAAA"} {
		if err := s.Add(ctx, code, class.Answer{Student: code, Level: "level-1", File: "f", ID: i, Answer: "x", Verdict: "NO_API_CALL", At: at(0, i)}); err != nil {
			t.Fatal(err)
		}
	}
	for code, n := range map[string]int{"AAAAAA": 2, "CCCCCC": 1} {
		as, err := s.Answers(ctx, code)
		if err != nil || len(as) != n {
			t.Fatalf("Answers(%s) = %d, %v; want %d", code, len(as), err, n)
		}
		for _, a := range as {
			if a.Student != code {
				t.Errorf("class %s holds an answer of %s", code, a.Student)
			}
		}
	}
}

func touch(t *testing.T, s class.Store) {
	newClass(t, s, "ACDEFG", "c", at(0, 0))
	for _, tt := range []struct {
		touch time.Time
		want  time.Time
	}{
		{at(5, 0), at(5, 0)},
		{at(3, 0), at(5, 0)}, // an earlier use never moves the time back
		{at(9, 7), at(9, 7)},
	} {
		if err := s.Touch(ctx, "ACDEFG", tt.touch); err != nil {
			t.Fatal(err)
		}
		c, err := s.Get(ctx, "ACDEFG")
		if err != nil || !c.Active.Equal(tt.want) {
			t.Errorf("Touch(%v): active %v (%v), want %v", tt.touch, c.Active, err, tt.want)
		}
	}
}

func deleteClass(t *testing.T, s class.Store) {
	newClass(t, s, "ACDEFG", "c", at(0, 0))
	newClass(t, s, "HJKMNP", "kept", at(0, 0))
	for _, code := range []string{"ACDEFG", "HJKMNP"} {
		if err := s.Add(ctx, code, class.Answer{Student: "s", Level: "level-1", File: "f", Answer: "x", Verdict: "NO_API_CALL", At: at(0, 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete(ctx, "ACDEFG"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "ACDEFG"); !errors.Is(err, class.ErrNotFound) {
		t.Errorf("Get after Delete = %v, want ErrNotFound", err)
	}
	if as, err := s.Answers(ctx, "ACDEFG"); err != nil || len(as) != 0 {
		t.Errorf("Answers after Delete = %d, %v; want none", len(as), err)
	}
	if err := s.Add(ctx, "ACDEFG", class.Answer{Student: "s", Level: "level-1", File: "f", Answer: "x", Verdict: "NO_API_CALL", At: at(0, 2)}); !errors.Is(err, class.ErrNotFound) {
		t.Errorf("Add after Delete = %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "ACDEFG"); !errors.Is(err, class.ErrNotFound) {
		t.Errorf("second Delete = %v, want ErrNotFound", err)
	}
	if as, err := s.Answers(ctx, "HJKMNP"); err != nil || len(as) != 1 {
		t.Errorf("the other class has %d answers (%v) after a Delete, want 1", len(as), err)
	}
	// A code freed by Delete can be made again, and starts empty.
	newClass(t, s, "ACDEFG", "again", at(1, 0))
	if as, err := s.Answers(ctx, "ACDEFG"); err != nil || len(as) != 0 {
		t.Errorf("a remade class has %d answers (%v), want none", len(as), err)
	}
}

func deleteIdle(t *testing.T, s class.Store) {
	newClass(t, s, "AAAAAA", "idle", at(0, 0))
	newClass(t, s, "CCCCCC", "answered lately", at(0, 0))
	newClass(t, s, "DDDDDD", "read lately", at(0, 0))
	newClass(t, s, "EEEEEE", "new", at(100, 0))
	for _, code := range []string{"AAAAAA", "CCCCCC"} {
		if err := s.Add(ctx, code, class.Answer{Student: "s", Level: "level-1", File: "f", Answer: "x", Verdict: "NO_API_CALL", At: at(0, 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Add(ctx, "CCCCCC", class.Answer{Student: "s", Level: "level-1", File: "f", Answer: "x", Verdict: "NO_API_CALL", At: at(60, 0)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Touch(ctx, "DDDDDD", at(60, 0)); err != nil {
		t.Fatal(err)
	}
	n, err := s.DeleteIdle(ctx, at(30, 0))
	if err != nil || n != 1 {
		t.Fatalf("DeleteIdle = %d, %v; want 1", n, err)
	}
	for code, alive := range map[string]bool{"AAAAAA": false, "CCCCCC": true, "DDDDDD": true, "EEEEEE": true} {
		_, err := s.Get(ctx, code)
		if alive != (err == nil) {
			t.Errorf("after DeleteIdle, Get(%s) = %v; alive want %v", code, err, alive)
		}
	}
	if as, err := s.Answers(ctx, "AAAAAA"); err != nil || len(as) != 0 {
		t.Errorf("an idle class's answers outlived it: %d, %v", len(as), err)
	}
	if n, err := s.DeleteIdle(ctx, at(30, 0)); err != nil || n != 0 {
		t.Errorf("second DeleteIdle = %d, %v; want 0", n, err)
	}
}

func concurrent(t *testing.T, s class.Store) {
	newClass(t, s, "ACDEFG", "c", at(0, 0))
	const students, each = 30, 10
	var wg sync.WaitGroup
	errs := make(chan error, students*each)
	for i := range students {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				a := class.Answer{Student: fmt.Sprintf("student %d", i), Level: "level-1", File: "f", ID: j, Answer: "x", Verdict: "NO_API_CALL", At: at(0, j)}
				if err := s.Add(ctx, "ACDEFG", a); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("Add at once: %v", err)
	}
	as, err := s.Answers(ctx, "ACDEFG")
	if err != nil || len(as) != students*each {
		t.Fatalf("Answers = %d, %v; want %d", len(as), err, students*each)
	}
	last := map[string]int{}
	for _, a := range as {
		if prev, ok := last[a.Student]; ok && a.ID != prev+1 {
			t.Errorf("%s's answers out of order: %d after %d", a.Student, a.ID, prev)
		}
		last[a.Student] = a.ID
	}
}

func hit(t *testing.T, s class.Store, name string, length time.Duration, limit int, now time.Time) (bool, time.Time) {
	t.Helper()
	ok, ends, err := s.Hit(ctx, name, length, limit, now)
	if err != nil {
		t.Fatalf("Hit(%q, %v, %d, %v): %v", name, length, limit, now, err)
	}
	return ok, ends
}

func hits(t *testing.T, s class.Store) {
	// A window of a minute starting at 09:00:00 (at(0, 0)); each step one Hit, in order.
	for _, tt := range []struct {
		what   string
		name   string
		length time.Duration
		limit  int
		now    time.Time
		ok     bool
		ends   time.Time
	}{
		{"first of 3", "student A", time.Minute, 3, at(0, 0), true, at(0, 60_000)},
		{"second of 3", "student A", time.Minute, 3, at(0, 59_999), true, at(0, 60_000)},
		{"another name counts apart", "student B", time.Minute, 3, at(0, 10), true, at(0, 60_000)},
		{"third of 3", "student A", time.Minute, 3, at(0, 30_000), true, at(0, 60_000)},
		{"fourth: over the limit", "student A", time.Minute, 3, at(0, 40_000), false, at(0, 60_000)},
		{"over the limit again (not counted)", "student A", time.Minute, 3, at(0, 59_999), false, at(0, 60_000)},
		{"a raised limit sees the 3 counted", "student A", time.Minute, 4, at(0, 59_999), true, at(0, 60_000)},
		{"the next window", "student A", time.Minute, 3, at(0, 60_000), true, at(0, 120_000)},
		{"an hour's window", "address", time.Hour, 1, at(0, 30*60_000), true, at(0, 60*60_000)},
		{"an hour's window full", "address", time.Hour, 1, at(0, 59*60_000), false, at(0, 60*60_000)},
		{"a limit of 0 counts nothing", "zero", time.Minute, 0, at(0, 0), false, at(0, 60_000)},
		{"a limit of 0 left no count", "zero", time.Minute, 1, at(0, 0), true, at(0, 60_000)},
	} {
		ok, ends := hit(t, s, tt.name, tt.length, tt.limit, tt.now)
		if ok != tt.ok || !ends.Equal(tt.ends) {
			t.Errorf("%s: Hit = %v, ends %v; want %v, ends %v", tt.what, ok, ends, tt.ok, tt.ends)
		}
	}
	for _, length := range []time.Duration{0, -time.Minute, time.Microsecond} {
		if _, _, err := s.Hit(ctx, "x", length, 1, at(0, 0)); err == nil {
			t.Errorf("Hit with a window of %v: no error", length)
		}
	}
}

// hitsAtOnce: many requests racing for the last places of a window get exactly limit of them.
func hitsAtOnce(t *testing.T, s class.Store) {
	const tries, limit = 40, 25
	var wg sync.WaitGroup
	var mu sync.Mutex
	counted := 0
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, _, err := s.Hit(ctx, "class ACDEFG", time.Minute, limit, at(0, i))
			if err != nil {
				t.Errorf("Hit at once: %v", err)
			}
			if ok {
				mu.Lock()
				counted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if counted != limit {
		t.Errorf("%d requests at once under a limit of %d: %d counted", tries, limit, counted)
	}
}

func pruneHits(t *testing.T, s class.Store) {
	hit(t, s, "minute", time.Minute, 5, at(0, 0))        // ends at(0, 60_000)
	hit(t, s, "minute", time.Minute, 5, at(0, 60_000))   // ends at(0, 120_000)
	hit(t, s, "hour", time.Hour, 5, at(0, 0))            // ends at(0, 3_600_000)
	hit(t, s, "other minute", time.Minute, 5, at(0, 10)) // ends at(0, 60_000)
	for _, tt := range []struct {
		now  time.Time
		want int
	}{
		{at(0, 59_999), 0},
		{at(0, 60_000), 2}, // a window ends at its end: both minute windows of 09:00
		{at(0, 60_000), 0},
		{at(0, 3_600_000), 2},
	} {
		n, err := s.PruneHits(ctx, tt.now)
		if err != nil || n != tt.want {
			t.Errorf("PruneHits(%v) = %d, %v; want %d", tt.now, n, err, tt.want)
		}
	}
	// A pruned window's name counts from nothing again.
	for i := range 5 {
		if ok, _ := hit(t, s, "minute", time.Minute, 5, at(0, 1)); !ok {
			t.Fatalf("hit %d of a pruned window refused", i+1)
		}
	}
}

// take: each step one Take in a window of a minute from 09:00:00, a student's limit of 2 and a
// class's of 3; a refused answer is neither counted nor kept.
func take(t *testing.T, s class.Store) {
	newClass(t, s, "ACDEFG", "c", at(0, 0))
	quota := func(student string) class.Quota {
		return class.Quota{Student: "student " + student, Class: "class ACDEFG", Window: time.Minute, PerStudent: 2, PerClass: 3}
	}
	var kept []string
	for _, tt := range []struct {
		what    string
		code    string
		student string
		at      time.Time
		q       func(string) class.Quota
		want    error // nil, class.ErrNotFound or a *class.LimitError
	}{
		{"the first answer", "ACDEFG", "A", at(0, 10), quota, nil},
		{"the student's second", "ACDEFG", "A", at(0, 20), quota, nil},
		{"the student's third: over the student's limit", "ACDEFG", "A", at(0, 30), quota, &class.LimitError{Student: true, Ends: at(0, 60_000)}},
		{"another student", "ACDEFG", "B", at(0, 40), quota, nil},
		{"a fourth of the class: over the class's limit", "ACDEFG", "C", at(0, 50), quota, &class.LimitError{Ends: at(0, 60_000)}},
		{"the refused ones were not counted: B's second is the class's limit again", "ACDEFG", "B", at(0, 59_999), quota, &class.LimitError{Ends: at(0, 60_000)}},
		{"the next window counts afresh", "ACDEFG", "A", at(0, 60_000), quota, nil},
		{"no such class", "QRTWXY", "A", at(0, 60_001), func(string) class.Quota {
			return class.Quota{Student: "student A", Class: "class QRTWXY", Window: time.Minute, PerStudent: 2, PerClass: 3}
		}, class.ErrNotFound},
		{"a limit of 0 takes nothing", "ACDEFG", "D", at(0, 60_002), func(who string) class.Quota {
			q := quota(who)
			q.PerStudent = 0
			return q
		}, &class.LimitError{Student: true, Ends: at(0, 120_000)}},
	} {
		a := class.Answer{Student: tt.student, Level: "level-1", File: "f", ID: len(kept), Answer: tt.what, Verdict: "CORRECT", Correct: true, At: tt.at}
		err := s.Take(ctx, tt.code, a, tt.q(tt.student))
		var limit *class.LimitError
		switch want := tt.want.(type) {
		case nil:
			if err != nil {
				t.Errorf("%s: Take = %v, want it kept", tt.what, err)
			}
			kept = append(kept, tt.what)
		case *class.LimitError:
			if !errors.As(err, &limit) || *limit != *want {
				t.Errorf("%s: Take = %v, want %+v", tt.what, err, want)
			}
		default:
			if !errors.Is(err, want) {
				t.Errorf("%s: Take = %v, want %v", tt.what, err, want)
			}
		}
	}
	got, err := s.Answers(ctx, "ACDEFG")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, a := range got {
		texts = append(texts, a.Answer)
	}
	if fmt.Sprint(texts) != fmt.Sprint(kept) {
		t.Errorf("answers kept %q, want %q", texts, kept)
	}
	if c, err := s.Get(ctx, "ACDEFG"); err != nil || !c.Active.Equal(at(0, 60_000)) {
		t.Errorf("after the answers the class was active at %v (%v), want the last kept answer's %v", c.Active, err, at(0, 60_000))
	}
	// Take's counts are Hit's: in the first window the class counted 3 and student A 2.
	if ok, _ := hit(t, s, "class ACDEFG", time.Minute, 4, at(0, 1)); !ok {
		t.Errorf("the class's count of the first window is over 3")
	}
	if ok, _ := hit(t, s, "class ACDEFG", time.Minute, 4, at(0, 2)); ok {
		t.Errorf("the class's count of the first window is under 3")
	}
	if ok, _ := hit(t, s, "student A", time.Minute, 2, at(0, 3)); ok {
		t.Errorf("student A's count of the first window is under 2")
	}
	if err := s.Take(ctx, "ACDEFG", class.Answer{Student: "A", At: at(0, 0)}, class.Quota{Student: "x", Class: "y", PerStudent: 1, PerClass: 1}); err == nil {
		t.Errorf("Take with no window: no error")
	}
}

// takeAtOnce: answers racing for the last places of a class's window get exactly its limit.
func takeAtOnce(t *testing.T, s class.Store) {
	newClass(t, s, "ACDEFG", "c", at(0, 0))
	const tries, limit = 40, 25
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken := 0
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			who := fmt.Sprintf("student %02d", i)
			err := s.Take(ctx, "ACDEFG", class.Answer{Student: who, Level: "level-1", File: "f", Answer: "x", Verdict: "CORRECT", At: at(0, i)},
				class.Quota{Student: who, Class: "class ACDEFG", Window: time.Minute, PerStudent: 5, PerClass: limit})
			var limitErr *class.LimitError
			switch {
			case err == nil:
				mu.Lock()
				taken++
				mu.Unlock()
			case !errors.As(err, &limitErr) || limitErr.Student:
				t.Errorf("Take at once: %v", err)
			}
		}()
	}
	wg.Wait()
	got, err := s.Answers(ctx, "ACDEFG")
	if taken != limit || err != nil || len(got) != limit {
		t.Errorf("%d answers at once under a class's limit of %d: %d taken, %d kept (%v)", tries, limit, taken, len(got), err)
	}
}

// boardSeason: a store that keeps the board too (board.Store) keeps since when each season is
// ranked: the earliest time its calls brought, whatever later calls (at once or later) bring; seeds
// apart, the largest seed a variant has included.
func boardSeason(t *testing.T, s class.Store) {
	bs, ok := s.(board.Store)
	if !ok {
		t.Skip("the store keeps no board")
	}
	const big = 1<<53 - 1 // protocol.MaxSeed
	for _, tt := range []struct {
		what string
		seed int64
		at   time.Time
		want time.Time
	}{
		{"a season first ranked", 7, at(0, 5), at(0, 5)},
		{"the same season later", 7, at(3, 0), at(0, 5)},
		{"another season", 8, at(1, 9), at(1, 9)},
		{"the first again", 7, at(9, 0), at(0, 5)},
		{"the first at the same time", 7, at(0, 5), at(0, 5)},
		{"an entry of the first that came before", 7, at(0, 2), at(0, 2)},
		{"the first later again", 7, at(4, 0), at(0, 2)},
		{"the other season kept", 8, at(2, 0), at(1, 9)},
		{"the largest seed", big, at(2, 1), at(2, 1)},
		{"the largest seed later", big, at(4, 0), at(2, 1)},
	} {
		got, err := bs.Season(ctx, tt.seed, tt.at)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("%s: Season(%d, %v) = %v, %v; want %v", tt.what, tt.seed, tt.at, got, err, tt.want)
		}
	}
	// Processes that rank a new season at once each answer a time no later than their own, and
	// the earliest of theirs is kept.
	const n = 8
	var wg sync.WaitGroup
	got := make([]time.Time, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = bs.Season(ctx, 41, at(5, n-i))
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || got[i].After(at(5, n-i)) || got[i].Before(at(5, 1)) {
			t.Errorf("Season at once: call %d at %v answered %v, %v", i, at(5, n-i), got[i], errs[i])
		}
	}
	if kept, err := bs.Season(ctx, 41, at(6, 0)); err != nil || !kept.Equal(at(5, 1)) {
		t.Errorf("after the calls at once: %v, %v; want the earliest of theirs, %v", kept, err, at(5, 1))
	}
}
