package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// TestRunAgainstEachHostileBehaviour runs `apibank run` on every level (a few samples each, native
// form, streamed and not) against a model that answers with one hostile behaviour only: the run
// ends, every sample is judged or listed as a failed request, every scene is played, an answer over
// a limit is marked as cut (empty, judged wrong) with the limit in the report, and the predictions
// file holds no more than what the engine judges.
func TestRunAgainstEachHostileBehaviour(t *testing.T) {
	if testing.Short() {
		t.Skip("a run per hostile behaviour, each with answers cut at a 2 s timeout")
	}
	wasm := wasmPath(t)
	// What each behaviour's answers become: "size" and "timeout" cuts, failed requests, or verdicts.
	want := map[string]string{
		goldmodel.Garbage: "judged", goldmodel.Huge: "size", goldmodel.Cut: "failed or judged", goldmodel.Drop: "failed",
		goldmodel.Deep: "judged", goldmodel.Endless: "size or timeout", goldmodel.Trickle: "timeout",
	}
	for _, b := range goldmodel.Hostile {
		for _, stream := range []bool{false, true} {
			name := b
			if stream {
				name += " streamed"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				m, err := goldmodel.LoadWith("builtin", []string{b})
				if err != nil {
					t.Fatal(err)
				}
				srv, err := fakemodel.Start(fakemodel.Script{})
				if err != nil {
					t.Fatal(err)
				}
				defer srv.Close()
				srv.SetOracle(m)
				out := filepath.Join(t.TempDir(), "preds.jsonl")
				args := []string{"run", "--json", "--wasm=" + wasm, "--base-url", srv.URL(), "--model", "hostile", "--api-key-env", "NO_SUCH_KEY_VAR",
					"--form", "native", "--limit", "2", "--concurrency", "8", "--timeout", "2s", "--steps", "3", "--out", out}
				if stream {
					args = append(args, "--stream")
				}
				stdout, stderr, code := runCapture(t, args...)
				var s runSummary
				if err := json.Unmarshal([]byte(stdout), &s); err != nil {
					t.Fatalf("exit %d, not a JSON summary: %v\n%s\n%s", code, err, stdout, stderr)
				}
				failed := strings.Count(stderr, "request failed")
				if code != 0 && failed == 0 {
					t.Fatalf("exit %d with no failed request\n%s", code, stderr)
				}
				f, err := os.Open(out)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				st, _ := f.Stat()
				var preds, episodes, cutSize, cutTime int
				sc := bufio.NewScanner(f)
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					var line struct {
						Level string               `json:"level"`
						Pred  *string              `json:"pred"`
						Cut   *struct{ By string } `json:"cut"`
					}
					if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
						t.Fatalf("a line of the predictions file: %v", err)
					}
					switch {
					case line.Pred == nil:
						episodes++
					case line.Cut != nil:
						if *line.Pred != "" {
							t.Errorf("a cut answer's prediction holds %d bytes, want none", len(*line.Pred))
						}
						preds++
						if line.Cut.By == "size" {
							cutSize++
						} else {
							cutTime++
						}
					default:
						preds++
					}
				}
				if err := sc.Err(); err != nil {
					t.Fatalf("the predictions file: %v (%d bytes)", err, st.Size())
				}
				// 2 samples of each of levels 1 and 2, and 2 scenes.
				judged := 0
				if s.Report != nil {
					judged = s.Report.Overall.Calls + s.Report.Overall.Replies + s.Report.Overall.Special
				}
				if preds+failed-countScenes(stderr) != 4 || episodes+countScenes(stderr) < 2 || judged != preds {
					t.Errorf("%d predictions (%d judged), %d episodes, %d failed requests: want each of 4 samples judged or failed, and 2 scenes\n%s", preds, judged, episodes, failed, stderr)
				}
				if s.Cut.Size != cutSize+countCutEpisodes(out, "size") || s.Cut.Timeout != cutTime+countCutEpisodes(out, "timeout") {
					t.Errorf("summary counts %+v cut answers, the file %d by size and %d by time", s.Cut, cutSize, cutTime)
				}
				if s.Report != nil && s.Report.Overall.Correct > 0 {
					t.Errorf("%d calls right: a hostile model is right nowhere", s.Report.Overall.Correct)
				}
				switch w := want[b]; {
				case w == "size" && s.Cut.Size == 0, w == "timeout" && s.Cut.Timeout == 0, w == "size or timeout" && s.Cut.Size+s.Cut.Timeout == 0:
					t.Errorf("no answer cut by %s: %+v", w, s.Cut)
				case w == "failed" && failed == 0, w == "judged" && preds < 4:
					t.Errorf("want the answers %s: %d predictions, %d failed", w, preds, failed)
				}
				if s.Cut.Size > 0 && s.Cut.SizeLimit != "1048576 bytes" || s.Cut.Timeout > 0 && s.Cut.TimeLimit != "2s" {
					t.Errorf("the limits are not stated: %+v", s.Cut)
				}
				// What the engine judges, and the episodes' transcripts (a cut answer as its head):
				// never the megabytes a hostile model sends (a whole answer is at most 1 MiB, but
				// each cut one alone would be that).
				if st.Size() > 1<<20 {
					t.Errorf("the predictions file is %d bytes", st.Size())
				}
			})
		}
	}
}

// countScenes counts the failed requests of level-3 scenes in the CLI's stderr.
func countScenes(stderr string) int { return strings.Count(stderr, "level-3/") }

// countCutEpisodes counts the episodes of a predictions file that an answer cut by why ended.
func countCutEpisodes(path, why string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte(`"stopped":"cut","cut":{"by":"`+why+`"`))
}
