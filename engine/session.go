package engine

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
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
	history []SandboxCall
	// builtinErr says why the builtin data could not be loaded ("" normally).
	builtinErr string
	// loadErrs are the problems met loading the current data.
	loadErrs []dataset.LineError
	// episodes are the live level-3 episodes, by id.
	episodes    map[int]*score.Episode
	nextEpisode int
}

// SandboxCall is one call made in the sandbox, kept so a host can show (and restore) the history.
type SandboxCall struct {
	Call    string     `json:"call"`
	Catalog string     `json:"catalog"`
	Result  *value.Map `json:"result,omitempty"`
	Error   string     `json:"error,omitempty"`
}

// New returns a session with the builtin data loaded. Should the embedded data fail to load (a build
// defect the tests catch), the session starts empty and says why in hello; it still serves loads.
func New() *Session {
	s := &Session{}
	d, err := dataset.Builtin()
	if err != nil {
		s.builtinErr = err.Error()
		d = &dataset.Data{Name: dataset.BuiltinName, Base: tools.NewBase(nil), Tables: "world"}
	}
	s.use(d)
	s.loadErrs = dataset.BuiltinErrors()
	return s
}

func (s *Session) use(d *dataset.Data) {
	s.data = d
	s.index = score.NewIndex(d)
	s.sandbox = d.Base.NewWorld()
	s.history = nil
	s.episodes = map[int]*score.Episode{}
}

// Handle answers one JSON request with one JSON response. It never panics: a malformed request gets
// a bad_request error, and a panic inside an operation is recovered and answered as an internal
// error, leaving the session usable.
func (s *Session) Handle(req []byte) []byte {
	r, err := decodeRequest(req)
	if err != nil {
		resp := Response{V: Version, Error: badRequest("request is not a JSON object of the engine protocol: " + err.Error())}
		if r != nil {
			resp.ID = r.ID
		}
		return encode(resp)
	}
	resp := Response{V: Version, ID: r.ID}
	result, e := s.dispatch(r)
	if e != nil {
		resp.Error = e
	} else {
		resp.OK, resp.Result = true, result
	}
	return encode(resp)
}

func (s *Session) dispatch(r *Request) (result any, e *Error) {
	defer func() {
		if p := recover(); p != nil {
			result, e = nil, &Error{Code: "internal", Message: fmt.Sprintf("op %s failed: %v\n%s", r.Op, p, firstFrames(debug.Stack()))}
		}
	}()
	if r.V != Version {
		return nil, badRequest(fmt.Sprintf("protocol version %d is not supported (this engine speaks %d)", r.V, Version))
	}
	switch r.Op {
	case "hello":
		return s.hello(), nil
	case "catalog":
		return s.catalog(r)
	case "load":
		return s.load(r)
	case "dialogues":
		return s.dialogues(r), nil
	case "dialogue":
		return s.dialogue(r)
	case "samples":
		return s.samples(r), nil
	case "prompt":
		return s.prompt(r)
	case "call":
		return s.call(r)
	case "world":
		return s.world(r), nil
	case "reset":
		s.sandbox = s.data.Base.NewWorld()
		s.history = nil
		return map[string]bool{"reset": true}, nil
	case "score":
		return s.score(r)
	case "replay":
		return s.replay(r)
	case "rouge":
		return rougeAll(r.Pairs), nil
	case "stats":
		return dataset.Stats(s.data), nil
	case "fill":
		return s.fill(r)
	case "episode_start":
		return s.episodeStart(r)
	case "episode_step":
		return s.episodeStep(r)
	case "episode_finish":
		return s.episodeFinish(r)
	case "validate":
		return verify.Run(s.data, s.loadErrs, s.targets()), nil
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

func (s *Session) hello() any {
	return map[string]any{
		"protocol":      Version,
		"engine":        "apibank-playground",
		"catalogs":      map[string]int{tools.APIs.Name: len(tools.APIs.Tools()), tools.LV3.Name: len(tools.LV3.Tools())},
		"data":          s.data.Name,
		"builtin_error": s.builtinErr,
	}
}

func (s *Session) catalog(r *Request) (any, *Error) {
	cat, ok := tools.CatalogByName(r.Catalog)
	if !ok {
		return nil, badRequest(fmt.Sprintf("unknown catalog %q (want apis or lv3_apis)", r.Catalog))
	}
	entries := make([]*value.Map, 0, len(cat.Tools()))
	for _, t := range cat.Tools() {
		entries = append(entries, t.Entry())
	}
	return map[string]any{"catalog": cat.Name, "tools": entries}, nil
}

// LoadResult answers a load request.
type LoadResult struct {
	Name      string              `json:"name"`
	Dialogues map[string]int      `json:"dialogues"`
	Scenes    int                 `json:"scenes"`
	Databases []string            `json:"databases"`
	Tables    string              `json:"tables"`
	Errors    []dataset.LineError `json:"errors"`
}

func (s *Session) load(r *Request) (any, *Error) {
	var d *dataset.Data
	var errs []dataset.LineError
	if r.Builtin {
		b, err := dataset.Builtin()
		if err != nil {
			return nil, &Error{Code: "internal", Message: err.Error()}
		}
		d = b
		errs = dataset.BuiltinErrors()
	} else {
		if len(r.Files) == 0 {
			return nil, badRequest("load needs files (path -> content) or builtin: true")
		}
		files := make(dataset.Files, len(r.Files))
		for p, c := range r.Files {
			files[p] = []byte(c)
		}
		name := r.Name
		if name == "" {
			name = "imported"
		}
		var err error
		d, errs, err = dataset.Load(name, files)
		if err != nil {
			return nil, &Error{Code: "bad_request", Message: err.Error()}
		}
	}
	s.use(d)
	s.loadErrs = errs
	errs = append(errs, s.index.Errors...)
	res := LoadResult{Name: d.Name, Dialogues: map[string]int{}, Scenes: len(d.Scenes), Databases: d.Base.Names(), Tables: d.Tables, Errors: errs}
	for _, dl := range d.Dialogues {
		res.Dialogues[dl.Level]++
	}
	if res.Errors == nil {
		res.Errors = []dataset.LineError{}
	}
	return res, nil
}

// DialogueSummary describes a dialogue for lists.
type DialogueSummary struct {
	Level   string   `json:"level"`
	File    string   `json:"file"`
	Turns   int      `json:"turns"`
	Calls   int      `json:"calls"`
	Tools   []string `json:"tools"`
	Special string   `json:"special,omitempty"`
	First   string   `json:"first"`
}

func (s *Session) dialogues(r *Request) any {
	out := []DialogueSummary{}
	all := append(append([]*dataset.Dialogue{}, s.data.Dialogues...), s.index.Scenes()...)
	for _, d := range all {
		if r.Level != "" && d.Level != r.Level {
			continue
		}
		sum := DialogueSummary{Level: d.Level, File: d.File, Turns: len(d.Turns)}
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

// TurnView is a dialogue turn as the protocol shows it (the file's own JSON shape).
type TurnView struct {
	Role    string     `json:"role"`
	Text    string     `json:"text,omitempty"`
	APIName string     `json:"api_name,omitempty"`
	Params  *value.Map `json:"param_dict,omitempty"`
	Result  *value.Map `json:"result,omitempty"`
	Line    int        `json:"line"`
}

func (s *Session) findDialogue(r *Request) (*dataset.Dialogue, *Error) {
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

func (s *Session) dialogue(r *Request) (any, *Error) {
	d, err := s.findDialogue(r)
	if err != nil {
		return nil, err
	}
	turns := make([]TurnView, len(d.Turns))
	for i, t := range d.Turns {
		turns[i] = TurnView{Role: t.Role, Text: t.Text, APIName: t.Tool, Params: t.Params, Result: t.Result, Line: t.Line}
	}
	res := map[string]any{"level": d.Level, "file": d.File, "turns": turns}
	if d.Meta != nil {
		res["meta"] = d.Meta
	}
	return res, nil
}

// SampleView describes one sample.
type SampleView struct {
	Level string `json:"level"`
	File  string `json:"file"`
	ID    int    `json:"id"`
	Kind  string `json:"kind"`
	Tool  string `json:"tool,omitempty"`
}

func (s *Session) samples(r *Request) any {
	out := []SampleView{}
	for _, sm := range s.index.All() {
		if (r.Level != "" && sm.Dialogue.Level != r.Level) || (r.File != "" && sm.Dialogue.File != r.File) {
			continue
		}
		v := SampleView{Level: sm.Dialogue.Level, File: sm.Dialogue.File, ID: sm.ID, Kind: sm.Kind}
		if sm.Kind == score.KindCall {
			v.Tool = sm.GoldTurn().Tool
		}
		out = append(out, v)
	}
	return out
}

func (s *Session) call(r *Request) (any, *Error) {
	cat, ok := tools.CatalogByName(r.Catalog)
	if !ok {
		return nil, badRequest(fmt.Sprintf("unknown catalog %q (want apis or lv3_apis)", r.Catalog))
	}
	c, text, e := requestCall(r)
	if e != nil {
		return nil, e
	}
	entry := SandboxCall{Call: text, Catalog: cat.Name}
	var env *value.Map
	var err error
	if c.Form == call.Native {
		env, err = cat.CallNative(s.sandbox, c.Name, c.Args)
	} else {
		env, err = cat.Call(s.sandbox, c.Name, c.Args)
	}
	if err != nil {
		entry.Error = err.Error()
	} else {
		entry.Result = env
	}
	s.history = append(s.history, entry)
	return map[string]any{"form": c.Form, "name": c.Name, "args": c.Args, "result": entry.Result, "error": entry.Error,
		"changed": s.sandbox.Changed(), "history": len(s.history)}, nil
}

func (s *Session) world(r *Request) any {
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
		history = []SandboxCall{}
	}
	return map[string]any{"databases": dbs, "changed": s.sandbox.Changed(), "history": history}
}

func (s *Session) score(r *Request) (any, *Error) {
	mode, err := score.ParseMode(r.State, s.defaultMode())
	if err != nil {
		return nil, badRequest(err.Error())
	}
	name := r.Name
	if name == "" {
		name = "predictions"
	}
	preds, errs := score.ParsePredictions(name, []byte(r.Preds), r.Level)
	b := score.Score(s.data, s.index, preds, mode, name)
	if r.Gold {
		b.AttachGold(s.index)
	}
	b.Errors = append(errs, b.Errors...)
	sort.SliceStable(b.Errors, func(i, j int) bool { return b.Errors[i].Line < b.Errors[j].Line })
	if b.Errors == nil {
		b.Errors = []dataset.LineError{}
	}
	return b, nil
}

// defaultMode is fresh for the original's data (verdict parity) and replay for ours.
func (s *Session) defaultMode() score.Mode {
	if s.data.Name == dataset.BuiltinName {
		return score.Replay
	}
	return score.Fresh
}

func (s *Session) replay(r *Request) (any, *Error) {
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
		native = s.data.Name == dataset.BuiltinName
	}
	var levels []score.Replayed
	for _, l := range dataset.Levels {
		has := l == dataset.Level3 && len(s.data.Scenes) > 0
		for _, d := range s.data.Dialogues {
			if d.Level == l {
				has = true
				break
			}
		}
		if has {
			levels = append(levels, s.index.Ceiling(mode, l, native))
		}
	}
	form := call.Text
	if native {
		form = call.Native
	}
	return map[string]any{"state": mode, "data": s.data.Name, "form": form, "levels": levels}, nil
}

// RougeResult is one answer of the rouge op: F, or the error the original's package raised.
type RougeResult struct {
	F     *float64 `json:"f,omitempty"`
	Error string   `json:"error,omitempty"`
}

func rougeAll(pairs []Pair) []RougeResult {
	out := make([]RougeResult, len(pairs))
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

func (s *Session) prompt(r *Request) (any, *Error) {
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

// FillResult answers a fill request: the files with their gold results written, and the problems.
type FillResult struct {
	Files  map[string]string   `json:"files"`
	Errors []dataset.LineError `json:"errors"`
}

func (s *Session) fill(r *Request) (any, *Error) {
	if len(r.Files) == 0 {
		return nil, badRequest("fill needs files (path -> content)")
	}
	res := FillResult{Files: map[string]string{}, Errors: []dataset.LineError{}}
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
	if s.data.Name == dataset.BuiltinName {
		t := verify.PaperTargets
		return &t
	}
	return nil
}

func (s *Session) episodeStart(r *Request) (any, *Error) {
	d, ok := s.index.Scene(r.File)
	if !ok {
		return nil, notFound(fmt.Sprintf("no level-3 scene %q in %s", r.File, s.data.Name))
	}
	s.nextEpisode++
	s.episodes[s.nextEpisode] = score.NewEpisode(s.data.Base, d)
	sc := d.Scene
	return map[string]any{"episode": s.nextEpisode, "scene": sc.Name, "file": sc.File, "utterance": sc.Utterance,
		"key_info": sc.KeyInfo, "catalog": CatalogName(d), "prompt": score.BuildPrompt(score.SceneSamples(d)[0])}, nil
}

// CatalogName names the catalog a dialogue's calls use.
func CatalogName(d *dataset.Dialogue) string { return score.CatalogOf(d).Name }

func (s *Session) episode(r *Request) (*score.Episode, *Error) {
	if r.Episode == 0 {
		return nil, badRequest("missing episode (the id episode_start returned)")
	}
	e, ok := s.episodes[r.Episode]
	if !ok {
		return nil, notFound(fmt.Sprintf("no episode %d (finished, or never started)", r.Episode))
	}
	return e, nil
}

func (s *Session) episodeStep(r *Request) (any, *Error) {
	ep, err := s.episode(r)
	if err != nil {
		return nil, err
	}
	c, _, err := requestCall(r)
	if err != nil {
		return nil, err
	}
	return ep.Step(c.Name, c.Args, c.Form == call.Native), nil
}

func (s *Session) episodeFinish(r *Request) (any, *Error) {
	e, err := s.episode(r)
	if err != nil {
		return nil, err
	}
	delete(s.episodes, r.Episode)
	return e.Finish(s.data.Base), nil
}

// requestCall finds the call of a call or episode_step request: the text form as a JSON string, or a
// native call object. It returns the call and the text it was found in.
func requestCall(r *Request) (*call.Call, string, *Error) {
	if len(r.Call) == 0 {
		return nil, "", badRequest("missing call")
	}
	text := string(r.Call)
	var str string
	if json.Unmarshal(r.Call, &str) == nil {
		text = str
	}
	c, found := call.Find(text)
	if !found {
		return nil, text, badRequest("no call found: write [ToolName(key='value', ...)] or {\"name\": ..., \"arguments\": {...}}")
	}
	return c, text, nil
}
