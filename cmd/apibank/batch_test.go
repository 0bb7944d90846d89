package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// TestBatchRoundTripMatchesRun prepares a batch, has the fake answer it as a provider does, and
// scores it: the predictions file and the --json report are run's for the same answers, byte for
// byte. A foreign line in the output costs only itself, reported as file:line.
func TestBatchRoundTripMatchesRun(t *testing.T) {
	yes := true
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Last: "Response:"}, Reply: fakemodel.Reply{Content: "Done."}},
		{Match: fakemodel.Match{Tools: &yes, Any: "ToolSearcher"}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{{Name: "ToolSearcher", Arguments: json.RawMessage(`{"keywords":"alarm"}`)}}}},
		{Match: fakemodel.Match{Tools: &yes}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{{Name: "Calculator", Arguments: json.RawMessage(`{"formula":"1+2"}`)}}}},
		{Reply: fakemodel.Reply{Content: "[Calculator(formula='1+2')]"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, form := range []string{"text", "native"} {
		dir := t.TempDir()
		levels := []string{"--level", "level-1-given-desc", "--level", "level-2-toolsearcher", "--limit", "5", "--form", form}
		runOut := filepath.Join(dir, "run.jsonl")
		runJSON, stderr, code := runCapture(t, append([]string{"run", "--native", "--base-url", srv.URL(), "--model", "fake-model", "--out", runOut, "--json"}, levels...)...)
		if code != 0 {
			t.Fatalf("run: exit %d\n%s", code, stderr)
		}
		in := filepath.Join(dir, "in.jsonl")
		if _, stderr, code := runCapture(t, append([]string{"batch", "prepare", "--native", "--model", "fake-model", "--out", in}, levels...)...); code != 0 {
			t.Fatalf("prepare: exit %d\n%s", code, stderr)
		}
		input, _ := os.ReadFile(in)
		output, err := srv.AnswerBatch(input)
		if err != nil {
			t.Fatal(err)
		}
		outFile, preds := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "preds.jsonl")
		_ = os.WriteFile(outFile, output, 0o644)
		batchJSON, stderr, code := runCapture(t, "batch", "score", "--native", "--input", in, "--output", outFile, "--out", preds, "--json")
		if code != 0 {
			t.Fatalf("batch score: exit %d\n%s", code, stderr)
		}
		a, _ := os.ReadFile(runOut)
		b, _ := os.ReadFile(preds)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("%s: batch predictions differ from run's:\n%s\nrun:\n%s", form, b, a)
		}
		if batchJSON != runJSON {
			t.Fatalf("%s: batch score --json differs from run --json:\n%s\nrun:\n%s", form, batchJSON, runJSON)
		}
		// A foreign line and a cut one: reported where they are; the rest scored.
		lines := strings.SplitAfter(string(output), "\n")
		bad := lines[0] + `{"level":"level-1-given-desc","file":"x.jsonl","id":0,"pred":"x"}` + "\n" + strings.Join(lines[2:len(lines)-2], "") + lines[len(lines)-2][:20]
		_ = os.WriteFile(outFile, []byte(bad), 0o644)
		stdout, stderr, code := runCapture(t, "batch", "score", "--native", "--input", in, "--output", outFile, "--json")
		if code != 1 || !strings.Contains(stderr, outFile+":2: ") || !strings.Contains(stderr, outFile+":"+itoa(len(lines)-1)+": ") {
			t.Fatalf("bad output file: exit %d\n%s", code, stderr)
		}
		var sum struct {
			Failed int `json:"failed_requests"`
			Report struct {
				Overall struct{ Calls, Replies, Special int }
			}
		}
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatal(err)
		}
		if o := sum.Report.Overall; sum.Failed != 2 || o.Calls+o.Replies+o.Special != 8 {
			t.Fatalf("%s: %d failed, %+v judged (want 2 failed, 8 judged)", form, sum.Failed, o)
		}
	}
	if _, _, code := runCapture(t, "batch", "score", "--native", "--input", "x"); code != 2 {
		t.Fatalf("batch score without --output: exit %d, want 2", code)
	}
	if _, _, code := runCapture(t, "batch", "prepare", "--native", "--out", "x"); code != 2 {
		t.Fatalf("batch prepare without --model: exit %d, want 2", code)
	}
}

// TestBatchScoreOnTheDataItWasPreparedFrom: a batch prepared from variant 7 is judged on it with
// --seed 7 (a model that answers the variant's gold scores the ceiling), and refused, saying
// where and why, on the builtin data or another variant: its custom ids name the same samples,
// and its right answers would have been counted wrong. Level 3 is asked on its own too: variant 7
// leaves its first scene's file as it was, which once let the whole input through.
func TestBatchScoreOnTheDataItWasPreparedFrom(t *testing.T) {
	srv := goldServer(t, []int64{7})
	refusal := regexp.MustCompile(`^(.*in\.jsonl):[0-9]+: .*prepared from other data`)
	for _, tt := range []struct {
		name   string
		levels []string
	}{
		{"text, levels 1 and 2", []string{"--level", "level-1-given-desc", "--level", "level-2-toolsearcher", "--limit", "6", "--form", "text"}},
		{"native, levels 1 and 2", []string{"--level", "level-1-given-desc", "--level", "level-2-toolsearcher", "--limit", "6", "--form", "native"}},
		{"native, level 3", []string{"--level", "level-3", "--form", "native"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			in, outFile := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
			if _, stderr, code := runCapture(t, append([]string{"batch", "prepare", "--native", "--model", "m", "--out", in, "--seed", "7"}, tt.levels...)...); code != 0 {
				t.Fatalf("prepare: exit %d\n%s", code, stderr)
			}
			input, _ := os.ReadFile(in)
			output, err := srv.AnswerBatch(input)
			if err != nil {
				t.Fatal(err)
			}
			_ = os.WriteFile(outFile, output, 0o644)
			stdout, stderr, code := runCapture(t, "batch", "score", "--native", "--input", in, "--output", outFile, "--json", "--seed", "7")
			var sum struct {
				Report struct {
					Overall struct{ Calls, Correct int }
				}
			}
			if err := json.Unmarshal([]byte(stdout), &sum); code != 0 || err != nil || sum.Report.Overall.Calls == 0 || sum.Report.Overall.Correct != sum.Report.Overall.Calls {
				t.Fatalf("--seed 7: exit %d, %+v\n%s", code, sum.Report.Overall, stderr)
			}
			for _, other := range [][]string{nil, {"--seed", "8"}} {
				var out, errText strings.Builder
				err := cli(append([]string{"batch", "score", "--native", "--input", in, "--output", outFile, "--json"}, other...), &out, &errText)
				if err == nil || refusal.FindStringSubmatch(err.Error()) == nil || refusal.FindStringSubmatch(err.Error())[1] != in || out.Len() > 0 {
					t.Errorf("%v: %v, output %q; want a refusal naming a line of %s and no verdicts", other, err, out.String(), in)
				}
			}
		})
	}
}

// TestBatchScoreRecordsItsData: batch prepare reminds the user of the data it was prepared from,
// which its file does not record; batch score --out PREDS records the data it judged on beside
// PREDS, as run does, so that score judges PREDS alike without being told (the predictions of
// variant 7, judged on the builtin data, were counted 55% right instead of 100%), and submit
// refuses it as the Runs page refuses a batch run.
func TestBatchScoreRecordsItsData(t *testing.T) {
	srv := goldServer(t, []int64{7})
	for _, tt := range []struct {
		name     string
		data     []string // the data flags given to batch prepare and batch score
		seed     int64
		judged   string // the data score says it judged on
		reminder string // what batch prepare says on stderr ("": nothing)
	}{
		{"the builtin data", nil, 0, "builtin", ""},
		{"variant 7", []string{"--seed", "7"}, 7, "builtin~s7", "give batch score --seed 7 too"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			in, outFile, preds := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "p.jsonl")
			levels := []string{"--level", "level-1-given-desc", "--level", "level-3", "--limit", "8", "--form", "native"}
			_, stderr, code := runCapture(t, append(append([]string{"batch", "prepare", "--native", "--model", "m", "--out", in}, tt.data...), levels...)...)
			if code != 0 || (tt.reminder == "") != (stderr == "") || !strings.Contains(stderr, tt.reminder) {
				t.Fatalf("prepare: exit %d, stderr %q; want it to say %q", code, stderr, tt.reminder)
			}
			input, _ := os.ReadFile(in)
			output, err := srv.AnswerBatch(input)
			if err != nil {
				t.Fatal(err)
			}
			_ = os.WriteFile(outFile, output, 0o644)
			if _, stderr, code := runCapture(t, append([]string{"batch", "score", "--native", "--input", in, "--output", outFile, "--out", preds}, tt.data...)...); code != 0 {
				t.Fatalf("batch score: exit %d\n%s", code, stderr)
			}
			rec, ok := recordOf(preds)
			if !ok || rec.seed != tt.seed || rec.record != filepath.Join(dir, "p.run.json") {
				t.Fatalf("the record of %s: %+v, found %v; want seed %d in p.run.json", preds, rec, ok, tt.seed)
			}
			stdout, stderr, code := runCapture(t, "score", "--native", "--json", "--preds", preds)
			var rep protocol.Report
			if err := json.Unmarshal([]byte(stdout), &rep); code != 0 || err != nil || rep.Data != tt.judged || rep.Overall.Calls == 0 || rep.Overall.Accuracy != 1 {
				t.Fatalf("score --preds %s: exit %d, judged on %q, accuracy %v of %d; want %s, 1\n%s", preds, code, rep.Data, rep.Overall.Accuracy, rep.Overall.Calls, tt.judged, stderr)
			}
			if _, stderr, code := runCapture(t, "submit", preds, "--board", "http://127.0.0.1:1"); code != 1 || !strings.Contains(stderr, "a batch run's record") {
				t.Errorf("submit of a batch run: exit %d, %q; want a refusal naming the batch run", code, stderr)
			}
		})
	}
}
