package score

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/value"
)

// Prediction is one line of a prediction file: {"level"?, "file", "id", "pred"}, the format the
// original's evaluator_by_json.py reads.
type Prediction struct {
	Level string
	File  string
	ID    int
	Pred  string
	// Line is the prediction's 1-based line in its file.
	Line int
}

// ParsePredictions reads prediction JSONL. level, when not empty, is used for lines without a level.
// Bad lines are reported with their line number and left out; the others are returned in order.
func ParsePredictions(name string, data []byte, level string) ([]Prediction, []dataset.LineError) {
	return parsePredictions(newPredictionReader(), name, data, level, 1)
}

// newPredictionReader returns a reader of prediction lines (one for a whole file: it shares the
// texts its lines repeat).
func newPredictionReader() *value.MemberReader {
	return value.NewMemberReader(predictionKeys[:], "level", "file")
}

// parsePredictions is ParsePredictions for a chunk of a file whose first line is number first, read
// with fr.
func parsePredictions(fr *value.MemberReader, name string, data []byte, level string, first int) ([]Prediction, []dataset.LineError) {
	var preds []Prediction
	var errs []dataset.LineError
	eachPrediction(fr, name, data, level, first, nil, func(p Prediction, e *dataset.LineError) {
		if e != nil {
			errs = append(errs, *e)
		} else {
			preds = append(preds, p)
		}
	})
	return preds, errs
}

// eachPrediction reads a chunk of prediction JSONL whose first line is number first with fr, and
// calls f for each non-blank line in order: with the prediction, or with the line's error (e not
// nil). A stream judges each line as it is read, so no chunk's predictions are held at once.
func eachPrediction(fr *value.MemberReader, name string, data []byte, level string, first int, aside func(text []byte, line int) bool, f func(p Prediction, e *dataset.LineError)) {
	lr := lines.NewBytesReader(data, lines.Max)
	for {
		raw, line, err := lr.Next()
		if err == io.EOF {
			return
		}
		line += first - 1
		if err != nil {
			f(Prediction{}, &dataset.LineError{File: name, Line: line, Message: err.Error()})
			continue
		}
		text := bytes.TrimSpace(raw)
		if len(text) == 0 || aside != nil && aside(text, line) {
			continue
		}
		p, why := parsePrediction(fr, text, level)
		if why != "" {
			f(Prediction{}, &dataset.LineError{File: name, Line: line, Message: why})
			continue
		}
		p.Line = line
		f(p, nil)
	}
}

// parsePrediction reads one non-blank prediction line, or says why it is not one.
func parsePrediction(fr *value.MemberReader, text []byte, level string) (Prediction, string) {
	if text[0] != '{' {
		if _, err := value.Decode(text); err != nil {
			return Prediction{}, "not JSON: " + err.Error()
		}
		return Prediction{}, "a prediction must be a JSON object {\"file\", \"id\", \"pred\"}"
	}
	var f [len(predictionKeys)]value.Member
	if err := fr.Read(text, f[:]); err != nil {
		return Prediction{}, "not JSON: " + err.Error()
	}
	lv, file, idm, pred := &f[0], &f[1], &f[2], &f[3]
	p := Prediction{Level: level}
	if lv.Present {
		if !lv.IsText {
			return Prediction{}, "level must be a text"
		}
		p.Level = lv.Text
	}
	p.File = file.Text
	if !file.IsText || p.File == "" {
		return Prediction{}, "missing \"file\""
	}
	if !idm.Present {
		return Prediction{}, "missing \"id\""
	}
	id, isInt := idm.Value.(int64) // a JSON integer: not true, not 1.0, not "1"
	if !isInt || id < 0 {
		idv := idm.Value
		if idm.IsText {
			idv = idm.Text
		}
		got := string(value.Marshal(idv))
		if len(got) > 40 {
			got = got[:40] + "..."
		}
		return Prediction{}, fmt.Sprintf("\"id\" must be a non-negative JSON integer, not %s", got)
	}
	p.ID = int(id)
	switch {
	case pred.IsText:
		p.Pred = pred.Text
	case pred.Value == nil:
		if !pred.Present {
			return Prediction{}, "missing \"pred\""
		}
	default:
		// A native call given as a JSON object rather than as text.
		p.Pred = string(value.Marshal(pred.Value))
	}
	return p, ""
}

// predictionKeys are the members of a prediction line the scorer reads, in the order parsePrediction
// reads them.
var predictionKeys = [...]string{"level", "file", "id", "pred"}

// Result is the judgement of one prediction line, in the CLI's --out format (the protocol's Verdict).
type Result = protocol.Verdict

// Index finds samples by level, file and id.
type Index struct {
	data *dataset.Data
	// files holds, per dialogue file, its levels and their samples by id: Find hashes the file
	// name once (string hashing is slow under WebAssembly), not a key of two names and an id. A
	// file's entry is made when a prediction first names it (fileOf), so a run that judges a few
	// files never parses the others (the builtin data's are parsed on first use, see
	// dataset.Data.File); errs holds the problems found building a dialogue's samples (an API turn
	// that ends a dialogue). The builtin data's index is shared by every session of a process
	// (natively, sessions in several goroutines), so both are guarded.
	filesMu sync.RWMutex
	files   map[string]*fileSamples
	errs    map[*dataset.Dialogue]string
	// all is every sample, sorted (All), made once.
	allOnce sync.Once
	all     []Sample
	// ceilings caches gold replays: they depend only on the data, mode, level and form. The builtin
	// data's index is shared by every session of a process (natively, sessions in several
	// goroutines), so the cache is guarded.
	ceilingsMu sync.Mutex
	ceilings   map[ceilingKey]Replayed
	// known, when set, gives gold replays computed before (the builtin data's, at build time: see
	// Preset); replays holds the ones this index computed itself.
	known   func(mode Mode, level string, native bool) (Replayed, bool)
	replays map[ceilingKey]Replayed
	// scenes are the level-3 scenes as dialogues, each made on first use (guarded by filesMu).
	scenes map[*dataset.Scene]*dataset.Dialogue
}

type ceilingKey struct {
	mode   Mode
	level  string
	native bool
}

// Ceiling returns the gold replay of a level (every gold API turn judged once, see replayGold), the
// best a model can score, as a report shows it: the one Preset gave when there is one, else computed
// once per index (it depends only on the data, mode, level and form).
func (ix *Index) Ceiling(mode Mode, level string, native bool) Replayed {
	k := ceilingKey{mode, level, native}
	ix.ceilingsMu.Lock()
	defer ix.ceilingsMu.Unlock()
	if r, ok := ix.ceilings[k]; ok {
		return r
	}
	r, ok := Replayed{}, false
	if ix.known != nil {
		r, ok = ix.known(mode, level, native)
	}
	if !ok {
		r = ix.goldReplay(k)
	}
	if ix.ceilings == nil {
		ix.ceilings = map[ceilingKey]Replayed{}
	}
	ix.ceilings[k] = r
	return r
}

// GoldReplay is Ceiling always computed by this index (once), never taken from Preset: the replay
// op's answer, which a user asks for to see every gold call run by this engine.
func (ix *Index) GoldReplay(mode Mode, level string, native bool) Replayed {
	ix.ceilingsMu.Lock()
	defer ix.ceilingsMu.Unlock()
	return ix.goldReplay(ceilingKey{mode, level, native})
}

// goldReplay returns the gold replay of k, computed once; the caller holds ceilingsMu.
func (ix *Index) goldReplay(k ceilingKey) Replayed {
	if r, ok := ix.replays[k]; ok {
		return r
	}
	if ix.replays == nil {
		ix.replays = map[ceilingKey]Replayed{}
	}
	r := ix.replayGold(k.mode, k.level, k.native)
	ix.replays[k] = r
	return r
}

// Ceilings calls f with every gold replay Ceiling has given so far (preset or computed), in no
// particular order: what a later index of the same data may be preset with.
func (ix *Index) Ceilings(f func(mode Mode, level string, native bool, r Replayed)) {
	ix.ceilingsMu.Lock()
	defer ix.ceilingsMu.Unlock()
	for k, r := range ix.ceilings {
		f(k.mode, k.level, k.native, r)
	}
}

// Preset makes Ceiling take its gold replays from known where it has one (ok true) rather than
// replaying every gold call: the builtin data's replays are computed at build time, which saves a
// run on one prediction the replay of a whole level (a third of its start-up under wazero). known
// must give exactly what this index would compute (a test checks the builtin data's); call Preset
// before the index is shared.
func (ix *Index) Preset(known func(mode Mode, level string, native bool) (Replayed, bool)) {
	ix.known = known
}

type key struct {
	level, file string
	id          int
}

// fileSamples are the samples of one dialogue file: levels lists the levels that have the file, in
// data order, and byID[i] the samples of levels[i] indexed by id (a zero Sample where an id has none).
// dialogues lists the level of each dialogue of the file, in data order (what an error names).
type fileSamples struct {
	levels    []string
	byID      [][]Sample
	dialogues []string
}

// add records the samples of one dialogue of the file.
func (f *fileSamples) add(level string, ss []Sample) {
	f.dialogues = append(f.dialogues, level)
	li := slices.Index(f.levels, level)
	if li < 0 {
		f.levels = append(f.levels, level)
		f.byID = append(f.byID, nil)
		li = len(f.levels) - 1
	}
	for _, s := range ss {
		if s.ID < 0 {
			continue // never asked for: prediction ids are not negative
		}
		for len(f.byID[li]) <= s.ID {
			f.byID[li] = append(f.byID[li], Sample{})
		}
		f.byID[li][s.ID] = s
	}
}

// fileOf returns the samples of a dialogue file (nil when the data has none), building them on the
// file's first use: its dialogues in data order, then its scenes.
func (ix *Index) fileOf(file string) *fileSamples {
	ix.filesMu.RLock()
	f, ok := ix.files[file]
	ix.filesMu.RUnlock()
	if ok {
		return f // built: sessions judging files already built never wait for one being built
	}
	ix.filesMu.Lock()
	defer ix.filesMu.Unlock()
	if f, ok := ix.files[file]; ok {
		return f
	}
	add := func(d *dataset.Dialogue, ss []Sample) {
		if f == nil {
			f = &fileSamples{}
		}
		f.add(d.Level, ss)
	}
	for _, d := range ix.data.File(file) {
		ss, err := Samples(d)
		if err != nil {
			ix.errs[d] = err.Error()
		}
		add(d, ss)
	}
	for _, sc := range ix.data.SceneFile(file) {
		d := ix.sceneDialogue(sc)
		add(d, SceneSamples(d))
	}
	if f != nil {
		// A name no dialogue has is not kept: a file of predictions naming a million such would
		// otherwise grow the map by as many entries.
		ix.files[file] = f
	}
	return f
}

// NewIndex returns the index of data's samples. The samples of a dialogue file, and a scene's
// dialogue, are built when first asked for.
func NewIndex(data *dataset.Data) *Index {
	return &Index{data: data, files: map[string]*fileSamples{}, errs: map[*dataset.Dialogue]string{},
		scenes: map[*dataset.Scene]*dataset.Dialogue{}}
}

// sceneDialogue returns the dialogue of a scene (see SceneDialogue), made once; the caller holds
// filesMu.
func (ix *Index) sceneDialogue(sc *dataset.Scene) *dataset.Dialogue {
	d, ok := ix.scenes[sc]
	if !ok {
		d = SceneDialogue(ix.data.Base, sc)
		ix.scenes[sc] = d
	}
	return d
}

// Errors returns the problems found building samples (an API turn that ends a dialogue), in data
// order, building every file's.
func (ix *Index) Errors() []dataset.LineError {
	ds := ix.data.Dialogues()
	for _, d := range ds {
		ix.fileOf(d.File)
	}
	ix.filesMu.Lock()
	defer ix.filesMu.Unlock()
	var errs []dataset.LineError
	for _, d := range ds {
		if e, ok := ix.errs[d]; ok {
			errs = append(errs, dataset.LineError{File: d.File, Message: e})
		}
	}
	return errs
}

// Scenes returns the level-3 scenes as dialogues (see SceneDialogue), in the data's order.
func (ix *Index) Scenes() []*dataset.Dialogue {
	scenes := ix.data.Scenes()
	ix.filesMu.Lock()
	defer ix.filesMu.Unlock()
	out := make([]*dataset.Dialogue, len(scenes))
	for i, sc := range scenes {
		out[i] = ix.sceneDialogue(sc)
	}
	return out
}

// Scene returns the scene dialogue of a file.
func (ix *Index) Scene(file string) (*dataset.Dialogue, bool) {
	scenes := ix.data.SceneFile(file)
	if len(scenes) == 0 {
		return nil, false
	}
	ix.filesMu.Lock()
	defer ix.filesMu.Unlock()
	return ix.sceneDialogue(scenes[0]), true
}

// All returns every sample, by level, file and id (built once: the index's data never changes).
func (ix *Index) All() []Sample {
	ix.allOnce.Do(func() { ix.all = ix.allSamples() })
	return slices.Clone(ix.all)
}

// allSamples builds every sample, sorted, as All gives them.
func (ix *Index) allSamples() []Sample {
	samples := map[key]Sample{}
	add := func(d *dataset.Dialogue, ss []Sample) {
		for _, s := range ss {
			samples[key{d.Level, d.File, s.ID}] = s
		}
	}
	for _, d := range ix.data.Dialogues() {
		ss, _ := Samples(d) // its error is Errors'
		add(d, ss)
	}
	for _, d := range ix.Scenes() {
		add(d, SceneSamples(d))
	}
	out := make([]Sample, 0, len(samples))
	for _, s := range samples {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Dialogue.Level != b.Dialogue.Level {
			return a.Dialogue.Level < b.Dialogue.Level
		}
		if a.Dialogue.File != b.Dialogue.File {
			return a.Dialogue.File < b.Dialogue.File
		}
		return a.ID < b.ID
	})
	return out
}

// Find returns the sample a prediction refers to, or an error that says why there is none.
func (ix *Index) Find(level, file string, id int) (Sample, error) {
	return ix.findIn(ix.fileOf(file), level, file, id)
}

// findIn is Find in f, the samples of file (nil when the data has no such file).
func (ix *Index) findIn(f *fileSamples, level, file string, id int) (Sample, error) {
	if f == nil {
		return Sample{}, fmt.Errorf("no dialogue file %q in %s", file, ix.data.Name)
	}
	li := 0
	if level == "" {
		if len(f.dialogues) > 1 {
			return Sample{}, fmt.Errorf("file %q is in several levels (%v): give the level", file, f.dialogues)
		}
		level = f.levels[0]
	} else {
		li = slices.Index(f.levels, level)
	}
	if li < 0 || id < 0 || id >= len(f.byID[li]) || f.byID[li][id].Dialogue == nil {
		return Sample{}, fmt.Errorf("no sample %d in %s/%s", id, level, file)
	}
	return f.byID[li][id], nil
}

// Batch is the outcome of scoring a prediction file (the protocol's type).
type Batch = protocol.Batch

// Score judges every prediction in order with a fresh Scorer in mode and returns the per-line
// results, the lines that could not be judged, and the report (with the gold ceiling in that mode).
func Score(data *dataset.Data, ix *Index, preds []Prediction, mode Mode, name string) *Batch {
	return judgeAll(data, ix, preds, mode, name, true)
}

// Judge is Score without the report's gold ceilings (Report.Ceiling empty). A level's ceiling
// replays every gold call of the level, once an index; a host that wants verdicts (a class's
// answer, judged on a variant of its own) does without the first score of a data paying for it.
func Judge(data *dataset.Data, ix *Index, preds []Prediction, mode Mode, name string) *Batch {
	return judgeAll(data, ix, preds, mode, name, false)
}

// judgeAll is Score, with the ceilings when ceilings is true.
func judgeAll(data *dataset.Data, ix *Index, preds []Prediction, mode Mode, name string, ceilings bool) *Batch {
	s := New(data, mode)
	rb := newReportBuilder()
	b := &Batch{Results: make([]Result, 0, len(preds))}
	for _, p := range preds {
		r, e := s.judgeLine(ix, p, name)
		if e != nil {
			b.Errors = append(b.Errors, *e)
			continue
		}
		b.Results = append(b.Results, r)
		rb.add(&b.Results[len(b.Results)-1])
	}
	b.Report = rb.report(data, ix, mode, ceilings)
	return b
}

// judgeLine judges one prediction line: its verdict, or the line error that takes its place (an
// unknown sample, a sample never scored, a panic of ours while judging it).
func (s *Scorer) judgeLine(ix *Index, p Prediction, name string) (Result, *dataset.LineError) {
	// Lines come grouped by file: the last file's samples are kept, and its name compared.
	if s.lastFiles != ix || s.lastFile != p.File {
		s.lastFiles, s.lastFile, s.lastSamples = ix, p.File, ix.fileOf(p.File)
	}
	sm, err := ix.findIn(s.lastSamples, p.Level, p.File, p.ID)
	if err != nil {
		return Result{}, &dataset.LineError{File: name, Line: p.Line, Message: err.Error()}
	}
	var r Result
	var skip bool
	err = isolated(func() { r, skip = s.judge(sm, p) })
	switch {
	case err != nil:
		return Result{}, &dataset.LineError{File: name, Line: p.Line, Message: fmt.Sprintf("sample %d of %s: %v", p.ID, p.File, err)}
	case skip:
		return Result{}, &dataset.LineError{File: name, Line: p.Line,
			Message: fmt.Sprintf("sample %d of %s has a User turn as gold; the original never scores it", p.ID, p.File)}
	}
	return r, nil
}

// judge judges one prediction for its sample; skip is true for a sample that is never scored.
func (s *Scorer) judge(sm Sample, p Prediction) (r Result, skip bool) {
	r = Result{Level: sm.Dialogue.Level, File: p.File, ID: p.ID, Line: p.Line}
	if sm.Dialogue.Meta != nil {
		r.Special = sm.Dialogue.Meta.Special
	}
	switch sm.Kind {
	case KindCall, KindSpecial:
		v := s.newVerdict()
		*v = s.Call(sm, p.Pred)
		r.Kind, r.CallVerdict = sm.Kind, v
	case KindReply:
		v := s.Reply(sm, p.Pred)
		r.Kind, r.ReplyVerdict = KindReply, &v
	default:
		return r, true
	}
	return r, false
}

// isolated runs f and turns a panic inside it into an error naming the panic, so that a bug of
// ours met while judging one prediction costs that prediction's verdict only, not the batch's.
func isolated(f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error while judging this prediction (a bug of ours; the other lines are judged): %v", p)
		}
	}()
	f()
	return nil
}

// GoldText renders a gold API turn as the original prompts render past calls, the text form of a
// perfect prediction.
func GoldText(t *dataset.Turn) string { return call.Format(t.Tool, t.Params) }

// GoldPrediction is a perfect prediction for a gold API turn of a dialogue, in the text form wherever
// the data's reading of text calls can carry the call exactly. Our data (Repaired) is read as Python
// reads it (call.Literal), which carries every value: its gold is always the text form, each value as
// Python's repr writes it. The original's data is read by its regular expressions (call.Regex), which
// cannot carry an empty value or one containing a quote or a line break (they cut values at the first
// quote of either kind and drop empty ones), nor a list: such a call is given in its native form.
func GoldPrediction(d *dataset.Dialogue, t *dataset.Turn) string {
	if d.Repaired {
		return goldText(d, t)
	}
	expressible := true
	t.Params.Each(func(k string, v any) bool {
		switch x := v.(type) {
		case string:
			expressible = x != "" && !strings.ContainsAny(x, "'\"\n")
		case []any, *value.Map:
			expressible = false
		}
		return expressible
	})
	if expressible {
		return goldText(d, t)
	}
	return GoldNative(t)
}

// goldText is the text form of a perfect prediction for a dialogue: GoldText for the original's data;
// for a repaired dialogue the call as Python writes it (call.FormatLiteral), which its reading
// (call.Literal) gives back value for value — quotes, escapes, empty strings, numbers and lists.
func goldText(d *dataset.Dialogue, t *dataset.Turn) string {
	if d.Repaired {
		return call.FormatLiteral(t.Tool, t.Params)
	}
	return GoldText(t)
}

// GoldNative renders a gold API turn as a native tool call.
func GoldNative(t *dataset.Turn) string {
	return string(value.Marshal(value.MapOf("name", t.Tool, "arguments", t.Params)))
}

// AttachGold adds to every call result its gold answer and recorded envelope, so a host can show
// expected next to got without fetching dialogues.
func AttachGold(b *Batch, ix *Index) {
	for i := range b.Results {
		attachGold(&b.Results[i], ix)
	}
}

// attachGold adds to one call result its gold answer and recorded envelope.
func attachGold(r *Result, ix *Index) {
	if r.CallVerdict == nil {
		return
	}
	sm, err := ix.Find(r.Level, r.File, r.ID)
	if err != nil {
		return
	}
	gt := sm.GoldTurn()
	if gt.Role != dataset.API {
		r.CallVerdict.GoldCall = gt.Text
		return
	}
	r.CallVerdict.GoldCall = GoldSetPrediction(sm)
	r.CallVerdict.GoldResult = goldResults(sm)
}
