package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/dataset/memo"
	"github.com/apibank-playground/apibank/protocol"
)

// TestCallWithFilesFraming: callWithFiles sends the bytes protocol.Encode makes of the same request
// with its files as parts and body (asParts), whatever the files, and decodes the answer.
func TestCallWithFilesFraming(t *testing.T) {
	cases := map[string]map[string][]byte{
		"none":  {},
		"one":   {"init_database/Alarm.json": []byte(`{"a": {}}`)},
		"empty": {"b.jsonl": nil, "a.jsonl": []byte("{}\n")},
		"several": {
			"lv1-lv2-samples/level-1-given-desc/z.jsonl": []byte("{\"role\":\"User\",\"text\":\"hi\"}\n"),
			"init_database/Wiki.json":                    []byte("[\"\\u00e9\", \"\n\"]"),
			"lv3-samples/a.txt":                          []byte("line\r\nline"),
		},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			parts, body := asParts(files)
			if body == nil {
				body = []byte{}
			}
			want, err := protocol.Encode(protocol.Request{Op: protocol.OpLoad, Name: "d", Parts: parts, Body: body})
			if err != nil {
				t.Fatal(err)
			}
			var sent []byte
			r := runner{do: func(_ context.Context, req []byte) ([]byte, error) {
				sent = req
				return []byte(`{"v":1,"ok":true,"result":{"name":"d","dialogues":{},"scenes":0,"databases":[],"tables":"world","errors":[]}}`), nil
			}}
			got, err := callWithFiles[protocol.Loaded](r, protocol.Request{Op: protocol.OpLoad, Name: "d"}, files)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(sent, want) {
				t.Errorf("sent\n%q\nwant\n%q", sent, want)
			}
			if got.Name != "d" || got.Tables != "world" {
				t.Errorf("answer decoded as %+v", got)
			}
		})
	}
}

// TestFindWasm: --wasm, then $APIBANK_WASM, then web/engine.wasm in the working directory, beside
// the executable, in a checkout's web/ beside the executable's folder, in the user's cache; a path the
// user gave that is not there is an error naming it, and when no place has a module the answer is no
// path and every place looked at.
func TestFindWasm(t *testing.T) {
	dir := t.TempDir()
	module := writeFile(t, dir, "engine.wasm", "\x00asm")
	work := t.TempDir()
	t.Chdir(work)
	inWork := writeFile(t, t.TempDir(), "web/engine.wasm", "\x00asm") // a checkout, made the working directory below
	installed := t.TempDir()                                          // go install's bin/, the module beside the CLI
	besideCLI := writeFile(t, installed, "engine.wasm", "\x00asm")
	checkout := t.TempDir() // a checkout's bin/apibank with its web/engine.wasm
	inCheckout := writeFile(t, checkout, "web/engine.wasm", "\x00asm")
	cacheDir := t.TempDir()
	inCache := writeFile(t, cacheDir, "apibank/engine.wasm", "\x00asm")
	empty := t.TempDir()
	for _, tc := range []struct {
		name       string
		cwd        string
		s          wasmSearch
		want       string
		wantLooked []string
		wantErr    string
	}{
		{name: "flag", s: wasmSearch{flag: module, env: "/nope", exeDir: installed, userCache: cacheDir}, want: module},
		{name: "env", s: wasmSearch{env: module, exeDir: installed, userCache: cacheDir}, want: module},
		{name: "missing flag", s: wasmSearch{flag: filepath.Join(dir, "gone.wasm"), env: module}, wantErr: "--wasm " + filepath.Join(dir, "gone.wasm") + ": no such file"},
		{name: "missing env", s: wasmSearch{env: filepath.Join(dir, "gone.wasm"), exeDir: installed}, wantErr: "APIBANK_WASM=" + filepath.Join(dir, "gone.wasm") + ": no such file"},
		{name: "a folder is not a module", s: wasmSearch{flag: dir}, wantErr: "--wasm " + dir + ": no such file"},
		{name: "working directory first", cwd: filepath.Dir(filepath.Dir(inWork)), s: wasmSearch{exeDir: installed, userCache: cacheDir}, want: filepath.Join("web", "engine.wasm")},
		{name: "beside the executable", s: wasmSearch{exeDir: installed, userCache: cacheDir}, want: besideCLI},
		{name: "a checkout's bin", s: wasmSearch{exeDir: filepath.Join(checkout, "bin"), userCache: cacheDir}, want: inCheckout},
		{name: "the user's cache", s: wasmSearch{exeDir: empty, userCache: cacheDir}, want: inCache},
		{name: "none", s: wasmSearch{exeDir: empty, userCache: empty}, wantLooked: []string{
			filepath.Join("web", "engine.wasm"), filepath.Join(empty, "engine.wasm"), filepath.Join(empty, "..", "web", "engine.wasm"), filepath.Join(empty, "apibank", "engine.wasm")}},
		{name: "none, no executable or cache known", s: wasmSearch{}, wantLooked: []string{filepath.Join("web", "engine.wasm")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.cwd != "" {
				t.Chdir(tc.cwd)
			}
			got, looked, err := tc.s.find()
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("find %+v = %q, %v; want the error %q", tc.s, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want || !reflect.DeepEqual(looked, tc.wantLooked) {
				t.Fatalf("find %+v = %q, %q, %v; want %q, %q", tc.s, got, looked, err, tc.want, tc.wantLooked)
			}
		})
	}
}

// TestScoreKeepsAFolderMemo: a run on a folder under wazero keeps the engine's memo of it in the
// user's cache under the key of the module's and the files' bytes, the next run on the same files
// hands it back (a ceiling altered in it shows in that run's report) and judges alike, and a run on
// changed files (a byte of the same size, a line more) does not take it.
func TestScoreKeepsAFolderMemo(t *testing.T) {
	wasm := wasmPath(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	dir := t.TempDir()
	call := func(formula, output string) string {
		return `{"role":"API","api_name":"Calculator","param_dict":{"formula":"` + formula + `"},"result":{"api_name":"Calculator","input":{"formula":"` + formula + `"},"output":` + output + `,"exception":null}}`
	}
	dialogue := `{"role":"User","text":"What is 2+2?"}` + "\n" + call("2+2", "4.0") + "\n" + `{"role":"AI","text":"4."}` + "\n"
	writeFile(t, dir, "lv1-lv2-samples/level-1-given-desc/calc.jsonl", dialogue)
	preds := writeFile(t, t.TempDir(), "preds.jsonl", `{"file": "calc.jsonl", "id": 0, "pred": "[Calculator(formula='2+2')]"}`+"\n")
	score := func() map[string]any {
		t.Helper()
		out, errText, code := runCapture(t, "score", "--data", dir, "--preds", preds, "--json", "--wasm", wasm)
		if code != 0 {
			t.Fatalf("score: exit %d: %s", code, errText)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("score --json: %v\n%s", err, out)
		}
		return rep
	}
	memos := func() []string {
		m, _ := filepath.Glob(filepath.Join(cache, "apibank-memo", "*.memo"))
		return m
	}
	first := score()
	kept := memos()
	if len(kept) != 1 {
		t.Fatalf("after a run on a folder the cache holds %d memos, want 1", len(kept))
	}
	if again := score(); !reflect.DeepEqual(again, first) {
		t.Errorf("the run with the memo answered\n%v\nthe first\n%v", again, first)
	}

	// The memo is kept under the key of the module's and the folder's bytes, and the next run takes
	// it: alter its ceiling's total, and the run's report shows it.
	module, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	files, err := dataset.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	store, err := memo.Open(filepath.Join(cache, "apibank-memo"))
	if err != nil {
		t.Fatal(err)
	}
	key := memo.Key(memo.Module(module), files)
	text := store.Get(key)
	altered := strings.Replace(text, `"total":1,`, `"total":777,`, 1)
	if text == "" || altered == text {
		t.Fatalf("no ceiling total of 1 in the memo under the folder's key: %q", text)
	}
	if err := store.Put(key, altered); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(score()["ceiling"]); !strings.Contains(got, "total:777") {
		t.Errorf("the run did not take the memo: ceiling %s", got)
	}

	// A byte changed, the sizes the same: not the memo's files (the key reads every byte).
	writeFile(t, dir, "lv1-lv2-samples/level-1-given-desc/calc.jsonl", strings.Replace(dialogue, `"text":"4."`, `"text":"5."`, 1))
	if got := fmt.Sprint(score()["ceiling"]); strings.Contains(got, "777") {
		t.Errorf("a folder with a byte changed took the old memo: ceiling %s", got)
	}

	// Other files: the memo is not theirs.
	writeFile(t, dir, "lv1-lv2-samples/level-1-given-desc/calc.jsonl", dialogue+`{"role":"User","text":"And 3+3?"}`+"\n"+call("3+3", "6.0")+"\n"+`{"role":"AI","text":"6."}`+"\n")
	rep := score()
	if got := fmt.Sprint(rep["ceiling"]); strings.Contains(got, "777") || !strings.Contains(got, "total:2") {
		t.Errorf("the changed folder's ceiling is %s, want its own two calls", got)
	}
	if n := len(memos()); n != 3 {
		t.Errorf("the cache holds %d memos after three folders, want 3", n)
	}
}

// TestOutFolderIsMade: an --out file in a folder that is not there yet gets its folder, in every
// command that writes one.
func TestOutFolderIsMade(t *testing.T) {
	dir := t.TempDir()
	preds := writeFile(t, dir, "preds.jsonl", `{"file": "missing.jsonl", "id": 0, "pred": "x"}`+"\n")
	for _, args := range [][]string{
		{"score", "--native", "--preds", preds, "--out", filepath.Join(dir, "a", "b", "verdicts.jsonl")},
		{"batch", "prepare", "--native", "--model", "m", "--limit", "1", "--out", filepath.Join(dir, "c", "batch.jsonl")},
	} {
		runCapture(t, args...) // the missing dialogue is a bad line: exit 1, the output still written
		out := args[len(args)-1]
		if st, err := os.Stat(out); err != nil || st.Size() == 0 {
			t.Errorf("%v: %v", args[:2], err)
		}
	}
	if err := outFolder("plain.jsonl"); err != nil {
		t.Errorf("an --out in the working folder: %v", err)
	}
}
