package app

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/stats"
)

// runFormat tags saved and exported runs.
const runFormat = "apibank-playground/run@1"

// Run statuses.
const (
	runRunning   = "running"
	runDone      = "done"
	runCancelled = "cancelled"
)

// RunSettings are the endpoint settings a run used, without the API key (which is never saved).
type RunSettings struct {
	Preset      string  `json:"preset,omitempty"`
	BaseURL     string  `json:"base_url"`
	Model       string  `json:"model"`
	Temperature float64 `json:"temperature"`
	MaxTokens   int     `json:"max_tokens,omitempty"`
	TimeoutSec  int     `json:"timeout_s,omitempty"`
	Retries     int     `json:"retries"`
	Stream      bool    `json:"stream,omitempty"`
	// Form, Levels, Concurrency, Limit, Steps and State are the run's config.
	Form        string   `json:"form"`
	Levels      []string `json:"levels"`
	Concurrency int      `json:"concurrency"`
	Limit       int      `json:"limit,omitempty"`
	Steps       int      `json:"steps,omitempty"`
	State       string   `json:"state,omitempty"`
	// Trials above 1 runs these settings that many times, one run after another, each kept as
	// its own run of one group; the Runs page sums the group up as pass^k.
	Trials int `json:"trials,omitempty"`
	// Seed names the variant of the builtin data the run asks (1 to protocol.MaxSeed; 0: the data
	// loaded in the tab), as `apibank run --seed S` does.
	Seed int64 `json:"seed,omitempty"`
	// Variants above 0 makes a robustness run, as `apibank run --variants N` does: the builtin
	// data, its variants of seeds run.VariantSeeds(N), and the builtin data asked again, each pass
	// kept as its own run of one group (see RobustGroups).
	Variants int `json:"variants,omitempty"`
}

// Endpoint returns the model settings with the key given (the only place a key joins settings).
func (s RunSettings) Endpoint(key string) model.Settings {
	m := model.Settings{BaseURL: s.BaseURL, Model: s.Model, APIKey: key, Temperature: s.Temperature, MaxTokens: s.MaxTokens,
		Stream: s.Stream, Retries: s.Retries}
	if s.Retries == 0 {
		m.Retries = -1 // 0 in the form means no retry; model.Settings reads 0 as its default
	}
	if s.TimeoutSec > 0 {
		m.Timeout = secondsDuration(s.TimeoutSec)
	}
	if p, ok := model.FindPreset(s.Preset); ok && endpointHost(p.BaseURL) == endpointHost(s.BaseURL) {
		m.Headers = p.Settings().Headers
	}
	return m
}

// Config returns the run config.
func (s RunSettings) Config() run.Config {
	return run.Config{Form: s.Form, Levels: s.Levels, Concurrency: s.Concurrency, Limit: s.Limit, Steps: s.Steps, State: s.State}
}

// DefaultRunSettings are the form's values before the user changes any.
func DefaultRunSettings() RunSettings {
	return RunSettings{Preset: "openai", BaseURL: "https://api.openai.com/v1", Form: run.Text, Levels: []string{Levels[0]},
		Concurrency: run.DefaultConcurrency, Retries: model.DefaultRetries, TimeoutSec: 120, Steps: run.DefaultSteps}
}

// SavedRun is a model run as the tab exports it: what ran, against which engine and data, every
// prediction and response, and the report; or its summary, as pages hold a kept run (see
// RunStore). It never holds the API key.
type SavedRun struct {
	Format string `json:"format"`
	// ID names the run in this browser.
	ID string `json:"id"`
	// Host is the endpoint's host (the base URL is in Settings; neither carries a key).
	Host     string      `json:"host"`
	Settings RunSettings `json:"settings"`
	Status   string      `json:"status"`
	// Started and Ended are RFC 3339 times.
	Started string `json:"started"`
	Ended   string `json:"ended,omitempty"`
	// Engine is the engine's identity (its content-hashed file name); Data the dataset's name and
	// DataHash a hash of its samples, so a comparison says when two runs saw different data.
	Engine    string `json:"engine"`
	Data      string `json:"data"`
	DataHash  string `json:"data_hash"`
	Total     int    `json:"total"`
	TokensIn  int    `json:"tokens_in"`
	TokensOut int    `json:"tokens_out"`

	Predictions []run.Prediction          `json:"predictions"`
	Responses   map[string]model.Response `json:"responses,omitempty"`
	Episodes    []run.Episode             `json:"episodes"`
	Failures    []run.Failure             `json:"failures"`
	Batch       *protocol.Batch           `json:"batch,omitempty"`
	// Cut counts the answers that went over a limit of the run (judged wrong), with the limits.
	Cut run.CutCount `json:"cut"`

	// Encoder is the version of the prompts the run sent (run.EncoderVersion when it started; 0 in
	// runs kept before runs recorded it): the board's record says which prompts ran.
	Encoder int `json:"encoder,omitempty"`

	// Source says how the answers came: "" from the endpoint, live, or "batch" from a provider's
	// batch output file (the run's level 3 is then its step samples, not episodes).
	Source string `json:"source,omitempty"`

	// Group and Trial place a run among repeated trials (Settings.Trials > 1): Group is the first
	// trial's ID, Trial the run's place from 1. Both are empty for a single run.
	Group string `json:"group,omitempty"`
	Trial int    `json:"trial,omitempty"`

	// Seed names the variant of the builtin data the run asked (0: the data that was loaded; for a
	// pass of a robustness run, the builtin data itself). A run with a seed is re-scored on its
	// variant.
	Seed int64 `json:"seed,omitempty"`

	// summary says the run is what the store hands pages (see RunStore): no predictions or
	// responses, its episodes and verdicts in short; wholeRun reads it back whole. order is the
	// task keys of its records in the run's order.
	summary bool
	order   []string
}

// Label names a run in lists: model, form and when (and its trial, when it is one of several).
func (r *SavedRun) Label() string {
	l := r.settingsLabel()
	switch {
	case r.Settings.Variants > 0:
		l += " · robustness: " + passName(r)
	case r.Seed != 0:
		l += fmt.Sprintf(" · variant seed %d", r.Seed)
	}
	if r.Trial > 0 && r.Settings.Variants == 0 {
		l += fmt.Sprintf(" · trial %d of %d", r.Trial, r.Settings.Trials)
	}
	if r.Source == runSourceBatch {
		l += " · batch"
	}
	return l
}

// settingsLabel names a run by its model, form (streamed or not) and start.
func (r *SavedRun) settingsLabel() string {
	form := string(r.Settings.Form)
	if r.Settings.Stream {
		form += " streamed"
	}
	return fmt.Sprintf("%s · %s · %s", r.Settings.Model, form, strings.Replace(r.Started, "T", " ", 1)[:min(16, len(r.Started))])
}

// Apply takes a finished (or cancelled) result into the saved run.
func (r *SavedRun) Apply(res *run.Result) {
	r.Predictions, r.Responses, r.Episodes, r.Failures, r.Batch = res.Predictions, res.Responses, res.Episodes, res.Failures, res.Batch
	r.Cut = res.Cut
	r.TokensIn += res.TokensIn
	r.TokensOut += res.TokensOut
	r.Status = runDone
	if res.Cancelled {
		r.Status = runCancelled
	}
}

// PredictionsJSONL is the run's predictions in the original's format, then one line per level-3
// episode: the bytes `apibank run --out` writes for the same answers.
func (r *SavedRun) PredictionsJSONL() []byte { return run.OutJSONL(r.Predictions, r.Episodes) }

// endpointHost is the host of a base URL ("" when it is not a URL).
func endpointHost(base string) string {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return ""
	}
	return u.Host
}

// ParseSavedRun reads an exported run file, saying what is wrong with one that is not.
func ParseSavedRun(data []byte) (*SavedRun, error) {
	var r SavedRun
	if err := json.Unmarshal(data, &r); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")) + 1
			return nil, fmt.Errorf("line %d: not a run file (invalid JSON: %v)", line, err)
		}
		return nil, fmt.Errorf("not a run file: %v", err)
	}
	if r.Format != runFormat {
		return nil, fmt.Errorf("not a run file of this playground (its \"format\" is %q, want %q)", r.Format, runFormat)
	}
	if r.ID == "" {
		return nil, errors.New("the run file has no \"id\"")
	}
	return &r, nil
}

// MaxShareLink is the longest share link offered: browsers take longer URLs, but chat and mail
// programs cut them, and a cut link opens nothing.
const MaxShareLink = 64 << 10

// ErrShareTooLarge says a run does not fit in a link.
var ErrShareTooLarge = errors.New("this run is too large for a link")

// shareRun is what a share link carries: the run without its raw responses, verdicts and
// transcripts (the opener's engine re-scores the predictions, and the episodes keep their calls).
func shareRun(r *SavedRun) *SavedRun {
	s := *r
	s.Responses, s.Batch = nil, nil
	s.Episodes = make([]run.Episode, len(r.Episodes))
	for i, ep := range r.Episodes {
		ep.Transcript = nil
		s.Episodes[i] = ep
	}
	return &s
}

// ShareFragment is the URL fragment of a share link: the run (see shareRun) as JSON, deflated and
// base64url-encoded. Nothing of it reaches a server: browsers never send the fragment. In the tab it
// waits for the browser's compressor (see deflateRaw): call it from a goroutine of its own.
func ShareFragment(r *SavedRun) (string, error) {
	raw, err := json.Marshal(shareRun(r))
	if err != nil {
		return "", err
	}
	packed, err := deflateRaw(raw)
	if err != nil {
		return "", err
	}
	frag := "run=" + base64.RawURLEncoding.EncodeToString(packed)
	if len(frag) > MaxShareLink {
		return "", fmt.Errorf("%w (%s compressed, the most is %s): export the file instead", ErrShareTooLarge, Size(len(frag)), Size(MaxShareLink))
	}
	return frag, nil
}

// maxSharedJSON bounds what a share link may inflate to, so a crafted link cannot exhaust memory.
const maxSharedJSON = 64 << 20

// ParseShareFragment reads a run from a share link's fragment ("run=..."; a leading "#" is allowed).
func ParseShareFragment(frag string) (*SavedRun, error) {
	frag = strings.TrimPrefix(frag, "#")
	data, ok := strings.CutPrefix(frag, "run=")
	if !ok {
		return nil, errors.New("the link holds no run (its fragment does not start with run=)")
	}
	packed, err := base64.RawURLEncoding.DecodeString(data)
	if err != nil {
		return nil, fmt.Errorf("the link is damaged (not base64url): %v", err)
	}
	raw, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(packed)), maxSharedJSON+1))
	if err != nil {
		return nil, fmt.Errorf("the link is damaged (not deflate data): %v", err)
	}
	if len(raw) > maxSharedJSON {
		return nil, fmt.Errorf("the link's run is over %s", Size(maxSharedJSON))
	}
	return ParseSavedRun(raw)
}

// Interval is a 95% confidence interval of a proportion (stats.Interval).
type Interval = stats.Interval

// Wilson is the 95% Wilson score interval of k successes in n trials (stats.Wilson).
func Wilson(k, n int) Interval { return stats.Wilson(k, n) }

// EpisodeSummary sums up the run's episodes.
func (r *SavedRun) EpisodeSummary() run.EpisodeSummary { return run.SumEpisodes(r.Episodes) }

// Disagreement is a sample two runs judged differently.
type Disagreement struct {
	Level, File string
	ID          int
	Kind        string
	A, B        string // the verdicts, in words
	PredA       string
	PredB       string
}

// sampleKey names a sample across runs.
func sampleKey(level, file string, id int) string { return fmt.Sprintf("%s/%s#%d", level, file, id) }

// verdictWords is a verdict as the comparison shows it: the category, or the ROUGE-L of a reply.
func verdictWords(v protocol.Verdict) string {
	if r, ok := v.Reply(); ok {
		return "ROUGE-L " + Round4(r.RougeL)
	}
	if v.CallVerdict == nil {
		return "not judged: " + v.Err()
	}
	return v.Call().Category
}

// Disagreements lists the samples two runs judged differently, in a's order then b's: calls whose
// category differs, replies whose ROUGE-L differs, samples only one run has, and level-3 episodes
// whose success or world match differs.
func Disagreements(a, b *SavedRun) []Disagreement {
	type entry struct {
		v    protocol.Verdict
		pred string
	}
	index := func(r *SavedRun) (map[string]entry, []string) {
		preds := map[string]string{}
		for _, p := range r.Predictions {
			preds[sampleKey(p.Level, p.File, p.ID)] = p.Pred
		}
		m, order := map[string]entry{}, []string{}
		if r.Batch != nil {
			for _, v := range r.Batch.Results {
				k := sampleKey(v.Level, v.File, v.ID)
				if _, dup := m[k]; !dup {
					order = append(order, k)
				}
				m[k] = entry{v, preds[k]}
			}
		}
		return m, order
	}
	ma, oa := index(a)
	mb, ob := index(b)
	var out []Disagreement
	seen := map[string]bool{}
	for _, k := range append(oa, ob...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		ea, inA := ma[k]
		eb, inB := mb[k]
		d := Disagreement{A: "—", B: "—"}
		var v protocol.Verdict
		if inA {
			v, d.A, d.PredA = ea.v, verdictWords(ea.v), ea.pred
		}
		if inB {
			v, d.B, d.PredB = eb.v, verdictWords(eb.v), eb.pred
		}
		if d.A == d.B {
			continue
		}
		d.Level, d.File, d.ID, d.Kind = v.Level, v.File, v.ID, v.Kind
		out = append(out, d)
	}
	epA, epB := map[string]run.Episode{}, map[string]run.Episode{}
	var files []string
	for _, ep := range a.Episodes {
		epA[ep.File] = ep
		files = append(files, ep.File)
	}
	for _, ep := range b.Episodes {
		if _, ok := epA[ep.File]; !ok {
			files = append(files, ep.File)
		}
		epB[ep.File] = ep
	}
	for _, f := range files {
		ea, inA := epA[f]
		eb, inB := epB[f]
		wa, wb := episodeWords(ea, inA), episodeWords(eb, inB)
		if wa != wb {
			out = append(out, Disagreement{Level: run.Level3, File: f, ID: -1, Kind: "episode", A: wa, B: wb,
				PredA: episodeCalls(ea), PredB: episodeCalls(eb)})
		}
	}
	return out
}

// DisagreementsWithAnswers is Disagreements with both answers of each sample: a kept run's
// answers (which its summary does not hold) are read back from the store, those of the samples
// listed only.
func DisagreementsWithAnswers(a, b *SavedRun) ([]Disagreement, error) {
	diffs := Disagreements(a, b)
	// answer is r's answer to d's sample: the one Disagreements found (had) in a whole run, else
	// its record's.
	answer := func(r *SavedRun, d Disagreement, verdict, had string) (string, error) {
		if !r.summary || verdict == "—" {
			return had, nil
		}
		l, ok, err := runStore.Record(r.ID, sampleKey(d.Level, d.File, d.ID)) // an episode's ID is -1, as its task's
		switch {
		case err != nil || !ok:
			return "", err
		case l.Episode != nil:
			return episodeCalls(*l.Episode), nil
		}
		return l.Pred.Pred, nil
	}
	for i, d := range diffs {
		var err error
		if diffs[i].PredA, err = answer(a, d, d.A, d.PredA); err != nil {
			return diffs, err
		}
		if diffs[i].PredB, err = answer(b, d, d.B, d.PredB); err != nil {
			return diffs, err
		}
	}
	return diffs, nil
}

func episodeWords(ep run.Episode, ok bool) string {
	switch {
	case !ok:
		return "—"
	case ep.Outcome == nil:
		return "not judged (" + ep.Stopped + ")"
	}
	o := ep.Outcome
	words := fmt.Sprintf("success %v, world match %v, milestones %d/%d (%.3f)", o.Success, o.StateMatch, o.Matched, o.Gold, run.OutcomeMilestone(*o))
	if len(o.Unmet) > 0 {
		words += ", the answer misses " + strings.Join(o.Unmet, "; ")
	}
	return words
}

// episodeCalls lists an episode's calls one a line.
func episodeCalls(ep run.Episode) string {
	var b strings.Builder
	for _, c := range ep.Calls {
		fmt.Fprintf(&b, "%s %s\n", c.Name, c.Args)
	}
	return b.String()
}

// Agreement is how a re-score compares with the verdicts a run file carried.
type Agreement struct {
	Compared, Agree int
	// Differ lists the samples whose verdicts differ (at most 20).
	Differ []string
}

// CompareVerdicts compares the verdicts a run carried with a re-score of its predictions, sample by
// sample.
func CompareVerdicts(carried, rescored []protocol.Verdict) Agreement {
	old := map[string]string{}
	for _, v := range carried {
		old[sampleKey(v.Level, v.File, v.ID)] = verdictWords(v)
	}
	var a Agreement
	for _, v := range rescored {
		k := sampleKey(v.Level, v.File, v.ID)
		w, ok := old[k]
		if !ok {
			continue
		}
		a.Compared++
		if w == verdictWords(v) {
			a.Agree++
		} else if len(a.Differ) < 20 {
			a.Differ = append(a.Differ, fmt.Sprintf("%s: was %s, now %s", k, w, verdictWords(v)))
		}
	}
	return a
}

// sortRuns orders runs newest first.
func sortRuns(rs []*SavedRun) {
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Started != rs[j].Started {
			return rs[i].Started > rs[j].Started
		}
		return rs[i].ID > rs[j].ID // runs started in one second (a robustness run's passes): in the order made
	})
}

func secondsDuration(n int) time.Duration { return time.Duration(n) * time.Second }
