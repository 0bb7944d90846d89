// Package run evaluates a model end to end: it asks the engine for the samples and their prompts,
// sends each prompt to an OpenAI-compatible endpoint (package model), turns each answer into a
// prediction line, and has the engine judge them exactly as a pasted prediction file; level-3 scenes
// are played live as episodes in the engine's worlds. The browser tab (GOOS=js, fetch) and the CLI
// (net/http) run this same code, so the same model answers give byte-identical predictions and
// reports in both.
package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
)

// Forms of a run: how the model is asked and answers.
const (
	// Text is the original's prompt and `[ApiName(key='value')]` answer, comparable with published
	// API-Bank numbers.
	Text = "text"
	// Native is function calling: `tools` offered, `tool_calls` answered, results sent back as
	// `tool` messages.
	Native = "native"
)

// Level3 is the level played as live episodes.
const Level3 = "level-3"

// Defaults of Config's zero values.
const (
	DefaultConcurrency = 4
	// DefaultSteps bounds a level-3 episode's answers. It leaves room for a search before each
	// required call and for the final reply, at least 2 × the required gold calls + 2 of every
	// builtin scene (a test holds it so), so the step limit never fails a reasonable plan.
	DefaultSteps = 16
)

// Chat is what a run needs of a model endpoint: *model.Client is one.
type Chat interface {
	Chat(ctx context.Context, r model.Request) (model.Response, error)
}

// Config says what to run.
type Config struct {
	// Form is Text or Native (default Text).
	Form string `json:"form"`
	// Levels are the levels to run, by folder name (level-1-given-desc, level-2-toolsearcher,
	// level-3); empty means every level the data has.
	Levels []string `json:"levels"`
	// State is the state mode calls are judged in ("" the data's default).
	State string `json:"state,omitempty"`
	// Concurrency is how many model requests are in flight at once (default 4).
	Concurrency int `json:"concurrency"`
	// Limit, when positive, runs only the first Limit samples (and scenes) of each level.
	Limit int `json:"limit,omitempty"`
	// Steps bounds the model's answers in one level-3 episode (default DefaultSteps); an answer may
	// make several calls.
	Steps int `json:"steps"`
}

func (c Config) withDefaults() Config {
	if c.Form == "" {
		c.Form = Text
	}
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.Steps <= 0 {
		c.Steps = DefaultSteps
	}
	return c
}

// Validate says what in the config cannot run.
func (c Config) Validate() error {
	c = c.withDefaults()
	if c.Form != Text && c.Form != Native {
		return fmt.Errorf("form must be %s or %s, not %q", Text, Native, c.Form)
	}
	for _, l := range c.Levels {
		if !slices.Contains(AllLevels, l) {
			return UnknownLevel(l)
		}
	}
	return nil
}

// Task is one model request of a run: a sample of levels 1-2, or a level-3 scene (ID -1).
type Task struct {
	Level string `json:"level"`
	File  string `json:"file"`
	ID    int    `json:"id"`
	Kind  string `json:"kind"`
}

// Prediction is one line of the run's predictions file, the format `apibank score --preds` reads.
type Prediction struct {
	Level string `json:"level"`
	File  string `json:"file"`
	ID    int    `json:"id"`
	Pred  string `json:"pred"`
	// Cut, when set, says the model's answer went over a limit of the run: Pred is then empty,
	// which the engine judges wrong (the scorer reads no other member of the line).
	Cut *Cut `json:"cut,omitempty"`
}

// Cut says which limit a model's answer went over: the run judges such an answer wrong rather
// than whatever part of it came, and keeps only its head (KeptHead bytes).
type Cut struct {
	// By is model.CutSize (the answer's bytes) or model.CutTimeout (still coming at the time limit).
	By string `json:"by"`
	// Limit states the limit: "1048576 bytes", or a duration such as "2m0s".
	Limit string `json:"limit"`
}

// CutOf is the mark of a cut answer (nil when the answer is whole).
func CutOf(r model.Response) *Cut {
	if !r.Truncated {
		return nil
	}
	return &Cut{By: r.TruncatedBy, Limit: r.Limit}
}

// KeptHead is how much of a cut answer's text (and of each call's arguments) a run keeps, to show.
const KeptHead = 1 << 10

// Kept is the response a run keeps of an answer: the answer itself when whole, else its head only
// (KeptHead bytes of its text and of each call's arguments), so that a run's memory does not grow
// with what a model sends past a limit.
func Kept(r model.Response) model.Response {
	if !r.Truncated {
		return r
	}
	r.Content = head(r.Content)
	if len(r.ToolCalls) > 0 {
		calls := make([]model.ToolCall, len(r.ToolCalls))
		for i, c := range r.ToolCalls {
			c.Name, c.Arguments = head(c.Name), head(c.Arguments)
			calls[i] = c
		}
		r.ToolCalls = calls
	}
	return r
}

// head is s cut to KeptHead bytes at a rune's start, copied so that the rest can be freed.
func head(s string) string {
	if len(s) <= KeptHead {
		return s
	}
	end := KeptHead
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return strings.Clone(s[:end])
}

// CutCount counts a run's answers that went over a limit (each judged wrong), with the limits.
type CutCount struct {
	// Size counts the answers over SizeLimit; Timeout those still coming at TimeLimit.
	Size      int    `json:"size"`
	SizeLimit string `json:"size_limit,omitempty"`
	Timeout   int    `json:"timeout"`
	TimeLimit string `json:"time_limit,omitempty"`
}

// Add counts one cut answer (nil: none).
func (c *CutCount) Add(cut *Cut) {
	switch {
	case cut == nil:
	case cut.By == model.CutSize:
		c.Size++
		c.SizeLimit = cut.Limit
	default:
		c.Timeout++
		c.TimeLimit = cut.Limit
	}
}

// Failure is a model request that failed after its retries: not a model error, so it is not
// judged; it is counted apart and can be retried alone.
type Failure struct {
	Task
	// Status is the HTTP status (0 for a network error or a timeout).
	Status int `json:"status"`
	// Message is the provider's message (never containing the API key).
	Message string `json:"message"`
	// NotAsked: the run did not ask this task, its first requests having found the endpoint
	// unusable (see NotAsked).
	NotAsked bool `json:"not_asked,omitempty"`
}

// Episode is a level-3 scene played live: every message of the conversation, the engine's
// judgement, and the calls made.
type Episode struct {
	Level      string                 `json:"level"`
	Scene      string                 `json:"scene"`
	File       string                 `json:"file"`
	Outcome    *protocol.Outcome      `json:"outcome,omitempty"`
	Calls      []protocol.EpisodeCall `json:"calls"`
	Transcript []model.Message        `json:"transcript"`
	// Reply is the model's final message to the user (its answer without a call, when Stopped is
	// "reply"), which the engine judges against the scene's answer needs.
	Reply string `json:"reply,omitempty"`
	// Stopped says why the episode ended: "reply" (the model answered without a call), "steps"
	// (the step limit), "cut" (an answer went over a limit, see Cut), "failed" (a request failed)
	// or "cancelled".
	Stopped string `json:"stopped"`
	// Cut is the limit an answer went over when Stopped is "cut".
	Cut *Cut `json:"cut,omitempty"`
}

// Progress is the state of a running run, handed to Options.Progress after every finished task,
// and once more when the run's predictions are judged together at its end.
type Progress struct {
	Done, Total, Failed int
	// Correct and Judged count the call verdicts so far (judged as they land), for a live accuracy:
	// the verdicts the report's call accuracy counts, and nothing else (not the special cases, which
	// the report counts apart, nor level-3 episodes). The last reading, taken once the run's
	// predictions are judged together, is the report's own count.
	Correct, Judged int
	// Scored says the reading is the last one: the report's, at the run's end.
	Scored              bool
	TokensIn, TokensOut int
	Elapsed             time.Duration
}

// Result is a finished (or cancelled) run.
type Result struct {
	Config      Config                    `json:"config"`
	Predictions []Prediction              `json:"predictions"`
	Responses   map[string]model.Response `json:"responses"`
	Episodes    []Episode                 `json:"episodes"`
	Failures    []Failure                 `json:"failures"`
	// Batch is the engine's judgement of the predictions (nil when there were none).
	Batch     *protocol.Batch `json:"batch,omitempty"`
	TokensIn  int             `json:"tokens_in"`
	TokensOut int             `json:"tokens_out"`
	Cancelled bool            `json:"cancelled,omitempty"`
	// StoppedAsking, when the run's first requests found the endpoint unusable (not reached), says
	// so with the first one's error; the tasks it did not ask are failures (Failure.NotAsked).
	StoppedAsking string `json:"stopped_asking,omitempty"`
	// Cut counts the answers that went over a limit (judged wrong), and states the limits.
	Cut CutCount `json:"cut"`
}

// Options are the hooks of a run.
type Options struct {
	// Progress, when set, is called (from the run's goroutines, one call at a time) after every
	// finished task.
	Progress func(Progress)
	// Done, when set, skips tasks already finished (a resumed run): it reports the prediction and
	// response kept for a task key (see Key), or false.
	Done func(key string) (Prediction, model.Response, bool)
	// Landed, when set, is told each finished sample as it lands, so a host can persist it.
	Landed func(key string, p Prediction, r model.Response)
	// Yield, when set, is called between two steps of the run's longer work on the host's side
	// (listing the samples, scoring the predictions at the end): the browser tab, whose Go code
	// runs on the page's thread, gives the page a turn there so no step makes a long task.
	Yield func()
	// DoneEpisode, when set, skips level-3 scenes already played to their end (a resumed run):
	// it reports the episode kept for a task key, or false.
	DoneEpisode func(key string) (Episode, bool)
	// EpisodeLanded, when set, is told each level-3 episode played to its end (not failed, not
	// cancelled), so a host can persist it.
	EpisodeLanded func(key string, ep Episode)
	// Out, when set, receives the run's output file (OutJSONL's bytes: the predictions, then the
	// level-3 episodes) as the run goes, in the run's order, and the run keeps none of it:
	// Result.Predictions and Responses stay empty, Episodes keep their outcome without calls or
	// transcript, and the predictions are judged as they are written. A host writing a file uses it
	// so that its memory grows with the concurrency, not with the number of samples.
	Out io.Writer
}

// Key names a task in Result.Responses and the resume hooks.
func Key(t Task) string { return fmt.Sprintf("%s/%s#%d", t.Level, t.File, t.ID) }

// serial serialises a transport: an engine session answers one request at a time.
type serial struct {
	mu sync.Mutex
	do protocol.Transport
}

func (e *serial) call(ctx context.Context, req []byte) ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.do(ctx, req)
}

func ask[T any](ctx context.Context, e *serial, req protocol.Request) (T, error) {
	return protocol.Call[T](ctx, e.call, req)
}

// Tasks lists the requests a run of cfg makes against the engine's loaded data, in the run's order
// (level order, then the engine's sample order).
func Tasks(ctx context.Context, do protocol.Transport, cfg Config) ([]Task, error) {
	return tasks(ctx, &serial{do: do}, cfg.withDefaults(), nil)
}

// samplesStep is how many samples tasks decodes between two calls of its yield.
const samplesStep = 50

// samplesOf lists a level's samples as the samples op answers them, decoded samplesStep at a time
// with yield (when not nil) called between two steps: a level's list is about 100 KB.
func samplesOf(ctx context.Context, e *serial, level string, yield func()) ([]protocol.SampleView, error) {
	req, err := protocol.Encode(protocol.Request{Op: protocol.OpSamples, Level: level})
	if err != nil {
		return nil, err
	}
	resp, err := e.call(ctx, req)
	if err != nil {
		return nil, err
	}
	if yield != nil {
		yield() // the answer came in a task that copied it; reading its envelope is the next one
	}
	raw, err := protocol.Result(resp)
	if err != nil {
		return nil, err
	}
	if yield != nil {
		yield() // reading the envelope went over the whole list once: the decoding is the next step
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	t, err := dec.Token()
	if err == nil && t == nil {
		return nil, nil // null: no samples
	}
	if err != nil || t != json.Delim('[') {
		return nil, fmt.Errorf("engine %s answer: not a list of samples", protocol.OpSamples)
	}
	var out []protocol.SampleView
	for dec.More() {
		if yield != nil && len(out) > 0 && len(out)%samplesStep == 0 {
			yield()
		}
		var s protocol.SampleView
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("engine %s answer: %w", protocol.OpSamples, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// AllLevels are every level, in order: the levels of a config that names none.
var AllLevels = []string{"level-1-given-desc", "level-2-toolsearcher", Level3}

// LevelNamed returns the level s names: a level's folder name, or its number alone ("1", "2",
// "3") or with "level-" before it ("level-1"), as a user types it. ok is false for any other s: a
// level nothing is asked of would run nothing, without a word.
func LevelNamed(s string) (level string, ok bool) {
	for _, l := range AllLevels {
		if code := levelCodes[l]; s == l || s == code || s == "level-"+code {
			return l, true
		}
	}
	return "", false
}

// levelChoices says which levels LevelNamed reads, for an error.
func levelChoices() string {
	var b strings.Builder
	for i, l := range AllLevels {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l + " (" + levelCodes[l] + ")")
	}
	return b.String()
}

// UnknownLevel is the error for a level s that LevelNamed does not read.
func UnknownLevel(s string) error {
	return fmt.Errorf("no level %q: the levels are %s", s, levelChoices())
}

// LevelsOf are the levels a run of cfg asks, in order.
func LevelsOf(cfg Config) []string {
	if len(cfg.Levels) == 0 {
		return AllLevels
	}
	return cfg.Levels
}

// sampleTasks lists the single-request samples of a level (level 3's step samples included), in
// the engine's order, the skipped ones left out, the first limit only when limit is positive.
func sampleTasks(ctx context.Context, e *serial, level string, limit int, yield func()) ([]Task, error) {
	ss, err := samplesOf(ctx, e, level, yield)
	if err != nil {
		return nil, err
	}
	var out []Task
	for _, s := range ss {
		if s.Kind == protocol.KindSkip {
			continue
		}
		if limit > 0 && len(out) >= limit {
			break
		}
		out = append(out, Task{Level: s.Level, File: s.File, ID: s.ID, Kind: s.Kind})
	}
	return out, nil
}

// SampleTasks lists the single-request samples of cfg's levels in order: the samples of levels 1
// and 2 as a run asks them, and level 3's step samples (each gold call of a scene predicted from
// the steps before it) where a run plays episodes. It is the list of a prompts file and of a batch
// input file, line for line.
func SampleTasks(ctx context.Context, do protocol.Transport, cfg Config) ([]Task, error) {
	e := &serial{do: do}
	var out []Task
	for _, l := range LevelsOf(cfg) {
		ts, err := sampleTasks(ctx, e, l, cfg.Limit, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}

func tasks(ctx context.Context, e *serial, cfg Config, yield func()) ([]Task, error) {
	var out []Task
	for _, l := range LevelsOf(cfg) {
		if l == Level3 {
			ds, err := ask[[]protocol.DialogueSummary](ctx, e, protocol.Request{Op: protocol.OpDialogues, Level: Level3})
			if err != nil {
				return nil, err
			}
			for i, d := range ds {
				if cfg.Limit > 0 && i >= cfg.Limit {
					break
				}
				out = append(out, Task{Level: Level3, File: d.File, ID: -1, Kind: "episode"})
			}
			continue
		}
		ts, err := sampleTasks(ctx, e, l, cfg.Limit, yield)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}

// Request is the model request of a prompt in a form: the text prompt as one user message, or the
// native messages with the tools offered. It is what `apibank prompts` writes and what a run sends.
func Request(p protocol.Prompt, form string) (model.Request, error) {
	if form == Text {
		return model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: p.Text}}}, nil
	}
	var r model.Request
	var msgs []struct {
		Role       string  `json:"role"`
		Content    *string `json:"content"`
		ToolCallID string  `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(p.Messages, &msgs); err != nil {
		return r, fmt.Errorf("prompt messages: %w", err)
	}
	for _, m := range msgs {
		msg := model.Message{Role: m.Role, ToolCallID: m.ToolCallID}
		if m.Content != nil {
			msg.Content = *m.Content
		}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, model.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		r.Messages = append(r.Messages, msg)
	}
	tools, err := Tools(p.Tools)
	if err != nil {
		return r, err
	}
	r.Tools = tools
	return r, nil
}

// Tools reads the engine's function schemas ({"type":"function","function":{...}}) as model tools.
func Tools(raw json.RawMessage) ([]model.Tool, error) {
	var schemas []struct {
		Function model.Tool `json:"function"`
	}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &schemas); err != nil {
			return nil, fmt.Errorf("prompt tools: %w", err)
		}
	}
	out := make([]model.Tool, len(schemas))
	for i, s := range schemas {
		out[i] = s.Function
	}
	return out, nil
}

// Pred turns a model answer into a prediction text: a native tool call as {"name", "arguments"}
// (arguments kept as the model wrote them when they are not a JSON object, so the scorer judges
// them), several as a JSON list of such objects (a gold call set's answer; judged by its first call
// on the original's data), else the answer's text.
func Pred(r model.Response) string {
	if len(r.ToolCalls) == 0 {
		return r.Content
	}
	var b bytes.Buffer
	if len(r.ToolCalls) > 1 {
		b.WriteByte('[')
	}
	for i, c := range r.ToolCalls {
		if i > 0 {
			b.WriteByte(',')
		}
		args := json.RawMessage(c.Arguments)
		var obj map[string]json.RawMessage
		if json.Unmarshal(args, &obj) != nil {
			quoted, _ := json.Marshal(c.Arguments)
			args = quoted
		}
		name, _ := json.Marshal(c.Name)
		b.WriteString(`{"name":`)
		b.Write(name)
		b.WriteString(`,"arguments":`)
		b.Write(compact(args))
		b.WriteByte('}')
	}
	if len(r.ToolCalls) > 1 {
		b.WriteByte(']')
	}
	return b.String()
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// Run runs cfg: every task against chat, judged by the engine behind do. Cancelling ctx stops at
// once and returns what finished (Result.Cancelled set).
func Run(ctx context.Context, do protocol.Transport, chat Chat, cfg Config, opt Options) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	watch := &endpointWatch{chat: chat}
	chat = watch
	e := &serial{do: do}
	ts, err := tasks(ctx, e, cfg, opt.Yield)
	if err != nil {
		return nil, err
	}
	res := &Result{Config: cfg, Responses: map[string]model.Response{}, Predictions: []Prediction{}, Episodes: []Episode{}, Failures: []Failure{}}
	start := time.Now()
	var mu sync.Mutex
	prog := Progress{Total: len(ts)}
	out := newInOrder(len(ts))
	if opt.Out != nil {
		sc, err := startScoring(context.WithoutCancel(ctx), e.call, cfg.State, "run")
		if err != nil {
			return nil, err
		}
		defer sc.close()
		out.w, out.sc = opt.Out, sc
	}
	report := func(resp model.Response, f *Failure, judged, correct bool) {
		if f != nil && ctx.Err() != nil {
			// Stopped by Cancel, not failed: the task is simply not done.
			f = nil
		}
		mu.Lock()
		defer mu.Unlock()
		prog.Done++
		prog.TokensIn += resp.Usage.PromptTokens
		prog.TokensOut += resp.Usage.CompletionTokens
		if f != nil {
			prog.Failed++
			res.Failures = append(res.Failures, *f)
		}
		if judged {
			prog.Judged++
			if correct {
				prog.Correct++
			}
		}
		prog.Elapsed = time.Since(start)
		if opt.Progress != nil {
			opt.Progress(prog)
		}
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < cfg.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				t := ts[i]
				key := Key(t)
				if t.Level == Level3 {
					if opt.DoneEpisode != nil {
						if ep, ok := opt.DoneEpisode(key); ok {
							out.put(i, nil, &ep)
							report(model.Response{}, nil, false, false)
							continue
						}
					}
					ep, resp, f := playEpisode(ctx, e, chat, cfg, t)
					if opt.EpisodeLanded != nil && f == nil && ep.Outcome != nil && ep.Stopped != "cancelled" {
						opt.EpisodeLanded(key, *ep)
					}
					mu.Lock()
					res.Cut.Add(ep.Cut)
					mu.Unlock()
					out.put(i, nil, ep)
					report(resp, f, false, false) // an episode is not a call: the report counts it apart
					continue
				}
				if opt.Done != nil {
					if p, r, ok := opt.Done(key); ok {
						mu.Lock()
						res.Cut.Add(p.Cut)
						if opt.Out == nil {
							res.Responses[key] = r
						}
						mu.Unlock()
						out.put(i, &p, nil)
						report(model.Response{}, nil, false, false)
						continue
					}
				}
				p, resp, f := askSample(ctx, e, chat, cfg, t)
				if p == nil {
					out.put(i, nil, nil)
					report(resp, f, false, false)
					continue
				}
				resp = Kept(resp)
				mu.Lock()
				res.Cut.Add(p.Cut)
				if opt.Out == nil {
					res.Responses[key] = resp
				}
				mu.Unlock()
				if opt.Landed != nil {
					opt.Landed(key, *p, resp)
				}
				judged, correct := quickVerdict(ctx, e, cfg, *p, t)
				out.put(i, p, nil)
				report(resp, nil, judged, correct)
			}
		}()
	}
feed:
	for i := range ts {
		select {
		case work <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	res.Cancelled = ctx.Err() != nil
	res.StoppedAsking = watch.stopped()
	sort.SliceStable(res.Failures, func(i, j int) bool { return taskLess(ts, res.Failures[i].Task, res.Failures[j].Task) })
	res.TokensIn, res.TokensOut = prog.TokensIn, prog.TokensOut
	if opt.Out != nil {
		// What a cancel left unasked is skipped; the rest is written and judged.
		if err := out.flush(); err != nil {
			return res, err
		}
		res.Episodes = out.episodes
		if out.judged > 0 {
			b, err := out.sc.finish()
			if err != nil {
				return res, err
			}
			res.Batch = &b
		}
	} else {
		for i := range ts {
			if out.preds[i] != nil {
				res.Predictions = append(res.Predictions, *out.preds[i])
			}
			if out.eps[i] != nil {
				res.Episodes = append(res.Episodes, *out.eps[i])
			}
		}
		if len(res.Predictions) > 0 {
			b, err := ScoreInSteps(context.WithoutCancel(ctx), e.call, PredictionsJSONL(res.Predictions), cfg.State, "run", opt.Yield)
			if err != nil {
				return res, err
			}
			res.Batch = &b
		}
	}
	if res.Batch != nil && res.Batch.Report != nil {
		prog.Correct, prog.Judged = res.Batch.Report.Overall.Correct, res.Batch.Report.Overall.Calls
	}
	prog.Scored = true
	prog.Elapsed = time.Since(start)
	if opt.Progress != nil {
		opt.Progress(prog)
	}
	return res, nil
}

// inOrder holds a run's finished tasks until those before them are finished too, and with a
// writer, writes them in the run's order as soon as they can be (keeping none of them), judging the
// predictions as they go through the scoring stream sc.
type inOrder struct {
	mu    sync.Mutex
	preds []*Prediction
	eps   []*Episode
	done  []bool
	next  int

	w        io.Writer
	sc       *scoring
	chunk    bytes.Buffer // prediction lines written but not judged yet
	lines    int
	judged   int
	episodes []Episode
	err      error
}

func newInOrder(n int) *inOrder {
	return &inOrder{preds: make([]*Prediction, n), eps: make([]*Episode, n), done: make([]bool, n)}
}

// put records task i's prediction or episode (both nil: the task failed, or was not asked), and
// with a writer, writes what is now in order.
func (o *inOrder) put(i int, p *Prediction, ep *Episode) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.preds[i], o.eps[i], o.done[i] = p, ep, true
	if o.w == nil {
		return
	}
	for o.next < len(o.done) && o.done[o.next] {
		o.emit(o.next)
		o.next++
	}
}

// emit writes task i's line and forgets it; prediction lines are judged ScoreStep at a time (or
// ScoreStepBytes).
func (o *inOrder) emit(i int) {
	p, ep := o.preds[i], o.eps[i]
	o.preds[i], o.eps[i] = nil, nil
	switch {
	case p != nil:
		line := PredictionsJSONL([]Prediction{*p})
		o.write(line)
		o.chunk.Write(line)
		o.lines++
		if o.lines >= ScoreStep || o.chunk.Len() >= ScoreStepBytes {
			o.judge()
		}
	case ep != nil:
		o.judge() // the predictions come first in the file: those before are judged now
		o.write(append(EpisodeLine(*ep), '\n'))
		slim := *ep
		slim.Calls, slim.Transcript = nil, nil
		o.episodes = append(o.episodes, slim)
	}
}

func (o *inOrder) write(b []byte) {
	if o.err == nil {
		_, o.err = o.w.Write(b)
	}
}

// judge sends the prediction lines not judged yet to the scoring stream.
func (o *inOrder) judge() {
	if o.lines == 0 {
		return
	}
	if err := o.sc.lines(o.chunk.Bytes(), o.lines); err != nil && o.err == nil {
		o.err = err
	}
	o.judged += o.lines
	o.chunk.Reset()
	o.lines = 0
}

// flush writes and judges what is left once every worker is done (tasks a cancel left unasked are
// skipped), and returns the first error met.
func (o *inOrder) flush() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for ; o.next < len(o.done); o.next++ {
		if o.done[o.next] {
			o.emit(o.next)
		}
	}
	o.judge()
	return o.err
}

// taskLess orders failures as their tasks are ordered in the run.
func taskLess(ts []Task, a, b Task) bool {
	pos := func(t Task) int {
		for i, x := range ts {
			if x == t {
				return i
			}
		}
		return len(ts)
	}
	return pos(a) < pos(b)
}

// quickVerdict judges one prediction alone for the live accuracy (the run's report judges them all
// together at the end, as a pasted file would be). It counts what the report's call accuracy
// counts: a call verdict of a sample with a gold call, not a special case's.
func quickVerdict(ctx context.Context, e *serial, cfg Config, p Prediction, t Task) (judged, correct bool) {
	if t.Kind != protocol.KindCall {
		return false, false
	}
	b, err := ask[protocol.Batch](ctx, e, protocol.Request{Op: protocol.OpScore, Preds: string(PredictionsJSONL([]Prediction{p})), State: cfg.State})
	if err != nil || len(b.Results) != 1 || b.Results[0].CallVerdict == nil {
		return false, false
	}
	v := b.Results[0].Call()
	if v.Tool == "" { // judged as a special case: the report counts it apart
		return false, false
	}
	return true, v.Correct
}

// askSample asks the model one sample; a nil prediction means the request failed (see the Failure).
func askSample(ctx context.Context, e *serial, chat Chat, cfg Config, t Task) (*Prediction, model.Response, *Failure) {
	id := t.ID
	p, err := ask[protocol.Prompt](ctx, e, protocol.Request{Op: protocol.OpPrompt, Level: t.Level, File: t.File, Sample: &id})
	if err != nil {
		return nil, model.Response{}, failure(t, err)
	}
	req, err := Request(p, cfg.Form)
	if err != nil {
		return nil, model.Response{}, failure(t, err)
	}
	resp, err := chat.Chat(ctx, req)
	if err != nil {
		return nil, resp, failure(t, err)
	}
	pred := PredictionOf(t, resp)
	return &pred, resp, nil
}

// PredictionOf is the prediction line of a sample's answer: how a run, a retry of one sample and
// a scored batch file all turn a model's answer into what the engine judges.
// An answer cut at a limit is an empty prediction marked with the limit (see Cut): judged wrong.
func PredictionOf(t Task, resp model.Response) Prediction {
	if cut := CutOf(resp); cut != nil {
		return Prediction{Level: t.Level, File: t.File, ID: t.ID, Cut: cut}
	}
	return Prediction{Level: t.Level, File: t.File, ID: t.ID, Pred: Pred(resp)}
}

func failure(t Task, err error) *Failure {
	f := &Failure{Task: t, Message: err.Error()}
	var me *model.Error
	var na *NotAsked
	switch {
	case errors.As(err, &me):
		f.Status = me.Status
	case errors.As(err, &na):
		f.NotAsked = true
	}
	return f
}

// PredictionsJSONL writes predictions one JSON line each, in order: the file `score --preds` reads.
func PredictionsJSONL(ps []Prediction) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, p := range ps {
		_ = enc.Encode(p)
	}
	return b.Bytes()
}

// DefaultPromptModel is the model named in exported requests when none is given: a placeholder
// to replace with the model's name at the endpoint.
const DefaultPromptModel = "MODEL"

// Body is the request body a run sends for a sample's prompt in a form with the settings s:
// model.Body of Request, byte for byte.
func Body(p protocol.Prompt, form string, s model.Settings) ([]byte, error) {
	req, err := Request(p, form)
	if err != nil {
		return nil, err
	}
	return model.Body(s, req)
}

// eachBody calls fn with every single-request sample of cfg (SampleTasks' list) and the request
// body a run would send for it with the settings s.
func eachBody(ctx context.Context, do protocol.Transport, cfg Config, s model.Settings, fn func(Task, []byte) error) error {
	cfg = cfg.withDefaults()
	if s.Model == "" {
		s.Model = DefaultPromptModel
	}
	ts, err := SampleTasks(ctx, do, cfg)
	if err != nil {
		return err
	}
	e := &serial{do: do}
	for _, t := range ts {
		id := t.ID
		p, err := ask[protocol.Prompt](ctx, e, protocol.Request{Op: protocol.OpPrompt, Level: t.Level, File: t.File, Sample: &id})
		if err != nil {
			return fmt.Errorf("%s/%s sample %d: %w", t.Level, t.File, t.ID, err)
		}
		body, err := Body(p, cfg.Form, s)
		if err != nil {
			return fmt.Errorf("%s/%s sample %d: %w", t.Level, t.File, t.ID, err)
		}
		if err := fn(t, body); err != nil {
			return err
		}
	}
	return nil
}

// Prompts writes every single-request sample of cfg's levels (level-3 step samples included) as
// JSONL, one line a sample: the exact chat-completions request body a run sends for it with the
// settings s (s.Model empty: DefaultPromptModel), which any OpenAI-compatible endpoint takes as it
// is. Line i is the body of line i of BatchInput for the same config, whose custom_id names the
// sample.
func Prompts(ctx context.Context, do protocol.Transport, cfg Config, s model.Settings) ([]byte, error) {
	var b bytes.Buffer
	err := eachBody(ctx, do, cfg, s, func(_ Task, body []byte) error {
		b.Write(body)
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
