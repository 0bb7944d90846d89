package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/class"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// Board configures the board endpoints (/api/v1/board...): where entries are kept, the engine build
// the host judges with, and what a client may do how often. The handlers are the same over every
// Store (SQLite on the server, D1 on the Worker).
type Board struct {
	// Store keeps the entries; nil leaves the endpoints out (404).
	Store board.Store
	// Engine names the build of the engine the host judges with (the hash of engine.wasm's bytes):
	// entries judged by another build are shown apart.
	Engine string
	// Season is the seed of the variant of the builtin data the board ranks (1 to
	// protocol.MaxSeed; 0: the builtin data itself, no season). Every submission is judged on the
	// data its run was made on (its recorded seed), and only runs made on the season's variant are
	// ranked: a board of a season cannot be memorized from the public data.
	Season int64
	// Limits bound the endpoints; a zero field takes its default (DefaultBoardLimits).
	Limits BoardLimits
	// Logger gets the store's failures; nil discards them. No owner key is ever logged.
	Logger *slog.Logger
	// ClientAddr names the client of a request for the per-address limit; nil takes the host of
	// RemoteAddr.
	ClientAddr func(*http.Request) string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// BoardLimits bound the board endpoints.
type BoardLimits struct {
	// MaxBody is the largest submission in bytes (413 above it): a full run of every level is about
	// 0.5 MB a trial.
	MaxBody int64
	// SubmissionsPerAddress is the most submissions one client address makes a day (429 above it,
	// with Retry-After).
	SubmissionsPerAddress int
}

// DefaultBoardLimits are the production limits.
func DefaultBoardLimits() BoardLimits {
	return BoardLimits{MaxBody: 16 << 20, SubmissionsPerAddress: 20}
}

func (l BoardLimits) withDefaults() BoardLimits {
	d := DefaultBoardLimits()
	if l.MaxBody <= 0 {
		l.MaxBody = d.MaxBody
	}
	if l.SubmissionsPerAddress <= 0 {
		l.SubmissionsPerAddress = d.SubmissionsPerAddress
	}
	return l
}

// BoardPath is the board endpoints' root.
const BoardPath = "/api/v1/board"

// boardWindow is the window of the per-address limit.
const boardWindow = 24 * time.Hour

// WithBoard serves the board endpoints over b.Store.
func WithBoard(b Board) Option {
	return func(h *handler) {
		if b.Store == nil {
			return
		}
		b.Limits = b.Limits.withDefaults()
		if b.Logger == nil {
			b.Logger = slog.New(slog.DiscardHandler)
		}
		if b.ClientAddr == nil {
			b.ClientAddr = RemoteHost
		}
		if b.Now == nil {
			b.Now = time.Now
		}
		h.board = &boardAPI{Board: b, hashes: map[string]string{}, tasks: map[string][]run.Task{}}
	}
}

// boardAPI is the board endpoints' state: the configuration, and the data hashes, task lists and
// the season's start computed so far (the builtin data and its variants do not change while a
// process runs).
type boardAPI struct {
	Board
	mu     sync.Mutex
	hashes map[string]string     // dataKey → run.DataHash
	tasks  map[string][]run.Task // dataKey → run.Tasks
	since  *time.Time            // since when the store says the season is ranked, as last asked (seasonSince)
}

// maxKept bounds the hashes and task lists kept: a submission names its seed and levels, and a
// board sees few of them.
const maxKept = 64

// dataKey names what a hash or a task list is of: a seed's data and levels.
func dataKey(seed int64, levels []string) string {
	return strconv.FormatInt(seed, 10) + ":" + strings.Join(levels, ",")
}

// levelTasks are the tasks of levels in the data of seed (loaded in s) as run.Tasks lists them,
// listed once a process.
func (b *boardAPI) levelTasks(ctx context.Context, s *session, seed int64, levels []string) ([]run.Task, error) {
	key := dataKey(seed, levels)
	b.mu.Lock()
	ts, ok := b.tasks[key]
	b.mu.Unlock()
	if ok {
		return ts, nil
	}
	ts, err := run.Tasks(ctx, s.transport, run.Config{Levels: levels})
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	if len(b.tasks) < maxKept {
		b.tasks[key] = ts
	}
	b.mu.Unlock()
	return ts, nil
}

// serveBoard routes the board endpoints.
func (h *handler) serveBoard(w http.ResponseWriter, r *http.Request) {
	b := h.board
	rest := strings.Trim(strings.TrimPrefix(r.URL.Path, BoardPath), "/")
	parts := strings.Split(rest, "/")
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	allow := func(methods ...string) bool { return allowMethod(w, r, method, methods) }
	switch {
	case rest == "":
		if allow(http.MethodGet, http.MethodPost) {
			if method == http.MethodGet {
				h.boardView(w, r)
			} else {
				h.submit(w, r)
			}
		}
	case len(parts) == 1:
		if allow(http.MethodGet, http.MethodDelete) && b.known(w, parts[0]) {
			if method == http.MethodGet {
				h.boardEntry(w, r, parts[0])
			} else {
				h.retract(w, r, parts[0])
			}
		}
	case len(parts) == 2 && parts[1] == "predictions":
		if allow(http.MethodGet) && b.known(w, parts[0]) {
			h.boardPredictions(w, r, parts[0])
		}
	case len(parts) == 2 && parts[1] == "record":
		if allow(http.MethodGet) && b.known(w, parts[0]) {
			h.boardRecord(w, r, parts[0])
		}
	default:
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no API endpoint %s (the endpoints are listed at /api/v1/openapi.json)", r.URL.Path), 0)
	}
}

// known says whether id can be an entry's id, answering 404 when it cannot.
func (b *boardAPI) known(w http.ResponseWriter, id string) bool {
	if !board.ValidID(id) {
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no board entry %q (an entry's id is 12 hex digits)", id), 0)
		return false
	}
	return true
}

// storeError answers a board store's failure: ErrNotFound as 404, anything else as 500 (logged).
func (b *boardAPI) storeError(w http.ResponseWriter, id string, err error) {
	if errors.Is(err, board.ErrNotFound) {
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no board entry %s", id), 0)
		return
	}
	b.Logger.Error("board store", "error", err.Error())
	writeError(w, http.StatusInternalServerError, CodeInternal, "the board's store failed", 0)
}

// knownHash is the data hash of levels in the data of seed when this process has computed it.
func (b *boardAPI) knownHash(seed int64, levels []string) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	h, ok := b.hashes[dataKey(seed, levels)]
	return h, ok
}

// dataHash is the host's run.DataHash of levels in the data of seed (loaded in s), computed once a
// process.
func (b *boardAPI) dataHash(ctx context.Context, s *session, seed int64, levels []string) (string, error) {
	if h, ok := b.knownHash(seed, levels); ok {
		return h, nil
	}
	h, err := run.DataHash(ctx, s.transport, levels, nil)
	if err != nil {
		return "", err
	}
	b.mu.Lock()
	if len(b.hashes) < maxKept || seed == b.Season { // the season's hash is always kept: every view needs it
		b.hashes[dataKey(seed, levels)] = h
	}
	b.mu.Unlock()
	return h, nil
}

// seasonSince is since when the board ranks its season (nil without a season) when it ranks it at
// at: the store's answer (Store.Season), kept by the process and asked again only for an earlier
// at (an entry older than the time kept, which another process or an older database holds), so that
// no entry this process ranks predates the answer.
func (b *boardAPI) seasonSince(ctx context.Context, at time.Time) (*time.Time, error) {
	if b.Season == 0 {
		return nil, nil
	}
	at = at.Truncate(time.Millisecond).UTC() // as the store keeps it
	b.mu.Lock()
	since := b.since
	b.mu.Unlock()
	if since != nil && !at.Before(*since) {
		return since, nil
	}
	t, err := b.Store.Season(ctx, b.Season, at)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.since == nil || t.Before(*b.since) { // the earlier answer of two at once
		b.since = &t
	}
	return b.since, nil
}

func (h *handler) submit(w http.ResponseWriter, r *http.Request) {
	b := h.board
	body, ok := readBody(w, r, b.Limits.MaxBody, h.limits.Timeout)
	if !ok {
		return
	}
	var sub board.Submission
	if line, err := decodeJSON(body, &sub); err != nil {
		writeError(w, http.StatusBadRequest, CodeBadRequest, "the body is not a board submission {\"format\", \"run\", \"trials\"}: "+err.Error(), line)
		return
	}
	now := b.Now()
	okHit, ends, err := b.Store.Hit(r.Context(), limitName("board-submissions", "", b.ClientAddr(r)), boardWindow, b.Limits.SubmissionsPerAddress, now)
	if err != nil {
		b.storeError(w, "", err)
		return
	}
	if !okHit {
		tooMany(w, ends.Sub(now), fmt.Sprintf("this address made %d board submissions today, the limit", b.Limits.SubmissionsPerAddress))
		return
	}
	if err := board.Check(sub); err != nil {
		refused(w, err)
		return
	}
	seed := sub.Run.Seed
	h.work(w, r, true, func(ctx context.Context, s *session) error {
		// Judged on the data the run was made on, whatever the season: its verdicts are right,
		// and Rank lists it apart when that is not the season's data.
		if err := board.Load(ctx, s.transport, seed); err != nil {
			var pe *protocol.Error
			if errors.As(err, &pe) && pe.Code == protocol.CodeBadRequest {
				writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("the run's seed %d: %s", seed, pe.Message), 0)
				return nil
			}
			return err
		}
		tasks, err := b.levelTasks(ctx, s, seed, sub.Run.Levels)
		if err != nil {
			return err
		}
		judged, err := board.RescoreTasks(ctx, s.transport, sub, tasks)
		if err != nil {
			if refused(w, err) {
				return nil
			}
			return err
		}
		data, err := b.dataHash(ctx, s, seed, board.Levels)
		if err != nil {
			return err
		}
		runData, err := b.dataHash(ctx, s, seed, sub.Run.Levels)
		if err != nil {
			return err
		}
		key, hash := class.NewKey()
		e := board.Entry{ID: board.NewID(), Created: now.Truncate(time.Millisecond).UTC(), KeyHash: hash, Data: data, Engine: b.Engine,
			Seed: seed, RunData: sub.Run.DataHash == runData, Run: sub.Run, Score: judged.Score}
		if seed == b.Season {
			// An entry made on the season's variant is ranked on it: the season is ranked since
			// this entry came at the latest, kept before the entry is, so no view lists it
			// ranked before "since".
			if _, err := b.seasonSince(ctx, e.Created); err != nil {
				b.storeError(w, "", err)
				return nil
			}
		}
		blobs := map[string][]byte{board.BlobVerdicts: board.VerdictsJSONL(judged.Verdicts)}
		for i, t := range sub.Trials {
			blobs[board.BlobTrial(i+1)] = []byte(t.Predictions)
		}
		if err := b.Store.AddEntry(ctx, e, blobs); err != nil {
			b.storeError(w, e.ID, err)
			return nil
		}
		writeJSON(w, http.StatusCreated, board.Submitted{Entry: e, OwnerKey: key, Season: b.Season})
		return nil
	})
}

// refused answers a submission the board refuses (a *board.InputError) as 400, naming its line,
// and says whether err was one.
func refused(w http.ResponseWriter, err error) bool {
	var in *board.InputError
	if !errors.As(err, &in) {
		return false
	}
	writeError(w, http.StatusBadRequest, CodeBadRequest, in.Error(), in.Line)
	return true
}

func (h *handler) boardView(w http.ResponseWriter, r *http.Request) {
	b := h.board
	q := r.URL.Query()
	f := board.Filter{Form: q.Get("form"), Level: q.Get("level")}
	if f.Form != "" && f.Form != run.Text && f.Form != run.Native {
		writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("form %q: text or native", f.Form), 0)
		return
	}
	if f.Level != "" && !contains(board.Levels, f.Level) {
		writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("level %q: one of %s", f.Level, strings.Join(board.Levels, ", ")), 0)
		return
	}
	entries, err := b.Store.Entries(r.Context())
	if err != nil {
		b.storeError(w, "", err)
		return
	}
	since, err := b.seasonSince(r.Context(), board.SeasonStart(entries, b.Season, b.Now()))
	if err != nil {
		b.storeError(w, "", err)
		return
	}
	answer := func(data string) {
		cur := board.Current{Data: data, Engine: b.Engine, Season: b.Season, Since: since}
		writeJSON(w, http.StatusOK, board.View{Current: cur, Filter: f, Entries: entries, Rows: board.Rank(entries, cur, f)})
	}
	if data, ok := b.knownHash(b.Season, board.Levels); ok { // an engine is needed only for the first view
		answer(data)
		return
	}
	h.work(w, r, false, func(ctx context.Context, s *session) error {
		if err := board.Load(ctx, s.transport, b.Season); err != nil {
			return err
		}
		data, err := b.dataHash(ctx, s, b.Season, board.Levels)
		if err != nil {
			return err
		}
		answer(data)
		return nil
	})
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (h *handler) boardEntry(w http.ResponseWriter, r *http.Request, id string) {
	if e, vs, ok := h.entryVerdicts(w, r, id); ok {
		writeJSON(w, http.StatusOK, board.EntryView{Entry: e, Verdicts: vs})
	}
}

// entryVerdicts reads an entry and its verdicts, or answers the store's error and returns ok false.
func (h *handler) entryVerdicts(w http.ResponseWriter, r *http.Request, id string) (e board.Entry, vs []board.SampleVerdict, ok bool) {
	b := h.board
	e, err := b.Store.Entry(r.Context(), id)
	if err != nil {
		b.storeError(w, id, err)
		return e, nil, false
	}
	raw, err := b.Store.Blob(r.Context(), id, board.BlobVerdicts)
	if err == nil {
		vs, err = board.ReadVerdicts(raw)
	}
	if err != nil {
		b.storeError(w, id, err)
		return e, nil, false
	}
	return e, vs, true
}

func (h *handler) boardPredictions(w http.ResponseWriter, r *http.Request, id string) {
	b := h.board
	trial := 1
	if t := r.URL.Query().Get("trial"); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 {
			writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("trial %q: a number from 1", t), 0)
			return
		}
		trial = n
	}
	e, err := b.Store.Entry(r.Context(), id)
	if err != nil {
		b.storeError(w, id, err)
		return
	}
	if trial > max(1, e.Run.Trials) {
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("board entry %s has %d trials", id, max(1, e.Run.Trials)), 0)
		return
	}
	raw, err := b.Store.Blob(r.Context(), id, board.BlobTrial(trial))
	if err != nil {
		b.storeError(w, id, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", board.FileName(e, trial)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(raw)
}

// boardRecord answers an entry's run record (board.RecordOf), named as apibank run names a record
// beside its predictions files (board.RecordName), which name the files the predictions endpoint
// downloads: saved beside them, it has apibank score judge them on the entry's data.
func (h *handler) boardRecord(w http.ResponseWriter, r *http.Request, id string) {
	e, vs, ok := h.entryVerdicts(w, r, id)
	if !ok {
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", board.RecordName(e)))
	writeJSON(w, http.StatusOK, board.RecordOf(e, vs, func(trial int) string { return board.FileName(e, trial) }))
}

func (h *handler) retract(w http.ResponseWriter, r *http.Request, id string) {
	b := h.board
	e, err := b.Store.Entry(r.Context(), id)
	if err != nil {
		b.storeError(w, id, err)
		return
	}
	scheme, key, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || !class.KeyMatches(strings.TrimSpace(key), e.KeyHash) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="board"`)
		writeError(w, http.StatusUnauthorized, CodeUnauthorized, fmt.Sprintf("board entry %s is retracted with its owner key: Authorization: Bearer KEY", id), 0)
		return
	}
	if err := b.Store.Retract(r.Context(), id, b.Now()); err != nil {
		b.storeError(w, id, err)
		return
	}
	e, err = b.Store.Entry(r.Context(), id)
	if err != nil {
		b.storeError(w, id, err)
		return
	}
	writeJSON(w, http.StatusOK, e)
}

// BoardExport is the board of entries as a static export writes it (board.json): what the engine
// behind do (a fresh session) judges with now (its data, or the variant of season when it is not
// 0; engine names its build), the season and since when it was first ranked (nil: not known, an
// export without a store), every entry, the overall rows, and when it was exported. The board page
// of a host without a server reads it.
func BoardExport(ctx context.Context, entries []board.Entry, do protocol.Transport, engine string, season int64, since *time.Time, now time.Time) (board.View, error) {
	if err := board.Load(ctx, do, season); err != nil {
		return board.View{}, err
	}
	data, err := run.DataHash(ctx, do, board.Levels, nil)
	if err != nil {
		return board.View{}, err
	}
	cur := board.Current{Data: data, Engine: engine, Season: season, Since: since}
	if entries == nil {
		entries = []board.Entry{}
	}
	return board.View{Current: cur, Entries: entries, Rows: board.Rank(entries, cur, board.Filter{}), Exported: now.UTC().Format(time.RFC3339)}, nil
}
