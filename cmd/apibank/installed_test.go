package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// inProcessNote is what the CLI says on stderr when it finds no engine module.
const inProcessNote = "judging in-process with the engine built into this CLI"

// TestInstalledCLIOutsideTheRepository builds the CLI as `go build` (or `go install`) makes it and
// runs it from an empty folder, with a home and a cache folder of its own, so that no engine.wasm is
// anywhere it looks: run (against the fake model), score, prompts and validate say once on stderr
// that they judge in-process and answer byte for byte what the same commands answer with the module
// under wazero ($APIBANK_WASM), and with the module beside the binary.
func TestInstalledCLIOutsideTheRepository(t *testing.T) {
	wasm := wasmPath(t)
	bin := filepath.Join(t.TempDir(), "apibank")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv, err := fakemodel.Start(fakemodel.Script{Key: "sk-fake", Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Role: "tool"}, Reply: fakemodel.Reply{Content: "Done."}},
		{Match: fakemodel.Match{Last: "Response:"}, Reply: fakemodel.Reply{Content: "Done, the alarm is set."}},
		{Match: fakemodel.Match{Last: "alarm"}, Reply: fakemodel.Reply{Content: "[AddAlarm(token='x', time='08:00:00')]"}},
		{Reply: fakemodel.Reply{Content: "[Calculator(formula='1+2')]"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	work := t.TempDir() // the folder the CLI runs in: no web/ here
	home, cache := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home, "XDG_CACHE_HOME=" + cache, "FAKE_KEY=sk-fake"}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); name != "HOME" && name != "XDG_CACHE_HOME" && name != "APIBANK_WASM" {
			env = append(env, kv)
		}
	}
	type result struct {
		stdout, stderr string
		code           int
	}
	apibank := func(exe string, extraEnv []string, args ...string) result {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Dir = work
		cmd.Env = append(append([]string{}, env...), extraEnv...)
		var out, errText bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errText
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("apibank %v: %v", args, err)
		}
		return result{out.String(), errText.String(), code}
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(work, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// compare runs args in-process (no module found) and with the module under wazero; outputs names
	// the files the command writes (in work), which must be equal too. {out} in args is replaced by
	// each run's own output file.
	compare := func(name string, wantCode int, args []string, outputs ...string) (inProcess string) {
		t.Helper()
		var got [2]result
		var files [2][]string
		for i, extra := range [][]string{nil, {"APIBANK_WASM=" + wasm}} {
			a := make([]string, len(args))
			for j, arg := range args {
				a[j] = strings.ReplaceAll(arg, "{out}", name+"-"+[]string{"in-process", "wasm"}[i])
			}
			got[i] = apibank(bin, extra, a...)
			for _, o := range outputs {
				files[i] = append(files[i], read(name+"-"+[]string{"in-process", "wasm"}[i]+o))
			}
		}
		in, wz := got[0], got[1]
		if n := strings.Count(in.stderr, inProcessNote); n != 1 {
			t.Errorf("%s without a module: the in-process note is on stderr %d times, want once:\n%s", name, n, in.stderr)
		}
		if strings.Contains(wz.stderr, inProcessNote) {
			t.Errorf("%s with $APIBANK_WASM says it judges in-process:\n%s", name, wz.stderr)
		}
		if in.code != wantCode || wz.code != wantCode {
			t.Errorf("%s: exit %d in-process, %d under wazero; want %d\n%s\n%s", name, in.code, wz.code, wantCode, in.stderr, wz.stderr)
		}
		if in.stdout != wz.stdout {
			t.Errorf("%s: stdout differs\nin-process:\n%s\nwazero:\n%s", name, in.stdout, wz.stdout)
		}
		var rest []string
		for _, l := range strings.SplitAfter(in.stderr, "\n") {
			if !strings.Contains(l, inProcessNote) {
				rest = append(rest, l)
			}
		}
		if strings.ReplaceAll(strings.Join(rest, ""), name+"-in-process", name+"-wasm") != wz.stderr {
			t.Errorf("%s: stderr differs beyond the note\nin-process:\n%s\nwazero:\n%s", name, in.stderr, wz.stderr)
		}
		for k := range outputs {
			if files[0][k] != files[1][k] {
				t.Errorf("%s: %s differs\nin-process:\n%s\nwazero:\n%s", name, outputs[k], files[0][k], files[1][k])
			}
		}
		if len(in.stdout) == 0 && len(outputs) == 0 {
			t.Errorf("%s printed nothing", name)
		}
		return in.stdout
	}

	compare("run", 0, []string{"run", "--base-url", srv.URL(), "--model", "fake-model", "--api-key-env", "FAKE_KEY",
		"--level", "level-1-given-desc", "--level", "level-2-toolsearcher", "--level", "level-3", "--limit", "6", "--out", "{out}.jsonl"}, ".jsonl")
	preds := read("run-in-process.jsonl")
	lines := strings.Split(strings.TrimSpace(preds), "\n")
	if len(lines) < 12 {
		t.Fatalf("the run wrote %d predictions:\n%s", len(lines), preds)
	}
	// The run's predictions, a bad line and one of an unknown file: two errors, file:line each.
	var first struct {
		File string `json:"file"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	more := `{"file": "` + first.File + `", "id": 0, "pred": "[Calculator(formula='2*(3+4)')]"}` + "\n{not json\n" + `{"file": "nope.jsonl", "id": 0, "pred": "x"}` + "\n"
	if err := os.WriteFile(filepath.Join(work, "preds.jsonl"), []byte(preds+more), 0o644); err != nil {
		t.Fatal(err)
	}
	report := compare("score", 1, []string{"score", "--preds", "preds.jsonl", "--out", "{out}.jsonl", "--json"}, ".jsonl")
	if !strings.Contains(report, `"overall"`) {
		t.Errorf("score --json printed no report:\n%s", report)
	}
	if got := read("score-in-process.jsonl"); !strings.Contains(got, `"category":"`) {
		t.Errorf("score --out holds no verdicts:\n%s", got)
	}
	compare("prompts", 0, []string{"prompts", "--level", "level-2-toolsearcher", "--form", "native"})
	compare("validate", 0, []string{"validate", "--json"})

	// Installed with the module beside it (as a release would lay them out): no note, same answer.
	module, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(bin), "engine.wasm"), module, 0o644); err != nil {
		t.Fatal(err)
	}
	beside := apibank(bin, nil, "prompts", "--level", "level-2-toolsearcher", "--form", "native")
	alone := apibank(bin, []string{"APIBANK_WASM=" + wasm}, "prompts", "--level", "level-2-toolsearcher", "--form", "native")
	if beside.code != 0 || strings.Contains(beside.stderr, inProcessNote) || beside.stdout != alone.stdout {
		t.Errorf("with engine.wasm beside the CLI: exit %d, stderr %q, same output %v", beside.code, beside.stderr, beside.stdout == alone.stdout)
	}
}
