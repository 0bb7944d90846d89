// Package board is the public leaderboard: runs submitted as they were written (a run's predictions
// file per trial and the settings the run recorded), judged again by the host's own engine, kept
// with the host's verdicts only, and ranked with statistical ties.
//
// What a submission claims is never believed: its report, an episode's outcome and a line's verdict
// are not read; the host's engine scores the predictions and replays the episodes (Rescore). An
// entry records the dataset's hash and the engine's build it was judged with, so that entries of
// other data or another engine are shown apart, never ranked with the current ones (Rank). A board
// may rank a season, a variant of the builtin data named by its seed (Current.Season), so that it
// cannot be memorized from the public data: every run is judged on the data it was made on
// (Entry.Seed, loaded by Load) and ranked only when that is the season's. The
// Store interface is where entries are kept: SQLite on the server, D1 on the Worker, the same SQL
// store as the classes (class.SQLStore). The HTTP handlers are api's; this package holds
// no runtime and builds for every GOOS, so the board page ranks a static export in the tab as the
// server does.
package board

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/run"
)

// Format tags a submission's JSON.
const Format = "apibank-playground/submission@1"

// Submission is what a client sends to the board: the run's settings as the run recorded them and,
// per trial, its predictions file as the run wrote it with the requests that failed.
type Submission struct {
	Format string  `json:"format"`
	Run    RunInfo `json:"run"`
	Trials []Trial `json:"trials"`
	// Report is whatever report the client sends along; it is never read (the host judges the
	// predictions itself) and never kept.
	Report any `json:"report,omitempty"`
}

// RunInfo is a run's settings and facts as the run recorded them (run.Info).
type RunInfo = run.Info

// Trial is one trial of a run: its predictions file (run.OutJSONL: prediction lines and level-3
// episode lines) and the requests that failed after their retries, which count as wrong.
type Trial struct {
	Predictions string        `json:"predictions"`
	Failures    []run.Failure `json:"failures,omitempty"`
}

// Entry is one submission as the board keeps it.
type Entry struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	// KeyHash is the owner key's hash (class.HashKey); the key is shown once and never kept.
	KeyHash []byte `json:"-"`
	// Retracted is when the owner retracted the entry (nil while it stands).
	Retracted *time.Time `json:"retracted,omitempty"`
	// Data and Engine are the host's dataset hash and engine build the entry was judged with.
	Data   string `json:"data"`
	Engine string `json:"engine"`
	// Seed names the data the host judged the entry on: the variant of the builtin data its run
	// recorded (run.Info.Seed; 0 the builtin data itself). An entry is judged on the data its run
	// was made on, whatever season the board ranks, so that its verdicts are right; one made on
	// other data than the board's season is listed apart (Rank).
	Seed int64 `json:"seed,omitempty"`
	// RunData says whether the run saw the samples the host judged it on: its recorded data hash
	// is the host's hash of the same levels. A run on other data is shown apart, never ranked.
	RunData bool    `json:"run_data"`
	Run     RunInfo `json:"run"`
	Score   Score   `json:"score"`
}

// Names of an entry's kept files (Store.Blob): the predictions file of trial i (from 1), and the
// verdicts of every sample of every trial (SampleVerdict JSON lines).
const (
	BlobVerdicts = "verdicts"
)

// BlobTrial names the predictions file of trial i (from 1).
func BlobTrial(i int) string { return "trial-" + strconv.Itoa(i) }

// Store keeps the board's entries. Every method is safe for concurrent use.
type Store interface {
	// AddEntry keeps an entry and its files (name → bytes).
	AddEntry(ctx context.Context, e Entry, blobs map[string][]byte) error
	// Entries returns every entry, newest first.
	Entries(ctx context.Context) ([]Entry, error)
	// Entry returns one entry; ErrNotFound when there is none.
	Entry(ctx context.Context, id string) (Entry, error)
	// Blob returns a file of an entry; ErrNotFound when there is none.
	Blob(ctx context.Context, id, name string) ([]byte, error)
	// Retract marks an entry retracted at t (it stays listed); ErrNotFound when there is none.
	Retract(ctx context.Context, id string, t time.Time) error
	// Season answers since when the board ranks season seed (a variant's seed, above 0): the
	// earliest time any call for the seed brought, kept. The first call keeps its time; a later one
	// answers the time kept, or keeps its own when that is earlier (a submission ranked on the
	// season that came before the kept time; see SeasonStart). A host calls it before it ranks
	// anything on the season, with a time no later than what it ranks, so that no ranked entry
	// predates the answer.
	Season(ctx context.Context, seed int64, at time.Time) (time.Time, error)
	// Hit counts an event toward a rate limit, as class.Store.Hit does (the same counts table).
	Hit(ctx context.Context, name string, length time.Duration, limit int, now time.Time) (ok bool, ends time.Time, err error)
}

// ErrNotFound is an entry (or an entry's file) the store does not have.
var ErrNotFound = errors.New("no such board entry")

// NewID returns a new entry's id: 12 random hex digits (an address, not a secret).
func NewID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ValidID says whether id can be an entry's id.
func ValidID(id string) bool {
	if len(id) != 12 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

// FileName is the name an entry's predictions file of trial downloads under: the model's name
// (letters, digits, dots and dashes kept), the entry's id, the seed of the variant its run was made
// on (".seed-7": its predictions are judged on that variant, apibank score --seed 7), and the trial
// when there are several.
func FileName(e Entry, trial int) string {
	name := fileStem(e)
	if e.Run.Trials > 1 {
		name += ".trial-" + strconv.Itoa(trial)
	}
	return name + ".jsonl"
}

// RecordName is the name an entry's run record (RecordOf) downloads under: the run record's name
// beside its predictions files (run.RecordPath of FileName without the trial), so that apibank
// score finds it beside them and judges them on the entry's data without being told.
func RecordName(e Entry) string { return run.RecordPath(fileStem(e) + ".jsonl") }

// ScoreCommand is the command that judges an entry's predictions file of trial (as downloaded,
// FileName) on the data the board judged it on: apibank score with the entry's --seed, when its
// run was made on a variant (a season's entry), or the builtin data itself.
func ScoreCommand(e Entry, trial int) string {
	seed := ""
	if e.Seed != 0 {
		seed = "--seed " + strconv.FormatInt(e.Seed, 10) + " "
	}
	return "apibank score " + seed + "--preds " + FileName(e, trial)
}

// fileStem is the name of an entry's files before their trial and extension.
func fileStem(e Entry) string {
	var b strings.Builder
	for _, r := range e.Run.Model {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" {
		name = "run"
	}
	name += "-" + e.ID
	if e.Seed != 0 {
		name += ".seed-" + strconv.FormatInt(e.Seed, 10)
	}
	return name
}

// RecordOf is the run record (run.Record, as apibank run writes it beside its predictions) of an
// entry whose trials' predictions files are named file(trial): its run as recorded, the data it was
// judged on (Seed) and, per trial, the requests that failed (the board keeps which, not the
// provider's message). Beside the predictions files, it has apibank score judge them on the
// entry's data, as the board did: a season's entry is judged on the season's variant.
func RecordOf(e Entry, verdicts []SampleVerdict, file func(trial int) string) run.Record {
	info := e.Run
	info.Seed = e.Seed
	rec := run.Record{Format: run.RecordFormat, Run: info}
	for i := 1; i <= max(1, e.Run.Trials); i++ {
		t := run.RecordTrial{File: file(i), Seed: e.Seed, Failures: []run.Failure{}}
		for _, v := range verdicts {
			if v.Trial == i && v.Status == StatusFailed {
				t.Failures = append(t.Failures, run.Failure{Task: run.Task{Level: v.Level, File: v.File, ID: v.ID, Kind: v.Kind},
					Message: "the request failed (the board keeps no message)"})
			}
		}
		rec.Trials = append(rec.Trials, t)
	}
	return rec
}

// Build names an engine build: the first 16 hex digits of the SHA-256 of its module's bytes
// (web/engine.wasm). The server hashes the module it runs; the Worker, which compiles the engine
// in, is stamped at build time with the hash of the module built from the same source.
func Build(module []byte) string {
	h := sha256.Sum256(module)
	return hex.EncodeToString(h[:8])
}
