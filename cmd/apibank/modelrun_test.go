package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// TestRunAgainstTheFakeModel runs the CLI's run at every level in both forms, under wazero and
// natively, and checks the predictions file, the report and that the key never shows.
func TestRunAgainstTheFakeModel(t *testing.T) {
	wasm := wasmPath(t)
	yes := true
	srv, err := fakemodel.Start(fakemodel.Script{Key: "sk-test-key-42", Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Role: "tool"}, Reply: fakemodel.Reply{Content: "Done."}},
		{Match: fakemodel.Match{Last: "Response:"}, Reply: fakemodel.Reply{Content: "Done."}},
		{Match: fakemodel.Match{Tools: &yes}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{{Name: "Calculator", Arguments: json.RawMessage(`{"formula":"1+2"}`)}}}},
		{Reply: fakemodel.Reply{Content: "[Calculator(formula='1+2')]"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv("FAKE_KEY", "sk-test-key-42")
	for _, form := range []string{"text", "native"} {
		var outs [2][]byte
		var reports [2]string
		for i, engine := range []string{"--wasm=" + wasm, "--native"} {
			out := filepath.Join(t.TempDir(), "preds.jsonl")
			stdout, stderr, code := runCapture(t, "run", engine, "--base-url", srv.URL(), "--model", "fake-model", "--api-key-env", "FAKE_KEY",
				"--form", form, "--level", "level-1-given-desc", "--level", "level-3", "--limit", "3", "--out", out)
			if code != 0 {
				t.Fatalf("%s %s: exit %d\n%s\n%s", form, engine, code, stdout, stderr)
			}
			if strings.Contains(stdout+stderr, "sk-test-key-42") {
				t.Fatal("the API key was printed")
			}
			if !strings.Contains(stdout, "level-1-given-desc") || !strings.Contains(stdout, "level-3 episodes: 3") || !strings.Contains(stdout, "0 requests failed") {
				t.Fatalf("report lacks its lines:\n%s", stdout)
			}
			outs[i], _ = os.ReadFile(out)
			reports[i] = stdout
		}
		if !bytes.Equal(outs[0], outs[1]) || reports[0] != reports[1] {
			t.Fatalf("%s: wazero and native runs differ:\n%s\n%s\n%s\n%s", form, outs[0], outs[1], reports[0], reports[1])
		}
		lines := strings.Split(strings.TrimSpace(string(outs[0])), "\n")
		if len(lines) != 6 || !strings.Contains(lines[0], `"pred":`) || !strings.Contains(lines[5], `"transcript":`) {
			t.Fatalf("%s: --out has %d lines:\n%s", form, len(lines), outs[0])
		}
		if bytes.Contains(outs[0], []byte("sk-test-key-42")) {
			t.Fatal("the key is in the predictions file")
		}
		// The predictions file scores with `score --preds` as the run judged it.
		preds := filepath.Join(t.TempDir(), "p.jsonl")
		_ = os.WriteFile(preds, []byte(strings.Join(lines[:3], "\n")+"\n"), 0o644)
		stdout, _, code := runCapture(t, "score", "--native", "--preds", preds)
		if code != 0 || !strings.Contains(stdout, "level-1-given-desc") {
			t.Fatalf("score of the run's predictions: exit %d\n%s", code, stdout)
		}
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"run"}, {"run", "--base-url", "http://127.0.0.1:1", "--model", "m"}, {"run", "--base-url", "x", "--model", "m", "--out", "o", "--form", "yaml"}} {
		if _, _, code := runCapture(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestPrompts(t *testing.T) {
	for _, form := range []string{"text", "native"} {
		stdout, stderr, code := runCapture(t, "prompts", "--native", "--level", "level-2-toolsearcher", "--form", form, "--model", "m-1")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		var first struct {
			Model    string
			Messages []map[string]any
			Tools    []struct {
				Type     string
				Function struct{ Name string }
			}
		}
		if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
			t.Fatal(err)
		}
		if len(lines) < 100 || first.Model != "m-1" || len(first.Messages) == 0 {
			t.Fatalf("%s: %d lines, first %+v", form, len(lines), first)
		}
		if (form == "native") != (len(first.Tools) > 0) || (form == "native" && (first.Tools[0].Type != "function" || first.Tools[0].Function.Name == "")) {
			t.Fatalf("%s: tools %+v", form, first.Tools)
		}
	}
}

// TestRunTrials runs two trials against the fake model: each trial's predictions go to their own
// file, and the report ends with pass^k and the spread per level, in text and in JSON.
func TestRunTrials(t *testing.T) {
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Role: "tool"}, Reply: fakemodel.Reply{Content: "Done."}},
		{Reply: fakemodel.Reply{Content: "[Calculator(formula='1+2')]"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "preds.jsonl")
	args := []string{"run", "--native", "--base-url", srv.URL(), "--model", "fake-model", "--level", "level-1-given-desc", "--level", "level-3", "--limit", "4", "--trials", "2", "--out", out}
	stdout, stderr, code := runCapture(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	first, err1 := os.ReadFile(filepath.Join(dir, "preds.trial-1.jsonl"))
	second, err2 := os.ReadFile(filepath.Join(dir, "preds.trial-2.jsonl"))
	if err1 != nil || err2 != nil || len(first) == 0 || !bytes.Equal(first, second) {
		t.Fatalf("trial files: %v %v\n%s\n%s", err1, err2, first, second)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("with --trials 2 the --out file itself should not be written (each trial has its own)")
	}
	for _, want := range []string{"== trial 1 of 2", "== trial 2 of 2", "== repeated trials: 2", "pass^1", "pass^2", "accuracy mean", "flip rate 0.0000"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	stdout, stderr, code = runCapture(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d\n%s", code, stderr)
	}
	var got struct {
		Trials []json.RawMessage `json:"trials"`
		PassK  []struct {
			Level    string    `json:"level"`
			Trials   int       `json:"trials"`
			Tasks    int       `json:"tasks"`
			PassK    []float64 `json:"pass_k"`
			Accuracy []float64 `json:"accuracy"`
		} `json:"pass_k"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if len(got.Trials) != 2 || len(got.PassK) != 2 {
		t.Fatalf("--json: %d trials, %d levels, want 2 and 2:\n%s", len(got.Trials), len(got.PassK), stdout)
	}
	for _, st := range got.PassK {
		// The fake answers every trial alike, so every pass^k equals the accuracy of a trial.
		if st.Trials != 2 || st.Tasks == 0 || len(st.PassK) != 2 || st.PassK[0] != st.PassK[1] || st.PassK[0] != st.Accuracy[0] {
			t.Errorf("%s: %+v", st.Level, st)
		}
	}
	if _, _, code := runCapture(t, "run", "--base-url", srv.URL(), "--model", "m", "--out", out, "--trials", "0"); code != 2 {
		t.Errorf("--trials 0: exit %d, want 2", code)
	}
}

// TestRunWhereNothingListens: a whole run against an address nothing listens on ends after its
// first requests' retries, not one sample's after another; the rest are kept as failed, not asked,
// and said once. A robustness run runs no further pass.
func TestRunWhereNothingListens(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/v1"
	l.Close()
	out := filepath.Join(t.TempDir(), "preds.jsonl")
	stdout, stderr, code := runCapture(t, "run", "--native", "--base-url", url, "--model", "m", "--concurrency", "2", "--variants", "2", "--out", out)
	if code != 1 {
		t.Errorf("exit %d, want 1 (requests failed)", code)
	}
	listed := strings.Count(stderr, "request failed (status 0)")
	if listed < 2 || listed > 3 || !strings.Contains(stderr, "connection refused") {
		t.Errorf("%d failed requests listed, want the 2 or 3 asked:\n%s", listed, stderr)
	}
	var rec struct {
		Trials []struct {
			Failures []struct {
				NotAsked bool `json:"not_asked"`
			} `json:"failures"`
		} `json:"trials"`
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(out), "preds.run.json"))
	if err != nil || json.Unmarshal(b, &rec) != nil || len(rec.Trials) != 1 {
		t.Fatalf("the run's record: %v\n%s", err, b)
	}
	notAsked := 0
	for _, f := range rec.Trials[0].Failures {
		if f.NotAsked {
			notAsked++
		}
	}
	if notAsked < 100 || notAsked+listed != len(rec.Trials[0].Failures) {
		t.Errorf("%d failures recorded, %d of them not asked", len(rec.Trials[0].Failures), notAsked)
	}
	if !strings.Contains(stdout, "stopped asking the endpoint: only the passes that ran are counted") {
		t.Errorf("the robustness report does not say why it holds one pass:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(out), "preds.variant-1.jsonl")); err == nil {
		t.Error("a variant's pass ran after the endpoint was found unreachable")
	}
	if want := "apibank: run: the endpoint was not reached (model: no answer from " + l.Addr().String(); !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
	if want := "the " + strconv.Itoa(notAsked) + " other samples were not asked; check --base-url"; !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
}
