package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/rouge"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
	"github.com/apibank-playground/apibank/verify"
)

// Session is one engine instance's state: the loaded dataset (builtin until a load) and the sandbox
// world with its call history. A browser tab, a CLI run and a server session each own one.
// It is not safe for concurrent use.
type Session struct {
	data    *dataset.Data
	index   *score.Index
	sandbox *tools.World
	history []protocol.SandboxCall
	// builtinErr says why the builtin data could not be loaded ("" normally).
	builtinErr string
	// loadErrs are the problems met loading the current data; with builtinErrs set they are the
	// builtin data's, asked for when first needed (see loadErrors).
	loadErrs    []dataset.LineError
	builtinErrs bool
	// variant sums up the current data when it is a variant of the builtin data (nil otherwise).
	variant *protocol.Variant
	// dataMemo is the memo of the current data, a folder loaded without a problem (nil for others):
	// see the memo op.
	dataMemo *dataMemo
	// memoFiles and memoName, when the load took dataMemo from its request (rather than learning
	// it: see memoTaken), are what it loaded, for validate (see loadErrors).
	memoFiles dataset.Files
	memoName  string
	// episodes are the live level-3 episodes, by id.
	episodes    map[int]*score.Episode
	nextEpisode int
	// streams are the open scoring streams, by id.
	streams    map[int]*score.Stream
	nextStream int
	// asideLines are the episode lines the chunk being judged set aside (setEpisodeAside).
	asideLines []protocol.EpisodeLine
	// synthKeys are the duplicate keys of synthKeysOf's dialogues (see synthIndex).
	synthKeys   map[string]string
	synthKeysOf *dataset.Data
	// lines is where a score_lines chunk's JSONL is written; encode copies it into the response, so
	// one buffer serves every chunk (see linesAnswer).
	lines bytes.Buffer
}

// New returns a session whose data is the builtin data. The builtin data is built on the first
// request that needs it, so a host that loads its own folder first (apibank --data) never builds it:
// that is most of a one-prediction CLI run's start-up. Should the embedded data fail to load (a build
// defect the tests catch), the session starts empty and says why in hello; it still serves loads.
func New() *Session { return &Session{} }

// ensureData builds the builtin data if no data is in use yet.
func (s *Session) ensureData() {
	if s.data != nil {
		return
	}
	d, err := dataset.Builtin()
	if err != nil {
		s.builtinErr = err.Error()
		d = &dataset.Data{Name: dataset.BuiltinName, Base: tools.NewBase(nil), Tables: "world"}
	}
	s.use(d)
	s.builtinErrs = true
}

// loadErrors returns the problems met loading the current data. The builtin data's are found by
// parsing every dialogue, and a folder loaded with a memo's by loading it again whole, which a run
// that judges a few files never does otherwise (see dataset.Data.File): so they are looked for only
// when asked for, by validate.
func (s *Session) loadErrors() []dataset.LineError {
	if s.builtinErrs {
		s.loadErrs, s.builtinErrs = dataset.BuiltinErrors(), false
	}
	if s.memoTaken() && s.loadErrs == nil {
		// Files loaded with a memo skipped the checks a plain load makes: the plain load's problems,
		// so that a memo handed back for other bytes can hide none from validate.
		_, errs, err := dataset.Load(s.memoName, s.memoFiles)
		if err != nil {
			errs = append(errs, dataset.LineError{File: s.memoName, Message: err.Error()})
		}
		s.loadErrs = append([]dataset.LineError{}, errs...)
	}
	return s.loadErrs
}

func (s *Session) use(d *dataset.Data) { s.useIndexed(d, indexOf(d)) }

// useIndexed makes d, whose index is ix, the session's data, with a fresh sandbox.
func (s *Session) useIndexed(d *dataset.Data, ix *score.Index) {
	s.data = d
	s.index = ix
	s.variant = nil
	s.dataMemo, s.memoFiles, s.memoName = nil, nil, ""
	s.sandbox = d.Base.NewWorld()
	s.history = nil
	s.episodes = map[int]*score.Episode{}
	s.streams = map[int]*score.Stream{}
}

// builtinIndex is the builtin data's index, built once per process: the data never changes and an
// index holds nothing a session writes (its gold replays are a cache of pure results), so every
// session of the builtin data shares it, and a new session (New, restart) costs microseconds instead
// of rebuilding the samples and replaying every gold call again.
var builtinIndex struct {
	once sync.Once
	data *dataset.Data
	ix   *score.Index
}

// indexOf returns the index of d: the shared one for the builtin data, a new one for any other.
// Data of another name is not the builtin data, and asking would build it: a third of a --data
// run's load went to building the builtin data only to compare with it.
func indexOf(d *dataset.Data) *score.Index {
	if d.Name != dataset.BuiltinName {
		return score.NewIndex(d)
	}
	if b, err := dataset.Builtin(); err != nil || d != b {
		return score.NewIndex(d)
	}
	builtinIndex.once.Do(func() {
		builtinIndex.data = d
		builtinIndex.ix = score.NewIndex(d)
		builtinIndex.ix.Preset(builtinCeiling)
	})
	return builtinIndex.ix
}

// restartSlack is how much garbage restart lets pile up before it collects it.
const restartSlack = 32 << 20

// collectIfGrown runs the collector when the heap holds more than restartSlack beyond what was
// live after the last collection. A server restarts its instances' engines between requests, and
// the wasm engine's own collection between requests (wasm/engine) lets 64 MiB pile up (its linear
// memory never shrinks); collecting here at the smaller slack keeps a pooled instance nearer its
// live data, at the price of a collection every few hundred requests.
func collectIfGrown() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
		return
	}
	if sample[1].Value.Uint64() > sample[0].Value.Uint64()+restartSlack {
		runtime.GC()
	}
}

// Handle answers one JSON request with one JSON response. It never panics: a malformed request gets
// a bad_request error, and a panic inside an operation is recovered and answered as an internal
// error, leaving the session usable.
func (s *Session) Handle(req []byte) []byte {
	r, err := decodeRequest(req)
	if err != nil {
		resp := protocol.Response{V: protocol.Version, Error: badRequest("request is not a JSON object of the engine protocol: " + err.Error())}
		if r != nil {
			resp.ID = r.ID
		}
		return encode(resp)
	}
	resp := protocol.Response{V: protocol.Version, ID: r.ID}
	result, e := s.dispatch(r)
	if e != nil {
		resp.Error = e
	} else {
		resp.OK, resp.Result = true, result
	}
	return encode(resp)
}

func (s *Session) dispatch(r *protocol.Request) (result any, e *protocol.Error) {
	defer func() {
		if p := recover(); p != nil {
			result, e = nil, internal(fmt.Sprintf("op %s failed: %v\n%s", r.Op, p, firstFrames(debug.Stack())))
		}
	}()
	if r.V != protocol.Version {
		return nil, badRequest(fmt.Sprintf("protocol version %d is not supported (this engine speaks %d)", r.V, protocol.Version))
	}
	if r.Op != protocol.OpLoad || r.Builtin {
		s.ensureData()
	}
	switch r.Op {
	case protocol.OpHello:
		return s.hello(), nil
	case protocol.OpCatalog:
		return s.catalog(r)
	case protocol.OpLoad:
		return s.load(r)
	case protocol.OpDialogues:
		return s.dialogues(r), nil
	case protocol.OpDialogue:
		return s.dialogue(r)
	case protocol.OpSamples:
		return s.samples(r), nil
	case protocol.OpPrompt:
		return s.prompt(r)
	case protocol.OpCall:
		return s.call(r)
	case protocol.OpWorld:
		return s.world(r), nil
	case protocol.OpReset:
		s.sandbox = s.data.Base.NewWorld()
		s.history = nil
		return protocol.Reset{Reset: true}, nil
	case protocol.OpScore:
		return s.score(r)
	case protocol.OpReplay:
		return s.replay(r)
	case protocol.OpRouge:
		return rougeAll(r.Pairs), nil
	case protocol.OpStats:
		return dataset.Stats(s.data), nil
	case protocol.OpFill:
		return s.fill(r)
	case protocol.OpEpisodeStart:
		return s.episodeStart(r)
	case protocol.OpEpisodeStep:
		return s.episodeStep(r)
	case protocol.OpEpisodeCalls:
		return s.episodeCalls(r)
	case protocol.OpEpisodeFinish:
		return s.episodeFinish(r)
	case protocol.OpScoreStart:
		return s.scoreStart(r)
	case protocol.OpScoreLines:
		return s.scoreLines(r)
	case protocol.OpScoreFinish:
		return s.scoreFinish(r)
	case protocol.OpRougeLines:
		return rougeLines(r), nil
	case protocol.OpValidate:
		return verify.Run(s.data, s.loadErrors(), s.targets()), nil
	case protocol.OpSynthCheck:
		return s.synthCheck(r)
	case protocol.OpWorldFiles:
		return s.worldFiles(), nil
	case protocol.OpMemo:
		return s.memo(), nil
	case protocol.OpVariant:
		if r.Seed == 0 {
			return nil, badRequest("variant needs a seed (1 to " + strconv.FormatInt(protocol.MaxSeed, 10) + "); 0 is the builtin data itself")
		}
		m, err := variantOf(r.Seed)
		if err != nil {
			return nil, internal(err.Error())
		}
		return m.summary, nil
	case protocol.OpRestart:
		*s = *New()
		collectIfGrown()
		s.ensureData() // the builtin index is built once a process: this costs a world, no parse
		return s.hello(), nil
	case "":
		return nil, badRequest("missing op")
	}
	return nil, badRequest(fmt.Sprintf("unknown op %q", r.Op))
}

// firstFrames keeps the start of a stack trace: enough to locate a defect, short enough to show.
func firstFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	if len(lines) > 16 {
		lines = lines[:16]
	}
	return strings.Join(lines, "\n")
}

func (s *Session) hello() protocol.Hello {
	return protocol.Hello{
		Protocol:     protocol.Version,
		Engine:       "apibank-playground",
		Catalogs:     map[string]int{tools.APIs.Name: len(tools.APIs.Tools()), tools.LV3.Name: len(tools.LV3.Tools())},
		Data:         s.data.Name,
		Variant:      s.variant,
		BuiltinError: s.builtinErr,
	}
}

func (s *Session) catalog(r *protocol.Request) (any, *protocol.Error) {
	cat, ok := tools.CatalogByName(r.Catalog)
	if !ok {
		return nil, badRequest(fmt.Sprintf("unknown catalog %q (want apis or lv3_apis)", r.Catalog))
	}
	entries := make([]json.RawMessage, 0, len(cat.Tools()))
	for _, t := range cat.Tools() {
		entries = append(entries, value.Marshal(t.Entry()))
	}
	docs := docsOf(s.data, cat.Name)
	res := protocol.Catalog{Catalog: cat.Name, Tools: entries, Examples: docs.examples, Exceptions: docs.exceptions}
	switch r.Form {
	case "", string(call.Text):
	case string(call.Native):
		res.Schemas = score.Schemas(cat.Tools())
	default:
		return nil, badRequest(fmt.Sprintf("catalog form must be text or native, not %q", r.Form))
	}
	return res, nil
}

func (s *Session) load(r *protocol.Request) (any, *protocol.Error) {
	var d *dataset.Data
	var errs []dataset.LineError
	var digest string
	if r.Seed != 0 && !r.Builtin {
		return nil, badRequest("seed names a variant of the builtin data: it needs builtin: true")
	}
	if r.Builtin && r.Seed != 0 {
		m, err := variantOf(r.Seed)
		if err != nil {
			return nil, internal(err.Error())
		}
		s.useIndexed(m.data, m.index)
		s.loadErrs, s.builtinErrs, s.variant = m.errs, false, m.summary
		// The index's errors (a dialogue with no reply sample) are of a file's turns, which a variant
		// keeps as the builtin data has them: none (tests hold both), so the files are not parsed here.
		errs = append([]dataset.LineError{}, m.errs...)
		return protocol.Loaded{Name: m.data.Name, Dialogues: maps.Clone(m.counts), Scenes: m.scenes, Databases: m.data.Base.Names(), Tables: m.data.Tables, Errors: errs, Variant: m.summary}, nil
	}
	if r.Builtin {
		b, err := dataset.Builtin()
		if err != nil {
			return nil, internal(err.Error())
		}
		d = b
		errs = dataset.BuiltinErrors()
	} else {
		if len(r.Files) == 0 {
			return nil, badRequest("load needs files (path -> content) or builtin: true")
		}
		files := make(dataset.Files, len(r.Files))
		for p, c := range r.Files {
			// The bytes of the text itself, not a copy (megabytes, and the data keeps its databases'
			// texts to decode later): neither the text nor the data is ever written to.
			files[p] = unsafe.Slice(unsafe.StringData(c), len(c))
		}
		name := r.Name
		if name == "" {
			name = "imported"
		}
		digest = filesDigest(files)
		if m := readMemo(r.Memo, digest); m != nil {
			if d, err := dataset.LoadKnown(name, files, m.known()); err == nil {
				s.use(d)
				s.index.Preset(m.ceiling)
				s.loadErrs, s.builtinErrs = nil, false
				s.dataMemo, s.memoFiles, s.memoName = m, files, name
				return protocol.Loaded{Name: d.Name, Dialogues: m.Dialogues, Scenes: m.Scenes, Databases: d.Base.Names(), Tables: d.Tables, Errors: []dataset.LineError{}, Memo: true}, nil
			}
		}
		var err error
		d, errs, err = dataset.Load(name, files)
		if err != nil {
			return nil, badRequest(err.Error())
		}
	}
	s.use(d)
	s.loadErrs, s.builtinErrs = errs, false
	errs = append(errs, s.index.Errors()...)
	res := protocol.Loaded{Name: d.Name, Dialogues: d.Counts(), Scenes: len(d.Scenes()), Databases: d.Base.Names(), Tables: d.Tables, Errors: errs}
	if res.Errors == nil {
		res.Errors = []dataset.LineError{}
		if !r.Builtin {
			s.dataMemo = newMemo(digest, res.Dialogues, res.Scenes)
		}
	}
	return res, nil
}

func (s *Session) dialogues(r *protocol.Request) any {
	out := []protocol.DialogueSummary{}
	all := append(append([]*dataset.Dialogue{}, s.data.Dialogues()...), s.index.Scenes()...)
	for _, d := range all {
		if r.Level != "" && d.Level != r.Level {
			continue
		}
		sum := protocol.DialogueSummary{Level: d.Level, File: d.File, Turns: len(d.Turns)}
		seen := map[string]bool{}
		for _, t := range d.Turns {
			if t.Role == dataset.API {
				sum.Calls++
				if !seen[t.Tool] {
					seen[t.Tool] = true
					sum.Tools = append(sum.Tools, t.Tool)
				}
			} else if sum.First == "" && t.Role == dataset.User {
				sum.First = t.Text
			}
		}
		sort.Strings(sum.Tools)
		if d.Meta != nil {
			sum.Special = d.Meta.Special
		}
		out = append(out, sum)
	}
	return out
}

func (s *Session) findDialogue(r *protocol.Request) (*dataset.Dialogue, *protocol.Error) {
	if r.File == "" {
		return nil, badRequest("missing file")
	}
	d, ok := s.data.Dialogue(r.Level, r.File)
	if !ok && (r.Level == "" || r.Level == dataset.Level3) {
		d, ok = s.index.Scene(r.File)
	}
	if !ok {
		return nil, notFound(fmt.Sprintf("no dialogue %q in %s", r.File, s.data.Name))
	}
	return d, nil
}

func (s *Session) dialogue(r *protocol.Request) (any, *protocol.Error) {
	d, err := s.findDialogue(r)
	if err != nil {
		return nil, err
	}
	turns := make([]protocol.Turn, len(d.Turns))
	for i, t := range d.Turns {
		turns[i] = protocol.Turn{Role: t.Role, Text: t.Text, APIName: t.Tool, Params: marshalMap(t.Params), Result: marshalMap(t.Result), Parallel: t.Parallel, Line: t.Line, Free: t.Free}
		for _, a := range t.Accept {
			turns[i].Accept = append(turns[i].Accept, marshalMap(a))
		}
	}
	view := protocol.Dialogue{Level: d.Level, File: d.File, Meta: d.Meta, Turns: turns}
	if sc := d.Scene; sc != nil {
		// A scene's audit and answer needs are the scene's: shown as its dialogue's.
		view.Answer = sc.Answer
		if sc.Audit != nil {
			meta := protocol.Meta{Audit: sc.Audit}
			if d.Meta != nil {
				meta = *d.Meta
				meta.Audit = sc.Audit
			}
			view.Meta = &meta
		}
	}
	return view, nil
}

func (s *Session) samples(r *protocol.Request) any {
	out := []protocol.SampleView{}
	for _, sm := range s.index.All() {
		if (r.Level != "" && sm.Dialogue.Level != r.Level) || (r.File != "" && sm.Dialogue.File != r.File) {
			continue
		}
		v := protocol.SampleView{Level: sm.Dialogue.Level, File: sm.Dialogue.File, ID: sm.ID, Kind: sm.Kind, GoldLine: sm.GoldTurn().Line}
		if sm.Kind == score.KindCall {
			v.Tool = sm.GoldTurn().Tool
		}
		out = append(out, v)
	}
	return out
}

func (s *Session) call(r *protocol.Request) (any, *protocol.Error) {
	cat, ok := tools.CatalogByName(r.Catalog)
	if !ok {
		return nil, badRequest(fmt.Sprintf("unknown catalog %q (want apis or lv3_apis)", r.Catalog))
	}
	c, text, e := requestCall(r, call.ReadingFor(s.data.Repaired))
	if e != nil {
		return nil, e
	}
	entry := protocol.SandboxCall{Call: text, Catalog: cat.Name}
	// The sandbox reads a call as the loaded data's judge does (score.Execute): what a user tries
	// here is what a model's answer would mean.
	repaired := s.data.Repaired
	env, err := score.Execute(cat, s.sandbox, c, repaired)
	if err != nil {
		entry.Error = err.Error()
	} else {
		entry.Result = value.Marshal(env)
	}
	s.history = append(s.history, entry)
	return protocol.CallResult{Form: string(c.Form), Name: c.Name, Args: value.Marshal(score.Args(cat, c, repaired)), Result: entry.Result,
		Error: entry.Error, Changed: s.sandbox.Changed(), History: len(s.history)}, nil
}

func (s *Session) world(r *protocol.Request) any {
	names := r.Databases
	if len(names) == 0 {
		names = s.data.Base.Names()
	}
	dbs := value.NewMap(len(names))
	for _, n := range names {
		dbs.Set(n, s.sandbox.Database(n))
	}
	history := s.history
	if history == nil {
		history = []protocol.SandboxCall{}
	}
	return protocol.World{Databases: value.Marshal(dbs), Changed: s.sandbox.Changed(), History: history}
}

func (s *Session) score(r *protocol.Request) (any, *protocol.Error) {
	mode, err := score.ParseMode(r.State, s.defaultMode())
	if err != nil {
		return nil, badRequest(err.Error())
	}
	name := r.Name
	if name == "" {
		name = "predictions"
	}
	preds, errs := score.ParsePredictions(name, []byte(r.Preds), r.Level)
	judge := score.Score
	if r.Bare {
		judge = score.Judge
	}
	b := judge(s.data, s.index, preds, mode, name)
	if r.Gold {
		score.AttachGold(b, s.index)
	}
	b.Errors = append(errs, b.Errors...)
	sort.SliceStable(b.Errors, func(i, j int) bool { return b.Errors[i].Line < b.Errors[j].Line })
	if b.Errors == nil {
		b.Errors = []dataset.LineError{}
	}
	return b, nil
}

// ours says the data is the builtin data or a variant of it: judged by our data's defaults.
func (s *Session) ours() bool { return s.data.Name == dataset.BuiltinName || s.variant != nil }

// defaultMode is fresh for the original's data (verdict parity) and replay for ours.
func (s *Session) defaultMode() score.Mode {
	if s.ours() {
		return score.Replay
	}
	return score.Fresh
}

func (s *Session) replay(r *protocol.Request) (any, *protocol.Error) {
	mode, err := score.ParseMode(r.State, s.defaultMode())
	if err != nil {
		return nil, badRequest(err.Error())
	}
	native := r.Form == string(call.Native)
	if r.Form != "" && r.Form != string(call.Text) && !native {
		return nil, badRequest("form must be text or native")
	}
	if r.Form == "" {
		// Our data records lists as lists, which only native calls carry; the original's gold
		// calls replay in its text format, as its evaluator renders them.
		native = s.ours()
	}
	var levels []score.Replayed
	counts := s.data.Counts()
	for _, l := range dataset.Levels {
		if counts[l] > 0 || l == dataset.Level3 && len(s.data.Scenes()) > 0 {
			levels = append(levels, s.index.GoldReplay(mode, l, native))
		}
	}
	form := call.Text
	if native {
		form = call.Native
	}
	return protocol.Replay{State: string(mode), Data: s.data.Name, Form: string(form), Levels: levels}, nil
}

func rougeAll(pairs []protocol.Pair) []protocol.Rouge {
	out := make([]protocol.Rouge, len(pairs))
	for i, p := range pairs {
		f, err := rouge.L(p.Hyp, p.Ref)
		if err != nil {
			out[i].Error = err.Error()
			continue
		}
		out[i].F = &f
	}
	return out
}

func (s *Session) prompt(r *protocol.Request) (any, *protocol.Error) {
	if r.Sample == nil {
		return nil, badRequest("missing sample (the sample id)")
	}
	d, err := s.findDialogue(r)
	if err != nil {
		return nil, err
	}
	sm, e := s.index.Find(d.Level, d.File, *r.Sample)
	if e != nil {
		return nil, notFound(e.Error())
	}
	if sm.Kind == score.KindSkip {
		return nil, badRequest(fmt.Sprintf("sample %d of %s has a User turn as gold: nothing to predict", sm.ID, d.File))
	}
	return score.BuildPrompt(sm), nil
}

func (s *Session) fill(r *protocol.Request) (any, *protocol.Error) {
	if len(r.Files) == 0 {
		return nil, badRequest("fill needs files (path -> content)")
	}
	res := protocol.Filled{Files: map[string]string{}, Errors: []dataset.LineError{}}
	names := make([]string, 0, len(r.Files))
	for p := range r.Files {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		out, errs := score.Fill(s.data.Base, p, []byte(r.Files[p]))
		res.Errors = append(res.Errors, errs...)
		if errs == nil {
			res.Files[p] = string(out)
		}
	}
	return res, nil
}

// targets are the coverage goals validate checks: the paper's sizes for our builtin data; none for an
// imported folder (coverage is then reported only through stats).
func (s *Session) targets() *verify.Targets {
	if s.ours() {
		t := verify.PaperTargets
		return &t
	}
	return nil
}

func (s *Session) episodeStart(r *protocol.Request) (any, *protocol.Error) {
	d, ok := s.index.Scene(r.File)
	if !ok {
		return nil, notFound(fmt.Sprintf("no level-3 scene %q in %s", r.File, s.data.Name))
	}
	s.nextEpisode++
	s.episodes[s.nextEpisode] = score.NewEpisode(s.data.Base, d)
	sc := d.Scene
	started := protocol.EpisodeStarted{Episode: s.nextEpisode, Scene: sc.Name, File: sc.File, Utterance: sc.Utterance,
		KeyInfo: sc.KeyInfo, Catalog: d.ToolCatalog().Name}
	if !r.Bare {
		started.Prompt, started.Tools = score.BuildPrompt(score.SceneSamples(d)[0]), score.Schemas(d.ToolCatalog().Tools())
	}
	return started, nil
}

func (s *Session) episode(r *protocol.Request) (*score.Episode, *protocol.Error) {
	if r.Episode == 0 {
		return nil, badRequest("missing episode (the id episode_start returned)")
	}
	e, ok := s.episodes[r.Episode]
	if !ok {
		return nil, notFound(fmt.Sprintf("no episode %d (finished, or never started)", r.Episode))
	}
	return e, nil
}

func (s *Session) episodeStep(r *protocol.Request) (any, *protocol.Error) {
	ep, err := s.episode(r)
	if err != nil {
		return nil, err
	}
	c, _, err := requestCall(r, call.ReadingFor(s.data.Repaired))
	if err != nil {
		return nil, err
	}
	return ep.Step(c), nil
}

// episodeCalls runs every call of one answer of the model (a text list [A(..), B(..)] or bracketed
// calls one after another, read as the scene's data reads text calls; or native calls), in order,
// each with its own result; an answer without a call (the model's reply to the user) runs none.
func (s *Session) episodeCalls(r *protocol.Request) (any, *protocol.Error) {
	ep, err := s.episode(r)
	if err != nil {
		return nil, err
	}
	if len(r.Call) == 0 {
		return nil, badRequest("missing call")
	}
	text := string(r.Call)
	var str string
	if json.Unmarshal(r.Call, &str) == nil {
		text = str
	}
	out := []protocol.EpisodeCall{}
	cs, _ := call.ReadingFor(ep.Repaired()).FindAll(text)
	for _, c := range cs {
		out = append(out, ep.Step(c))
	}
	return out, nil
}

func (s *Session) episodeFinish(r *protocol.Request) (any, *protocol.Error) {
	e, err := s.episode(r)
	if err != nil {
		return nil, err
	}
	delete(s.episodes, r.Episode)
	return e.Finish(s.data.Base, r.Reply), nil
}

// requestCall finds the call of a call or episode_step request: the text form as a JSON string, read
// as the loaded data reads text calls (reading), or a native call object. It returns the call and the
// text it was found in.
func requestCall(r *protocol.Request, reading call.Reading) (*call.Call, string, *protocol.Error) {
	if len(r.Call) == 0 {
		return nil, "", badRequest("missing call")
	}
	text := string(r.Call)
	var str string
	if json.Unmarshal(r.Call, &str) == nil {
		text = str
	}
	c, found := reading.Find(text)
	if !found {
		return nil, text, badRequest("no call found: write [ToolName(key='value', ...)] or {\"name\": ..., \"arguments\": {...}}")
	}
	return c, text, nil
}

// marshalMap encodes a world value for the wire; a missing one stays missing.
func marshalMap(m *value.Map) json.RawMessage {
	if m == nil {
		return nil
	}
	return value.Marshal(m)
}
