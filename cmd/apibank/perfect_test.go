package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/api"
	"github.com/apibank-playground/apibank/host"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// flaky is a script that puts a few rate limits and server errors on a run's way: the answers after
// them are the oracle's.
var flaky = fakemodel.Script{Rules: []fakemodel.Rule{
	{Match: fakemodel.Match{Role: "tool"}, Fault: &fakemodel.Fault{Kind: fakemodel.FaultServerError, Times: 1}},
	{Fault: &fakemodel.Fault{Kind: fakemodel.FaultRateLimit, Times: 2, RetryAfter: "0"}},
}}

// startGold serves the perfect model of the builtin data (adversarial: its bad twin).
func startGold(t *testing.T, adversarial bool) *fakemodel.Server {
	t.Helper()
	m, err := goldmodel.Load("builtin", adversarial)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(flaky)
	if err != nil {
		t.Fatal(err)
	}
	srv.SetOracle(m)
	t.Cleanup(func() { srv.Close() })
	return srv
}

// runJSON runs `apibank run --json` and decodes its summary.
func runJSON(t *testing.T, args ...string) (runSummary, []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "preds.jsonl")
	stdout, stderr, code := runCapture(t, append([]string{"run", "--json", "--out", out, "--model", "perfect", "--api-key-env", "NO_SUCH_KEY_VAR"}, args...)...)
	var s runSummary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("run %v: exit %d, not a JSON summary: %v\n%s\n%s", args, code, err, stdout, stderr)
	}
	preds, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Errorf("run %v: exit %d\n%s", args, code, stderr)
	}
	return s, preds
}

// TestPerfectModelReachesTheCeiling: a model that answers every sample with its gold, as the engine
// shows it, scores exactly the data's ceiling at every level, in both forms, plain and streamed, with
// rate limits and server errors on the way: every call right (the gold replay's count), ROUGE-L 1,
// every special case right, every level-3 episode a success with recall 1.
func TestPerfectModelReachesTheCeiling(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole builtin dataset four times")
	}
	srv := startGold(t, false)
	wasm := wasmPath(t)
	api := startAPI(t, wasm)
	for _, form := range []string{"text", "native"} {
		var preds [2][]byte
		for i, stream := range []bool{false, true} {
			// The plain run judges under wazero, the streamed one in-process: their predictions must
			// be the same bytes.
			engine := "--wasm=" + wasm
			if stream {
				engine = "--native"
			}
			s, p := runJSON(t, engine, "--base-url", srv.URL(), "--form", form, "--stream="+boolText(stream), "--concurrency", "8")
			preds[i] = p
			name := form + map[bool]string{false: " plain", true: " streamed"}[stream]
			checkCeiling(t, name, s, true)
			if i == 0 {
				// score --preds judges the run's --out file as the run did, its episodes replayed.
				path := filepath.Join(t.TempDir(), "out.jsonl")
				if err := os.WriteFile(path, p, 0o644); err != nil {
					t.Fatal(err)
				}
				stdout, stderr, code := runCapture(t, "score", "--native", "--json", "--preds", path)
				var again runSummary
				if err := json.Unmarshal([]byte(stdout), &again); err != nil || code != 0 {
					t.Fatalf("%s: score --preds of the run's file: exit %d, %v\n%s", name, code, err, stderr)
				}
				if mustMarshal(t, again.Report) != mustMarshal(t, s.Report) || len(again.Episodes) != len(s.Episodes) {
					t.Errorf("%s: score --preds of the run's file differs from the run's report or episodes", name)
				}
				checkCeiling(t, name+" rescored", again, true)
				// The scoring API judges the run's predictions as the run did.
				if got, want := apiReport(t, api, p), mustMarshal(t, s.Report); got != want {
					t.Errorf("%s: the scoring API's report of the run's predictions differs from the run's:\n%s\n%s", name, got, want)
				}
			}
		}
		if !bytes.Equal(preds[0], preds[1]) {
			t.Errorf("%s: the streamed run's predictions differ from the plain run's", form)
		}
	}
	var gold, served int
	for _, r := range srv.Requests() {
		if r.Generated == "gold" {
			gold++
		}
		if r.Fault != "" {
			served++
		}
	}
	if gold == 0 || served < 3 {
		t.Errorf("the oracle answered %d requests and %d faults were served; want both", gold, served)
	}
}

// checkCeiling fails unless a run's summary is the data's ceiling exactly; episodes says a run played
// every scene.
func checkCeiling(t *testing.T, name string, s runSummary, episodes bool) {
	t.Helper()
	if s.Report == nil || s.Failed != 0 {
		t.Fatalf("%s: no report, or %d requests failed", name, s.Failed)
	}
	ceiling := map[string]protocol.Replayed{}
	for _, c := range s.Report.Ceiling {
		ceiling[c.Level] = c
	}
	levels := 0
	for _, l := range s.Report.Levels {
		if l.Name == "level-3" && l.Calls == 0 {
			continue
		}
		levels++
		c, ok := ceiling[l.Name]
		if !ok {
			t.Errorf("%s %s: no ceiling reported", name, l.Name)
			continue
		}
		// The ceiling counts gold calls (a parallel set as many as it has) and lists the samples the
		// gold replay rejects; the report counts samples: the perfect model misses exactly those.
		if l.Calls-l.Correct != len(c.Rejected) || (c.Accepted == c.Total) != (l.Correct == l.Calls) || l.Calls == 0 {
			t.Errorf("%s %s: %d of %d call samples right; the ceiling is %d of %d gold calls, %d samples rejected", name, l.Name, l.Correct, l.Calls, c.Accepted, c.Total, len(c.Rejected))
		}
		if l.Replies > 0 && l.RougeL != 1 {
			t.Errorf("%s %s: ROUGE-L %v over %d replies, want 1", name, l.Name, l.RougeL, l.Replies)
		}
		if l.SpecialCorrect != l.Special {
			t.Errorf("%s %s: %d of %d special cases right", name, l.Name, l.SpecialCorrect, l.Special)
		}
	}
	if levels < 2 || s.Report.Overall.Special == 0 {
		t.Errorf("%s: %d levels judged, %d special cases: the run did not cover the data", name, levels, s.Report.Overall.Special)
	}
	if episodes && len(s.Episodes) < 50 {
		t.Errorf("%s: %d episodes, want every builtin scene", name, len(s.Episodes))
	}
	for _, ep := range s.Episodes {
		if ep.Outcome == nil || !ep.Outcome.Success || ep.Outcome.Recall != 1 || ep.Stopped != "reply" {
			t.Errorf("%s %s: episode stopped %q, outcome %+v", name, ep.File, ep.Stopped, ep.Outcome)
		}
	}
}

// startAPI serves the scoring API (api) over a wazero pool of the engine module.
func startAPI(t *testing.T, wasm string) string {
	t.Helper()
	ctx := context.Background()
	module, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := host.New(ctx, module, host.Config{Interruptible: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(ctx) })
	pool, err := host.NewPool(ctx, rt, host.PoolConfig{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close(ctx) })
	srv := httptest.NewServer(api.New(pool, api.Limits{MaxBody: 64 << 20, Timeout: 5 * time.Minute}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// apiReport posts a run's prediction lines (its episodes left out) to the scoring API and returns
// the report it answers, compact.
func apiReport(t *testing.T, base string, preds []byte) string {
	t.Helper()
	var req api.ScoreRequest
	for _, l := range strings.Split(strings.TrimSpace(string(preds)), "\n") {
		if !strings.Contains(l, `"transcript":`) {
			req.Predictions = append(req.Predictions, json.RawMessage(l))
		}
	}
	body, _ := json.Marshal(req)
	resp, err := http.Post(base+"/api/v1/score", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Report json.RawMessage `json:"report"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || resp.StatusCode != 200 {
		t.Fatalf("API: %d %v", resp.StatusCode, err)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, answer.Report); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPerfectBatch: the perfect model's answers to a batch input file, given back as a provider's
// output file in any order, score the data's ceiling exactly — levels 1 and 2 and level 3's step
// samples, in both forms.
func TestPerfectBatch(t *testing.T) {
	m, err := goldmodel.Load("builtin", false)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.New(fakemodel.Script{})
	if err != nil {
		t.Fatal(err)
	}
	srv.SetOracle(m)
	for _, form := range []string{"text", "native"} {
		dir := t.TempDir()
		input, output := filepath.Join(dir, "batch.jsonl"), filepath.Join(dir, "output.jsonl")
		if stdout, stderr, code := runCapture(t, "batch", "prepare", "--native", "--model", "perfect", "--form", form, "--out", input); code != 0 {
			t.Fatalf("batch prepare: exit %d\n%s\n%s", code, stdout, stderr)
		}
		in, err := os.ReadFile(input)
		if err != nil {
			t.Fatal(err)
		}
		answers, err := srv.AnswerBatch(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(output, answers, 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := runCapture(t, "batch", "score", "--native", "--json", "--input", input, "--output", output)
		var s runSummary
		if err := json.Unmarshal([]byte(stdout), &s); err != nil || code != 0 {
			t.Fatalf("batch score: exit %d, %v\n%s", code, err, stderr)
		}
		checkCeiling(t, "batch "+form, s, false)
		steps := false
		for _, l := range s.Report.Levels {
			steps = steps || (l.Name == "level-3" && l.Calls > 0)
		}
		if !steps {
			t.Errorf("batch %s: no level-3 step sample judged", form)
		}
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestAdversarialModel: a model that answers each sample with one of a list of bad behaviours —
// garbage, nothing, invalid tool-call JSON, both content and calls, calls in the content, an endless
// stream, a huge answer — gets a verdict or a listed failure for every sample, and the run ends.
func TestAdversarialModel(t *testing.T) {
	srv := startGold(t, true)
	for _, form := range []string{"text", "native"} {
		for _, stream := range []bool{false, true} {
			out := filepath.Join(t.TempDir(), "preds.jsonl")
			stdout, stderr, code := runCapture(t, "run", "--json", "--native", "--out", out, "--model", "bad", "--base-url", srv.URL(),
				"--form", form, "--stream="+boolText(stream), "--limit", "14", "--concurrency", "8", "--steps", "4")
			var s runSummary
			if err := json.Unmarshal([]byte(stdout), &s); err != nil || s.Report == nil {
				t.Fatalf("%s stream=%v: exit %d, no report: %v\n%s", form, stream, code, err, stderr)
			}
			judged := s.Report.Overall.Calls + s.Report.Overall.Replies + s.Report.Overall.Special
			preds, _ := os.ReadFile(out)
			lines := strings.Count(string(preds), "\n") - len(s.Episodes)
			// Every sample asked is judged (its prediction may be empty) or counted as a failed request.
			if lines+s.Failed < judged || judged == 0 {
				t.Errorf("%s stream=%v: %d judged, %d prediction lines, %d failed", form, stream, judged, lines, s.Failed)
			}
			if s.Report.Overall.Correct == s.Report.Overall.Calls {
				t.Errorf("%s stream=%v: every call right from a bad model", form, stream)
			}
			for _, ep := range s.Episodes {
				if ep.Outcome == nil && ep.Stopped != "failed" {
					t.Errorf("%s stream=%v %s: episode without an outcome, stopped %q", form, stream, ep.File, ep.Stopped)
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, r := range srv.Requests() {
		seen[r.Generated] = true
	}
	for _, b := range goldmodel.Behaviours {
		if !seen[b] {
			t.Errorf("behaviour %s was never served", b)
		}
	}
}
