package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// goldServer serves the perfect model of the builtin data that also knows the variants of seeds
// (none: the original's answers only, a model that learned the benchmark by heart). A request it
// does not know gets a reply that makes no call.
func goldServer(t *testing.T, seeds []int64) *fakemodel.Server {
	t.Helper()
	m, err := goldmodel.Load("builtin", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LearnVariants(seeds); err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{{Reply: fakemodel.Reply{Content: "I am not sure what to do."}}}})
	if err != nil {
		t.Fatal(err)
	}
	srv.SetOracle(m)
	t.Cleanup(func() { srv.Close() })
	return srv
}

// robustJSON runs `apibank run --variants N --json` against the model at url and decodes it.
func robustJSON(t *testing.T, url string, n int, extra ...string) (robustSummary, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run.jsonl")
	args := append([]string{"run", "--native", "--json", "--base-url", url, "--model", "m", "--api-key-env", "NO_SUCH_KEY_VAR", "--out", out, "--variants", itoa(n)}, extra...)
	stdout, stderr, code := runCapture(t, args...)
	var got robustSummary
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || code != 0 {
		t.Fatalf("run %v: exit %d, %v\n%s\n%s", args, code, err, stdout, stderr)
	}
	return got, out
}

// TestRunVariants: a model that answers every variant's gold is right in every pass of a robustness
// run; one that knows only the original samples keeps its score on the rerun and loses it on the
// variants, and the report tells the two apart.
func TestRunVariants(t *testing.T) {
	levels := []string{"--level", "level-1-given-desc", "--level", "level-3"}
	perfect, out := robustJSON(t, goldServer(t, run.VariantSeeds(2)).URL(), 2, levels...)
	if len(perfect.Robustness) != 2 {
		t.Fatalf("robustness of %d levels, want 2: %+v", len(perfect.Robustness), perfect.Robustness)
	}
	for _, rb := range perfect.Robustness {
		if rb.Tasks == 0 || rb.Original != 1 || rb.Mean != 1 || rb.Min != 1 || rb.EveryVariant != 1 || rb.Rerun == nil || *rb.Rerun != 1 || rb.RerunFlips == nil || *rb.RerunFlips != 0 || rb.VariantFlips != 0 {
			t.Errorf("the perfect model of every variant, %s: %+v", rb.Level, rb)
		}
	}
	for _, name := range []string{"run.jsonl", "run.variant-1.jsonl", "run.variant-2.jsonl", "run.rerun.jsonl", "run.run.json"} {
		if st, err := os.Stat(filepath.Join(filepath.Dir(out), name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	var rec run.Record
	b, _ := os.ReadFile(run.RecordPath(out))
	if err := json.Unmarshal(b, &rec); err != nil || rec.Run.Variants != 2 || len(rec.Trials) != 4 || rec.Trials[1].Seed != 1 || rec.Trials[2].Seed != 2 || rec.Trials[3].Seed != 0 {
		t.Errorf("the record: %v %+v", err, rec)
	}
	orig, _ := os.ReadFile(out)
	v1, _ := os.ReadFile(filepath.Join(filepath.Dir(out), "run.variant-1.jsonl"))
	if bytes.Equal(orig, v1) {
		t.Error("the variant's predictions are the original's: the variant moved nothing the gold says")
	}

	// How much a variant changes, per level: at level 1 every dialogue's prompt states the moved
	// today, and most move values and dates too, so a model that knows only the originals loses
	// most tasks; a level-3 scene moves only the people and places its user gives (its tools' own
	// are facts of the world, and so are its dates), which few do. Either fails when the variants
	// move nothing of the level (the model is then right on all of them).
	maxMean := map[string]float64{"level-1-given-desc": 0.5, "level-3": 0.99}
	minFlips := map[string]float64{"level-1-given-desc": 0.5, "level-3": 0.02}
	learned, _ := robustJSON(t, goldServer(t, nil).URL(), 2, levels...)
	for _, rb := range learned.Robustness {
		if rb.Original != 1 || rb.Rerun == nil || *rb.Rerun != 1 || rb.RerunFlips == nil || *rb.RerunFlips != 0 {
			t.Errorf("the model of the original samples, %s: original %v, rerun %v, flips %v", rb.Level, rb.Original, orNotAsked(rb.Rerun), orNotAsked(rb.RerunFlips))
		}
		if rb.Mean > maxMean[rb.Level] || rb.VariantFlips < minFlips[rb.Level] || rb.EveryVariant >= rb.Original {
			t.Errorf("%s: a model that learned the original samples by heart scores %v on their variants (every variant %v, flips %v): the variants do not tell", rb.Level, rb.Mean, rb.EveryVariant, rb.VariantFlips)
		}
		t.Logf("%s: the model of the original samples scores %v on the variants, flips %v", rb.Level, rb.Mean, rb.VariantFlips)
	}

	stdout, _, code := runCapture(t, "run", "--native", "--base-url", goldServer(t, run.VariantSeeds(1)).URL(), "--model", "m", "--api-key-env", "NO_SUCH_KEY_VAR",
		"--out", filepath.Join(t.TempDir(), "r.jsonl"), "--variants", "1", "--level", "level-1-given-desc", "--limit", "3")
	for _, want := range []string{"== robustness: the original samples, 1 variant (seed 1)", "variants 1.0000 (1 variant: no spread)", "right in every variant 1.0000", "verdicts changed: by asking again 0.0000, by a variant 0.0000"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("exit %d; the report lacks %q:\n%s", code, want, stdout)
		}
	}
}

// TestRunVariantsUsage: --variants runs the builtin data and its variants once each.
func TestRunVariantsUsage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	for _, extra := range [][]string{{"--variants", "-1"}, {"--variants", "21"}, {"--variants", "2", "--trials", "2"}, {"--variants", "2", "--seed", "4"}, {"--variants", "1", "--data", t.TempDir()}, {"--seed", "-3"}} {
		args := append([]string{"run", "--native", "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--out", out}, extra...)
		if _, stderr, code := runCapture(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", extra, code, stderr)
		}
	}
}

// TestSeedSameBytesInEveryHost writes a variant's prompts, gold replay and world under wazero and
// in-process: the same bytes, and not the builtin data's.
func TestSeedSameBytesInEveryHost(t *testing.T) {
	wasm := wasmPath(t)
	var got [2]string
	for i, engine := range []string{"--wasm=" + wasm, "--native"} {
		for _, cmd := range [][]string{{"prompts", "--form", "native"}, {"prompts", "--form", "text"}, {"replay", "--json"}, {"batch", "prepare", "--model", "m", "--out", "-"}} {
			args := append(append([]string{}, cmd...), engine, "--seed", "11")
			batch := filepath.Join(t.TempDir(), "b.jsonl")
			if cmd[0] == "batch" {
				args = append([]string{"batch", "prepare"}, append([]string{"--model", "m", "--out", batch}, engine, "--seed", "11")...)
			}
			stdout, stderr, code := runCapture(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d\n%s", args, code, stderr)
			}
			if cmd[0] == "batch" {
				// Its output names the file it wrote, in a folder of its own: the file's bytes are
				// what must agree.
				b, err := os.ReadFile(batch)
				if err != nil || len(b) == 0 {
					t.Fatalf("%v: %v", args, err)
				}
				stdout = string(b)
			}
			got[i] += stdout
		}
	}
	if got[0] != got[1] {
		t.Error("variant 11 under wazero and in-process: different bytes")
	}
	original, _, _ := runCapture(t, "prompts", "--form", "native", "--native")
	if strings.HasPrefix(got[1], original) {
		t.Error("variant 11's prompts are the builtin data's")
	}
}

// TestPrintRobustNothingJudged: a level none of whose tasks was judged in every pass says so, rather
// than accuracies of 0 that read as a model that was always wrong.
func TestPrintRobustNothingJudged(t *testing.T) {
	for _, tt := range []struct {
		name string
		rb   run.Robustness
		want string
	}{
		{"every task lost a pass", run.Robustness{Level: "level-1-given-desc", Seeds: []int64{1}, LeftOut: 12}, "tasks 0: none was judged in every pass (12 left out: a request failed in some pass)\n"},
		{"a level without tasks", run.Robustness{Level: "level-3", Seeds: []int64{1}}, "tasks 0: none was judged in every pass\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			printRobust(&b, []run.Robustness{tt.rb}, "")
			if !strings.Contains(b.String(), tt.want) || strings.Contains(b.String(), "original 0.0000") {
				t.Errorf("got %q, want it to say %q and no accuracies", b.String(), tt.want)
			}
		})
	}
}

// TestPrintRobustPassesNotRun: a pass that never ran is said so, never printed as 0 (which reads as
// a model always wrong, or verdicts that never change); one variant has no spread; a level-3 row
// says how little level 3 varies.
func TestPrintRobustPassesNotRun(t *testing.T) {
	one, none := 1.0, 0.0
	for _, tt := range []struct {
		name        string
		rb          run.Robustness
		want, never []string
	}{
		{"cancelled in the original pass", run.Robustness{Level: "level-1-given-desc", Tasks: 3, Original: 1, Seeds: []int64{}},
			[]string{"no variant (none ran)", "variants none ran", "right in every variant none ran", "rerun not asked", "by asking again not asked, by a variant none ran"}, []string{"0.0000 ±", "rerun 0.0000"}},
		{"cancelled in a variant", run.Robustness{Level: "level-1-given-desc", Tasks: 3, Original: 1, Seeds: []int64{1}, Variants: []float64{1}, Mean: 1, Min: 1, Max: 1, EveryVariant: 1},
			[]string{"1 variant (seed 1)", "variants 1.0000 (1 variant: no spread)", "rerun not asked", "by asking again not asked, by a variant 0.0000"}, []string{"± 0.0000", "1 variants"}},
		{"level 3", run.Robustness{Level: "level-3", Tasks: 2, Original: 1, Seeds: []int64{1, 2}, Variants: []float64{1, 1}, Mean: 1, Min: 1, Max: 1, EveryVariant: 1, Rerun: &one, RerunFlips: &none},
			[]string{"2 variants (seeds 1-2)", "variants 1.0000 ± 0.0000 (sd), min 1.0000, max 1.0000", "rerun 1.0000", "level 3 hardly varies"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			printRobust(&b, []run.Robustness{tt.rb}, "")
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("the report lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tt.never {
				if strings.Contains(b.String(), w) {
					t.Errorf("the report says %q:\n%s", w, b.String())
				}
			}
		})
	}
}
