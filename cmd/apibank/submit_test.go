package main

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/api"
	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/class/sqlite"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/boardtest"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// freshPool gives each request a new in-process engine session, as the Worker does.
type freshPool struct{}

func (freshPool) Acquire(ctx context.Context) (protocol.Transport, func(bool), error) {
	return boardtest.Engine(), func(bool) {}, nil
}

// startBoard serves a board over an SQLite file and returns its site's URL.
func startBoard(t *testing.T) string {
	t.Helper()
	return startSeasonBoard(t, 0)
}

// startSeasonBoard serves a board of season (0: none) over an SQLite file and returns its site's URL.
func startSeasonBoard(t *testing.T, season int64) string {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "board.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv := httptest.NewServer(api.New(freshPool{}, api.Limits{}, api.WithBoard(api.Board{Store: store, Engine: "test-build", Season: season})))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestSubmit: `run` records its settings beside its predictions; `submit` sends both to a board,
// which judges them again, and prints the scores, the entry's page and the owner key once;
// `retract` takes the key from the environment.
func TestSubmit(t *testing.T) {
	srv := startGold(t, false)
	boardURL := startBoard(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "run.jsonl")
	_, stderr, code := runCapture(t, "run", "--native", "--base-url", srv.URL(), "--model", "perfect", "--api-key-env", "NO_SUCH_KEY_VAR",
		"--level", "level-1-given-desc", "--limit", "6", "--trials", "2", "--out", out)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "run.run.json"))
	if err != nil {
		t.Fatalf("run wrote no record: %v", err)
	}
	var rec run.Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Run.Model != "perfect" || rec.Run.Trials != 2 || len(rec.Trials) != 2 || rec.Run.Limit != 6 || rec.Run.DataHash == "" ||
		rec.Run.Encoder != run.EncoderVersion || rec.Run.Source != "cli" || rec.Run.Started == "" || rec.Run.Ended == "" || rec.Run.TokensIn == 0 ||
		!strings.HasPrefix(srv.URL(), "http://"+rec.Run.Host) || rec.Trials[1].File != "run.trial-2.jsonl" {
		t.Errorf("the record: %s", raw)
	}
	if strings.Contains(string(raw), "NO_SUCH_KEY_VAR") || strings.Contains(string(raw), srv.URL()) {
		t.Errorf("the record holds more than the endpoint's host: %s", raw)
	}

	stdout, stderr, code := runCapture(t, "submit", out, "--board", boardURL)
	if code != 0 {
		t.Fatalf("submit: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"perfect, text form", "level-1-given-desc", "100.0%", "partial:", boardURL + "/board#", "owner key"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("submit's output lacks %q:\n%s", want, stdout)
		}
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	key := lines[len(lines)-1]
	id := stdout[strings.Index(stdout, "entry ")+6:][:12]

	t.Setenv(ownerKeyEnv, "not-the-key")
	if _, stderr, code := runCapture(t, "retract", id, "--board", boardURL); code != 1 || !strings.Contains(stderr, "401") {
		t.Errorf("retract with a wrong key: exit %d, %s", code, stderr)
	}
	t.Setenv(ownerKeyEnv, key)
	if stdout, stderr, code := runCapture(t, "retract", id, "--board", boardURL+"/api/v1/board"); code != 0 || !strings.Contains(stdout, "retracted") {
		t.Errorf("retract: exit %d, %s%s", code, stdout, stderr)
	}
}

// TestSubmitRefused: a run without its record, and a garbled line, named as file:line.
func TestSubmitRefused(t *testing.T) {
	boardURL := startBoard(t)
	dir := t.TempDir()
	lone := filepath.Join(dir, "lone.jsonl")
	os.WriteFile(lone, []byte(`{"file":"x","id":0,"pred":""}`+"\n"), 0o644)
	if _, stderr, code := runCapture(t, "submit", lone, "--board", boardURL); code != 1 || !strings.Contains(stderr, "no run record") {
		t.Errorf("a run without its record: exit %d, %s", code, stderr)
	}

	sub := boardtest.Run(t, run.Text, "level-1-given-desc")
	ls := strings.Split(sub.Trials[0].Predictions, "\n")
	ls[4] = `{"level": "level-1-given-desc", "file": oops}`
	out := filepath.Join(dir, "run.jsonl")
	os.WriteFile(out, []byte(strings.Join(ls, "\n")), 0o644)
	rec, _ := json.Marshal(run.Record{Format: run.RecordFormat, Run: sub.Run, Trials: []run.RecordTrial{{File: "run.jsonl"}}})
	os.WriteFile(run.RecordPath(out), rec, 0o644)
	if _, stderr, code := runCapture(t, "submit", out, "--board", boardURL); code != 1 || !strings.Contains(stderr, out+":5:") || !strings.Contains(stderr, "HTTP 400") {
		t.Errorf("a garbled line: exit %d, %s", code, stderr)
	}
	if _, _, code := runCapture(t, "submit", out, "--board", "ftp://example.com"); code != 2 {
		t.Errorf("a board URL that is not http(s): exit %d, want 2", code)
	}
}

// TestSubmitSeason: `run --seed 7` against the perfect model of variant 7 records the seed; submitted
// to a board of season 7 it is judged on the variant, right everywhere, and ranked; submitted to a
// board without a season (or of another) it is judged on its own variant all the same, and submit
// says it is listed apart and how to make a run that board ranks.
func TestSubmitSeason(t *testing.T) {
	m, err := goldmodel.Load("builtin", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LearnVariants([]int64{7}); err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(fakemodel.Script{})
	if err != nil {
		t.Fatal(err)
	}
	srv.SetOracle(m)
	t.Cleanup(func() { srv.Close() })
	out := filepath.Join(t.TempDir(), "season.jsonl")
	if _, stderr, code := runCapture(t, "run", "--seed", "7", "--base-url", srv.URL(), "--model", "perfect", "--api-key-env", "NO_SUCH_KEY_VAR",
		"--level", "level-1-given-desc", "--out", out); code != 0 {
		t.Fatalf("run --seed 7: exit %d\n%s", code, stderr)
	}
	var rec run.Record
	if raw, err := os.ReadFile(run.RecordPath(out)); err != nil || json.Unmarshal(raw, &rec) != nil || rec.Run.Seed != 7 {
		t.Fatalf("the record of run --seed 7: %+v, %v", rec.Run, err)
	}
	for _, tt := range []struct {
		name    string
		season  int64
		section string
		says    []string
		not     string
	}{
		{"a board of season 7", 7, board.SectionRanked, []string{"made on season 7's variant", "100.0%"}, "listed apart"},
		{"a board without a season", 0, board.SectionLegacy,
			[]string{"made on variant 7,", "100.0%", "the board ranks the original data: the entry is listed apart", "apibank run without --seed"}, "season 7"},
		{"a board of season 8", 8, board.SectionLegacy, []string{"100.0%", "the board ranks season 8's variant", "apibank run --seed 8"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			boardURL := startSeasonBoard(t, tt.season)
			stdout, stderr, code := runCapture(t, "submit", out, "--board", boardURL)
			if code != 0 {
				t.Fatalf("submit: exit %d\n%s%s", code, stdout, stderr)
			}
			for _, want := range tt.says {
				if !strings.Contains(stdout, want) {
					t.Errorf("submit's output lacks %q:\n%s", want, stdout)
				}
			}
			if tt.not != "" && strings.Contains(stdout, tt.not) {
				t.Errorf("submit's output says %q:\n%s", tt.not, stdout)
			}
			resp, err := http.Get(boardURL + "/api/v1/board?level=level-1-given-desc")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var view board.View
			if err := json.NewDecoder(resp.Body).Decode(&view); err != nil || len(view.Rows) != 1 {
				t.Fatalf("the board: %+v, %v", view, err)
			}
			if r := view.Rows[0]; r.Section != tt.section || r.Entry.Seed != 7 || r.Entry.Score.Overall.Accuracy != 1 || view.Current.Season != tt.season {
				t.Errorf("the entry is %s (%q), seed %d, accuracy %v on a board of season %d; want %s, judged right on variant 7",
					r.Section, r.Why, r.Entry.Seed, r.Entry.Score.Overall.Accuracy, view.Current.Season, tt.section)
			}
		})
	}
}

// download saves what url answers in dir under the name its Content-Disposition gives, and returns
// its path.
func download(t *testing.T, url, dir string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
	if resp.StatusCode != 200 || err != nil || params["filename"] == "" || filepath.Base(params["filename"]) != params["filename"] {
		t.Fatalf("GET %s: %d, Content-Disposition %q", url, resp.StatusCode, resp.Header.Get("Content-Disposition"))
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, params["filename"])
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBoardDownloadsJudgedAsTheBoardJudged: an entry's predictions download under a name that says
// the seed of its data (apibank score --seed S judges them), and its run record downloads under
// the name apibank run gives a record beside them: saved together, apibank score judges each
// trial on the entry's data without being told, to the board's numbers. (The predictions of a
// season's entry, judged on the builtin data, were counted wrong without a word.)
func TestBoardDownloadsJudgedAsTheBoardJudged(t *testing.T) {
	srv := goldServer(t, []int64{7})
	for _, tt := range []struct {
		name   string
		seed   int64
		trials int
		data   string // the data score says it judged on
		named  string // in the predictions' file names
	}{
		{"season 7, one trial", 7, 1, "builtin~s7", ".seed-7.jsonl"},
		{"season 7, two trials", 7, 2, "builtin~s7", ".seed-7.trial-"},
		{"the builtin data", 0, 1, "builtin", "-"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "m.jsonl")
			args := []string{"run", "--native", "--seed", itoa(int(tt.seed)), "--trials", itoa(tt.trials), "--base-url", srv.URL(), "--model", "perfect",
				"--api-key-env", "NO_SUCH_KEY_VAR", "--level", "level-1-given-desc", "--limit", "8", "--out", out}
			if _, stderr, code := runCapture(t, args...); code != 0 {
				t.Fatalf("run: exit %d\n%s", code, stderr)
			}
			boardURL := startSeasonBoard(t, tt.seed)
			stdout, stderr, code := runCapture(t, "submit", out, "--board", boardURL, "--json")
			var made board.Submitted
			if code != 0 || json.Unmarshal([]byte(stdout), &made) != nil {
				t.Fatalf("submit: exit %d\n%s%s", code, stdout, stderr)
			}
			entry := boardURL + "/api/v1/board/" + made.Entry.ID
			dir := t.TempDir()
			record := download(t, entry+"/record", dir)
			for trial := 1; trial <= tt.trials; trial++ {
				preds := download(t, entry+"/predictions?trial="+itoa(trial), dir)
				if !strings.Contains(filepath.Base(preds), tt.named) || strings.Contains(filepath.Base(preds), ".seed-") != (tt.seed != 0) {
					t.Errorf("trial %d downloads as %s; want its name to hold %q, and a seed only when there is one", trial, filepath.Base(preds), tt.named)
				}
				if rec, ok := recordOf(preds); !ok || rec.seed != tt.seed || rec.record != record {
					t.Fatalf("the record of %s: %+v, found %v; want seed %d in %s", preds, rec, ok, tt.seed, record)
				}
				stdout, stderr, code := runCapture(t, "score", "--native", "--json", "--preds", preds)
				var rep protocol.Report
				if err := json.Unmarshal([]byte(stdout), &rep); code != 0 || err != nil || rep.Data != tt.data || rep.Overall.Accuracy != made.Entry.Score.Overall.Accuracy {
					t.Errorf("score --preds %s: exit %d, judged on %q, accuracy %v; want %s, the board's %v\n%s",
						preds, code, rep.Data, rep.Overall.Accuracy, tt.data, made.Entry.Score.Overall.Accuracy, stderr)
				}
			}
		})
	}
}
