package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
)

// memoFolder is our own data as a folder a user imports, without its Dictionary database: the load
// then harvests that table from the dialogues' gold results, as it does for the original's folder.
func memoFolder(t *testing.T) map[string]string {
	t.Helper()
	raw, err := dataset.ReadDir(filepath.Join("..", "dataset", "builtin"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for p, b := range raw {
		if p != "init_database/Dictionary.json" {
			files[p] = string(b)
		}
	}
	return files
}

// memoPreds are predictions for the call samples of level: the gold call for two samples in three,
// a wrong one for the third, and a line naming no sample.
func memoPreds(t *testing.T, files map[string]string, levels ...string) string {
	t.Helper()
	s := New()
	ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files})
	var b strings.Builder
	n := 0
	for _, sm := range s.index.All() {
		if sm.Kind != score.KindCall || !slices.Contains(levels, sm.Dialogue.Level) {
			continue
		}
		pred := "[" + score.GoldText(sm.GoldTurn()) + "]"
		if n++; n%3 == 0 {
			pred = "[Calculator(formula='1+1')]"
		}
		line, _ := json.Marshal(map[string]any{"level": sm.Dialogue.Level, "file": sm.Dialogue.File, "id": sm.ID, "pred": pred})
		b.Write(append(line, '\n'))
	}
	b.WriteString(`{"level": "level-1-given-desc", "file": "no-such-file.jsonl", "id": 0, "pred": "[Calculator(formula='2')]"}` + "\n")
	return b.String()
}

// scored is the JSON of a score op's answer on preds.
func scored(t *testing.T, s *Session, preds string) string {
	t.Helper()
	b := ask[protocol.Batch](t, s, protocol.Request{Op: protocol.OpScore, Preds: preds, State: protocol.StateFresh})
	text, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

// validated is the JSON of a validate op's answer.
func validated(t *testing.T, s *Session) string {
	t.Helper()
	b, err := json.Marshal(ask[protocol.Validation](t, s, protocol.Request{Op: protocol.OpValidate}))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMemoSkipsWhatItSays: a load given the memo of the same files answers as the load that
// learned it (but for saying it took the memo), and judges every prediction alike, report and
// ceilings included; its memo op then has nothing new to say.
func TestMemoSkipsWhatItSays(t *testing.T) {
	files := memoFolder(t)
	preds := memoPreds(t, files, dataset.Level1, dataset.Level2)
	first := New()
	loaded := ask[protocol.Loaded](t, first, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files})
	if len(loaded.Errors) != 0 || loaded.Memo || loaded.Tables != "gold results" {
		t.Fatalf("the first load: %d errors, memo %v, tables %q (want no error, no memo, harvested tables)", len(loaded.Errors), loaded.Memo, loaded.Tables)
	}
	want := scored(t, first, preds)
	memo := ask[protocol.Memo](t, first, protocol.Request{Op: protocol.OpMemo})
	if memo.Memo == "" || memo.Unchanged {
		t.Fatalf("no memo after a clean load: %+v", memo)
	}
	for _, name := range []string{ceilingName(score.Fresh, dataset.Level1, false), ceilingName(score.Fresh, dataset.Level2, false), `"Dictionary"`} {
		if !strings.Contains(memo.Memo, name) {
			t.Errorf("the memo lacks %s", name)
		}
	}

	second := New()
	again := ask[protocol.Loaded](t, second, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files, Memo: memo.Memo})
	if !again.Memo {
		t.Fatal("the load did not take the memo of its own files")
	}
	if parsed := second.data.ParsedOnUse(); parsed != 0 {
		t.Errorf("a load with a memo parsed %d files", parsed)
	}
	again.Memo = false
	if !reflect.DeepEqual(again, loaded) {
		t.Errorf("loaded with the memo:\n%+v\nwithout:\n%+v", again, loaded)
	}
	if got := scored(t, second, preds); got != want {
		t.Errorf("the verdicts differ with the memo:\n%.2000s\nwithout:\n%.2000s", got, want)
	}
	if m := ask[protocol.Memo](t, second, protocol.Request{Op: protocol.OpMemo}); !m.Unchanged || m.Memo != "" {
		t.Errorf("the memo op after a run the memo said it all for: %+v, want unchanged", m)
	}
	if a, b := validated(t, second), validated(t, first); a != b {
		t.Errorf("validate with the memo %.300s, without %.300s", a, b)
	}
	stats := func(s *Session) string {
		b, _ := json.Marshal(ask[protocol.Stats](t, s, protocol.Request{Op: protocol.OpStats}))
		return string(b)
	}
	if a, b := stats(second), stats(first); a != b {
		t.Errorf("stats with the memo %s, without %s", a, b)
	}
}

// TestMemoLearnsMore: a run on another level adds that level's ceiling to the memo it was given and
// keeps the ones it had; the next run needs neither replay.
func TestMemoLearnsMore(t *testing.T) {
	files := memoFolder(t)
	level1, level2 := memoPreds(t, files, dataset.Level1), memoPreds(t, files, dataset.Level2)
	run := func(memo, preds string) (string, protocol.Memo) {
		s := New()
		ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files, Memo: memo})
		out := scored(t, s, preds)
		return out, ask[protocol.Memo](t, s, protocol.Request{Op: protocol.OpMemo})
	}
	want2, _ := run("", level2)
	_, m1 := run("", level1)
	got2, m2 := run(m1.Memo, level2)
	if got2 != want2 {
		t.Error("level 2 judged with level 1's memo differs")
	}
	if m2.Unchanged || !strings.Contains(m2.Memo, ceilingName(score.Fresh, dataset.Level1, false)) || !strings.Contains(m2.Memo, ceilingName(score.Fresh, dataset.Level2, false)) {
		t.Fatalf("the memo after level 2 has not both levels: %.300s", m2.Memo)
	}
	if _, m3 := run(m2.Memo, level1+level2); !m3.Unchanged {
		t.Error("a run of both levels learned something its memo had")
	}
}

// TestMemoIgnored: a memo that does not fit the files, or is not one, is ignored: the load is a
// plain one, with the same answer and verdicts.
func TestMemoIgnored(t *testing.T) {
	files := memoFolder(t)
	preds := memoPreds(t, files, dataset.Level1)
	plain := New()
	wantLoad := ask[protocol.Loaded](t, plain, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files})
	want := scored(t, plain, preds)
	memo := ask[protocol.Memo](t, plain, protocol.Request{Op: protocol.OpMemo}).Memo
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(memo), &fields); err != nil {
		t.Fatal(err)
	}
	edited := func(key, raw string) string {
		c := map[string]json.RawMessage{}
		for k, v := range fields {
			c[k] = v
		}
		c[key] = json.RawMessage(raw)
		b, _ := json.Marshal(c)
		return string(b)
	}
	grown := map[string]string{}
	for p, c := range files {
		grown[p] = c
	}
	grown["init_database/Wiki.json"] += "\n" // a byte more: the same data, other files
	cases := []struct {
		name, memo string
		files      map[string]string
	}{
		{"other files", memo, grown},
		{"not JSON", "{oops", files},
		{"not an object", `[1, 2]`, files},
		{"another layout", edited("v", "2"), files},
		{"no counts", edited("dialogues", "null"), files},
		{"a harvested table of the folder's own", edited("harvested", `{"Translate": {}}`), files},
	}
	for _, c := range cases {
		s := New()
		got := ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: c.files, Memo: c.memo})
		if got.Memo {
			t.Errorf("%s: the memo was taken", c.name)
			continue
		}
		if c.name != "other files" && !reflect.DeepEqual(got, wantLoad) {
			t.Errorf("%s: the load answered %+v, want %+v", c.name, got, wantLoad)
		}
		if out := scored(t, s, preds); out != want {
			t.Errorf("%s: other verdicts", c.name)
		}
	}
}

// TestNoMemoToGive: the builtin data (its ceilings are built in) and a folder with a problem
// (reported at every load) have no memo.
func TestNoMemoToGive(t *testing.T) {
	s := New()
	if m := ask[protocol.Memo](t, s, protocol.Request{Op: protocol.OpMemo}); m != (protocol.Memo{}) {
		t.Errorf("the builtin data's memo: %+v", m)
	}
	files := memoFolder(t)
	files["lv1-lv2-samples/level-1-given-desc/broken.jsonl"] = "{oops\n"
	loaded := ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files})
	if len(loaded.Errors) == 0 {
		t.Fatal("the broken file loaded without an error")
	}
	if m := ask[protocol.Memo](t, s, protocol.Request{Op: protocol.OpMemo}); m != (protocol.Memo{}) {
		t.Errorf("a folder with a problem has a memo: %.200s", m.Memo)
	}
}

// TestMemoOfTheOriginal: the original's folder, with its oracle predictions, judged alike with and
// without its memo (the parity suites then hold with it too).
func TestMemoOfTheOriginal(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "apibank")
	preds, err := os.ReadFile(filepath.Join(dir, "oracle", "verdicts.jsonl"))
	if err != nil {
		t.Skip("../shared/apibank not found: the original's folder is the reference data beside the repository")
	}
	raw, err := dataset.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for p, b := range raw {
		files[p] = string(b)
	}
	first := New()
	ask[protocol.Loaded](t, first, protocol.Request{Op: protocol.OpLoad, Name: "apibank", Files: files})
	want := scored(t, first, string(preds))
	memo := ask[protocol.Memo](t, first, protocol.Request{Op: protocol.OpMemo}).Memo
	second := New()
	if l := ask[protocol.Loaded](t, second, protocol.Request{Op: protocol.OpLoad, Name: "apibank", Files: files, Memo: memo}); !l.Memo {
		t.Fatal("the original's folder did not take its memo")
	}
	if got := scored(t, second, string(preds)); got != want {
		t.Error("the oracle's verdicts differ with the memo")
	}
	t.Logf("the memo of the original's folder: %d bytes", len(memo))
}

// TestMemoVouchedWrongly: a memo handed back for files of the same paths and sizes but other bytes
// (a host's mistake: it keys memos by their bytes) is taken; validate still finds every problem a
// plain load of the broken files reports (a dialogue file that is not one, a database that is not
// JSON), and the memo op gives no memo once a broken file is parsed.
func TestMemoVouchedWrongly(t *testing.T) {
	files := memoFolder(t)
	s := New()
	ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files})
	memo := ask[protocol.Memo](t, s, protocol.Request{Op: protocol.OpMemo}).Memo
	const dialogue = "lv1-lv2-samples/level-1-given-desc/info-word-meaning-01.jsonl"
	const database = "init_database/Wiki.json"
	for _, victim := range []string{dialogue, database} {
		broken := map[string]string{}
		for p, c := range files {
			broken[p] = c
		}
		text := broken[victim]
		if victim == dialogue {
			broken[victim] = "[" + text[1:] // the same size, no longer a dialogue
		} else {
			end := strings.LastIndexAny(text, "}]")
			broken[victim] = text[:end] + " " + text[end+1:] // the same size, no longer JSON
		}
		withMemo := New()
		if l := ask[protocol.Loaded](t, withMemo, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: broken, Memo: memo}); !l.Memo {
			t.Fatalf("%s: the memo of files of the same paths and sizes was not taken", victim)
		}
		plain := New()
		if l := ask[protocol.Loaded](t, plain, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: broken}); len(l.Errors) == 0 {
			t.Fatalf("%s: the broken file loads without an error", victim)
		}
		if got, want := validated(t, withMemo), validated(t, plain); got != want {
			t.Errorf("%s: validate after the wrong memo:\n%.600s\nafter a plain load:\n%.600s", victim, got, want)
		}
		if m := ask[protocol.Memo](t, withMemo, protocol.Request{Op: protocol.OpMemo}); victim == dialogue && m != (protocol.Memo{}) {
			t.Errorf("the memo op after parsing the broken file: %.200s, want no memo", m.Memo)
		}
	}
}

// TestMemoRepairsABadCeiling: a ceiling of the memo that does not decode is replayed, and the memo
// op answers a memo with the replayed one in its place.
func TestMemoRepairsABadCeiling(t *testing.T) {
	files := memoFolder(t)
	preds := memoPreds(t, files, dataset.Level1)
	first := New()
	ask[protocol.Loaded](t, first, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files})
	want := scored(t, first, preds)
	memo := ask[protocol.Memo](t, first, protocol.Request{Op: protocol.OpMemo}).Memo
	var m dataMemo
	if err := json.Unmarshal([]byte(memo), &m); err != nil {
		t.Fatal(err)
	}
	name := ceilingName(score.Fresh, dataset.Level1, false)
	good := m.Ceilings[name]
	m.Ceilings[name] = json.RawMessage(`{"level": 7}`) // JSON, not a replay
	bad, _ := json.Marshal(m)
	s := New()
	if l := ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files, Memo: string(bad)}); !l.Memo {
		t.Fatal("the memo was not taken")
	}
	if got := scored(t, s, preds); got != want {
		t.Error("the verdicts differ with a bad ceiling in the memo")
	}
	again := ask[protocol.Memo](t, s, protocol.Request{Op: protocol.OpMemo})
	var repaired dataMemo
	if err := json.Unmarshal([]byte(again.Memo), &repaired); err != nil || again.Unchanged {
		t.Fatalf("no new memo after replaying a bad ceiling: %+v, %v", again, err)
	}
	if string(repaired.Ceilings[name]) != string(good) {
		t.Errorf("the repaired ceiling %.200s, want %.200s", repaired.Ceilings[name], good)
	}
}

// TestNoMemoOfNonFiniteTables: a folder whose harvested table holds an infinity (recorded in a gold
// output) has no memo: JSON would write it as a text, and the table would not read back as it is.
func TestNoMemoOfNonFiniteTables(t *testing.T) {
	dialogue := `{"role":"User","text":"Define big"}
{"role":"API","api_name":"Dictionary","param_dict":{"keyword":"big"},"result":{"api_name":"Dictionary","input":{"keyword":"big"},"output":[{"v": Infinity}],"exception":null}}
{"role":"AI","text":"Done."}
`
	s := New()
	l := ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Name: "inf", Files: map[string]string{"lv1-lv2-samples/level-1-given-desc/big.jsonl": dialogue}})
	if len(l.Errors) != 0 || l.Tables != "gold results" {
		t.Fatalf("the load: %+v", l)
	}
	if m := ask[protocol.Memo](t, s, protocol.Request{Op: protocol.OpMemo}); m != (protocol.Memo{}) {
		t.Errorf("a memo of a table with an infinity: %.300s", m.Memo)
	}
}

// TestMemoOfABlankDatabase: a memo handed back for a folder whose database file is blank (the same
// paths and sizes) is not taken: the load is a plain one and reports the file.
func TestMemoOfABlankDatabase(t *testing.T) {
	files := memoFolder(t)
	s := New()
	ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files})
	memo := ask[protocol.Memo](t, s, protocol.Request{Op: protocol.OpMemo}).Memo
	files["init_database/Wiki.json"] = strings.Repeat(" ", len(files["init_database/Wiki.json"]))
	l := ask[protocol.Loaded](t, New(), protocol.Request{Op: protocol.OpLoad, Name: "ours", Files: files, Memo: memo})
	if l.Memo || len(l.Errors) == 0 || !strings.Contains(fmt.Sprint(l.Errors), "Wiki.json") {
		t.Errorf("the load took the memo (%v) or missed the blank file: %v", l.Memo, l.Errors)
	}
}
