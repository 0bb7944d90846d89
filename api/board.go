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

// boardAPI is the board endpoints' state: the configuration, and the data hashes and task lists
// computed so far (the builtin data does not change while a process runs).
type boardAPI struct {
	Board
	mu     sync.Mutex
	hashes map[string]string     // levels joined by "," → run.DataHash
	tasks  map[string][]run.Task // levels joined by "," → run.Tasks
}

// levelTasks are the tasks of levels as run.Tasks lists them, listed once a process.
func (b *boardAPI) levelTasks(ctx context.Context, s *session, levels []string) ([]run.Task, error) {
	key := strings.Join(levels, ",")
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
	if len(b.tasks) < 64 { // the level lists a submission can name are few; keep no more
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

// knownHash is the data hash of levels when this process has computed it.
func (b *boardAPI) knownHash(levels []string) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	h, ok := b.hashes[strings.Join(levels, ",")]
	return h, ok
}

// dataHash is the host's run.DataHash of levels, computed once a process.
func (b *boardAPI) dataHash(ctx context.Context, s *session, levels []string) (string, error) {
	if h, ok := b.knownHash(levels); ok {
		return h, nil
	}
	h, err := run.DataHash(ctx, s.transport, levels, nil)
	if err != nil {
		return "", err
	}
	b.mu.Lock()
	b.hashes[strings.Join(levels, ",")] = h
	b.mu.Unlock()
	return h, nil
}

// current is what the host judges with now.
func (b *boardAPI) current(ctx context.Context, s *session) (board.Current, error) {
	d, err := b.dataHash(ctx, s, board.Levels)
	return board.Current{Data: d, Engine: b.Engine}, err
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
	h.work(w, r, true, func(ctx context.Context, s *session) error {
		var tasks []run.Task // nil for levels Rescore refuses
		if validLevels(sub.Run.Levels) {
			ts, err := b.levelTasks(ctx, s, sub.Run.Levels)
			if err != nil {
				return err
			}
			tasks = ts
		}
		judged, err := board.RescoreTasks(ctx, s.transport, sub, tasks)
		var in *board.InputError
		if errors.As(err, &in) {
			writeError(w, http.StatusBadRequest, CodeBadRequest, in.Error(), in.Line)
			return nil
		}
		if err != nil {
			return err
		}
		cur, err := b.current(ctx, s)
		if err != nil {
			return err
		}
		runData, err := b.dataHash(ctx, s, sub.Run.Levels)
		if err != nil {
			return err
		}
		key, hash := class.NewKey()
		e := board.Entry{ID: board.NewID(), Created: now.Truncate(time.Millisecond).UTC(), KeyHash: hash, Data: cur.Data, Engine: cur.Engine,
			RunData: sub.Run.DataHash == runData, Run: sub.Run, Score: judged.Score}
		blobs := map[string][]byte{board.BlobVerdicts: board.VerdictsJSONL(judged.Verdicts)}
		for i, t := range sub.Trials {
			blobs[board.BlobTrial(i+1)] = []byte(t.Predictions)
		}
		if err := b.Store.AddEntry(ctx, e, blobs); err != nil {
			b.storeError(w, e.ID, err)
			return nil
		}
		writeJSON(w, http.StatusCreated, board.Submitted{Entry: e, OwnerKey: key})
		return nil
	})
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
	answer := func(cur board.Current) {
		writeJSON(w, http.StatusOK, board.View{Current: cur, Filter: f, Entries: entries, Rows: board.Rank(entries, cur, f)})
	}
	if data, ok := b.knownHash(board.Levels); ok { // an engine is needed only for the first view
		answer(board.Current{Data: data, Engine: b.Engine})
		return
	}
	h.work(w, r, false, func(ctx context.Context, s *session) error {
		cur, err := b.current(ctx, s)
		if err != nil {
			return err
		}
		answer(cur)
		return nil
	})
}

// validLevels says whether levels are known levels, each once (Rescore says what is wrong otherwise).
func validLevels(levels []string) bool {
	seen := map[string]bool{}
	for _, l := range levels {
		if !contains(board.Levels, l) || seen[l] {
			return false
		}
		seen[l] = true
	}
	return len(levels) > 0
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
	b := h.board
	e, err := b.Store.Entry(r.Context(), id)
	if err != nil {
		b.storeError(w, id, err)
		return
	}
	raw, err := b.Store.Blob(r.Context(), id, board.BlobVerdicts)
	if err != nil {
		b.storeError(w, id, err)
		return
	}
	vs, err := board.ReadVerdicts(raw)
	if err != nil {
		b.storeError(w, id, err)
		return
	}
	writeJSON(w, http.StatusOK, board.EntryView{Entry: e, Verdicts: vs})
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
// behind do judges with now (its data; engine names its build), every entry, the overall rows, and
// when it was exported. The board page of a host without a server reads it.
func BoardExport(ctx context.Context, entries []board.Entry, do protocol.Transport, engine string, now time.Time) (board.View, error) {
	data, err := run.DataHash(ctx, do, board.Levels, nil)
	if err != nil {
		return board.View{}, err
	}
	cur := board.Current{Data: data, Engine: engine}
	if entries == nil {
		entries = []board.Entry{}
	}
	return board.View{Current: cur, Entries: entries, Rows: board.Rank(entries, cur, board.Filter{}), Exported: now.UTC().Format(time.RFC3339)}, nil
}
