package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/stats"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// goldAnswers returns the first n call samples of a level with their gold answer (native form), from
// the engine itself.
func goldAnswers(t *testing.T, level string, n int) []run.Prediction {
	t.Helper()
	r, err := newRunner(true, "", false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	samples, err := call[[]protocol.SampleView](r, protocol.Request{Op: protocol.OpSamples, Level: level})
	if err != nil {
		t.Fatal(err)
	}
	var out []run.Prediction
	for _, s := range samples {
		if s.Kind != protocol.KindCall || len(out) == n {
			continue
		}
		id := s.ID
		p, err := call[protocol.Prompt](r, protocol.Request{Op: protocol.OpPrompt, Level: s.Level, File: s.File, Sample: &id})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, run.Prediction{Level: s.Level, File: s.File, ID: s.ID, Pred: p.GoldNative})
	}
	if len(out) < n {
		t.Fatalf("%s has %d call samples, want %d", level, len(out), n)
	}
	return out
}

// answered is the samples answered with gold where right(i) holds, "no call" elsewhere.
func answered(gold []run.Prediction, right func(i int) bool) []run.Prediction {
	out := make([]run.Prediction, len(gold))
	for i, p := range gold {
		if !right(i) {
			p.Pred = "I cannot do that."
		}
		out[i] = p
	}
	return out
}

// scoredCorrect judges a prediction file with `score --out` and returns each call sample's verdict.
func scoredCorrect(t *testing.T, preds string) map[string]bool {
	t.Helper()
	out := filepath.Join(t.TempDir(), "verdicts.jsonl")
	if _, stderr, code := runCapture(t, "score", "--native", "--preds", preds, "--out", out); code != 0 {
		t.Fatalf("score %s: exit %d\n%s", preds, code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v struct {
			Level, File, Kind string
			ID                int
			Correct           bool
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if v.Kind == protocol.KindCall {
			got[fmt.Sprintf("%s/%s#%d", v.Level, v.File, v.ID)] = v.Correct
		}
	}
	return got
}

type compareJSON struct {
	A, B    []string
	Levels  []run.Compared
	Overall run.Compared
}

func compareRun(t *testing.T, wantCode int, args ...string) (compareJSON, string) {
	t.Helper()
	stdout, stderr, code := runCapture(t, append([]string{"compare", "--native", "--json"}, args...)...)
	if code != wantCode {
		t.Fatalf("compare %v: exit %d, want %d\n%s\n%s", args, code, wantCode, stdout, stderr)
	}
	var got compareJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("compare --json: %v\n%s", err, stdout)
	}
	return got, stderr
}

// TestCompareCounts: the paired counts are those of the engine's own verdicts of each file
// (score --out), the p is the exact McNemar test's, and the sentence says which run is better,
// per level and overall, in JSON and in text; swapping the runs swaps fixed and broken.
func TestCompareCounts(t *testing.T) {
	dir := t.TempDir()
	l1 := goldAnswers(t, "level-1-given-desc", 60)
	l2 := goldAnswers(t, "level-2-toolsearcher", 12)
	// Level 1: A right on the first 20, B on all but the first 3 (B fixes about 40, breaks 3).
	// Level 2: A and B right on the same half. One sample only in A, one only in B.
	a := append(answered(l1[:59], func(i int) bool { return i < 20 }), answered(l2, func(i int) bool { return i%2 == 0 })...)
	b := append(answered(l1[1:], func(i int) bool { return i+1 >= 3 }), answered(l2, func(i int) bool { return i%2 == 0 })...)
	pa := writeFile(t, dir, "a.jsonl", string(run.PredictionsJSONL(a)))
	pb := writeFile(t, dir, "b.jsonl", string(run.PredictionsJSONL(b)))
	va, vb := scoredCorrect(t, pa), scoredCorrect(t, pb)

	got, _ := compareRun(t, 0, pa, pb)
	if len(got.Levels) != 2 || len(got.A) != 1 || got.A[0] != pa || got.B[0] != pb {
		t.Fatalf("compare: %+v", got)
	}
	for _, row := range append(got.Levels, got.Overall) {
		var want stats.Paired
		onlyA, onlyB := 0, 0
		for k, okA := range va {
			if row.Level != "" && !strings.HasPrefix(k, row.Level+"/") {
				continue
			}
			okB, inB := vb[k]
			switch {
			case !inB:
				onlyA++
			case okA && okB:
				want.BothRight++
			case !okA && !okB:
				want.BothWrong++
			case okB:
				want.Fixed++
			default:
				want.Broken++
			}
		}
		for k := range vb {
			if _, inA := va[k]; !inA && (row.Level == "" || strings.HasPrefix(k, row.Level+"/")) {
				onlyB++
			}
		}
		gotCells := stats.Paired{BothRight: row.BothRight, BothWrong: row.BothWrong, Fixed: row.Fixed, Broken: row.Broken}
		if gotCells != want || row.OnlyA != onlyA || row.OnlyB != onlyB || row.Paired != want.N() {
			t.Errorf("%q: cells %+v only %d/%d, the engine's verdicts give %+v only %d/%d", row.Level, gotCells, row.OnlyA, row.OnlyB, want, onlyA, onlyB)
		}
		if row.P != stats.McNemar(want.Fixed, want.Broken) || row.Sentence != want.Sentence(row.Scope, row.Unit) {
			t.Errorf("%q: p %v, sentence %q", row.Level, row.P, row.Sentence)
		}
	}
	l1row, l2row := got.Levels[0], got.Levels[1]
	if l1row.Finding != stats.Better || !strings.HasPrefix(l1row.Sentence, fmt.Sprintf("B is better than A on level 1: %d samples fixed, %d broken, p ", l1row.Fixed, l1row.Broken)) {
		t.Errorf("level 1: %q", l1row.Sentence)
	}
	if l2row.Finding != stats.NotDistinguishable || l2row.Fixed+l2row.Broken != 0 || l2row.AccuracyA != l2row.AccuracyB {
		t.Errorf("level 2: %+v", l2row)
	}

	swapped, _ := compareRun(t, 0, pb, pa)
	if s := swapped.Levels[0]; s.Fixed != l1row.Broken || s.Broken != l1row.Fixed || s.Finding != stats.Worse || !strings.HasPrefix(s.Sentence, "B is worse than A on level 1") {
		t.Errorf("swapped: %+v", s)
	}

	stdout, stderr, code := runCapture(t, "compare", "--native", pa, pb)
	if code != 0 {
		t.Fatalf("text: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{l1row.Sentence + ".", l2row.Sentence + ".", got.Overall.Sentence + ".", "level-1-given-desc", "left out, judged in one run only: 1 in A, 1 in B"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the text lacks %q:\n%s", want, stdout)
		}
	}
}

// TestCompareRuns compares two `apibank run` outputs with level-3 episodes, one of them run as
// two trials: episodes are replayed in the engine (an outcome a line carries is not believed),
// and the trials give the flip rate.
func TestCompareRuns(t *testing.T) {
	yes := true
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Role: "tool"}, Reply: fakemodel.Reply{Content: "Done."}},
		{Match: fakemodel.Match{Last: "Response:"}, Reply: fakemodel.Reply{Content: "Done."}},
		{Match: fakemodel.Match{Tools: &yes}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{{Name: "Calculator", Arguments: json.RawMessage(`{"formula":"1+2"}`)}}}},
		{Reply: fakemodel.Reply{Content: "[Calculator(formula='1+2')]"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	outs := map[string]string{}
	for _, form := range []string{"text", "native"} {
		out := filepath.Join(dir, form+".jsonl")
		args := []string{"run", "--native", "--base-url", srv.URL(), "--model", "fake", "--form", form, "--level", "level-1-given-desc", "--level", "level-3", "--limit", "3", "--out", out}
		if form == "native" {
			args = append(args, "--trials", "2")
		}
		if stdout, stderr, code := runCapture(t, args...); code != 0 {
			t.Fatalf("run %s: exit %d\n%s\n%s", form, code, stdout, stderr)
		}
		outs[form] = out
	}
	got, _ := compareRun(t, 0, outs["text"], outs["native"])
	if len(got.B) != 2 || !strings.HasSuffix(got.B[1], "native.trial-2.jsonl") {
		t.Fatalf("B's trials: %v", got.B)
	}
	var eps *run.Compared
	for i := range got.Levels {
		if got.Levels[i].Unit == "episode" {
			eps = &got.Levels[i]
		}
	}
	if eps == nil || eps.Paired != 3 || eps.Level != run.Level3 {
		t.Fatalf("no row of 3 paired episodes: %+v", got.Levels)
	}
	// The fake answers every trial alike: B's trials never flip; A has one trial.
	for _, row := range append(got.Levels, got.Overall) {
		if row.FlipB == nil || row.FlipB.Trials != 2 || row.FlipB.Rate != 0 || row.FlipA != nil {
			t.Errorf("%s %s: flip rates %+v %+v", row.Level, row.Unit, row.FlipA, row.FlipB)
		}
	}

	// An episode line claiming a success its calls do not make is judged by its calls.
	text, err := os.ReadFile(outs["text"])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	var ep run.Episode
	last := lines[len(lines)-1]
	if err := json.Unmarshal([]byte(last), &ep); err != nil || ep.Outcome == nil || ep.Outcome.Success {
		t.Fatalf("the last line is not a failed episode: %v %s", err, last)
	}
	ep.Outcome.Success = true
	forged, _ := json.Marshal(ep)
	lines[len(lines)-1] = string(forged)
	pf := writeFile(t, dir, "forged.jsonl", strings.Join(lines, "\n")+"\n")
	again, _ := compareRun(t, 0, outs["text"], pf)
	for _, row := range again.Levels {
		if row.Fixed+row.Broken != 0 {
			t.Errorf("%s %s: the forged outcome counted: %+v", row.Level, row.Unit, row)
		}
	}
}

// TestCompareBadInput: bad lines are reported as file:line and left out (the rest still compared,
// exit 1); a missing file, and a wrong number of files, fail.
func TestCompareBadInput(t *testing.T) {
	dir := t.TempDir()
	gold := goldAnswers(t, "level-1-given-desc", 4)
	good := string(run.PredictionsJSONL(gold))
	pa := writeFile(t, dir, "a.jsonl", good)
	pb := writeFile(t, dir, "b.jsonl", "not json\n"+good+`{"level":"level-3","scene":"x","file":"none.json","calls":[}`+"\n"+
		`{"level":"level-3","scene":"x","file":"no-such-scene.json","calls":[],"transcript":[],"stopped":"reply"}`+"\n"+`{"file":"x.jsonl","id":"two","pred":""}`+"\n")
	got, stderr := compareRun(t, 1, pa, pb)
	for _, want := range []string{pb + ":1: ", pb + ":6: not a level-3 episode", pb + ":7: level-3 episode no-such-scene.json", pb + ":8: "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if got.Overall.Paired != 4 || got.Overall.BothRight != 4 {
		t.Errorf("the good lines were not all compared: %+v", got.Overall)
	}
	if _, _, code := runCapture(t, "compare", "--native", pa, filepath.Join(dir, "missing.jsonl")); code != 1 {
		t.Errorf("a missing file: exit %d, want 1", code)
	}
	for _, args := range [][]string{{"compare"}, {"compare", pa}, {"compare", pa, pb, pa}, {"compare", "--frob", pa, pb}} {
		if _, _, code := runCapture(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
