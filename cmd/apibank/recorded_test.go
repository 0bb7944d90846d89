package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// TestJudgedOnTheRecordedData: predictions that `apibank run --seed S` wrote are judged on variant S
// by score and compare without --seed, as their record says; a --seed other than theirs, and two
// runs of different data compared, are refused rather than judged wrong; a file with no record is
// judged on the data asked for, as before.
func TestJudgedOnTheRecordedData(t *testing.T) {
	srv := goldServer(t, []int64{1, 7})
	dir := t.TempDir()
	ask := func(name string, extra ...string) string {
		out := filepath.Join(dir, name)
		args := append([]string{"run", "--native", "--base-url", srv.URL(), "--model", "m", "--api-key-env", "NO_SUCH_KEY_VAR",
			"--level", "level-1-given-desc", "--limit", "12", "--out", out}, extra...)
		if _, stderr, code := runCapture(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		return out
	}
	seeded, original, robust := ask("s7.jsonl", "--seed", "7"), ask("o.jsonl"), ask("r.jsonl", "--variants", "1")
	bare := filepath.Join(t.TempDir(), "s7.jsonl") // the same lines without their record
	// ... and named as a board's download of a season's entry, and one of its trials, name them.
	named, trial := filepath.Join(t.TempDir(), "m-3f2a.seed-7.jsonl"), filepath.Join(t.TempDir(), "m-3f2a.seed-7.trial-2.jsonl")
	for _, f := range []string{bare, named, trial} {
		if b, err := os.ReadFile(seeded); err != nil || os.WriteFile(f, b, 0o644) != nil {
			t.Fatal(err)
		}
	}
	accuracy := func(stdout string) (string, float64) {
		var rep protocol.Report
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("score --json: %v\n%s", err, stdout)
		}
		return rep.Data, rep.Overall.Accuracy
	}
	for _, tt := range []struct {
		name     string
		args     []string
		data     string
		accuracy float64
		stderr   string
	}{
		{"a seeded run, no --seed", []string{"score", "--preds", seeded}, "builtin~s7", 1, "judged on the variant of seed 7, which " + seeded + " was asked on"},
		{"a seeded run, its --seed", []string{"score", "--preds", seeded, "--seed", "7"}, "builtin~s7", 1, ""},
		{"a run of the builtin data", []string{"score", "--preds", original}, "builtin", 1, ""},
		{"a variant pass of a robustness run", []string{"score", "--preds", strings.TrimSuffix(robust, ".jsonl") + ".variant-1.jsonl"}, "builtin~s1", 1, "judged on the variant of seed 1"},
		{"its rerun pass", []string{"score", "--preds", strings.TrimSuffix(robust, ".jsonl") + ".rerun.jsonl"}, "builtin", 1, ""},
		// With no record beside them, the seed their name says, as the Score page reads it.
		{"a board's download", []string{"score", "--preds", named}, "builtin~s7", 1, "judged on the variant of seed 7, which " + named + " was asked on (its name says so: m-3f2a.seed-7.jsonl)"},
		{"a board's download of a trial", []string{"score", "--preds", trial}, "builtin~s7", 1, "judged on the variant of seed 7"},
		{"a board's download, --seed 7", []string{"score", "--preds", named, "--seed", "7"}, "builtin~s7", 1, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCapture(t, append(tt.args, "--native", "--json")...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			if data, acc := accuracy(stdout); data != tt.data || acc != tt.accuracy {
				t.Errorf("judged on %s: accuracy %.3f; want %s, %.3f", data, acc, tt.data, tt.accuracy)
			}
			if !strings.Contains(stderr, tt.stderr) || (tt.stderr == "" && strings.Contains(stderr, "judged on")) {
				t.Errorf("stderr %q, want it to say %q", stderr, tt.stderr)
			}
		})
	}
	// Without its record nothing says which data the lines were asked on: the builtin data, as asked.
	stdout, _, _ := runCapture(t, "score", "--preds", bare, "--native", "--json")
	if data, acc := accuracy(stdout); data != "builtin" || acc == 1 {
		t.Errorf("the lines without their record: judged on %s, accuracy %.3f", data, acc)
	}
	// A name is weaker than a record: a --seed other than the name's is taken, and said.
	stdout, stderr, _ := runCapture(t, "score", "--preds", named, "--seed", "0", "--native", "--json")
	if data, acc := accuracy(stdout); data != "builtin" || acc == 1 || !strings.Contains(stderr, "is named for the variant of seed 7; judged on the builtin data itself, as --seed 0 says") {
		t.Errorf("a file named for seed 7 with --seed 0: judged on %s, accuracy %.3f; stderr %q", data, acc, stderr)
	}

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"another --seed", []string{"score", "--preds", seeded, "--seed", "8"}, "--seed 8 would judge it on other data"},
		{"--seed 0", []string{"score", "--preds", seeded, "--seed", "0"}, "--seed 0 would judge it on other data"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			err := cli(append(tt.args, "--native"), &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tt.want) || stdout.Len() > 0 {
				t.Errorf("error %v, output %q; want a refusal saying %q, and no verdicts", err, stdout.String(), tt.want)
			}
		})
	}
	stdout, stderr, code := runCapture(t, "compare", seeded, seeded, "--native")
	if code != 0 || !strings.Contains(stderr, "judged on the variant of seed 7") || !strings.Contains(stdout, "100.0%") {
		t.Errorf("a seeded run compared with itself: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// A run on variant 7 beside one on the builtin data: each is judged on its own, and the samples
	// pair by their ids (a variant keeps them), so a model right on both is right on both.
	var cmp compareSummary
	stdout, stderr, code = runCapture(t, "compare", seeded, original, "--native", "--json")
	if err := json.Unmarshal([]byte(stdout), &cmp); code != 0 || err != nil {
		t.Fatalf("compare a variant's run with the builtin data's: exit %d, %v\n%s", code, err, stderr)
	}
	if o := cmp.Comparison.Overall; o.Paired == 0 || o.AccuracyA != 1 || o.AccuracyB != 1 {
		t.Errorf("each run on its own data: %+v", o)
	}
	for _, want := range []string{seeded + " judged on the variant of seed 7", original + " judged on the builtin data itself"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not say %q", stderr, want)
		}
	}
}

// tinyData writes a dataset folder in the original layout with one level-1 dialogue, and returns it.
func tinyData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, "lv1-lv2-samples/level-1-given-desc/Calculator-level-1-1.jsonl",
		`{"role": "User", "text": "What is (2+3)*4?"}`+"\n"+
			`{"role": "API", "api_name": "Calculator", "param_dict": {"formula": "(2+3)*4"}, "result": {"api_name": "Calculator", "input": {"formula": "(2+3)*4"}, "output": 20.0, "exception": null}}`+"\n"+
			`{"role": "AI", "text": "It is 20."}`+"\n")
	return dir
}

// TestWarnedOfOtherData: a run's record keeps the hash of the data it was asked on; predictions
// judged on other data (a run on --data DIR scored without it, a record whose data changed since)
// are judged with a warning that says so, since right answers may be counted wrong; judged on
// their own data, without one. The same holds of batch score's record.
func TestWarnedOfOtherData(t *testing.T) {
	data := tinyData(t)
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{{Reply: fakemodel.Reply{Content: "[Calculator(formula='(2+3)*4')]"}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	dir := t.TempDir()
	ran := filepath.Join(dir, "run.jsonl")
	if _, stderr, code := runCapture(t, "run", "--native", "--data", data, "--base-url", srv.URL(), "--model", "m", "--api-key-env", "NO_SUCH_KEY_VAR", "--out", ran); code != 0 {
		t.Fatalf("run --data: exit %d\n%s", code, stderr)
	}
	in, output, batched := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "batch.jsonl")
	if _, stderr, code := runCapture(t, "batch", "prepare", "--native", "--data", data, "--model", "m", "--out", in); code != 0 || !strings.Contains(stderr, "give batch score --data "+data+" too") {
		t.Fatalf("batch prepare --data: exit %d, stderr %q", code, stderr)
	}
	input, _ := os.ReadFile(in)
	answers, err := srv.AnswerBatch(input)
	if err != nil || os.WriteFile(output, answers, 0o644) != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCapture(t, "batch", "score", "--native", "--data", data, "--input", in, "--output", output, "--out", batched); code != 0 {
		t.Fatalf("batch score --data: exit %d\n%s", code, stderr)
	}
	changed := filepath.Join(t.TempDir(), "run.jsonl") // the run, its record's data hash another's
	b, _ := os.ReadFile(ran)
	writeFile(t, filepath.Dir(changed), "run.jsonl", string(b))
	rec, _ := os.ReadFile(run.RecordPath(ran))
	var r run.Record
	if err := json.Unmarshal(rec, &r); err != nil || r.Run.DataHash == "" {
		t.Fatalf("the run's record keeps no data hash: %s", rec)
	}
	r.Run.DataHash = "0123456789abcdef"
	rec, _ = json.Marshal(r)
	writeFile(t, filepath.Dir(changed), "run.run.json", string(rec))
	for _, tt := range []struct {
		name string
		args []string
		warn bool
	}{
		{"a run on --data, judged on it", []string{"score", "--preds", ran, "--data", data}, false},
		{"a run on --data, judged on the builtin data", []string{"score", "--preds", ran}, true},
		{"a batch on --data, judged on it", []string{"score", "--preds", batched, "--data", data}, false},
		{"a batch on --data, judged on the builtin data", []string{"score", "--preds", batched}, true},
		{"a run whose data changed since", []string{"score", "--preds", changed, "--data", data}, true},
		{"two runs on --data, compared on it", []string{"compare", ran, batched, "--data", data}, false},
		{"two runs on --data, compared on the builtin data", []string{"compare", ran, batched}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, _ := runCapture(t, append(tt.args, "--native")...)
			if warned := strings.Contains(stderr, "was asked on other data than it is judged on"); warned != tt.warn {
				t.Errorf("warned %v, want %v:\n%s", warned, tt.warn, stderr)
			}
		})
	}
}
