package api

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/class/sqlite"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/boardtest"
)

// boardTestAPI is the board's API over an SQLite file, with its log kept for reading.
type boardTestAPI struct {
	h    http.Handler
	logs *bytes.Buffer
	mu   *sync.Mutex
	db   string
}

func newBoardAPI(t *testing.T, db string, limits BoardLimits) *boardTestAPI {
	t.Helper()
	store, err := sqlite.Open(context.Background(), db, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	a := &boardTestAPI{logs: &bytes.Buffer{}, mu: &sync.Mutex{}, db: db}
	logger := slog.New(slog.NewJSONHandler(lockedWriter{a.mu, a.logs}, nil))
	a.h = New(&nativePool{}, Limits{}, WithBoard(Board{Store: store, Engine: "test-build", Logger: logger, Limits: limits,
		ClientAddr: func(r *http.Request) string { return r.Header.Get("X-Test-Client") }}))
	return a
}

func (a *boardTestAPI) do(method, path string, body []byte, header ...string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	a.h.ServeHTTP(rec, req)
	return rec
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBoardLifecycle: a submission is judged and ranked; its verdicts and predictions are served;
// a worse run ranks below; a wrong key cannot retract it, the owner's can, and it stays listed as
// retracted; the store keeps everything across a restart; the owner key is in no log line.
func TestBoardLifecycle(t *testing.T) {
	db := filepath.Join(t.TempDir(), "board.db")
	a := newBoardAPI(t, db, BoardLimits{})
	perfect := boardtest.Run(t, run.Text)
	rec := a.do("POST", BoardPath, mustJSON(t, perfect))
	if rec.Code != http.StatusCreated {
		t.Fatalf("submission answered %d: %s", rec.Code, rec.Body.String())
	}
	var made board.Submitted
	if err := json.Unmarshal(rec.Body.Bytes(), &made); err != nil || made.OwnerKey == "" || !board.ValidID(made.Entry.ID) {
		t.Fatalf("answer %s (err %v)", rec.Body.String(), err)
	}
	if !made.Entry.Score.Complete || made.Entry.Score.Overall.Accuracy != 1 || !made.Entry.RunData || made.Entry.Engine != "test-build" {
		t.Errorf("the perfect run's entry: %+v", made.Entry)
	}
	worse := boardtest.Worse(t, perfect, 5)
	if rec := a.do("POST", BoardPath, mustJSON(t, worse)); rec.Code != http.StatusCreated {
		t.Fatalf("second submission answered %d: %s", rec.Code, rec.Body.String())
	}

	var view board.View
	if rec := a.do("GET", BoardPath, nil); rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &view) != nil {
		t.Fatalf("GET %s answered %d: %s", BoardPath, rec.Code, rec.Body.String())
	}
	if len(view.Rows) != 2 || view.Rows[0].Entry.ID != made.Entry.ID || view.Rows[0].Rank != 1 || view.Rows[1].Rank != 2 || view.Rows[1].Tied {
		t.Fatalf("rows %+v, want the perfect run first and the worse one second, not tied", ids(view.Rows))
	}
	if view.Current.Engine != "test-build" || view.Current.Data != made.Entry.Data {
		t.Errorf("current %+v, entry judged on %s", view.Current, made.Entry.Data)
	}

	var ev board.EntryView
	if rec := a.do("GET", BoardPath+"/"+made.Entry.ID, nil); rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &ev) != nil {
		t.Fatalf("GET the entry answered %d: %s", rec.Code, rec.Body.String())
	}
	if len(ev.Verdicts) != made.Entry.Score.Expected {
		t.Errorf("%d verdicts, want %d", len(ev.Verdicts), made.Entry.Score.Expected)
	}
	rec = a.do("GET", BoardPath+"/"+made.Entry.ID+"/predictions", nil)
	if rec.Code != 200 || rec.Body.String() != perfect.Trials[0].Predictions {
		t.Errorf("the predictions download answered %d, %d bytes, want the %d submitted", rec.Code, rec.Body.Len(), len(perfect.Trials[0].Predictions))
	}
	if cd := rec.Header().Get("Content-Disposition"); !strings.Contains(cd, "perfect-"+made.Entry.ID+".jsonl") {
		t.Errorf("Content-Disposition %q", cd)
	}

	if rec := a.do("DELETE", BoardPath+"/"+made.Entry.ID, nil, "Authorization", "Bearer wrong"); rec.Code != http.StatusUnauthorized {
		t.Errorf("retracting with a wrong key answered %d", rec.Code)
	}
	if rec := a.do("DELETE", BoardPath+"/"+made.Entry.ID, nil, "Authorization", "Bearer "+made.OwnerKey); rec.Code != 200 {
		t.Fatalf("retracting with the owner key answered %d: %s", rec.Code, rec.Body.String())
	}

	// A restart: a new handler over the same file.
	b := newBoardAPI(t, db, BoardLimits{})
	if rec := b.do("GET", BoardPath, nil); rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &view) != nil {
		t.Fatalf("GET after a restart answered %d", rec.Code)
	}
	if len(view.Rows) != 2 {
		t.Fatalf("after a restart: %v", ids(view.Rows))
	}
	if view.Rows[0].Section != board.SectionRanked || view.Rows[0].Rank != 1 || view.Rows[1].Entry.ID != made.Entry.ID || view.Rows[1].Section != board.SectionRetracted {
		t.Errorf("after the retraction and a restart: %v, want the worse run ranked first and the retracted one listed", ids(view.Rows))
	}
	for _, l := range []*boardTestAPI{a, b} {
		l.mu.Lock()
		if strings.Contains(l.logs.String(), made.OwnerKey) {
			t.Errorf("the owner key is in the log: %s", l.logs.String())
		}
		l.mu.Unlock()
	}
}

func ids(rows []board.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Entry.ID+"/"+r.Section)
	}
	return out
}

// TestBoardRefuses: bad input is 400 with its line, a body over the limit 413, a client over its
// daily submissions 429 with Retry-After; none is 5xx, and what was refused is not listed.
func TestBoardRefuses(t *testing.T) {
	a := newBoardAPI(t, filepath.Join(t.TempDir(), "board.db"), BoardLimits{MaxBody: 2 << 20, SubmissionsPerAddress: 3})
	sub := boardtest.Run(t, run.Text, "level-1-given-desc")
	ls := strings.Split(strings.TrimSuffix(sub.Trials[0].Predictions, "\n"), "\n")
	garbled := sub
	garbled.Trials = []board.Trial{{Predictions: strings.Join(append([]string{ls[0], ls[1], "{not json"}, ls[3:]...), "\n") + "\n"}}
	rec := a.do("POST", BoardPath, mustJSON(t, garbled), "X-Test-Client", "a")
	var e struct{ Error Error }
	if rec.Code != 400 || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error.Line != 3 || !strings.Contains(e.Error.Message, "trial 1, line 3") {
		t.Errorf("a garbled line answered %d: %s", rec.Code, rec.Body.String())
	}
	if rec := a.do("POST", BoardPath, []byte(`{"format": "apibank-playground/submission@1",`+"\n"+`"run": 7}`), "X-Test-Client", "a"); rec.Code != 400 || !strings.Contains(rec.Body.String(), `"line":2`) {
		t.Errorf("a body of the wrong shape answered %d: %s", rec.Code, rec.Body.String())
	}
	big := sub
	big.Trials = []board.Trial{{Predictions: strings.Repeat(ls[0]+"\n", 3<<20/len(ls[0]))}}
	if rec := a.do("POST", BoardPath, mustJSON(t, big), "X-Test-Client", "b"); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over the limit answered %d: %s", rec.Code, rec.Body.String())
	}
	// Client "a" has made one submission judged and refused (a body not of a submission's shape
	// is not counted): two more are taken, the next refused.
	for i := range 2 {
		if rec := a.do("POST", BoardPath, mustJSON(t, sub), "X-Test-Client", "a"); rec.Code != 201 {
			t.Fatalf("submission %d answered %d: %s", i+2, rec.Code, rec.Body.String())
		}
	}
	rec = a.do("POST", BoardPath, mustJSON(t, sub), "X-Test-Client", "a")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Errorf("the fourth submission of one address answered %d (Retry-After %q)", rec.Code, rec.Header().Get("Retry-After"))
	}
	if rec := a.do("POST", BoardPath, mustJSON(t, sub), "X-Test-Client", "c"); rec.Code != 201 {
		t.Errorf("another address answered %d", rec.Code)
	}
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", BoardPath + "/nothex", 404},
		{"GET", BoardPath + "/0123456789ab", 404},
		{"GET", BoardPath + "/0123456789ab/predictions", 404},
		{"DELETE", BoardPath + "/0123456789ab", 404},
		{"PUT", BoardPath, 405},
		{"GET", BoardPath + "?form=smoke", 400},
		{"GET", BoardPath + "?level=level-9", 400},
	} {
		if rec := a.do(tc.method, tc.path, nil); rec.Code != tc.status {
			t.Errorf("%s %s answered %d, want %d: %s", tc.method, tc.path, rec.Code, tc.status, rec.Body.String())
		}
	}
	var view board.View
	if rec := a.do("GET", BoardPath, nil); rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &view) != nil || len(view.Entries) != 3 {
		t.Errorf("GET answered %d and lists %d entries, want the 3 accepted", rec.Code, len(view.Entries))
	}
}

// documentBoardExchanges submits a run through h and returns an exchange for every answer of the
// board endpoints the document lists (checked against it by TestAnswersMatchTheDocument), in an
// order that works: h's board limits must be a body of 1 MiB and 3 submissions an address.
func documentBoardExchanges(t *testing.T, h http.Handler) []exchange {
	t.Helper()
	sub := boardtest.Run(t, run.Text, "level-1-given-desc")
	body := string(mustJSON(t, sub))
	rec := do(t, h, exchange{method: "POST", path: BoardPath, body: body})
	var made board.Submitted
	if rec.Code != 201 || json.Unmarshal(rec.Body.Bytes(), &made) != nil {
		t.Fatalf("submitting: %d %s", rec.Code, rec.Body)
	}
	path := BoardPath + "/" + made.Entry.ID
	bearer := map[string]string{"Authorization": "Bearer " + made.OwnerKey}
	wrong := map[string]string{"Authorization": "Bearer " + made.OwnerKey[1:]}
	garbled := sub
	garbled.Trials = []board.Trial{{Predictions: "{\"file\": 1\n"}}
	return []exchange{
		{"board view", "GET", BoardPath, nil, "", 200, []string{`"rows":[`, made.Entry.ID}},
		{"board view level", "GET", BoardPath + "?level=level-1-given-desc&form=text", nil, "", 200, []string{`"section":"ranked"`}},
		{"board view bad form", "GET", BoardPath + "?form=yaml", nil, "", 400, []string{"yaml"}},
		{"board submit", "POST", BoardPath, nil, body, 201, []string{`"owner_key":"`, `"complete":true`}},
		{"board submit bad", "POST", BoardPath, nil, string(mustJSON(t, garbled)), 400, []string{`"line":1`, "trial 1, line 1"}},
		{"board submit too large", "POST", BoardPath, nil, strings.Repeat(" ", 1<<20+1), 413, []string{"too_large"}},
		{"board submit limit", "POST", BoardPath, nil, body, 429, []string{"too_many_requests"}},
		{"board entry", "GET", path, nil, "", 200, []string{`"verdicts":[`}},
		{"board entry unknown", "GET", BoardPath + "/0123456789ab", nil, "", 404, []string{"not_found"}},
		{"board predictions", "GET", path + "/predictions", nil, "", 200, nil},
		{"board predictions no trial", "GET", path + "/predictions?trial=2", nil, "", 404, []string{"1 trials"}},
		{"board record", "GET", path + "/record", nil, "", 200, []string{`"format":"apibank-playground/run-record@1"`, `"file":"` + board.FileName(made.Entry, 1) + `"`}},
		{"board record unknown", "GET", BoardPath + "/0123456789ab/record", nil, "", 404, []string{"not_found"}},
		{"board retract wrong key", "DELETE", path, wrong, "", 401, []string{"unauthorized"}},
		{"board retract", "DELETE", path, bearer, "", 200, []string{`"retracted":`}},
		{"board retract unknown", "DELETE", BoardPath + "/0123456789ab", bearer, "", 404, []string{"not_found"}},
	}
}

// newSeasonAPI is the board's API of season over the SQLite file db, with the clock at now.
func newSeasonAPI(t *testing.T, db string, season int64, now time.Time) http.Handler {
	t.Helper()
	store, err := sqlite.Open(context.Background(), db, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return New(&nativePool{}, Limits{}, WithBoard(Board{Store: store, Engine: "test-build", Season: season, Now: func() time.Time { return now }}))
}

// TestBoardSeason: a board of season 7 judges every run on the data it was made on (every perfect
// run is right everywhere), ranks the run made on season 7's variant and lists apart, saying on
// which data, the runs of the original data and of season 41; it answers its season and since when
// it ranks it, which a restart of the store (later) keeps; the answers are the document's. The same
// store without a season ranks the original run and lists the variants' runs apart.
func TestBoardSeason(t *testing.T) {
	const L1 = "level-1-given-desc"
	v, err := newValidator(openAPI)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "board.db")
	first := time.Date(2026, 12, 6, 9, 30, 0, 0, time.UTC)
	h := newSeasonAPI(t, db, 7, first)
	send := func(h http.Handler, method, path string, body []byte, want int, into any) {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(method, path, bytes.NewReader(body)))
		if rec.Code != want {
			t.Fatalf("%s %s answered %d, want %d: %.500s", method, path, rec.Code, want, rec.Body.String())
		}
		docPath := path
		if i := strings.IndexByte(docPath, '?'); i >= 0 {
			docPath = docPath[:i]
		}
		resp, err := v.response(docPath, method, rec.Code)
		if err == nil {
			err = v.checkAnswer(resp, rec.Header().Get("Content-Type"), rec.Body.Bytes())
		}
		if err != nil {
			t.Errorf("%s %s: the answer is not the document's: %v", method, path, err)
		}
		if err := json.Unmarshal(rec.Body.Bytes(), into); err != nil {
			t.Fatal(err)
		}
	}

	runs := []struct {
		name    string
		sub     board.Submission
		section string
		why     string
	}{
		{"season 7", boardtest.RunOn(t, 7, run.Text, L1), board.SectionRanked, ""},
		{"original", boardtest.Run(t, run.Text, L1), board.SectionLegacy, "made on the original data"},
		{"season 41", boardtest.RunOn(t, 41, run.Text, L1), board.SectionLegacy, "made on season 41's variant"},
	}
	made := map[string]board.Entry{}
	for _, r := range runs {
		r.sub.Run.Model = r.name
		var m board.Submitted
		send(h, "POST", BoardPath, mustJSON(t, r.sub), http.StatusCreated, &m)
		e := m.Entry
		if e.Seed != r.sub.Run.Seed || m.Season != 7 || !e.RunData || !e.Score.Complete || e.Score.Overall.Accuracy != 1 {
			t.Errorf("%s: entry seed %d (run %d), board season %d, run data %v, complete %v, accuracy %v: want judged right on its own data",
				r.name, e.Seed, r.sub.Run.Seed, m.Season, e.RunData, e.Score.Complete, e.Score.Overall.Accuracy)
		}
		made[r.name] = e
	}
	if d := made["season 7"].Data; d == made["original"].Data || d == made["season 41"].Data || made["original"].Data == made["season 41"].Data {
		t.Errorf("the entries' data hashes are not the data of each: %s, %s, %s", d, made["original"].Data, made["season 41"].Data)
	}

	check := func(h http.Handler, when string, since time.Time) {
		t.Helper()
		var view board.View
		send(h, "GET", BoardPath+"?level="+L1, nil, http.StatusOK, &view)
		if c := view.Current; c.Season != 7 || c.Since == nil || !c.Since.Equal(since) || c.Data != made["season 7"].Data {
			t.Errorf("%s: current %+v, want season 7 since %v on data %s", when, c, since, made["season 7"].Data)
		}
		if len(view.Rows) != len(runs) {
			t.Fatalf("%s: rows %v", when, ids(view.Rows))
		}
		for _, r := range runs {
			for _, row := range view.Rows {
				if row.Entry.ID == made[r.name].ID && (row.Section != r.section || row.Why != r.why) {
					t.Errorf("%s: %s is %s (%q), want %s (%q)", when, r.name, row.Section, row.Why, r.section, r.why)
				}
			}
		}
	}
	check(h, "first", first)
	// A restart, days later: the season is ranked since the first time all the same.
	check(newSeasonAPI(t, db, 7, first.AddDate(0, 0, 3)), "after a restart", first)

	// The same store without a season: the original run is ranked, the variants' runs apart.
	var plain board.View
	send(newSeasonAPI(t, db, 0, first), "GET", BoardPath+"?level="+L1, nil, http.StatusOK, &plain)
	if plain.Current.Season != 0 || plain.Current.Since != nil || plain.Current.Data != made["original"].Data {
		t.Errorf("without a season: current %+v", plain.Current)
	}
	for _, row := range plain.Rows {
		want := board.SectionLegacy
		if row.Entry.ID == made["original"].ID {
			want = board.SectionRanked
		}
		if row.Section != want {
			t.Errorf("without a season: %s is %s (%q), want %s", row.Entry.Run.Model, row.Section, row.Why, want)
		}
	}
}

// TestBoardSeasonSince: a season is ranked since the host first ranked it, by a read of the board or
// by a submission ranked on it, whichever came first, so that no ranked entry predates "since"
// (on a fresh database a run submitted on the season and read later is ranked since it came); a
// submission on other data, or one refused, does not start it. A process that kept a later time
// learns an earlier one from the entries it reads (another process's submission, or an entry made on
// the variant before the host ranked the season), and a retracted entry, never ranked, moves nothing.
func TestBoardSeasonSince(t *testing.T) {
	const L1 = "level-1-given-desc"
	t0 := time.Date(2026, 12, 6, 17, 21, 14, 0, time.UTC)
	type host struct {
		h     http.Handler
		clock *clock
	}
	open := func(db string, season int64, at time.Time) host {
		t.Helper()
		store, err := sqlite.Open(context.Background(), db, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		c := &clock{now: at}
		return host{New(&nativePool{}, Limits{}, WithBoard(Board{Store: store, Engine: "test-build", Season: season, Now: c.Now})), c}
	}
	do := func(h host, method, path string, body []byte, want int, header ...string) []byte {
		t.Helper()
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(method, path, bytes.NewReader(body))
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		h.h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Fatalf("%s %s answered %d, want %d: %.500s", method, path, rec.Code, want, rec.Body.String())
		}
		return rec.Body.Bytes()
	}
	submit := func(h host, sub board.Submission) board.Entry {
		t.Helper()
		var m board.Submitted
		if err := json.Unmarshal(do(h, "POST", BoardPath, mustJSON(t, sub), http.StatusCreated), &m); err != nil {
			t.Fatal(err)
		}
		return m.Entry
	}
	since := func(h host, what string, want time.Time) {
		t.Helper()
		var view board.View
		if err := json.Unmarshal(do(h, "GET", BoardPath+"?level="+L1, nil, http.StatusOK), &view); err != nil {
			t.Fatal(err)
		}
		if view.Current.Since == nil || !view.Current.Since.Equal(want) {
			t.Errorf("%s: ranked since %v, want %v", what, view.Current.Since, want)
		}
		for _, r := range view.Rows {
			if r.Section == board.SectionRanked && view.Current.Since != nil && r.Entry.Created.Before(*view.Current.Since) {
				t.Errorf("%s: entry %s, ranked, came at %v, before since %v", what, r.Entry.ID, r.Entry.Created, view.Current.Since)
			}
		}
	}
	season := boardtest.RunOn(t, 7, run.Text, L1)
	original := boardtest.Run(t, run.Text, L1)
	other := boardtest.RunOn(t, 41, run.Text, L1)

	t.Run("a submission ranked before the first read", func(t *testing.T) {
		h := open(filepath.Join(t.TempDir(), "board.db"), 7, t0)
		e := submit(h, season)
		h.clock.Advance(14 * time.Second)
		since(h, "read 14 s after the entry came", e.Created)
		h.clock.Advance(time.Hour)
		since(h, "read an hour later", e.Created)
	})
	t.Run("a read before any submission", func(t *testing.T) {
		h := open(filepath.Join(t.TempDir(), "board.db"), 7, t0)
		since(h, "the first read", t0)
		h.clock.Advance(time.Minute)
		submit(h, season)
		since(h, "after a submission", t0)
	})
	t.Run("submissions that rank nothing on the season", func(t *testing.T) {
		h := open(filepath.Join(t.TempDir(), "board.db"), 7, t0)
		submit(h, original)
		submit(h, other)
		bad := season
		bad.Format = "nope"
		do(h, "POST", BoardPath, mustJSON(t, bad), http.StatusBadRequest)
		h.clock.Advance(time.Minute)
		since(h, "the first read, after submissions on other data and a refused one", t0.Add(time.Minute))
	})
	t.Run("another process's earlier submission", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "board.db")
		a, b := open(db, 7, t0), open(db, 7, t0.Add(time.Minute))
		since(b, "b's first read", t0.Add(time.Minute))
		e := submit(a, season) // came at t0, judged while b read
		since(b, "b's next read", e.Created)
		since(a, "a's read", e.Created)
	})
	t.Run("an entry made on the variant before the host ranked the season", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "board.db")
		plain := open(db, 0, t0)
		e := submit(plain, season) // listed apart on a board without a season
		plain.clock.Advance(time.Hour)
		submit(plain, season)
		season7 := open(db, 7, t0.Add(24*time.Hour))
		since(season7, "a host of season 7 a day later", e.Created)
	})
	t.Run("a retracted entry moves nothing", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "board.db")
		plain := open(db, 0, t0)
		body := do(plain, "POST", BoardPath, mustJSON(t, season), http.StatusCreated)
		var m board.Submitted
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		do(plain, "DELETE", BoardPath+"/"+m.Entry.ID, nil, http.StatusOK, "Authorization", "Bearer "+m.OwnerKey)
		season7 := open(db, 7, t0.Add(24*time.Hour))
		since(season7, "a host of season 7 a day after the entry came and was retracted", t0.Add(24*time.Hour))
	})
}
