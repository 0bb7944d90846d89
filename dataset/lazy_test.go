package dataset

import (
	"path"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// builtinFiles returns the builtin folder as Builtin unpacks it.
func builtinFiles(t *testing.T) Files {
	t.Helper()
	files, err := Unpack(builtinPack)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameDialogue reports whether two dialogues hold the same turns, header and names.
func sameDialogue(a, b *Dialogue) bool {
	return a.Level == b.Level && a.File == b.File && reflect.DeepEqual(a.Turns, b.Turns) &&
		reflect.DeepEqual(a.Meta, b.Meta) && a.Catalog == b.Catalog
}

// TestLazyLoadParsesOnFirstUse: data loaded lazily (the builtin data's way) parses a dialogue file
// only when it is asked for, by File, Dialogue or Dialogues, and then holds exactly what Load parses.
func TestLazyLoadParsesOnFirstUse(t *testing.T) {
	files := builtinFiles(t)
	eager, errs, err := Load(BuiltinName, files)
	if err != nil || len(errs) > 0 {
		t.Fatalf("Load: %v %v", err, errs)
	}
	lazy, errs, err := load(BuiltinName, files, true, nil)
	if err != nil || len(errs) > 0 {
		t.Fatalf("load lazily: %v %v", err, errs)
	}
	if n := lazy.ParsedOnUse(); n != 0 {
		t.Fatalf("a lazy load parsed %d dialogues before any was asked for", n)
	}

	// One file: its dialogues only, equal to Load's.
	file := eager.Dialogues()[0].File
	got := lazy.File(file)
	want := eager.File(file)
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("File(%q): %d dialogues, want %d", file, len(got), len(want))
	}
	for i := range got {
		if !sameDialogue(got[i], want[i]) {
			t.Errorf("File(%q)[%d] differs from Load's", file, i)
		}
	}
	if n := lazy.ParsedOnUse(); n != len(want) {
		t.Errorf("File(%q) parsed %d dialogues, want %d", file, n, len(want))
	}
	if d, ok := lazy.Dialogue(want[0].Level, file); !ok || d != got[0] {
		t.Errorf("Dialogue(%q, %q) = %v, %v; want File's", want[0].Level, file, d, ok)
	}
	if ds := lazy.File("no-such-file.jsonl"); len(ds) != 0 || lazy.ParsedOnUse() != len(want) {
		t.Errorf("a file the data lacks gave %d dialogues, parsed %d", len(ds), lazy.ParsedOnUse())
	}

	// Every dialogue: Load's, in Load's order.
	all, eagerAll := lazy.Dialogues(), eager.Dialogues()
	if len(all) != len(eagerAll) {
		t.Fatalf("Dialogues: %d, want %d", len(all), len(eagerAll))
	}
	for i := range all {
		if !sameDialogue(all[i], eagerAll[i]) {
			t.Errorf("Dialogues()[%d] (%s %s) differs from Load's (%s %s)", i, all[i].Level, all[i].File, eagerAll[i].Level, eagerAll[i].File)
		}
	}
	if n := lazy.ParsedOnUse(); n != len(all) {
		t.Errorf("Dialogues parsed %d of %d dialogues", n, len(all))
	}
	if !reflect.DeepEqual(lazy.Counts(), eager.Counts()) {
		t.Errorf("counts: lazy %v, eager %v", lazy.Counts(), eager.Counts())
	}
	// Scenes likewise: one file's, then all, equal to Load's.
	sceneFile := eager.Scenes()[0].File
	if sc := lazy.SceneFile(sceneFile); len(sc) != 1 || !reflect.DeepEqual(sc[0], eager.Scenes()[0]) {
		t.Errorf("SceneFile(%q) = %v, want Load's scene", sceneFile, sc)
	}
	if n := lazy.ParsedOnUse(); n != len(all)+1 {
		t.Errorf("SceneFile parsed %d files, want %d", n-len(all), 1)
	}
	if !reflect.DeepEqual(lazy.Scenes(), eager.Scenes()) {
		t.Errorf("Scenes: %d lazily, %d by Load, or they differ", len(lazy.Scenes()), len(eager.Scenes()))
	}
	if n := lazy.ParsedOnUse(); n != len(all)+len(eager.Scenes()) {
		t.Errorf("%d files parsed, want every dialogue and scene (%d)", n, len(all)+len(eager.Scenes()))
	}
	if got[0] != lazy.File(file)[0] {
		t.Error("a dialogue parsed twice is a new dialogue")
	}
	if e := lazy.ParseAll(); len(e) != 0 {
		t.Errorf("the builtin data has problems: %v", e)
	}
	if eager.ParsedOnUse() != 0 || len(eager.ParseAll()) != 0 {
		t.Errorf("data loaded whole reports %d parsed on use, problems %v", eager.ParsedOnUse(), eager.ParseAll())
	}
}

// TestLazyLoadErrors: the problems of a dialogue parsed on first use are in ParseAll's answer, at their file
// and line, once each, whatever was asked before; the good lines of the file load as Load loads them.
func TestLazyLoadErrors(t *testing.T) {
	files := Files{
		"lv1-lv2-samples/level-1-given-desc/bad.jsonl":   []byte(`{"role": "User", "text": "hi"}` + "\n" + `{"role": "Robot"}` + "\n" + `{"role": "AI", "text": "ok"}` + "\n"),
		"lv1-lv2-samples/level-1-given-desc/good.jsonl":  []byte(`{"role": "User", "text": "hi"}` + "\n"),
		"lv1-lv2-samples/level-2-toolsearcher/bad.jsonl": []byte(`not json` + "\n" + `{"role": "User", "text": "hi"}` + "\n"),
		"level-3/bad-scene.json":                         []byte(`{"scene": "no utterance", "calls": []}`),
		"lv1-lv2-samples/level-1-given-desc/empty.jsonl": []byte("\n\n"),
	}
	eager, eagerErrs, err := Load("test", files)
	if err != nil {
		t.Fatal(err)
	}
	lazy, errs, err := load("test", files, true, nil)
	if err != nil || len(errs) != 0 {
		t.Fatalf("load lazily: %v %v", err, errs)
	}
	if ds := lazy.File("good.jsonl"); len(ds) != 1 || len(lazy.ParseAll()) != 3 {
		t.Fatalf("File(good.jsonl) = %d dialogues; ParseAll %v", len(ds), lazy.ParseAll())
	}
	got := lazy.ParseAll()
	if !reflect.DeepEqual(got, eagerErrs) {
		t.Errorf("ParseAll\n%v\nLoad's (in the same order)\n%v", got, eagerErrs)
	}
	for _, e := range got {
		if e.Line == 0 || !strings.HasPrefix(path.Base(e.File), "bad") {
			t.Errorf("%v: not at a line of a bad file", e)
		}
	}
	if len(lazy.Scenes()) != 0 || len(lazy.SceneFile("bad-scene.json")) != 0 {
		t.Errorf("a file that is no scene gave scenes: %v", lazy.Scenes())
	}
	if ds := lazy.File("empty.jsonl"); len(ds) != 0 || !reflect.DeepEqual(lazy.Counts(), eager.Counts()) {
		t.Errorf("a file with no turns: File gives %d dialogues; counts %v, Load's %v", len(ds), lazy.Counts(), eager.Counts())
	}
	if _, ok := lazy.Dialogue("", "empty.jsonl"); ok {
		t.Error("Dialogue found a file with no turns, which Load leaves out")
	}
	if len(lazy.Dialogues()) != len(eager.Dialogues()) {
		t.Errorf("Dialogues: %d, Load's %d", len(lazy.Dialogues()), len(eager.Dialogues()))
	}
	for _, d := range lazy.File("bad.jsonl") {
		want, _ := eager.Dialogue(d.Level, "bad.jsonl")
		if !sameDialogue(d, want) {
			t.Errorf("%s bad.jsonl: %d turns, Load's %d", d.Level, len(d.Turns), len(want.Turns))
		}
	}
}

// TestLazyLoadCopy: a copy of lazily loaded data (a parity variant of the builtin data is one) shares
// what either copy parses: each sees every scene and dialogue whichever asks first.
func TestLazyLoadCopy(t *testing.T) {
	lazy, _, err := load(BuiltinName, builtinFiles(t), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	cp := *lazy
	if n := len(cp.Scenes()); n == 0 || len(lazy.Scenes()) != n {
		t.Errorf("scenes: the copy has %d, the original %d", n, len(lazy.Scenes()))
	}
	if n := len(lazy.Dialogues()); n == 0 || len(cp.Dialogues()) != n {
		t.Errorf("dialogues: the original has %d, the copy %d", n, len(cp.Dialogues()))
	}
	if cp.ParsedOnUse() != lazy.ParsedOnUse() || lazy.ParsedOnUse() != len(lazy.Dialogues())+len(lazy.Scenes()) {
		t.Errorf("parsed: copy %d, original %d", cp.ParsedOnUse(), lazy.ParsedOnUse())
	}
}

// TestLazyLoadConcurrent: sessions in several goroutines share the builtin data, so first uses may
// race: every goroutine gets the same parsed dialogues and scenes, each file parsed once (run with
// -race).
func TestLazyLoadConcurrent(t *testing.T) {
	lazy, _, err := load(BuiltinName, builtinFiles(t), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range lazy.dialogues {
		names[d.File] = true
	}
	scenes := map[string]bool{}
	for _, f := range lazy.scenes {
		scenes[f.file] = true
	}
	var wg sync.WaitGroup
	seen := make([][]*Dialogue, 8)
	for g := range seen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if g%2 == 0 {
				for name := range names {
					seen[g] = append(seen[g], lazy.File(name)...)
				}
				for name := range scenes {
					if len(lazy.SceneFile(name)) != 1 {
						t.Errorf("scene %s: not one scene", name)
					}
				}
			}
			seen[g] = append(seen[g], lazy.Dialogues()...)
			if len(lazy.Scenes()) != len(scenes) || len(lazy.ParseAll()) != 0 {
				t.Errorf("goroutine %d: %d scenes of %d, problems %v", g, len(lazy.Scenes()), len(scenes), lazy.ParseAll())
			}
		}()
	}
	wg.Wait()
	for g := range seen {
		for _, d := range seen[g] {
			if len(d.Turns) == 0 {
				t.Fatalf("goroutine %d got %s %s unparsed", g, d.Level, d.File)
			}
		}
	}
	if n := lazy.ParsedOnUse(); n != len(lazy.dialogues)+len(lazy.scenes) {
		t.Errorf("%d parses for %d dialogues and %d scenes", n, len(lazy.dialogues), len(lazy.scenes))
	}
}

// TestBuiltinRepaired: the builtin data's dialogues and scenes, parsed on first use, are judged
// without the original's defects, as the builtin data is.
func TestBuiltinRepaired(t *testing.T) {
	d, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if !d.Repaired {
		t.Fatal("the builtin data is not marked repaired")
	}
	for _, dl := range d.Dialogues() {
		if !dl.Repaired {
			t.Errorf("%s %s is not marked repaired", dl.Level, dl.File)
		}
	}
	for _, sc := range d.Scenes() {
		if !sc.Repaired {
			t.Errorf("scene %s is not marked repaired", sc.File)
		}
	}
}

// TestLoadKnown: files loaded with what an earlier Load of them found (their harvested tables) hold
// what Load gives, parse nothing until asked, and answer Dictionary from the known table; a known
// table that is not JSON, or of a database the folder has, is refused.
func TestLoadKnown(t *testing.T) {
	files := Files{}
	for p, b := range builtinFiles(t) {
		if !strings.HasSuffix(p, "init_database/Dictionary.json") {
			files[p] = b
		}
	}
	eager, errs, err := Load("ours", files)
	if err != nil || len(errs) > 0 {
		t.Fatalf("Load: %v %v", err, errs)
	}
	harvested, ok := eager.Harvested()
	if !ok || len(harvested["Dictionary"]) == 0 || eager.Tables != "gold results" {
		t.Fatalf("Load harvested %v, tables %q: want a Dictionary table from the gold results", harvested, eager.Tables)
	}
	known, err := LoadKnown("ours", files, Known{Harvested: harvested})
	if err != nil {
		t.Fatal(err)
	}
	if n := known.ParsedOnUse(); n != 0 {
		t.Errorf("LoadKnown parsed %d dialogues before any was asked for", n)
	}
	if known.Tables != eager.Tables || !reflect.DeepEqual(known.Base.Names(), eager.Base.Names()) {
		t.Errorf("LoadKnown: tables %q, databases %v; Load: %q, %v", known.Tables, known.Base.Names(), eager.Tables, eager.Base.Names())
	}
	if !reflect.DeepEqual(known.Counts(), eager.Counts()) || len(known.Scenes()) != len(eager.Scenes()) {
		t.Errorf("LoadKnown counts %v and %d scenes; Load %v and %d", known.Counts(), len(known.Scenes()), eager.Counts(), len(eager.Scenes()))
	}
	for i, d := range known.Dialogues() {
		if !sameDialogue(d, eager.Dialogues()[i]) {
			t.Errorf("dialogue %d (%s) differs from Load's", i, d.File)
		}
	}
	table := func(d *Data) any { return d.Base.NewWorld().Database("Dictionary") }
	if a, b := table(known), table(eager); b == nil || !value.Equal(a, b) || !sameTypes(a, b) {
		t.Errorf("the Dictionary table: %.200s, want %.200s", value.Marshal(a), value.Marshal(b))
	}
	blank := Files{}
	for p, b := range files {
		blank[p] = b
	}
	blank["init_database/Wiki.json"] = []byte(" \n")
	for name, c := range map[string]struct {
		files Files
		known map[string][]byte
	}{
		"not JSON":              {files, map[string][]byte{"Dictionary": []byte("{oops")}},
		"not an object":         {files, map[string][]byte{"Dictionary": []byte("[]")}},
		"the folder's own one":  {files, map[string][]byte{"Translate": []byte("{}")}},
		"another table":         {files, map[string][]byte{"Account": []byte("{}")}},
		"a blank database file": {blank, harvested},
	} {
		if _, err := LoadKnown("ours", c.files, Known{Harvested: c.known}); err == nil {
			t.Errorf("%s: LoadKnown took it", name)
		}
	}
}

// TestLoadKnownWithoutHarvestedTables: a folder whose dialogues record no Dictionary or Translate
// call harvests no table, and loaded as known with none (Known{}) it parses nothing at load: a
// harvest would read every dialogue to find none.
func TestLoadKnownWithoutHarvestedTables(t *testing.T) {
	calc := `{"role":"User","text":"2+2?"}
{"role":"API","api_name":"Calculator","param_dict":{"formula":"2+2"},"result":{"api_name":"Calculator","input":{"formula":"2+2"},"output":4.0,"exception":null}}
{"role":"AI","text":"4."}
`
	files := Files{"lv1-lv2-samples/level-1-given-desc/calc.jsonl": []byte(calc)}
	eager, errs, err := Load("calc", files)
	if err != nil || len(errs) > 0 {
		t.Fatalf("Load: %v %v", err, errs)
	}
	if tables, ok := eager.Harvested(); !ok || len(tables) != 0 || eager.Tables != "world" {
		t.Fatalf("Load harvested %v, tables %q: want none", tables, eager.Tables)
	}
	known, err := LoadKnown("calc", files, Known{})
	if err != nil {
		t.Fatal(err)
	}
	if n := known.ParsedOnUse(); n != 0 || known.Tables != "world" {
		t.Errorf("LoadKnown with nothing harvested parsed %d files at load, tables %q", n, known.Tables)
	}
}

// sameTypes reports whether two values equal by value.Equal hold the same Go types throughout (a
// float is not an int, a number not a text), which value.Equal, Python's ==, does not look at.
func sameTypes(a, b any) bool {
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	switch a := a.(type) {
	case []any:
		bl := b.([]any)
		for i := range a {
			if i >= len(bl) || !sameTypes(a[i], bl[i]) {
				return false
			}
		}
	case *value.Map:
		same := true
		a.Each(func(k string, v any) bool {
			w, _ := b.(*value.Map).Get(k)
			same = sameTypes(v, w)
			return same
		})
		return same
	}
	return true
}

// TestHarvestedRefusesNonFiniteNumbers: a harvested table holding NaN or an infinity (a recorded
// output may: the decoder reads Infinity, NaN and 1e400) is not handed out as JSON, which would
// write those numbers as texts.
func TestHarvestedRefusesNonFiniteNumbers(t *testing.T) {
	call := func(word, output string) string {
		return `{"role":"User","text":"Define ` + word + `"}` + "\n" +
			`{"role":"API","api_name":"Dictionary","param_dict":{"keyword":"` + word + `"},"result":{"api_name":"Dictionary","input":{"keyword":"` + word + `"},"output":` + output + `,"exception":null}}` + "\n" +
			`{"role":"AI","text":"Done."}` + "\n"
	}
	for _, output := range []string{`[{"v": Infinity}]`, `[{"v": -Infinity}]`, `[{"v": NaN}]`, `[{"v": 1e400}]`} {
		d, errs, err := Load("x", Files{"lv1-lv2-samples/level-1-given-desc/d.jsonl": []byte(call("word", output))})
		if err != nil || len(errs) > 0 {
			t.Fatalf("%s: %v %v", output, err, errs)
		}
		if tables, ok := d.Harvested(); ok {
			t.Errorf("%s: harvested as %s", output, tables["Dictionary"])
		}
	}
	d, _, _ := Load("x", Files{"lv1-lv2-samples/level-1-given-desc/d.jsonl": []byte(call("word", `[{"v": 1.5, "w": [2, "x"]}]`))})
	if tables, ok := d.Harvested(); !ok || !strings.Contains(string(tables["Dictionary"]), "1.5") {
		t.Errorf("a finite table: %s, %v", tables["Dictionary"], ok)
	}
}
