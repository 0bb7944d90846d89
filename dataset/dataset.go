// Package dataset holds API-Bank dialogues and the worlds they run in: the project's own builtin data
// (embedded) and importers of the original's folder layout (lv1-lv2-samples/, lv3-samples/,
// init_database/), which the CLI's --data flag and the browser's dropped folder both use.
package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// Level names, as the original's folders name them.
const (
	Level1 = "level-1-given-desc"
	Level2 = "level-2-toolsearcher"
	Level3 = "level-3"
)

// Levels lists the level names in order.
var Levels = []string{Level1, Level2, Level3}

// Role of a dialogue turn.
const (
	User = "User"
	AI   = "AI"
	API  = "API"
)

// Turn is one line of a dialogue file: a User or AI utterance, or an API call with its recorded result.
type Turn struct {
	// Role is User, AI or API.
	Role string
	// Text is the utterance (User and AI turns).
	Text string
	// Tool is the called tool's name (API turns: the line's api_name).
	Tool string
	// Params are the call's arguments as recorded (param_dict), typed JSON.
	Params *value.Map
	// Result is the recorded envelope {api_name, input, output, exception}.
	Result *value.Map
	// Parallel marks an API turn made in the same assistant turn as the API turn before it (the
	// line's "parallel": true): consecutive such turns form one gold call set (see CallSets).
	Parallel bool
	// Line is the turn's 1-based line number in its file.
	Line int
	// Free, on our data, names the arguments of an API turn whose text the user never dictated (an
	// email's subject the AI words itself, a meeting topic the user only describes): any non-empty
	// text is right there, so the judge does not compare them word for word (the line's "free").
	Free []string
	// Accept, on our data, lists other argument sets that are just as right as Params (a date form
	// the description allows, an optional argument left out): each is judged as a gold of its own,
	// executed in the same world (the line's "accept").
	Accept []*value.Map
}

// Dialogue is one dialogue file.
type Dialogue struct {
	// Level is the level folder the file came from.
	Level string
	// File is the file's base name, as prediction files refer to it.
	File string
	// Turns are the dialogue's turns in order.
	Turns []Turn
	// Meta is the optional first-line header of our own files (special cases, derivations).
	Meta *Meta
	// Scene is the level-3 scene this dialogue was made from (see score.SceneDialogue), or nil.
	Scene *Scene
	// Catalog names the tool catalog the dialogue's calls use; "" means the level's (lv3_apis at
	// level 3, apis otherwise).
	Catalog string
	// Repaired marks a dialogue of a dataset judged without the original's defects (see
	// Data.Repaired): list arguments written in the text format are read as lists.
	Repaired bool
	// Today is the date the dialogue is written from, which its prompt states and its worlds are at
	// (tools.World.SetToday): its data's today for its file (tools.Base.TodayOf) when its data states
	// one (a tools.TodayDB), else "" (tools.Today). See StatedToday.
	Today string

	// fill accepts API turns whose result is null (to be filled by running the calls).
	fill bool
	// pending, when not nil, holds the file this dialogue is parsed from on first use (see parsed):
	// the builtin data's dialogues are. It is never reset, so reading it needs no lock.
	pending *pendingParse
}

// pendingParse is a dialogue file of data (parsed on first use) kept as text until its dialogue is
// first asked for.
type pendingParse struct {
	once sync.Once
	name string
	text []byte
	data *Data
	errs []LineError
	// done is set once the file is parsed (errs final): ErrorsSoFar reads it without parsing.
	done atomic.Bool
}

// parsed returns d with its turns and header read: a pending dialogue is parsed here, once, whatever
// the number of goroutines asking (the builtin data is shared by every session of a process).
func (d *Dialogue) parsed() *Dialogue {
	if p := d.pending; p != nil {
		p.once.Do(func() {
			_, p.errs = parseDialogue(d, p.name, p.text)
			p.text = nil // read only here
			p.data.lazy.parsed.Add(1)
			p.done.Store(true)
		})
	}
	return d
}

// Meta is the header line our own dialogue files may start with: {"role":"Meta", ...}. The original's
// files have none. It records what a reader cannot see from the turns alone.
type Meta = protocol.Meta

// Derivation records one derived argument value (the protocol's type).
type Derivation = protocol.Derivation

// Data is a loaded dataset: dialogues, level-3 scenes and the initial world.
type Data struct {
	// Name is "builtin" or the imported folder's name.
	Name string
	// dialogues are the level 1-2 dialogues, sorted by level then file name (see Dialogues), and
	// byFile the same by file name, in that order.
	dialogues []*Dialogue
	byFile    map[string][]*Dialogue
	// scenes are the level-3 scene files, in path order, and sceneList, for data parsed whole at
	// load, their scenes (see Scenes).
	scenes    []*sceneFile
	sceneList []*Scene
	// lazy, for data whose files are parsed on first use (the builtin data's), is their state: a
	// pointer, so that every copy of the data shares it.
	lazy *lazyData
	// Base is the initial world.
	Base *tools.Base
	// Tables says where the Dictionary and Translate tables came from ("world" or "gold results").
	Tables string
	// harvested are the tables built from the data's recorded gold results (Harvested).
	harvested []harvestedTable
	// Repaired says the data is judged without the original's defects: the repaired checks
	// (tools.Tool.CheckRepaired), and list arguments of text calls read as lists rather than passed
	// on as text. True for our own data; imported data keeps the original's behaviour, for verdict
	// parity.
	Repaired bool
}

// lazyData is what data parsed on first use learns as it goes: its dialogues (those with turns, as
// Load keeps) and scenes once all are parsed, and how many files have been parsed.
type lazyData struct {
	dialoguesOnce sync.Once
	dialogues     []*Dialogue
	scenesOnce    sync.Once
	scenes        []*Scene
	parsed        atomic.Int64
}

// NewData returns data of the given name holding the level 1-2 dialogues ds (sorted by level then
// file name, as Load sorts them) and no scenes, for Base to be set: data built in code, not loaded.
func NewData(name string, ds []*Dialogue) *Data {
	d := &Data{Name: name}
	d.setDialogues(ds)
	return d
}

// setDialogues makes ds the data's dialogues.
func (d *Data) setDialogues(ds []*Dialogue) {
	d.dialogues = ds
	d.byFile = make(map[string][]*Dialogue, len(ds))
	for _, dl := range ds {
		d.byFile[dl.File] = append(d.byFile[dl.File], dl)
	}
}

// Dialogues returns the level 1-2 dialogues, sorted by level then file name. The builtin data's are
// parsed on the first call (a run that judges a few files parses only theirs, see File).
func (d *Data) Dialogues() []*Dialogue {
	if d.lazy == nil {
		return d.dialogues
	}
	d.lazy.dialoguesOnce.Do(func() {
		for _, dl := range d.dialogues {
			if len(dl.parsed().Turns) > 0 {
				d.lazy.dialogues = append(d.lazy.dialogues, dl)
			}
		}
	})
	return d.lazy.dialogues
}

// kept reports whether dl is one of the data's dialogues once parsed: a file parsed on first use
// that has no turns is not, as Load drops it.
func (d *Data) kept(dl *Dialogue) bool { return d.lazy == nil || len(dl.parsed().Turns) > 0 }

// File returns the dialogues of a file name, one a level that has it, in data order: all that a
// prediction of the file needs, parsed without parsing the others.
func (d *Data) File(file string) []*Dialogue {
	ds := d.byFile[file]
	if d.lazy == nil {
		return ds
	}
	var out []*Dialogue
	for _, dl := range ds {
		if d.kept(dl) {
			out = append(out, dl)
		}
	}
	return out
}

// Dialogue returns the dialogue of a level ("" for any) and file name.
func (d *Data) Dialogue(level, file string) (*Dialogue, bool) {
	for _, dl := range d.byFile[file] {
		if (level == "" || dl.Level == level) && d.kept(dl) {
			return dl, true
		}
	}
	return nil, false
}

// sceneFile is a level-3 scene file of the data, its scene parsed at load or (the builtin data's) on
// first use, once: scene is then nil when the file is not a scene, and errs says why.
type sceneFile struct {
	once  sync.Once
	file  string // its base name, which predictions name
	name  string
	text  []byte
	data  *Data
	scene *Scene
	errs  []LineError
	// done is set once the file is parsed (errs final): ErrorsSoFar reads it without parsing.
	done atomic.Bool
}

// parse parses the file, once: in the original's text format (lv3-samples/*.txt) or as our JSON.
func (f *sceneFile) parse() *Scene {
	f.once.Do(func() {
		if strings.HasSuffix(f.name, ".txt") {
			f.scene, f.errs = ParseScene(f.name, f.text)
		} else {
			f.scene, f.errs = ParseSceneJSON(f.name, f.text, false)
		}
		f.text = nil // read only here; an import's file texts are allocations of their own
		// Parsed on first use: the data's own marks (Builtin's) are set by now, and come from it.
		if f.data.lazy != nil {
			f.data.lazy.parsed.Add(1)
			if f.scene != nil {
				f.scene.Repaired = f.data.Repaired
			}
		}
		f.done.Store(true)
	})
	return f.scene
}

// Scenes returns the level-3 scenes, in path order. The builtin data's are parsed on the first call
// (a run that judges a few files parses only theirs, see SceneFile).
func (d *Data) Scenes() []*Scene {
	if d.lazy == nil {
		return d.sceneList
	}
	d.lazy.scenesOnce.Do(func() {
		for _, f := range d.scenes {
			if sc := f.parse(); sc != nil {
				d.lazy.scenes = append(d.lazy.scenes, sc)
			}
		}
	})
	return d.lazy.scenes
}

// SceneFile returns the scenes of a file name (one, unless several folders have it), parsed
// without parsing the others.
func (d *Data) SceneFile(file string) []*Scene {
	var out []*Scene
	for _, f := range d.scenes {
		if f.file == file {
			if sc := f.parse(); sc != nil {
				out = append(out, sc)
			}
		}
	}
	return out
}

// Counts returns how many level 1-2 dialogues each level has.
func (d *Data) Counts() map[string]int {
	n := map[string]int{}
	for _, dl := range d.Dialogues() {
		n[dl.Level]++
	}
	return n
}

// ParsedOnUse returns how many dialogue and scene files have been parsed on first use so far (0 for
// data parsed whole at load): what a run paid for its data, which tests check (a one-prediction run
// parses one file). It parses nothing.
func (d *Data) ParsedOnUse() int {
	if d.lazy == nil {
		return 0
	}
	return int(d.lazy.parsed.Load())
}

// ParseAll parses every dialogue and scene file not parsed yet and returns the problems of them all
// (data parsed on first use, the builtin data's): in path order, as Load reports them (none for the
// builtin data in a release, as the tests require). ErrorsSoFar is its cheap half: no parsing.
func (d *Data) ParseAll() []LineError {
	if d.lazy == nil {
		return nil
	}
	d.Dialogues()
	d.Scenes()
	return d.ErrorsSoFar()
}

// byPath orders located errors by file path, each file's in the order found (its lines'), as Load,
// which reads the files in path order, reports them.
func byPath(errs []LineError) {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].File < errs[j].File })
}

// CatalogFor returns the tool catalog a level uses: level 3 the lv3 catalog, levels 1 and 2 the apis
// catalog.
func CatalogFor(level string) *tools.Catalog {
	if level == Level3 {
		return tools.LV3
	}
	return tools.APIs
}

// ToolCatalog returns the catalog the dialogue's calls use: its own when it names one (a scene's),
// else its level's.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (d *Dialogue) ToolCatalog() *tools.Catalog {
	if c, ok := tools.CatalogByName(d.Catalog); ok && d.Catalog != "" {
		return c
	}
	return CatalogFor(d.Level)
}

// LineError is a problem in an input file, located by file and line (the protocol's type).
type LineError = protocol.LineError

// ParseDialogue reads one dialogue file (JSONL). Bad lines are reported with their line number and
// skipped; the rest of the file still loads.
func ParseDialogue(level, name string, data []byte) (*Dialogue, []LineError) {
	return parseDialogue(&Dialogue{Level: level, File: path.Base(name)}, name, data)
}

// ParseDraft is ParseDialogue for a dialogue being written: API turns may have "result": null, to be
// filled by running the calls (see score.Fill).
func ParseDraft(level, name string, data []byte) (*Dialogue, []LineError) {
	return parseDialogue(&Dialogue{Level: level, File: path.Base(name), fill: true}, name, data)
}

func parseDialogue(d *Dialogue, name string, data []byte) (*Dialogue, []LineError) {
	var errs []LineError
	lr := lines.NewBytesReader(data, lines.Max)
	// One reader for the file's lines: a line's own map is reused (only its values are kept) and the
	// texts that repeat (roles, tool names) are shared, a few allocations less a line. Only theirs:
	// sharing every short text searched the shared ones for each text of each result, which cost
	// more than copying them (the builtin data's load 9.2 -> 7.9 ms natively and ~1.2x faster under
	// wazero, with 10% fewer allocations). The reader goes on to the next file (turnReaders).
	r, _ := turnReaders.Get().(*turnReader)
	if r == nil {
		r = &turnReader{lines: value.NewFieldReader(everyField, "role", "api_name")}
	}
	turns := r.lines
	d.Turns = r.turns[:0]
	for {
		raw, line, err := lr.Next()
		if err == io.EOF {
			break
		}
		bad := func(format string, a ...any) {
			errs = append(errs, LineError{File: name, Line: line, Message: fmt.Sprintf(format, a...)})
		}
		if err != nil {
			bad("%v", err)
			continue
		}
		text := bytes.TrimSpace(raw)
		if len(text) == 0 {
			continue
		}
		m, err := turns.Decode(text)
		if err != nil {
			// Not an object: decoded again for the message a value of any kind gets.
			v, err := value.Decode(text)
			if err != nil {
				bad("not JSON: %v", err)
				continue
			}
			var ok bool
			if m, ok = v.(*value.Map); !ok {
				bad("a turn must be a JSON object")
				continue
			}
		}
		rv, _ := m.Get("role")
		role, isText := rv.(string)
		if !isText {
			bad("a turn needs a \"role\" text (User, AI or API)")
			continue
		}
		switch role {
		case User, AI:
			t, ok := m.Get("text")
			s, isText := t.(string)
			if !ok || !isText {
				bad("%s turn without a text", role)
				continue
			}
			d.Turns = append(d.Turns, Turn{Role: role, Text: s, Line: line})
		case API:
			nv, _ := m.Get("api_name")
			name, _ := nv.(string)
			if name == "" {
				bad("API turn without an api_name text")
				continue
			}
			params, _ := m.Get("param_dict")
			pm, ok := params.(*value.Map)
			if !ok {
				bad("API turn without a param_dict object")
				continue
			}
			res, present := m.Get("result")
			rm, ok := res.(*value.Map)
			if !ok && !(res == nil && present && d.fill) {
				bad("API turn without a result object")
				continue
			}
			parallel := false
			if pv, ok := m.Get("parallel"); ok {
				b, isBool := pv.(bool)
				if !isBool {
					bad("\"parallel\" must be true or false")
					continue
				}
				if b && (len(d.Turns) == 0 || d.Turns[len(d.Turns)-1].Role != API) {
					bad("a parallel API turn must follow the API turn it is made with (the first call of its set has no \"parallel\")")
					continue
				}
				parallel = b
			}
			free, accept, err := parseAlternatives(m)
			if err != nil {
				bad("%v", err)
				continue
			}
			d.Turns = append(d.Turns, Turn{Role: API, Tool: name, Params: pm, Result: rm, Parallel: parallel, Line: line, Free: free, Accept: accept})
		case "Meta":
			if line != 1 || len(d.Turns) > 0 {
				bad("a Meta line must be the first line")
				continue
			}
			meta, err := parseMeta(m)
			if err != nil {
				bad("bad Meta line: %v", err)
				continue
			}
			d.Meta = meta
		default:
			bad("unknown role %q (want User, AI or API)", role)
		}
	}
	r.turns = d.Turns
	d.Turns = append([]Turn(nil), d.Turns...) // to their size, nil when none
	clear(r.turns)
	turnReaders.Put(r)
	if d.Meta != nil && d.Meta.Special != "" && d.SpecialTurn() < 0 {
		errs = append(errs, LineError{File: name, Line: 1, Message: fmt.Sprintf("special case: line %d is not an AI turn", d.Meta.Line)})
		d.Meta = nil
	}
	return d, errs
}

// everyField wants every member of a turn.
func everyField(string) bool { return true }

// turnReader is what parseDialogue keeps from one file to the next (see turnReaders).
type turnReader struct {
	// lines reads the turns.
	lines *value.FieldReader
	// turns is room for a file's turns, which are copied out to their number: one allocation a file.
	turns []Turn
}

// turnReaders keeps turn readers between files: what a reader shares (keys, roles, tool names) and
// its room serve the next file too, where each file made its own (~30 allocations a file).
var turnReaders sync.Pool

// SpecialTurn returns the index of the turn a special-case dialogue's Meta points at (an AI turn),
// or -1.
func (d *Dialogue) SpecialTurn() int {
	if d.Meta == nil || d.Meta.Special == "" {
		return -1
	}
	for i, t := range d.Turns {
		if t.Line == d.Meta.Line && t.Role == AI {
			return i
		}
	}
	return -1
}

// CallSets returns the dialogue's gold call sets in order: for each API turn that starts a set, the
// indexes of its turns (itself, then the parallel turns that follow it). A dialogue without
// parallel turns has one set per API turn.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func (d *Dialogue) CallSets() [][]int {
	var sets [][]int
	for i, t := range d.Turns {
		switch {
		case t.Role != API:
		case t.Parallel && len(sets) > 0 && sets[len(sets)-1][len(sets[len(sets)-1])-1] == i-1:
			sets[len(sets)-1] = append(sets[len(sets)-1], i)
		default:
			sets = append(sets, []int{i})
		}
	}
	return sets
}

// Style returns APIGen's query style of a gold call set of the dialogue (indexes as CallSets gives
// them): parallel or parallel-multiple for several calls of one or several tools; for one call,
// simple when the prompt offers one tool (a level-1 dialogue that uses one tool) and multiple when
// the model chooses among several (or must search, at level 2).
func (d *Dialogue) Style(set []int) string {
	if len(set) > 1 {
		for _, i := range set[1:] {
			if d.Turns[i].Tool != d.Turns[set[0]].Tool {
				return protocol.StyleParallelMultiple
			}
		}
		return protocol.StyleParallel
	}
	if d.Level != Level1 {
		return protocol.StyleMultiple
	}
	tools := map[string]bool{}
	for _, t := range d.Turns {
		if t.Role == API {
			tools[t.Tool] = true
		}
	}
	if len(tools) > 1 {
		return protocol.StyleMultiple
	}
	return protocol.StyleSimple
}

func parseMeta(m *value.Map) (*Meta, error) {
	meta := &Meta{Special: m.String("special")}
	var err error
	if meta.Special != "" && !slices.Contains(protocol.Specials, meta.Special) {
		return nil, errorf("special must be one of %s, not %q", strings.Join(protocol.Specials, ", "), meta.Special)
	}
	if l, ok := m.Get("line"); ok {
		n, isInt := l.(int64)
		if !isInt || n < 1 {
			return nil, errorf("line must be a positive line number")
		}
		meta.Line = int(n)
	}
	if meta.Special != "" && meta.Line == 0 {
		return nil, errorf("a special case needs \"line\": the line of the AI turn that answers instead of a call")
	}
	if d, ok := m.Get("derived"); ok {
		list, ok := d.([]any)
		if !ok {
			return nil, errorf("derived must be a list")
		}
		for _, e := range list {
			em, ok := e.(*value.Map)
			if !ok {
				return nil, errorf("derived items must be objects {value, rule}")
			}
			meta.Derived = append(meta.Derived, Derivation{Value: value.Str(mustGet(em, "value")), Rule: em.String("rule")})
		}
	}
	if meta.Needs, err = parseNeeds(m, "needs"); err != nil {
		return nil, err
	}
	if len(meta.Needs) > 0 && meta.Special == "" {
		return nil, errorf("needs belong to a special case (\"special\")")
	}
	if meta.Audit, err = parseAudit(m); err != nil {
		return nil, err
	}
	return meta, nil
}

// parseAlternatives reads an API turn's "free" (argument names) and "accept" (argument sets).
func parseAlternatives(m *value.Map) (free []string, accept []*value.Map, err error) {
	if v, ok := m.Get("free"); ok {
		list, isList := v.([]any)
		if !isList {
			return nil, nil, errorf("\"free\" must be a list of argument names")
		}
		for _, e := range list {
			name, isText := e.(string)
			if !isText || name == "" {
				return nil, nil, errorf("\"free\" must be a list of argument names")
			}
			free = append(free, name)
		}
	}
	if v, ok := m.Get("accept"); ok {
		list, isList := v.([]any)
		if !isList {
			return nil, nil, errorf("\"accept\" must be a list of param_dict objects")
		}
		for _, e := range list {
			am, isMap := e.(*value.Map)
			if !isMap {
				return nil, nil, errorf("\"accept\" must be a list of param_dict objects")
			}
			accept = append(accept, am)
		}
	}
	return free, accept, nil
}

// parseNeeds reads a list of needs [{"what", "any": [phrases]}] at key (absent: none).
func parseNeeds(m *value.Map, key string) ([]protocol.Need, error) {
	v, ok := m.Get(key)
	if !ok {
		return nil, nil
	}
	list, isList := v.([]any)
	if !isList {
		return nil, errorf("%s must be a list of {\"what\", \"any\": [phrases]}", key)
	}
	var needs []protocol.Need
	for i, e := range list {
		nm, isMap := e.(*value.Map)
		if !isMap {
			return nil, errorf("%s item %d must be an object {\"what\", \"any\"}", key, i+1)
		}
		n := protocol.Need{What: nm.String("what")}
		phrases, _ := nm.Get("any")
		pl, isList := phrases.([]any)
		for _, p := range pl {
			if s, isText := p.(string); isText && strings.TrimSpace(s) != "" {
				n.Any = append(n.Any, s)
			}
		}
		if n.What == "" || !isList || len(n.Any) == 0 {
			return nil, errorf("%s item %d needs \"what\" and a non-empty \"any\" list of phrases", key, i+1)
		}
		needs = append(needs, n)
	}
	return needs, nil
}

// parseAudit reads the optional "audit": {"status": verified|fixed, "note"}.
func parseAudit(m *value.Map) (*protocol.Audit, error) {
	v, ok := m.Get("audit")
	if !ok {
		return nil, nil
	}
	am, isMap := v.(*value.Map)
	if !isMap {
		return nil, errorf("audit must be an object {\"status\", \"note\"}")
	}
	a := &protocol.Audit{Status: am.String("status"), Note: am.String("note")}
	if a.Status != protocol.AuditVerified && a.Status != protocol.AuditFixed {
		return nil, errorf("audit status must be %s or %s, not %q", protocol.AuditVerified, protocol.AuditFixed, a.Status)
	}
	if a.Status == protocol.AuditFixed && a.Note == "" {
		return nil, errorf("a fixed audit needs a note saying what was fixed")
	}
	return a, nil
}

func mustGet(m *value.Map, k string) any {
	v, _ := m.Get(k)
	return v
}

// Files is a folder's content by slash-separated relative path, as the CLI reads it from disk and the
// browser from a dropped folder.
type Files map[string][]byte

// Paths returns the files' paths in order and their total size in bytes.
func (f Files) Paths() (paths []string, size int) {
	paths = make([]string, 0, len(f))
	for p, b := range f {
		paths = append(paths, p)
		size += len(b)
	}
	sort.Strings(paths)
	return paths, size
}

// Load reads a folder in the original layout: lv1-lv2-samples/<level>/*.jsonl, lv3-samples/*.txt and
// init_database/*.json, plus our own level-3 scenes, level-3/*.json; found at any depth (so a parent
// folder works too). Problems are returned as
// located errors; whatever loads is used. It fails only when nothing usable is found.
func Load(name string, files Files) (*Data, []LineError, error) {
	return load(name, files, false, nil)
}

// Known is what an earlier load of the very same files found: that they had no problem at all (no
// error from Load, none from building their samples), and the tables harvested from their gold
// results (Data.Harvested), each as its JSON text. An engine hands it out as part of its memo of a
// folder (see the engine's memo op) for the host to keep beside the folder's digest.
type Known struct {
	Harvested map[string][]byte
}

// LoadKnown is Load for files an earlier load found free of problems (Known): they are parsed on
// first use, as the builtin data's are, their databases are not checked again (a tool decodes one
// on first use), and the harvested tables are taken from k instead of from every dialogue. A
// one-prediction run on the original's folder then parses one dialogue file of its 263 (under
// wazero, most of its load). The caller vouches that files are the ones k was learned from; a
// problem LoadKnown still meets (a database of the wrong type, a harvested table in k that is not
// JSON or is of a database the folder has, no usable file) is an error, and the caller loads them
// with Load instead. A file that turns out broken when parsed is left out, its problems in
// what Data.ParseAll returns.
func LoadKnown(name string, files Files, k Known) (*Data, error) {
	known := k.Harvested
	if known == nil {
		known = map[string][]byte{} // no harvested table is still known (load reads nil as unknown)
	}
	d, errs, err := load(name, files, true, known)
	if err == nil && len(errs) > 0 {
		err = errorf("%s: %s", name, errs[0].Error())
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// harvestedTable is a table built from the data's recorded gold results: its value, or for data
// loaded with Known its JSON text.
type harvestedTable struct {
	name string
	v    any
	text []byte
}

// Harvested returns the tables built from the data's recorded gold results (Dictionary, Translate:
// see tools.Harvest) as JSON texts, by name: what Known needs. None when the folder has those
// databases or its dialogues record no such call. ok is false when a table holds a number JSON
// cannot write (NaN or an infinity, which a recorded output may hold: value.Marshal writes them as
// texts, so the table would not read back as it is).
func (d *Data) Harvested() (tables map[string][]byte, ok bool) {
	out := make(map[string][]byte, len(d.harvested))
	for _, h := range d.harvested {
		if h.text != nil {
			out[h.name] = h.text
			continue
		}
		if !finite(h.v) {
			return nil, false
		}
		out[h.name] = value.Marshal(h.v)
	}
	return out, true
}

// finite reports whether a decoded value holds no NaN and no infinity.
func finite(v any) bool {
	switch v := v.(type) {
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0)
	case []any:
		for _, e := range v {
			if !finite(e) {
				return false
			}
		}
	case *value.Map:
		ok := true
		v.Each(func(_ string, e any) bool {
			ok = finite(e)
			return ok
		})
		return ok
	}
	return true
}

// ErrorsSoFar returns the problems of the files parsed so far, in path order, without parsing any
// more (ParseAll parses the rest first): none for data parsed whole at load.
func (d *Data) ErrorsSoFar() []LineError {
	if d.lazy == nil {
		return nil
	}
	var errs []LineError
	for _, dl := range d.dialogues {
		if dl.pending.done.Load() {
			errs = append(errs, dl.pending.errs...)
		}
	}
	for _, f := range d.scenes {
		if f.done.Load() {
			errs = append(errs, f.errs...)
		}
	}
	byPath(errs)
	return errs
}

// load is Load; with lazy set, each dialogue and scene file is kept as text and parsed on first use
// (see Data.Dialogues, Data.File, Data.Scenes and Data.SceneFile), its problems then in
// what Data.ParseAll returns: for the builtin data, whose files the tests keep free of problems. A
// one-prediction run then parses one file, not 394 (under wazero, ~50 ms of a start-up of ~0.19 s).
// A dialogue file with no turns is left out once parsed, as Load leaves it out.
//
// known, when not nil, marks files known to load without problems (LoadKnown): their databases are
// not checked, and the harvested tables are known's JSON texts.
func load(name string, files Files, lazy bool, known map[string][]byte) (*Data, []LineError, error) {
	d := &Data{Name: name}
	if lazy {
		d.lazy = new(lazyData)
	}
	var dialogues []*Dialogue
	var errs []LineError
	dbs := map[string]any{}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	dpaths := map[*Dialogue]string{} // each dialogue's path, for its today (see Dialogue.Today)
	for _, p := range paths {
		data := files[p]
		dir, base := path.Split(p)
		dir = strings.TrimSuffix(dir, "/")
		switch {
		case strings.HasSuffix(base, ".jsonl") && (path.Base(dir) == Level1 || path.Base(dir) == Level2):
			if lazy {
				dialogues = append(dialogues, &Dialogue{Level: path.Base(dir), File: base, pending: &pendingParse{name: p, text: data, data: d}})
				dpaths[dialogues[len(dialogues)-1]] = p
				continue
			}
			dl, e := ParseDialogue(path.Base(dir), p, data)
			errs = append(errs, e...)
			if len(dl.Turns) > 0 {
				dialogues = append(dialogues, dl)
				dpaths[dl] = p
			}
		case strings.HasSuffix(base, ".json") && path.Base(dir) == "init_database":
			var v checkedFile
			var line int
			var err error
			if known != nil {
				text := bytes.TrimPrefix(data, []byte(lines.BOM))
				if len(bytes.TrimLeft(text, " \t\r\n")) == 0 {
					return nil, nil, errorf("%s: no JSON value in a file its known state vouched for", p)
				}
				v = checkedFile{text: text, shape: textShape(text)}
			} else {
				v, line, err = checkFile(data)
			}
			if err != nil {
				errs = append(errs, LineError{File: p, Line: line, Message: "not JSON: " + err.Error()})
				continue
			}
			stem := strings.TrimSuffix(base, ".json")
			if want, ok := tools.DatabaseShape(stem); ok && v.shape != want {
				errs = append(errs, LineError{File: p, Message: fmt.Sprintf("the %s database must be a JSON %s, not %s: not loaded (its tools see it empty)", stem, want, article(v.shape))})
				continue
			}
			dbs[stem] = tools.Defer(v.text)
		case strings.HasSuffix(base, ".json") && path.Base(dir) == Level3,
			strings.HasSuffix(base, ".txt") && path.Base(dir) == "lv3-samples":
			sf := &sceneFile{file: base, name: p, text: data, data: d}
			if !lazy {
				sf.parse()
				errs = append(errs, sf.errs...)
				if sf.scene == nil {
					continue
				}
				d.sceneList = append(d.sceneList, sf.scene)
			}
			d.scenes = append(d.scenes, sf)
		}
	}
	if len(dialogues) == 0 && len(d.scenes) == 0 && len(dbs) == 0 {
		return nil, errs, errorf("%s: no API-Bank data found (expected lv1-lv2-samples/%s/*.jsonl, lv1-lv2-samples/%s/*.jsonl, lv3-samples/*.txt or init_database/*.json)", name, Level1, Level2)
	}
	sort.SliceStable(dialogues, func(i, j int) bool {
		a, b := dialogues[i], dialogues[j]
		if a.Level != b.Level {
			return a.Level < b.Level
		}
		return a.File < b.File
	})
	d.setDialogues(dialogues)
	d.Tables = "world"
	if known != nil {
		for name, text := range known {
			_, have := dbs[name]
			if have || (name != "Dictionary" && name != "Translate") || value.Check(text) != nil || textShape(text) != "object" {
				return nil, nil, errorf("%s: the known %s table is not a JSON object of a table the folder lacks", name, name)
			}
			dbs[name] = tools.Defer(text)
			d.harvested = append(d.harvested, harvestedTable{name: name, text: text})
		}
	} else {
		d.harvested = harvestTables(dbs, d)
	}
	if len(d.harvested) > 0 {
		d.Tables = "gold results"
	}
	d.Base = tools.NewBase(dbs)
	if _, ok := dbs[tools.TodayDB]; ok {
		for _, dl := range dialogues {
			dl.Today = d.Base.TodayOf(dpaths[dl])
		}
	}
	return d, errs, nil
}

// StatedToday returns the date the dialogue is written from (Today, or tools.Today).
func (d *Dialogue) StatedToday() string {
	if d.Today != "" {
		return d.Today
	}
	return tools.Today
}

// decodeFile decodes a whole JSON file, skipping a UTF-8 byte order mark at its start. On a syntax
// error, line is the error's line (0 when unknown).
func decodeFile(data []byte) (v any, line int, err error) {
	data = bytes.TrimPrefix(data, []byte(lines.BOM))
	v, err = value.Decode(data)
	if err != nil {
		return nil, jsonErrorLine(data, err), err
	}
	return v, 0, nil
}

// checkedFile is a database file's JSON text, checked, with the type of its value.
type checkedFile struct {
	text  []byte
	shape string
}

// checkFile checks a database file as decodeFile would decode it, without building the value (a
// tool decodes it on first use, see tools.Defer): the same errors, at the same lines.
func checkFile(data []byte) (f checkedFile, line int, err error) {
	text := bytes.TrimPrefix(data, []byte(lines.BOM))
	if value.Check(text) != nil {
		_, line, err = decodeFile(data) // Decode's own message (Check's may differ)
		if err != nil {
			return checkedFile{}, line, err
		}
	}
	return checkedFile{text: text, shape: textShape(text)}, 0, nil
}

// textShape names the JSON type of a checked JSON text (its first byte says) as the messages do.
func textShape(text []byte) string {
	text = bytes.TrimLeft(text, " \t\r\n")
	switch text[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "text"
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	}
	return "number"
}

// jsonErrorLine finds the line of a JSON syntax error's offset (by the one line rule, package lines),
// or 0.
func jsonErrorLine(data []byte, err error) int {
	var se *value.SyntaxError
	if !errors.As(err, &se) || se.Offset < 0 || se.Offset > int64(len(data)) {
		return 0
	}
	return lines.Number(data, int(se.Offset))
}

// article puts "a" or "an" before a shape's name.
func article(s string) string {
	if strings.ContainsAny(s[:1], "aeiou") {
		return "an " + s
	}
	return "a " + s
}

// harvestTables fills missing Dictionary and Translate tables from the dialogues' gold results (see
// tools.Harvest) and returns the tables it made. With both tables present it reads no dialogue.
func harvestTables(dbs map[string]any, data *Data) []harvestedTable {
	_, dict := dbs["Dictionary"]
	_, tr := dbs["Translate"]
	if dict && tr {
		return nil
	}
	var calls []tools.Recorded
	for _, d := range data.Dialogues() {
		for _, t := range d.Turns {
			if t.Role == API && (t.Tool == "Dictionary" || t.Tool == "Translate") {
				calls = append(calls, tools.Recorded{Tool: t.Tool, Params: t.Params, Result: t.Result})
			}
		}
	}
	if !tools.Harvest(dbs, calls) {
		return nil
	}
	var out []harvestedTable
	for name, had := range map[string]bool{"Dictionary": dict, "Translate": tr} {
		if v, ok := dbs[name]; ok && !had {
			out = append(out, harvestedTable{name: name, v: v})
		}
	}
	return out
}

// errorf is fmt.Errorf. Not inlined: a copy at each of the package's many calls would cost the
// engine module more than the call does.
//
//go:noinline
func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }
