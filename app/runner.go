package app

import (
	"context"
	"errors"
	"fmt"
	"hash"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// KeyVault keeps the user's API key for this tab: in memory and sessionStorage, and in
// localStorage only when the user ticks "remember on this device".
type KeyVault interface {
	// Load returns the key kept ("" when none) and whether it is remembered on this device.
	Load() (key string, remembered bool)
	// Save keeps key (forgetting it when empty); remember also keeps it in localStorage, and
	// clearing remember removes it from there.
	Save(key string, remember bool)
}

var (
	runStore RunStore = NewMemoryRunStore()
	vault             = NewKeyVault()
)

// UseRuns sets where runs are kept (IndexedDB in the tab) and where the key is kept.
func UseRuns(s RunStore, v KeyVault) { runStore, vault = s, v }

// ClearRuns forgets every saved run and the remembered key ("Clear my data").
func ClearRuns() {
	go func() { _ = runStore.Clear() }()
	vault.Save("", false)
}

// Runner runs one model run at a time for the tab, in the background: the run goes on while the
// user visits other pages, and pages read its state when they render.
type Runner struct {
	mu      sync.Mutex
	cur     *SavedRun
	prog    run.Progress
	cancel  context.CancelFunc
	started time.Time
	err     string
	// last is the run that ended most recently in this tab.
	last *SavedRun
}

// runner is the tab's runner.
var runner = &Runner{}

// RunState is what a page shows of the runner.
type RunState struct {
	Running  bool
	Run      *SavedRun
	Progress run.Progress
	Err      string
	Last     *SavedRun
}

// State returns the runner's state now.
func (r *Runner) State() RunState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return RunState{Running: r.cur != nil, Run: r.cur, Progress: r.prog, Err: r.err, Last: r.last}
}

// Cancel stops the run going on; what finished is kept.
func (r *Runner) Cancel() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		r.cancel()
	}
}

var errBusy = errors.New("a run is going on: cancel it or wait for it to end")

// newRunID names a run by its start time (unique enough in one browser, and it sorts).
func newRunID(t time.Time) string { return "run-" + t.UTC().Format("20060102T150405.000Z") }

// NewSavedRun prepares a run of s: its identity, the engine and the data it runs against.
func NewSavedRun(s RunSettings, data string, dataHash string) *SavedRun {
	now := time.Now()
	r := &SavedRun{Format: runFormat, ID: newRunID(now), Host: endpointHost(s.BaseURL), Settings: s, Status: runRunning,
		Started: now.UTC().Format(time.RFC3339), Engine: EngineIdentity(), Data: data, DataHash: dataHash, Encoder: run.EncoderVersion,
		Predictions: []run.Prediction{}, Episodes: []run.Episode{}, Failures: []run.Failure{}}
	if s.Trials > 1 {
		r.Group, r.Trial = r.ID, 1
	}
	return r
}

// nextTrial is the run that follows r among repeated trials, or nil when r was the last, or
// ended otherwise than done (a cancel stops the trials still to come).
func nextTrial(r *SavedRun) *SavedRun {
	if r.Trial == 0 || r.Trial >= r.Settings.Trials || r.Status != runDone {
		return nil
	}
	n := NewSavedRun(r.Settings, r.Data, r.DataHash)
	if n.ID <= r.ID { // two runs within one millisecond keep distinct, ordered IDs
		n.ID = r.ID + "+"
	}
	n.Group, n.Trial = r.Group, r.Trial+1
	return n
}

// DataHash is a short hash of the samples of the levels a run covers, from the engine: two runs
// with the same hash saw the same samples. It hashes the engine's answers as they come, without
// decoding them (a level's list is about 100 KB, whose decoding would hold up the page).
func DataHash(levels []string) (string, error) {
	if tab.Engine == nil {
		return "", errors.New("the engine is not running")
	}
	return run.DataHash(context.Background(), tab.Engine.Do, levels, func(h hash.Hash, b []byte) { hashInSteps(h, b, nextTask) })
}

// hashStep is how many bytes hashInSteps hashes between two turns of the page: SHA-256 is pure Go
// under GOOS=js, run by a fresh tab's code before the browser has optimised it.
const hashStep = 16 << 10

// hashInSteps writes b to h hashStep bytes at a time, calling yield between two steps, so that a
// level's 120 KB of samples is not one long task.
func hashInSteps(h hash.Hash, b []byte, yield func()) {
	for len(b) > 0 {
		n := min(len(b), hashStep)
		h.Write(b[:n])
		b = b[n:]
		if len(b) > 0 {
			yield()
		}
	}
}

// Start runs saved in the background with the key (which stays in memory, in the model client).
// done holds samples already finished (a resumed run, or a retry of failed requests alone);
// keepEpisodes, when set, keeps saved's episodes (and their failures) instead of playing level 3.
// A run among repeated trials starts the next trial when it is done.
func (r *Runner) Start(saved *SavedRun, key string, done map[string]Landed, keepEpisodes bool) error {
	return r.start(saved, key, done, keepEpisodes, true)
}

// start is Start; chain says whether a trial's end starts the next trial (not after a retry of
// failed requests: the trials after it exist already).
func (r *Runner) start(saved *SavedRun, key string, done map[string]Landed, keepEpisodes, chain bool) error {
	if tab.Engine == nil {
		return errors.New("the engine is not running")
	}
	cfg := saved.Settings.Config()
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := saved.Settings.Endpoint(key).Validate(); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "model: "))
	}
	if keepEpisodes {
		cfg.Levels = slices.DeleteFunc(slices.Clone(cfg.Levels), func(l string) bool { return l == run.Level3 })
	}
	r.mu.Lock()
	if r.cur != nil {
		r.mu.Unlock()
		return errBusy
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cur, r.cancel, r.err, r.prog, r.started = saved, cancel, "", run.Progress{}, time.Now()
	r.mu.Unlock()

	oldEpisodes, oldFailures := saved.Episodes, saved.Failures
	go func() {
		defer cancel()
		warmBeforeRun()
		saved.Status = runRunning
		if err := runStore.Put(saved); err != nil {
			r.setErr("the run is not kept across reloads: " + err.Error())
		}
		client := model.New(saved.Settings.Endpoint(key))
		opt := run.Options{
			Progress: func(p run.Progress) {
				r.mu.Lock()
				r.prog = p
				r.mu.Unlock()
			},
			Done: func(k string) (run.Prediction, model.Response, bool) {
				l, ok := done[k]
				return l.Pred, l.Response, ok && l.Episode == nil
			},
			Yield: nextTask,
			Landed: func(k string, p run.Prediction, resp model.Response) {
				if err := runStore.Land(saved.ID, Landed{Key: k, Pred: p, Response: resp}); err != nil {
					r.setErr("a sample is not kept across reloads: " + err.Error())
				}
			},
			DoneEpisode: func(k string) (run.Episode, bool) {
				if l, ok := done[k]; ok && l.Episode != nil {
					return *l.Episode, true
				}
				return run.Episode{}, false
			},
			EpisodeLanded: func(k string, ep run.Episode) {
				if err := runStore.Land(saved.ID, Landed{Key: k, Episode: &ep}); err != nil {
					r.setErr("an episode is not kept across reloads: " + err.Error())
				}
			},
		}
		res, err := run.Run(ctx, tab.Engine.Do, client, cfg, opt)
		r.finish(saved, res, err, keepEpisodes, oldEpisodes, oldFailures)
		// Repeated trials: the next one starts when this one is done, with the same key.
		if !chain {
			return
		}
		if next := nextTrial(saved); next != nil {
			if err := r.Start(next, key, nil, false); err != nil {
				r.setErr("the next trial did not start: " + err.Error())
			}
		}
	}()
	return nil
}

// finish takes a run's result into its saved run and keeps it.
func (r *Runner) finish(saved *SavedRun, res *run.Result, err error, keepEpisodes bool, oldEpisodes []run.Episode, oldFailures []run.Failure) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.err = "the run stopped: " + err.Error()
	}
	if res != nil {
		if keepEpisodes {
			res.Episodes = oldEpisodes
			for _, f := range oldFailures {
				if f.Level == run.Level3 {
					res.Failures = append(res.Failures, f)
				}
			}
		}
		saved.Apply(res)
		saved.Total = r.prog.Total
		if keepEpisodes {
			saved.Total += len(oldEpisodes)
		}
	} else {
		saved.Status = runCancelled
	}
	saved.Ended = time.Now().UTC().Format(time.RFC3339)
	r.mu.Unlock()
	// Saved without the lock held: the save takes several of the page's tasks (encodeRun), and
	// the page reads the runner's state meanwhile.
	var saveErr error
	if err := runStore.Delete(saved.ID); err == nil {
		saveErr = runStore.Put(saved)
	}
	r.mu.Lock()
	if saveErr != nil {
		r.err = "the finished run could not be kept: " + saveErr.Error()
	}
	r.cur, r.cancel, r.last = nil, nil, saved
}

func (r *Runner) setErr(msg string) {
	r.mu.Lock()
	r.err = msg
	r.mu.Unlock()
}

// Resume goes on with a run a reload interrupted: the samples it kept are not asked again.
func (r *Runner) Resume(saved *SavedRun, key string) error {
	done, err := runStore.LandedOf(saved.ID)
	if err != nil {
		return err
	}
	return r.Start(saved, key, done, false)
}

// RetryFailed asks again every request that failed; the rest of the run is kept as it is (level 3
// is played again only when an episode failed).
func (r *Runner) RetryFailed(saved *SavedRun, key string) error {
	if len(saved.Failures) == 0 {
		return errors.New("this run has no failed requests")
	}
	done := map[string]Landed{}
	for _, p := range saved.Predictions {
		k := run.Key(run.Task{Level: p.Level, File: p.File, ID: p.ID})
		done[k] = Landed{Key: k, Pred: p, Response: saved.Responses[k]}
	}
	episodesFailed := false
	for _, f := range saved.Failures {
		episodesFailed = episodesFailed || f.Level == run.Level3
	}
	return r.start(saved, key, done, !episodesFailed, false)
}

// RetryOne asks one failed sample again, alone, with the prompt and the translation the run loop
// uses (run.Request, run.Pred), then has the engine judge the run's predictions again.
func (r *Runner) RetryOne(saved *SavedRun, key string, f run.Failure) error {
	if f.Level == run.Level3 {
		return r.RetryFailed(saved, key)
	}
	r.mu.Lock()
	if r.cur != nil {
		r.mu.Unlock()
		return errBusy
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cur, r.cancel, r.err, r.prog, r.started = saved, cancel, "", run.Progress{Total: 1}, time.Now()
	r.mu.Unlock()
	go func() {
		defer cancel()
		err := retryOne(ctx, saved, key, f)
		r.mu.Lock()
		defer r.mu.Unlock()
		if err != nil {
			r.err = "the retry failed: " + err.Error()
		}
		r.prog.Done = 1
		if err := runStore.Put(saved); err != nil {
			r.err = "the run could not be kept: " + err.Error()
		}
		r.cur, r.cancel, r.last = nil, nil, saved
	}()
	return nil
}

func retryOne(ctx context.Context, saved *SavedRun, key string, f run.Failure) error {
	id := f.ID
	p, err := tab.Prompt(f.Level, f.File, id)
	if err != nil {
		return err
	}
	req, err := run.Request(p, saved.Settings.Form)
	if err != nil {
		return err
	}
	resp, err := model.New(saved.Settings.Endpoint(key)).Chat(ctx, req)
	saved.TokensIn += resp.Usage.PromptTokens
	saved.TokensOut += resp.Usage.CompletionTokens
	if err != nil {
		for i := range saved.Failures {
			if saved.Failures[i].Task == f.Task {
				saved.Failures[i].Message = err.Error()
				var me *model.Error
				if errors.As(err, &me) {
					saved.Failures[i].Status = me.Status
				}
			}
		}
		return err
	}
	pred := run.PredictionOf(f.Task, resp)
	order, err := run.Tasks(ctx, tab.Engine.Do, saved.Settings.Config())
	if err != nil {
		return err
	}
	pos := map[string]int{}
	for i, t := range order {
		pos[run.Key(t)] = i
	}
	k := run.Key(f.Task)
	preds := append(slices.Clone(saved.Predictions), pred)
	slices.SortStableFunc(preds, func(a, b run.Prediction) int {
		return pos[run.Key(run.Task{Level: a.Level, File: a.File, ID: a.ID})] - pos[run.Key(run.Task{Level: b.Level, File: b.File, ID: b.ID})]
	})
	b, err := run.ScoreInSteps(ctx, tab.Engine.Do, run.PredictionsJSONL(preds), saved.Settings.State, "run", nextTask)
	if err != nil {
		return err
	}
	if saved.Responses == nil {
		saved.Responses = map[string]model.Response{}
	}
	saved.Predictions, saved.Responses[k], saved.Batch = preds, resp, &b
	saved.Failures = slices.DeleteFunc(saved.Failures, func(x run.Failure) bool { return x.Task == f.Task })
	return nil
}

// RunRate formats progress as the page shows it: rate and time left.
func RunRate(p run.Progress) (rate, eta string) {
	secs := p.Elapsed.Seconds()
	if p.Done == 0 || secs <= 0 {
		return "—", "—"
	}
	perSec := float64(p.Done) / secs
	left := time.Duration(float64(p.Total-p.Done) / perSec * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%.1f/s", perSec), left.String()
}

// ScoreRun judges a run's predictions as run.Run does at its end (the batch named "run").
// It scores in steps (scoreInSteps) so the page's thread is never held for long.
func (t *Tab) ScoreRun(preds []byte, state string) (protocol.Batch, error) {
	if t.Engine == nil {
		return protocol.Batch{}, errors.New("the engine is not running (it runs in the browser tab)")
	}
	return run.ScoreInSteps(context.Background(), t.Engine.Do, preds, state, "run", nextTask)
}
