// Package class is what a class on the server keeps: a class (its code, its name, the hash of its
// teacher's key) and the answers its students sent, each with the verdict the server's own engine
// gave. The Store interface is the one door to where they are kept (SQLite for cmd/server, D1 for
// the Worker); the schema both apply is in schema/ (see Migrations). The HTTP handlers over a Store
// are api's; this package holds no runtime and builds for every GOOS.
package class

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/apibank-playground/apibank/class/wire"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Class is one class: the code students type, the name the teacher gave it, the SHA-256 hash of the
// teacher's key (the key itself is never kept), when it was made and when it was last used.
type Class struct {
	Code    string
	Name    string
	KeyHash []byte
	Created time.Time
	// Active is when the class was last written to or read by its teacher; a class idle for
	// IdleAfter is deleted.
	Active time.Time
}

// Answer is one answer a student sent, with the server's verdict on it.
type Answer struct {
	Student string
	Level   string
	File    string
	ID      int
	Answer  string
	// Verdict is the engine's category (CORRECT, API_NAME_MISMATCH, PREMATURE_CALL, ...).
	Verdict string
	Correct bool
	At      time.Time
}

// Store keeps classes and their answers. Every method is safe for concurrent use. Times are kept to
// the millisecond.
type Store interface {
	// Create adds a class; ErrExists when its code is taken.
	Create(ctx context.Context, c Class) error
	// Get returns the class with code; ErrNotFound when there is none.
	Get(ctx context.Context, code string) (Class, error)
	// Touch marks the class as used at t; ErrNotFound when there is none.
	Touch(ctx context.Context, code string, t time.Time) error
	// Add keeps an answer of the class with code (and marks the class used at a.At); ErrNotFound
	// when there is no such class.
	Add(ctx context.Context, code string, a Answer) error
	// Answers returns the class's answers in the order they were added (an unknown class has none).
	Answers(ctx context.Context, code string) ([]Answer, error)
	// Delete removes the class and every answer of it; ErrNotFound when there is none.
	Delete(ctx context.Context, code string) error
	// DeleteIdle removes every class not used since before, with its answers, and says how many.
	DeleteIdle(ctx context.Context, before time.Time) (int, error)
	// Hit counts one event of name in the fixed window of length that holds now (windows start at
	// whole multiples of length since the Unix epoch) unless limit events are counted there
	// already, and returns whether it was counted and when the window ends. It is the rate limits'
	// counter: kept in the store, so every process of the server and every isolate of the Worker
	// count together. One name is counted in windows of one length; a limit under 1 counts nothing.
	Hit(ctx context.Context, name string, length time.Duration, limit int, now time.Time) (ok bool, ends time.Time, err error)
	// Take keeps answer a of the class with code, counting it toward both of q's limits in the
	// window that holds a.At, unless one of them is reached there: ErrNotFound when there is no
	// such class, a *LimitError when a limit is reached (then nothing is counted or kept). It is
	// Add and two Hits in one step, so that an answer costs one round trip to the store (D1's are
	// the Worker's slowest part of an answer), and a refused answer counts toward neither limit.
	Take(ctx context.Context, code string, a Answer, q Quota) error
	// PruneHits deletes the counts of the windows that ended at or before now, and says how many.
	PruneHits(ctx context.Context, now time.Time) (int, error)
	// Close releases the store.
	Close() error
}

// Quota is what Take counts an answer toward: the student's and the class's counts (kept under
// the names Student and Class, as Hit keeps its names) in fixed windows of Window, and their limits.
type Quota struct {
	Student, Class       string
	Window               time.Duration
	PerStudent, PerClass int
}

// LimitError is an answer Take refused because a limit is reached: the student's (Student true) or
// the class's, in the window that Ends then.
type LimitError struct {
	Student bool
	Ends    time.Time
}

func (e *LimitError) Error() string {
	who := "the class's"
	if e.Student {
		who = "the student's"
	}
	return fmt.Sprintf("%s limit of answers is reached until %s", who, e.Ends.Format(time.RFC3339))
}

// Errors of a Store.
var (
	ErrNotFound = errors.New("no such class")
	ErrExists   = errors.New("the class code is taken")
)

// IdleAfter is how long a class lives without being used.
const IdleAfter = 180 * 24 * time.Hour

// Sizes of what a class keeps.
const (
	// MaxStudent is the most characters of a student's name.
	MaxStudent = 64
	// MaxName is the most characters of a class's name.
	MaxName = 100
)

// NewCode returns a random class code of wire.CodeLen characters of wire.CodeAlphabet (24^6, about
// 191 million codes: a code is an address, not a secret; the teacher's key is the secret). A code
// is read back by wire.NormalCode, the one rule of the server and the student's page.
func NewCode() string {
	var b [wire.CodeLen]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it panics if the system has no source)
	out := make([]byte, wire.CodeLen)
	for i, c := range b {
		// 256 = 10*24 + 16: rejecting would be exact, but the bias of c%24 (16 of 24 symbols one
		// chance in 256 likelier) costs nothing that matters for an address.
		out[i] = wire.CodeAlphabet[int(c)%len(wire.CodeAlphabet)]
	}
	return string(out)
}

// KeyBytes is the size of a teacher's key before encoding: 256 random bits.
const KeyBytes = 32

// NewKey returns a new teacher's key (KeyBytes random bytes, base64url without padding) and its hash.
func NewKey() (key string, hash []byte) {
	b := make([]byte, KeyBytes)
	_, _ = rand.Read(b)
	key = base64.RawURLEncoding.EncodeToString(b)
	return key, HashKey(key)
}

// HashKey is what a Store keeps of a key: its SHA-256 (a key has 256 random bits, so a fast hash
// is as safe as a slow one: there is nothing to guess).
func HashKey(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// KeyMatches reports, in time that does not depend on where they differ, whether key is the one
// whose hash is hash.
func KeyMatches(key string, hash []byte) bool {
	got := HashKey(key)
	return len(hash) == len(got) && subtle.ConstantTimeCompare(got, hash) == 1
}

// CheckText checks a name a person typed (a student's or a class's): not empty, at most max
// characters, valid UTF-8, no control characters. what names it in the error.
func CheckText(what, s string, max int) error {
	switch {
	case !utf8.ValidString(s):
		return fmt.Errorf("%s is not valid UTF-8", what)
	case strings.TrimSpace(s) == "":
		return fmt.Errorf("%s is empty", what)
	case utf8.RuneCountInString(s) > max:
		return fmt.Errorf("%s has %d characters; the most is %d", what, utf8.RuneCountInString(s), max)
	}
	for i, r := range s {
		if unicode.IsControl(r) {
			return fmt.Errorf("%s has a control character (U+%04X) at byte %d", what, r, i)
		}
	}
	return nil
}
