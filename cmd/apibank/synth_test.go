package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// TestSynthAgainstTheFakeGenerator runs `apibank synth` against the fake model's generator, under
// wazero and natively: the funnel printed and written, the stage of every candidate, a dataset
// folder that validates and replays on its own, the training JSONL, and the key never shown.
func TestSynthAgainstTheFakeGenerator(t *testing.T) {
	wasm := wasmPath(t)
	g := &fakemodel.Generator{}
	srv, err := fakemodel.Start(fakemodel.Script{Key: "sk-synth-key-7", Generator: g})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv("FAKE_KEY", "sk-synth-key-7")
	// What each kind of candidate must come to: the stage it fails ("" accepted).
	stageOf := map[string]string{
		fakemodel.KindOK: "", fakemodel.KindChain: "", fakemodel.KindBadJSON: protocol.StageFormat, fakemodel.KindUnknownTool: protocol.StageFormat,
		fakemodel.KindMissingArgument: protocol.StageFormat, fakemodel.KindWrongType: protocol.StageFormat, fakemodel.KindException: protocol.StageExecution,
		fakemodel.KindUngrounded: protocol.StageGrounding, fakemodel.KindDuplicate: protocol.StageDuplicate, fakemodel.KindJudgeNo: protocol.StageJudge,
	}
	const n = 20
	var funnels [2]string
	for i, engine := range []string{"--wasm=" + wasm, "--native"} {
		out := filepath.Join(t.TempDir(), "synth")
		stdout, stderr, code := runCapture(t, "synth", engine, "--base-url", srv.URL(), "--model", "fake-model", "--api-key-env", "FAKE_KEY",
			"--style", "simple", "--count", "20", "--out", out)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", engine, code, stdout, stderr)
		}
		if strings.Contains(stdout+stderr, "sk-synth-key-7") {
			t.Fatal("the API key was printed")
		}
		var report struct {
			Funnel struct {
				Answered, Accepted int
				Stages             []struct {
					Stage                   string
					Entered, Passed, Failed int
				}
				Rejections []struct {
					Index         int
					Stage, Reason string
				}
			}
		}
		b, err := os.ReadFile(filepath.Join(out, "funnel.json"))
		if err != nil || json.Unmarshal(b, &report) != nil {
			t.Fatalf("funnel.json: %v", err)
		}
		if strings.Contains(string(b), "sk-synth-key-7") {
			t.Fatal("the key is in funnel.json")
		}
		accepted, failed := 0, map[string]int{}
		for k := 1; k <= n; k++ {
			if s := stageOf[g.Kind(k)]; s == "" {
				accepted++
			} else {
				failed[s]++
			}
		}
		f := report.Funnel
		if f.Answered != n || f.Accepted != accepted || len(f.Rejections) != n-accepted {
			t.Fatalf("%s: funnel %+v; want %d accepted", engine, f, accepted)
		}
		for _, r := range f.Rejections {
			if want := stageOf[g.Kind(r.Index)]; r.Stage != want || r.Reason == "" {
				t.Errorf("candidate %d (%s): stage %s %q, want %s", r.Index, g.Kind(r.Index), r.Stage, r.Reason, want)
			}
		}
		for _, s := range f.Stages {
			if s.Failed != failed[s.Stage] || !strings.Contains(stdout, s.Stage) {
				t.Errorf("stage %s failed %d, want %d; stdout:\n%s", s.Stage, s.Failed, failed[s.Stage], stdout)
			}
		}
		if !strings.Contains(stdout, "accepted 4 of 20") && accepted == 4 {
			t.Errorf("stdout lacks the accepted line:\n%s", stdout)
		}
		train, _ := os.ReadFile(filepath.Join(out, "training.jsonl"))
		if got := strings.Count(string(train), "\n"); got != accepted {
			t.Errorf("training.jsonl has %d lines, want %d", got, accepted)
		}
		// The folder is a dataset of its own: it validates and replays in full.
		vout, _, code := runCapture(t, "validate", "--native", "--data", out)
		if code != 0 || !strings.Contains(vout, "grounding") {
			t.Fatalf("validate --data %s: exit %d\n%s", out, code, vout)
		}
		rout, _, code := runCapture(t, "replay", "--native", "--data", out, "--json")
		if code != 0 || !strings.Contains(rout, `"total":`) {
			t.Fatalf("replay: exit %d\n%s", code, rout)
		}
		funnels[i] = stdout[:strings.Index(stdout, "wrote ")]
	}
	if funnels[0] != funnels[1] {
		t.Fatalf("wazero and native funnels differ:\n%s\n%s", funnels[0], funnels[1])
	}
}

func TestSynthUsage(t *testing.T) {
	full := filepath.Join(t.TempDir(), "full")
	_ = os.MkdirAll(full, 0o755)
	_ = os.WriteFile(filepath.Join(full, "x"), []byte("mine"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"synth"}, "synth needs"},
		{[]string{"synth", "--base-url", "http://127.0.0.1:1", "--model", "m", "--style", "fancy", "--count", "2", "--out", "o"}, `style "fancy"`},
		{[]string{"synth", "--base-url", "http://127.0.0.1:1", "--model", "m", "--style", "simple", "--count", "-1", "--out", "o"}, "count must be"},
		{[]string{"synth", "--base-url", "http://127.0.0.1:1", "--model", "m", "--style", "simple", "--count", "2", "--out", full}, "not empty"},
	} {
		var out, errText bytes.Buffer
		err := cli(tt.args, &out, &errText)
		ee, ok := err.(*exitError)
		if !ok || ee.code != 2 || !strings.Contains(ee.msg, tt.want) {
			t.Errorf("%v: %v; want a usage error saying %q", tt.args, err, tt.want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(full, "x")); string(b) != "mine" {
		t.Error("a refused run touched the folder")
	}
}
