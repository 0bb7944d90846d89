package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	stdhtml "html"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

const testKey = "sk-app-test-key"

// fakeRun runs the builtin data's first samples against the fake model in a form, as the Run page
// does, and returns the saved run (its summary, as the runner holds it).
func fakeRun(t *testing.T, srv *fakemodel.Server, form string, levels []string) *SavedRun {
	t.Helper()
	s := RunSettings{Preset: "custom", BaseURL: srv.URL(), Model: "fake-model", Form: form, Levels: levels, Concurrency: 2, Limit: 3, Retries: 1}
	data, err := tab.DataName()
	if err != nil {
		t.Fatal(err)
	}
	hash, err := DataHash(levels)
	if err != nil {
		t.Fatal(err)
	}
	saved := NewSavedRun(s, data, hash)
	if err := runner.Start(saved, testKey); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for runner.State().Running {
		if time.Now().After(deadline) {
			t.Fatal("the run did not end in 60 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := runner.State(); st.Err != "" {
		t.Fatal(st.Err)
	}
	time.Sleep(time.Millisecond) // a distinct start time for the next run's ID
	return saved
}

func startFake(t *testing.T) *fakemodel.Server {
	t.Helper()
	yes := true
	srv, err := fakemodel.Start(fakemodel.Script{Key: testKey, Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Role: "tool"}, Reply: fakemodel.Reply{Content: "Done."}},
		{Match: fakemodel.Match{Last: "Response:"}, Reply: fakemodel.Reply{Content: "Done."}},
		{Match: fakemodel.Match{Tools: &yes}, Reply: fakemodel.Reply{Content: "I cannot help."}},
		{Reply: fakemodel.Reply{Content: "[Calculator(formula='1+2')]"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func TestRunsPageRendersTwoRunsAndTheirComparison(t *testing.T) {
	useNative(t)
	UseRuns(NewMemoryRunStore(), NewKeyVault())
	srv := startFake(t)
	levels := []string{Levels[0], Levels[2]}
	a := fakeRun(t, srv, run.Text, levels)
	b := fakeRun(t, srv, run.Native, levels)
	for _, r := range []*SavedRun{a, b} {
		w, err := runStore.Whole(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if w.Status != runDone || len(w.Predictions) != 3 || len(w.Episodes) != 3 || w.Batch == nil {
			t.Fatalf("%s run: status %s, %d predictions, %d episodes", w.Settings.Form, w.Status, len(w.Predictions), len(w.Episodes))
		}
	}
	diffs, err := DisagreementsWithAnswers(a, b)
	if err != nil {
		t.Fatal(err)
	}
	answered := 0
	for _, d := range diffs {
		if d.PredA != "" && d.PredB != "" {
			answered++
		}
	}
	if answered == 0 {
		t.Fatal("no sample judged differently shows both answers")
	}
	if len(diffs) == 0 {
		t.Fatal("the text and native runs answer differently, yet no sample differs")
	}
	p := &RunsPage{}
	html := mount(t, p)
	if got := strings.Count(html, `data-testid="run-row"`); got != 2 {
		t.Fatalf("%d run rows, want 2", got)
	}
	if got := strings.Count(html, `data-testid="compare-row"`); got != len(diffs) {
		t.Fatalf("%d compare rows, want %d", got, len(diffs))
	}
	// The paired test: a row per level (episodes apart) and overall, each with its sentence, as
	// run.Compare makes them.
	c := run.Compare([]*run.Result{{Batch: a.Batch, Episodes: a.Episodes}}, []*run.Result{{Batch: b.Batch, Episodes: b.Episodes}})
	if got := strings.Count(html, `data-testid="paired-row"`); got != len(c.Levels)+1 || len(c.Levels) != 2 {
		t.Fatalf("%d paired rows, want %d (level 1, level-3 episodes, all)", got, len(c.Levels)+1)
	}
	for _, l := range append(c.Levels, c.Overall) {
		if !strings.Contains(html, stdhtml.EscapeString(l.Sentence)) {
			t.Errorf("the page lacks the sentence %q", l.Sentence)
		}
	}
	if strings.Contains(html, testKey) {
		t.Fatal("the key is on the Runs page")
	}
	whole, err := runStore.Whole(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	saved, _ := json.Marshal(whole)
	if strings.Contains(string(saved), testKey) || strings.Contains(string(whole.PredictionsJSONL()), testKey) {
		t.Fatal("the key is in a saved run")
	}
}

func TestShareFragmentRoundTrip(t *testing.T) {
	r := &SavedRun{Format: runFormat, ID: "run-1", Host: "h", Settings: RunSettings{Model: "m", Form: run.Text},
		Predictions: []run.Prediction{{Level: Levels[0], File: "f.jsonl", ID: 0, Pred: "[A(b='c')]"}},
		Responses:   map[string]model.Response{"k": {Content: "big"}},
		Episodes:    []run.Episode{{Level: run.Level3, File: "s.json", Transcript: []model.Message{{Role: "user", Content: "x"}}}}}
	frag, err := ShareFragment(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseShareFragment("#" + frag)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != r.ID || len(got.Predictions) != 1 || got.Predictions[0] != r.Predictions[0] || got.Responses != nil || got.Episodes[0].Transcript != nil {
		t.Fatalf("round trip: %+v", got)
	}
	big := *r
	big.Predictions = nil
	for i := 0; i < 40000; i++ {
		big.Predictions = append(big.Predictions, run.Prediction{Level: Levels[0], File: "f.jsonl", ID: i, Pred: strings.Repeat(string(rune('a'+i%26)), i%97)})
	}
	if _, err := ShareFragment(&big); err == nil || !strings.Contains(err.Error(), "too large for a link") {
		t.Fatalf("a huge run: %v", err)
	}
	for _, bad := range []string{"x=1", "run=***", "run=AAAA"} {
		if _, err := ParseShareFragment(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestWilson(t *testing.T) {
	tests := []struct {
		k, n      int
		low, high float64
	}{
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{5, 10, 0.2366, 0.7634},
		{81, 263, 0.2553, 0.3662},
		{0, 0, 0, 1},
	}
	for _, tt := range tests {
		got := Wilson(tt.k, tt.n)
		if math.Abs(got.Low-tt.low) > 5e-4 || math.Abs(got.High-tt.high) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = %.4f–%.4f, want %.4f–%.4f", tt.k, tt.n, got.Low, got.High, tt.low, tt.high)
		}
	}
}

func TestTestConnection(t *testing.T) {
	srv := startFake(t)
	tests := []struct {
		name   string
		key    string
		want   []string
		bad    bool
		script *fakemodel.Script
	}{
		{"works", testKey, []string{"CORS allows it", `"fake-model" is listed`, "came back as text, not tool_calls"}, false, nil},
		{"wrong key", "sk-wrong", []string{"refuses the key (HTTP 401)"}, true, nil},
		{"no model list", testKey, []string{"does not list models (GET /models: HTTP 404)"}, false, &fakemodel.Script{Key: testKey, NoModels: true, Rules: []fakemodel.Rule{{Reply: fakemodel.Reply{Content: "no tools here"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.script != nil {
				if err := srv.SetScript(*tt.script); err != nil {
					t.Fatal(err)
				}
			}
			s := model.Settings{BaseURL: srv.URL(), Model: "fake-model", APIKey: tt.key, Retries: -1}
			lines, bad := TestConnection(context.Background(), model.New(s), "fake-model")
			text := strings.Join(lines, "\n")
			if bad != tt.bad {
				t.Errorf("bad = %v, want %v:\n%s", bad, tt.bad, text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("lacks %q:\n%s", w, text)
				}
			}
			if strings.Contains(text, tt.key) {
				t.Error("the key is in the report")
			}
		})
	}
}

// TestHashInSteps checks that hashing in steps gives SHA-256 of the whole input, with a turn of
// the page between two steps and none after the last.
func TestHashInSteps(t *testing.T) {
	for _, tc := range []struct {
		name   string
		size   int
		yields int
	}{
		{"empty", 0, 0},
		{"under a step", 100, 0},
		{"one step exactly", hashStep, 0},
		{"a byte over a step", hashStep + 1, 1},
		{"a level's list", 124193, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bytes.Repeat([]byte("sample "), tc.size/7+1)[:tc.size]
			h := sha256.New()
			yields := 0
			hashInSteps(h, b, func() { yields++ })
			want := sha256.Sum256(b)
			if !bytes.Equal(h.Sum(nil), want[:]) {
				t.Error("the hash in steps differs from SHA-256 of the whole input")
			}
			if yields != tc.yields {
				t.Errorf("%d yields, want %d", yields, tc.yields)
			}
		})
	}
}

func TestStoppedNote(t *testing.T) {
	refused := run.Failure{Task: run.Task{Level: "level-1-given-desc", File: "a.jsonl"}, Message: "model: no answer from h: connection refused"}
	notAsked := run.Failure{Task: run.Task{Level: "level-1-given-desc", File: "b.jsonl"}, Message: "not asked: the endpoint was not reached (model: no answer from h)", NotAsked: true}
	busy := run.Failure{Task: run.Task{Level: "level-1-given-desc", File: "c.jsonl"}, Status: 503, Message: "overloaded"}
	tests := []struct {
		name     string
		failures []run.Failure
		want     string // in the note; "" for no note
	}{
		{"every task asked", []run.Failure{refused, busy}, ""},
		{"no failure", nil, ""},
		{"two unreached, three not asked", []run.Failure{busy, refused, refused, notAsked, notAsked, notAsked}, "The run stopped asking: the endpoint was not reached (model: no answer from h). The other 3 samples were not asked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := stoppedNote(tt.failures)
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("stoppedNote = %q, want one holding %q", got, tt.want)
			}
		})
	}
}
