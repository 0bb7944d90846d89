package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// mustJSON is v's JSON, failing the test when it has none.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkSummary fails when a summary holds an answer: a prediction, a response, an episode's calls
// or transcript, a verdict's envelopes.
func checkSummary(t *testing.T, s *SavedRun) {
	t.Helper()
	if !s.summary || len(s.Predictions) != 0 || len(s.Responses) != 0 {
		t.Errorf("the summary holds %d predictions and %d responses (summary %v)", len(s.Predictions), len(s.Responses), s.summary)
	}
	for _, ep := range s.Episodes {
		if ep.Calls != nil || ep.Transcript != nil || (ep.Outcome != nil && (ep.Outcome.Diff != nil || ep.Outcome.Missed != nil)) {
			t.Errorf("the summary's episode %s holds its calls, transcript or world", ep.File)
		}
	}
	if s.Batch != nil {
		for _, v := range s.Batch.Results {
			if c := v.CallVerdict; c != nil && (c.Result != nil || c.GoldResult != nil || c.Calls != nil || len(c.Error) > shortErr) {
				t.Errorf("the summary's verdict of %s #%d holds envelopes or a long error", v.File, v.ID)
			}
		}
	}
}

// keptRuns makes whole runs of every shape a store takes: real runs of the fake model (every level
// in the text form, level 1 in the native form) read back whole, a run with a prediction of no
// response and an episode that failed, a run with no verdicts, and a run scored from a batch file.
func keptRuns(t *testing.T) []*SavedRun {
	t.Helper()
	useNative(t)
	UseRuns(NewMemoryRunStore(), NewKeyVault())
	srv := startFake(t)
	var out []*SavedRun
	for _, r := range []*SavedRun{fakeRun(t, srv, run.Text, Levels), fakeRun(t, srv, run.Native, Levels[:1])} {
		w, err := runStore.Whole(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, w)
	}
	long := strings.Repeat("é", 300)
	odd := &SavedRun{Format: runFormat, ID: "run-odd", Status: runCancelled, Settings: RunSettings{Model: "m", Form: run.Text},
		Predictions: []run.Prediction{{Level: Levels[0], File: "a.jsonl", ID: 0, Pred: "[A()]"}, {Level: Levels[0], File: "a.jsonl", ID: 1, Pred: "x"}},
		Responses:   map[string]model.Response{"level-1-given-desc/a.jsonl#0": {Content: "[A()]"}},
		Episodes:    []run.Episode{{Level: run.Level3, File: "s.jsonl", Stopped: "failed", Calls: []protocol.EpisodeCall{}, Transcript: []model.Message{{Role: "user", Content: "go"}}}},
		Failures:    []run.Failure{{Task: run.Task{Level: run.Level3, File: "s.jsonl", ID: -1, Kind: "episode"}, Message: "boom"}},
		Batch: &protocol.Batch{Results: []protocol.Verdict{
			{Level: Levels[0], File: "a.jsonl", ID: 0, Line: 1, Kind: protocol.KindCall, CallVerdict: &protocol.CallVerdict{Category: "CORRECT", Correct: true, Tool: "A", Result: json.RawMessage(`{"output":1}`)}},
			{Level: Levels[0], File: "a.jsonl", ID: 1, Line: 2, Kind: protocol.KindCall, CallVerdict: &protocol.CallVerdict{Category: "NO_API_CALL", Tool: "A", Error: long}},
		}, Errors: []protocol.LineError{}, Report: &protocol.Report{}}}
	bare := &SavedRun{Format: runFormat, ID: "run-bare", Status: runRunning, Predictions: []run.Prediction{}, Episodes: []run.Episode{}, Failures: []run.Failure{}}
	batch := *out[1]
	batch.ID, batch.Source, batch.Responses = "run-batch", runSourceBatch, nil
	return append(out, odd, bare, &batch)
}

// TestRunStoreKeepsSummariesApartFromRecords checks that a whole run put in the store is read back
// whole byte for byte (its export is unchanged), that what the store hands pages is a summary
// holding no answer, and that its records are counted.
func TestRunStoreKeepsSummariesApartFromRecords(t *testing.T) {
	for _, r := range keptRuns(t) {
		t.Run(r.ID, func(t *testing.T) {
			s := NewMemoryRunStore()
			want := mustJSON(t, r)
			sum, err := s.Put(r)
			if err != nil {
				t.Fatal(err)
			}
			checkSummary(t, sum)
			rs, err := s.Runs()
			if err != nil || len(rs) != 1 {
				t.Fatalf("Runs: %d runs, %v", len(rs), err)
			}
			checkSummary(t, rs[0])
			if got := mustJSON(t, rs[0]); got != mustJSON(t, sum) {
				t.Errorf("the summary read back differs:\n%.600s\nput:\n%.600s", got, mustJSON(t, sum))
			}
			w, err := s.Whole(r.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := mustJSON(t, w); got != want {
				t.Errorf("read back whole:\n%.800s\nput:\n%.800s", got, want)
			}
			if string(w.PredictionsJSONL()) != string(r.PredictionsJSONL()) {
				t.Error("the predictions file read back differs")
			}
			if n, err := s.Count(r.ID); err != nil || n != len(r.Predictions)+len(r.Episodes) {
				t.Errorf("Count = %d, %v; want %d", n, err, len(r.Predictions)+len(r.Episodes))
			}
		})
	}
}

// TestRunStoreMovesRunsKeptWhole checks that runs kept whole, as the store kept them before it
// kept records apart (a finished run, and a run a reload interrupted with its landed samples), are
// moved to the new shape when first read, and lose nothing.
func TestRunStoreMovesRunsKeptWhole(t *testing.T) {
	runs := keptRuns(t)
	s := NewMemoryRunStore()
	interrupted := &SavedRun{Format: runFormat, ID: "run-interrupted", Status: runRunning, Predictions: []run.Prediction{}, Episodes: []run.Episode{}, Failures: []run.Failure{}}
	old := map[string]string{}
	for _, r := range append(runs, interrupted) {
		old[r.ID] = mustJSON(t, r)
		if err := s.kv.put(tableRuns, r.ID, []byte(old[r.ID])); err != nil {
			t.Fatal(err)
		}
	}
	landed := Landed{Key: "level-1-given-desc/a.jsonl#3", Pred: run.Prediction{Level: Levels[0], File: "a.jsonl", ID: 3, Pred: "[B()]"}}
	if err := s.Land(interrupted.ID, landed); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Runs()
	if err != nil || len(rs) != len(old) {
		t.Fatalf("Runs: %d runs, %v; want %d", len(rs), err, len(old))
	}
	for _, sum := range rs {
		checkSummary(t, sum)
		b, _, _ := s.kv.get(tableRuns, sum.ID)
		if !strings.HasPrefix(string(b), `{"summary":1,`) {
			t.Errorf("%s is still kept whole: %.80s", sum.ID, b)
		}
		w, err := s.Whole(sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := mustJSON(t, w); got != old[sum.ID] {
			t.Errorf("%s moved:\n%.800s\nwas:\n%.800s", sum.ID, got, old[sum.ID])
		}
	}
	if l, ok, err := s.Record(interrupted.ID, landed.Key); err != nil || !ok || l.Pred != landed.Pred {
		t.Errorf("the interrupted run's landed sample: %+v, %v, %v", l, ok, err)
	}
}

// TestRunStoreDeleteAndClear checks that deleting a run forgets its summary, records and verdicts
// and nothing of another run, and that Clear forgets everything.
func TestRunStoreDeleteAndClear(t *testing.T) {
	runs := keptRuns(t)
	s := NewMemoryRunStore()
	for _, r := range runs[:2] {
		if _, err := s.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	gone, kept := runs[0], runs[1]
	if err := s.Delete(gone.ID); err != nil {
		t.Fatal(err)
	}
	for _, table := range runTables {
		for _, prefix := range []string{gone.ID, kept.ID} {
			n, _ := s.kv.count(table, prefix)
			if want := prefix == kept.ID; (n > 0) != want {
				t.Errorf("table %s: %d values of %s after deleting %s", table, n, prefix, gone.ID)
			}
		}
	}
	if _, err := s.Whole(gone.ID); err == nil {
		t.Error("a deleted run reads back")
	}
	if w, err := s.Whole(kept.ID); err != nil || mustJSON(t, w) != mustJSON(t, kept) {
		t.Errorf("the other run after a delete: %v", err)
	}
	if err := s.Clear(); err != nil {
		t.Fatal(err)
	}
	for _, table := range runTables {
		if n, _ := s.kv.count(table, ""); n != 0 {
			t.Errorf("table %s keeps %d values after Clear", table, n)
		}
	}
}

// TestRunnerStreamsWhatARunHeldWhole checks that a run of the tab, which keeps none of its
// answers, reads back as run.Run holding them whole gives them: the same predictions file, the
// same responses, episodes and verdicts; and that the runner holds its summary only.
func TestRunnerStreamsWhatARunHeldWhole(t *testing.T) {
	useNative(t)
	UseRuns(NewMemoryRunStore(), NewKeyVault())
	srv := startFake(t)
	for _, form := range []string{run.Text, run.Native} {
		t.Run(form, func(t *testing.T) {
			saved := fakeRun(t, srv, form, Levels)
			checkSummary(t, saved)
			if got := runner.State().Last; got != saved {
				t.Fatal("the runner's last run is not the run")
			}
			ref, err := run.Run(context.Background(), tab.Engine.Do, model.New(saved.Settings.Endpoint(testKey)), saved.Settings.Config(), run.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w, err := runStore.Whole(saved.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(w.Predictions) == 0 || len(w.Episodes) == 0 {
				t.Fatalf("%d predictions, %d episodes read back", len(w.Predictions), len(w.Episodes))
			}
			if got, want := string(w.PredictionsJSONL()), string(run.OutJSONL(ref.Predictions, ref.Episodes)); got != want {
				t.Errorf("predictions file read back:\n%.600s\nheld whole:\n%.600s", got, want)
			}
			for name, pair := range map[string][2]any{"responses": {w.Responses, ref.Responses}, "verdicts": {w.Batch, ref.Batch},
				"verdicts in short": {saved.Batch, shortBatch(ref.Batch)}} {
				if got, want := mustJSON(t, pair[0]), mustJSON(t, pair[1]); got != want {
					t.Errorf("%s read back:\n%.600s\nheld whole:\n%.600s", name, got, want)
				}
			}
		})
	}
}

// TestResumeAsksOnlyWhatWasNotKept checks that a run a reload interrupted, with some of its
// records kept, asks the model only for the others and reads back as a whole run does.
func TestResumeAsksOnlyWhatWasNotKept(t *testing.T) {
	useNative(t)
	UseRuns(NewMemoryRunStore(), NewKeyVault())
	srv := startFake(t)
	full := fakeRun(t, srv, run.Text, Levels[:1])
	want, err := runStore.Whole(full.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The same run interrupted after its first sample: its summary says running, one record kept.
	cut := NewSavedRun(full.Settings, full.Data, full.DataHash)
	cut.summary = true
	if err := runStore.PutSummary(cut, nil); err != nil {
		t.Fatal(err)
	}
	first := want.Predictions[0]
	if err := runStore.Land(cut.ID, Landed{Key: predKey(first), Pred: first, Response: want.Responses[predKey(first)]}); err != nil {
		t.Fatal(err)
	}
	srv.Reset()
	rs, err := runStore.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var interrupted *SavedRun
	for _, r := range rs {
		if r.ID == cut.ID {
			interrupted = r
		}
	}
	if err := runner.Resume(interrupted, testKey); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); runner.State().Running; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the resumed run did not end in 60 s")
		}
	}
	if asked, left := len(srv.Requests()), len(want.Predictions)-1; asked != left {
		t.Errorf("the resume asked the model %d times, want %d (the samples not kept)", asked, left)
	}
	got, err := runStore.Whole(cut.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != runDone || string(got.PredictionsJSONL()) != string(want.PredictionsJSONL()) || mustJSON(t, got.Batch) != mustJSON(t, want.Batch) {
		t.Errorf("the resumed run (%s) reads back otherwise than the run it repeats", got.Status)
	}
}
