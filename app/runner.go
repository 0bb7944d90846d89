package app

import (
	"context"
	"encoding/json"
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
	runStore = defaultRunStore()
	vault    = NewKeyVault()
)

// UseRuns sets where runs are kept (IndexedDB in the tab) and where the key is kept.
func UseRuns(s *RunStore, v KeyVault) { runStore, vault = s, v }

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
	// robust sums up the robustness run that ended most recently, once its last pass has ended.
	robust *RobustGroup
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
	// Robust sums up the robustness run Last ended (nil when Last is no pass of one).
	Robust *RobustGroup
}

// State returns the runner's state now.
func (r *Runner) State() RunState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return RunState{Running: r.cur != nil, Run: r.cur, Progress: r.prog, Err: r.err, Last: r.last, Robust: r.robust}
}

// Show makes saved (a run kept in this browser, read whole) the run the Run page shows as the last
// one, with its robustness run summed up from runs when it is a pass of one, so that its failed
// requests can be retried there; it does nothing while a run goes on.
func (r *Runner) Show(saved *SavedRun, runs []*SavedRun) {
	g := robustOf(saved, runs)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur != nil {
		return
	}
	r.last, r.robust, r.err = saved, g, ""
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
	switch {
	case s.Variants > 0:
		r.Group, r.Trial = r.ID, 1 // the original; its seed is 0
	case s.Trials > 1:
		r.Group, r.Trial, r.Seed = r.ID, 1, s.Seed
	default:
		r.Seed = s.Seed
	}
	return r
}

// nextTrial is the run that follows r among repeated trials or the passes of a robustness run, or
// nil when r was the last, or ended otherwise than done (a cancel stops the trials still to come,
// as it stops `apibank run`). A pass asks its own data: its data and hash are known once it is
// loaded.
func nextTrial(r *SavedRun) *SavedRun {
	if r.Trial == 0 || r.Trial >= plannedRuns(r.Settings) || r.Status != runDone {
		return nil
	}
	n := NewSavedRun(r.Settings, r.Data, r.DataHash)
	if n.ID <= r.ID { // two runs within one millisecond keep distinct, ordered IDs
		n.ID = r.ID + "+"
	}
	n.Group, n.Trial, n.Seed = r.Group, r.Trial+1, r.Seed
	if r.Settings.Variants > 0 {
		n.Seed, n.Data, n.DataHash = passSeed(r.Settings, n.Trial), "", ""
	}
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
// A run among repeated trials starts the next trial when it is done.
func (r *Runner) Start(saved *SavedRun, key string) error {
	return r.start(saved, key, false, false, true)
}

// start is Start. resume says the records the store keeps of saved are tasks already finished (a
// resumed run, or a retry of failed requests alone), not asked again; keepEpisodes keeps saved's
// episodes (and their failures) instead of playing level 3; chain says whether a trial's end
// starts the next trial, or a robustness pass's the next pass (not after a retry of failed
// requests: the trials after it exist already).
//
// The run keeps none of its answers: each record lands in the store as it comes (run.Options
// Landed and EpisodeLanded), run.Run writes its predictions file to recordLines (which notes the
// order of the records and lands the episodes not landed yet) and judges it as it goes, and the
// saved run is a summary (see RunStore).
//
// A run on a variant, and every pass of a robustness run, first has the tab's engine load the data
// it asks (loadPassData); when the last of them ends, the data loaded before comes back.
func (r *Runner) start(saved *SavedRun, key string, resume, keepEpisodes, chain bool) error {
	if tab.Engine == nil {
		return errors.New("the engine is not running")
	}
	if err := saved.Settings.Config().Validate(); err != nil {
		return err
	}
	if err := saved.Settings.Endpoint(key).Validate(); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "model: "))
	}
	r.mu.Lock()
	if r.cur != nil {
		r.mu.Unlock()
		return errBusy
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cur, r.cancel, r.err, r.prog, r.started, r.robust = saved, cancel, "", run.Progress{}, time.Now(), nil
	r.mu.Unlock()

	go func() {
		var before *loadedData
		if wantsData(saved) {
			before = dataBefore()
		}
		var ended []*SavedRun // the passes of a robustness run this goroutine ran
		for saved != nil {
			res, order, kept, err := r.pass(ctx, saved, key, resume, keepEpisodes)
			cancel()
			var next *SavedRun
			if chain && err == nil && res != nil {
				saved.Status = runDone // as finish will say: nextTrial reads it
				if res.Cancelled {
					saved.Status = runCancelled
				}
				if res.StoppedAsking == "" { // else the next pass would only find the endpoint unusable again
					next = nextTrial(saved)
				}
			}
			if next != nil {
				ctx, cancel = context.WithCancel(context.Background())
			}
			if next == nil && before != nil {
				// The data loaded before the run is back before the run shows as ended: the pages
				// that read the engine then find what they had.
				if err := before.restore(); err != nil {
					r.setErr("the data loaded before the run could not be loaded again: " + err.Error())
				}
				before = nil
			}
			r.finish(saved, res, err, order, keepEpisodes, kept, next, cancel)
			ended = append(ended, saved)
			if next == nil && saved.Settings.Variants > 0 {
				r.sumUpRobustness(saved, ended)
			}
			saved, resume, keepEpisodes = next, false, false
		}
		r.release()
	}()
	return nil
}

// pass runs saved once in the background (see start) and returns its result, the task keys of its
// records in the run's order, and its episodes kept from before (keepEpisodes).
func (r *Runner) pass(ctx context.Context, saved *SavedRun, key string, resume, keepEpisodes bool) (*run.Result, []string, keptEpisodes, error) {
	cfg := saved.Settings.Config()
	if keepEpisodes {
		cfg.Levels = slices.DeleteFunc(slices.Clone(cfg.Levels), func(l string) bool { return l == run.Level3 })
	}
	kept := keptEpisodes{episodes: saved.Episodes, failures: saved.Failures, order: saved.order}
	warmBeforeRun()
	saved.Status, saved.summary = runRunning, true
	// Kept first, so that a reload while its data loads finds the pass to resume.
	if err := runStore.PutSummary(saved, nil); err != nil {
		r.setErr("the run is not kept across reloads: " + err.Error())
	}
	if err := loadPassData(saved); err != nil {
		return nil, nil, kept, err
	}
	client := model.New(saved.Settings.Endpoint(key))
	lines := &recordLines{id: saved.ID, setErr: r.setErr}
	opt := run.Options{
		Progress: func(p run.Progress) {
			r.mu.Lock()
			r.prog = p
			r.mu.Unlock()
		},
		Yield: nextTask,
		Landed: func(k string, p run.Prediction, resp model.Response) {
			if err := runStore.Land(saved.ID, Landed{Key: k, Pred: p, Response: resp}); err != nil {
				r.setErr("a sample is not kept: " + err.Error())
			}
		},
		EpisodeLanded: func(k string, ep run.Episode) {
			if err := runStore.Land(saved.ID, Landed{Key: k, Episode: &ep}); err != nil {
				r.setErr("an episode is not kept: " + err.Error())
			}
		},
		Out: lines,
	}
	if resume {
		opt.Done = func(k string) (run.Prediction, model.Response, bool) {
			l, ok, err := runStore.Record(saved.ID, k)
			return l.Pred, l.Response, err == nil && ok && l.Episode == nil
		}
		opt.DoneEpisode = func(k string) (run.Episode, bool) {
			l, ok, err := runStore.Record(saved.ID, k)
			if err != nil || !ok || l.Episode == nil || !episodeEnded(*l.Episode) {
				return run.Episode{}, false
			}
			return *l.Episode, true
		}
	}
	res, err := run.Run(ctx, tab.Engine.Do, client, cfg, opt)
	return res, lines.order, kept, err
}

// episodeEnded says whether an episode was played to its judgement (what EpisodeLanded is told):
// a resume plays the others again.
func episodeEnded(ep run.Episode) bool {
	return ep.Outcome != nil && ep.Stopped != "failed" && ep.Stopped != "cancelled"
}

// recordLines is the Out of a tab's run: it reads the run's predictions file as run.Run writes it
// (one line a call, in the run's order) without keeping it, noting the task key of each line
// (the order of the run's records) and landing the episodes EpisodeLanded was not told (failed,
// cancelled), so that the run is read back whole from its records.
type recordLines struct {
	id     string
	order  []string
	setErr func(string)
}

func (w *recordLines) Write(line []byte) (int, error) {
	var head struct {
		Level   string  `json:"level"`
		File    string  `json:"file"`
		ID      int     `json:"id"`
		Stopped *string `json:"stopped"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		w.setErr("a line of the run's predictions could not be read: " + err.Error())
		return len(line), nil
	}
	if head.Stopped == nil {
		w.order = append(w.order, run.Key(run.Task{Level: head.Level, File: head.File, ID: head.ID}))
		return len(line), nil
	}
	k := episodeKey(head.File)
	w.order = append(w.order, k)
	var ep run.Episode
	if err := json.Unmarshal(line, &ep); err != nil || episodeEnded(ep) {
		return len(line), nil // landed by EpisodeLanded (or not an episode run.Run writes)
	}
	if err := runStore.Land(w.id, Landed{Key: k, Episode: &ep}); err != nil {
		w.setErr("an episode is not kept: " + err.Error())
	}
	return len(line), nil
}

// keptEpisodes are a run's episodes (in short), their failures and its records' order before a
// retry that keeps them.
type keptEpisodes struct {
	episodes []run.Episode
	failures []run.Failure
	order    []string
}

// finish takes a run's result into its saved run, its summary, and keeps it with its verdicts.
// next, when not nil, is the run that follows (a trial, a pass), which becomes the runner's run at
// once, with cancel for its Cancel: the page sees one run going on from the first to the last. The
// last run stays the runner's until release.
func (r *Runner) finish(saved *SavedRun, res *run.Result, err error, order []string, keepEpisodes bool, kept keptEpisodes, next *SavedRun, cancel context.CancelFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.err = "the run stopped: " + err.Error()
	}
	var verdicts *protocol.Batch
	if res != nil {
		if keepEpisodes {
			res.Episodes = kept.episodes
			for _, f := range kept.failures {
				if f.Level == run.Level3 {
					res.Failures = append(res.Failures, f)
				}
			}
			for _, k := range kept.order {
				if strings.HasPrefix(k, run.Level3+"/") {
					order = append(order, k)
				}
			}
		}
		verdicts = res.Batch
		saved.Apply(res)
		saved.Responses, saved.Batch, saved.order = nil, shortBatch(res.Batch), order
		for i, ep := range saved.Episodes {
			saved.Episodes[i] = shortEpisode(ep)
		}
		saved.Total = r.prog.Total
		if keepEpisodes {
			saved.Total += len(kept.episodes)
		}
	} else {
		saved.Status = runCancelled
	}
	saved.Ended = time.Now().UTC().Format(time.RFC3339)
	r.mu.Unlock()
	// Kept without the lock held: the page reads the runner's state meanwhile.
	saveErr := runStore.PutSummary(saved, verdicts)
	r.mu.Lock()
	if saveErr != nil {
		r.err = "the finished run could not be kept: " + saveErr.Error()
	}
	r.last = saved
	if next != nil {
		r.cur, r.cancel, r.prog, r.started = next, cancel, run.Progress{}, time.Now()
	}
}

// release ends the runner's run: saved was the last, and its work after its end (the robustness,
// the data loaded back) is done, so that a run started next never meets it.
func (r *Runner) release() {
	r.mu.Lock()
	r.cur, r.cancel = nil, nil
	r.mu.Unlock()
}

func (r *Runner) setErr(msg string) {
	r.mu.Lock()
	r.err = msg
	r.mu.Unlock()
}

// Resume goes on with a run a reload interrupted: the samples it kept are not asked again.
func (r *Runner) Resume(saved *SavedRun, key string) error {
	return r.start(saved, key, true, false, true)
}

// RetryFailed asks again every request that failed; the rest of the run is kept as it is (level 3
// is played again only when an episode failed).
func (r *Runner) RetryFailed(saved *SavedRun, key string) error {
	if len(saved.Failures) == 0 {
		return errors.New("this run has no failed requests")
	}
	episodesFailed := false
	for _, f := range saved.Failures {
		episodesFailed = episodesFailed || f.Level == run.Level3
	}
	return r.start(saved, key, true, !episodesFailed, false)
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
		var verdicts *protocol.Batch
		ask := func() (err error) {
			if err = loadPassData(saved); err == nil {
				verdicts, err = retryOne(ctx, saved, key, f)
			}
			return err
		}
		var err error
		if wantsData(saved) {
			err = onSeedData(saved.Seed, ask) // the pass's data, then the data loaded before again
		} else {
			err = ask()
		}
		r.mu.Lock()
		if err != nil {
			r.err = "the retry failed: " + err.Error()
		}
		r.prog.Done = 1
		r.mu.Unlock()
		// Kept without the lock held, as finish keeps a run: the page reads the state meanwhile.
		if err := runStore.PutSummary(saved, verdicts); err != nil {
			r.setErr("the run could not be kept: " + err.Error())
		}
		if saved.Settings.Variants > 0 {
			r.sumUpRobustness(saved, nil) // a pass of a robustness run: its robustness again, from the store
		}
		r.mu.Lock()
		r.cur, r.cancel, r.last = nil, nil, saved
		r.mu.Unlock()
	}()
	return nil
}

// retryOne asks f's sample again and, when it is answered, lands its record and judges the run's
// predictions (read back from the store) again: it returns the new verdicts.
func retryOne(ctx context.Context, saved *SavedRun, key string, f run.Failure) (*protocol.Batch, error) {
	p, err := tab.Prompt(f.Level, f.File, f.ID)
	if err != nil {
		return nil, err
	}
	req, err := run.Request(p, saved.Settings.Form)
	if err != nil {
		return nil, err
	}
	resp, err := model.New(saved.Settings.Endpoint(key)).Chat(ctx, req)
	saved.TokensIn += resp.Usage.PromptTokens
	saved.TokensOut += resp.Usage.CompletionTokens
	if err != nil {
		for i := range saved.Failures {
			if saved.Failures[i].Task == f.Task {
				saved.Failures[i].Message, saved.Failures[i].NotAsked = err.Error(), false
				var me *model.Error
				if errors.As(err, &me) {
					saved.Failures[i].Status = me.Status
				}
			}
		}
		return nil, err
	}
	pred := run.PredictionOf(f.Task, resp)
	whole, err := runStore.Whole(saved.ID)
	if err != nil {
		return nil, err
	}
	order, err := run.Tasks(ctx, tab.Engine.Do, saved.Settings.Config())
	if err != nil {
		return nil, err
	}
	pos := map[string]int{}
	for i, t := range order {
		pos[run.Key(t)] = i
	}
	preds := append(whole.Predictions, pred)
	slices.SortStableFunc(preds, func(a, b run.Prediction) int { return pos[predKey(a)] - pos[predKey(b)] })
	b, err := run.ScoreInSteps(ctx, tab.Engine.Do, run.PredictionsJSONL(preds), saved.Settings.State, "run", nextTask)
	if err != nil {
		return nil, err
	}
	if err := runStore.Land(saved.ID, Landed{Key: run.Key(f.Task), Pred: pred, Response: run.Kept(resp)}); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(preds)+len(whole.Episodes))
	for _, p := range preds {
		keys = append(keys, predKey(p))
	}
	for _, ep := range whole.Episodes {
		keys = append(keys, episodeKey(ep.File))
	}
	saved.order, saved.Batch = keys, shortBatch(&b)
	saved.Failures = slices.DeleteFunc(saved.Failures, func(x run.Failure) bool { return x.Task == f.Task })
	return &b, nil
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
