package app

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// RunStore keeps model runs across reloads, each in two parts: its summary (settings, numbers, the
// report, each sample's verdict in short, each episode's outcome; a few hundred bytes a sample),
// which the pages hold, and its records (each sample's prediction and model response, each
// episode whole) with its full verdicts, which stay in the store until a page needs them (an
// export, a share link, a board submission, a comparison, a re-score). A running run lands each
// record as it comes, so neither a run nor a page ever holds a run's answers whole. In the tab
// the storage is IndexedDB; tests use memory. Every method may block: call them off the UI
// goroutine.
type RunStore struct {
	kv runKV
}

// runKV is what a RunStore needs of its storage: values by key in a few tables, and the values of
// keys that start with a prefix, in key order.
type runKV interface {
	put(table, key string, value []byte) error
	get(table, key string) (value []byte, ok bool, err error)
	all(table string) ([][]byte, error)
	under(table, prefix string) ([][]byte, error)
	count(table, prefix string) (int, error)
	drop(table, key string) error
	dropUnder(table, prefix string) error
	clear(table string) error
}

// The store's tables: run summaries by run ID (and runs kept whole, as they were kept before
// records had a table of their own), records by run ID and task key (recordKey), and a run's full
// verdicts by run ID.
const (
	tableRuns     = "runs"
	tableRecords  = "landed"
	tableVerdicts = "verdicts"
)

var runTables = []string{tableRuns, tableRecords, tableVerdicts}

// Landed is one record of a run: a sample's prediction and model response, or a level-3 episode
// whole.
type Landed struct {
	Key      string         `json:"key"`
	Pred     run.Prediction `json:"pred"`
	Response model.Response `json:"response"`
	// Episode is set instead of Pred for a level-3 scene.
	Episode *run.Episode `json:"episode,omitempty"`
	// NoResponse marks a prediction kept without a response (a run opened from a file that has
	// none for it), so that reading the run back gives it none.
	NoResponse bool `json:"no_response,omitempty"`
}

// storedSummary is how the store keeps a run's summary. Summary (1) tells it from a run kept
// whole, whose top member is "format".
type storedSummary struct {
	Summary int       `json:"summary"`
	Run     *SavedRun `json:"run"`
	// Order is the task keys of the run's records in the run's order: its predictions, then its
	// episodes (the order of its predictions file).
	Order []string `json:"order"`
}

const summaryVersion = 1

// recordKey is a record's key: the run ID, a separator no ID holds, the task key.
func recordKey(id, key string) string { return recordsOf(id) + key }

// recordsOf is the prefix of a run's record keys.
func recordsOf(id string) string { return id + "\x00" }

// episodeKey is the task key of a level-3 episode.
func episodeKey(file string) string { return run.Key(run.Task{Level: run.Level3, File: file, ID: -1}) }

// predKey is the task key of a prediction.
func predKey(p run.Prediction) string {
	return run.Key(run.Task{Level: p.Level, File: p.File, ID: p.ID})
}

// Put keeps a whole run (one opened from a file, scored from a batch file, or kept whole before):
// its records, its full verdicts and its summary, replacing what was kept under its ID. It returns
// the summary, what a page holds of the run from then on.
func (s *RunStore) Put(r *SavedRun) (*SavedRun, error) {
	// The records of an interrupted run kept whole before stay: a resume reads them.
	if err := s.kv.drop(tableVerdicts, r.ID); err != nil {
		return nil, err
	}
	var order []string
	for _, p := range r.Predictions {
		k := predKey(p)
		order = append(order, k)
		resp, ok := r.Responses[k]
		if err := s.Land(r.ID, Landed{Key: k, Pred: p, Response: resp, NoResponse: !ok}); err != nil {
			return nil, err
		}
	}
	for _, ep := range r.Episodes {
		k := episodeKey(ep.File)
		order = append(order, k)
		if err := s.Land(r.ID, Landed{Key: k, Episode: &ep}); err != nil {
			return nil, err
		}
	}
	sum := summaryOf(r)
	sum.order = order
	return sum, s.PutSummary(sum, r.Batch)
}

// PutSummary keeps a run's summary (its records are landed apart), and its full verdicts when
// verdicts is not nil.
func (s *RunStore) PutSummary(sum *SavedRun, verdicts *protocol.Batch) error {
	if verdicts != nil {
		b, err := json.Marshal(verdicts)
		if err != nil {
			return err
		}
		if err := s.kv.put(tableVerdicts, sum.ID, b); err != nil {
			return err
		}
	}
	short := *sum
	short.Predictions, short.Responses = []run.Prediction{}, nil
	b, err := json.Marshal(storedSummary{Summary: summaryVersion, Run: &short, Order: sum.order})
	if err != nil {
		return err
	}
	return s.kv.put(tableRuns, sum.ID, b)
}

// Runs returns the summary of every run kept, in ID order. A run kept whole (as runs were kept
// before) is split on the way into its records and summary, once: kept runs are never lost.
func (s *RunStore) Runs() ([]*SavedRun, error) {
	all, err := s.kv.all(tableRuns)
	if err != nil {
		return nil, err
	}
	var out []*SavedRun
	for _, b := range all {
		var probe struct {
			Summary int    `json:"summary"`
			Format  string `json:"format"`
		}
		if json.Unmarshal(b, &probe) != nil {
			continue
		}
		switch {
		case probe.Summary == summaryVersion:
			var st storedSummary
			if json.Unmarshal(b, &st) != nil || st.Run == nil {
				continue
			}
			st.Run.order, st.Run.summary = st.Order, true
			out = append(out, st.Run)
		case probe.Format == runFormat:
			var whole SavedRun
			if json.Unmarshal(b, &whole) != nil || whole.ID == "" {
				continue
			}
			sum, err := s.Put(&whole)
			if err != nil {
				return nil, fmt.Errorf("the run %s kept before could not be moved to its records: %w", whole.ID, err)
			}
			out = append(out, sum)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Whole reads a kept run back whole: its summary, its records in the run's order, its full
// verdicts. It is the run as it was exported before it was kept (json.Marshal writes the same
// bytes).
func (s *RunStore) Whole(id string) (*SavedRun, error) {
	b, ok, err := s.kv.get(tableRuns, id)
	if err != nil {
		return nil, err
	}
	var st storedSummary
	if !ok || json.Unmarshal(b, &st) != nil || st.Run == nil {
		return nil, fmt.Errorf("no run %s is kept in this browser", id)
	}
	recs, err := s.records(id)
	if err != nil {
		return nil, err
	}
	r := st.Run
	r.Predictions, r.Responses, r.Episodes = []run.Prediction{}, map[string]model.Response{}, []run.Episode{}
	for _, k := range st.Order {
		l, ok := recs[k]
		switch {
		case !ok:
			return nil, fmt.Errorf("the run %s lacks its record of %s", id, k)
		case l.Episode != nil:
			r.Episodes = append(r.Episodes, *l.Episode)
		default:
			r.Predictions = append(r.Predictions, l.Pred)
			if !l.NoResponse {
				r.Responses[k] = l.Response
			}
		}
	}
	vb, ok, err := s.kv.get(tableVerdicts, id)
	if err != nil {
		return nil, err
	}
	if ok {
		var full protocol.Batch
		if err := json.Unmarshal(vb, &full); err != nil {
			return nil, fmt.Errorf("the run %s's verdicts: %w", id, err)
		}
		r.Batch = &full
	}
	return r, nil
}

// records reads every record of a run, by task key.
func (s *RunStore) records(id string) (map[string]Landed, error) {
	all, err := s.kv.under(tableRecords, recordsOf(id))
	if err != nil {
		return nil, err
	}
	out := make(map[string]Landed, len(all))
	for _, b := range all {
		var l Landed
		if json.Unmarshal(b, &l) == nil {
			out[l.Key] = l
		}
	}
	return out, nil
}

// Delete forgets a run: its summary, its records, its verdicts.
func (s *RunStore) Delete(id string) error {
	if err := s.kv.drop(tableRuns, id); err != nil {
		return err
	}
	if err := s.kv.drop(tableVerdicts, id); err != nil {
		return err
	}
	return s.kv.dropUnder(tableRecords, recordsOf(id))
}

// Land keeps one record of a run, replacing the record of the same task.
func (s *RunStore) Land(id string, l Landed) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	return s.kv.put(tableRecords, recordKey(id, l.Key), b)
}

// Record reads one record of a run (false when it has none for the task).
func (s *RunStore) Record(id, key string) (Landed, bool, error) {
	b, ok, err := s.kv.get(tableRecords, recordKey(id, key))
	if err != nil || !ok {
		return Landed{}, false, err
	}
	var l Landed
	if err := json.Unmarshal(b, &l); err != nil {
		return Landed{}, false, fmt.Errorf("the record of %s: %w", key, err)
	}
	return l, true, nil
}

// Count says how many records a run has.
func (s *RunStore) Count(id string) (int, error) { return s.kv.count(tableRecords, recordsOf(id)) }

// Clear forgets every run.
func (s *RunStore) Clear() error {
	for _, t := range runTables {
		if err := s.kv.clear(t); err != nil {
			return err
		}
	}
	return nil
}

// summaryOf is what a page holds of a whole run: the run without its predictions and responses,
// its verdicts in short (shortVerdict), its episodes' outcomes in short (no calls, transcript,
// missed calls or world differences).
func summaryOf(r *SavedRun) *SavedRun {
	s := *r
	s.Predictions, s.Responses, s.summary = []run.Prediction{}, nil, true
	s.Episodes = make([]run.Episode, len(r.Episodes))
	for i, ep := range r.Episodes {
		s.Episodes[i] = shortEpisode(ep)
	}
	s.Batch = shortBatch(r.Batch)
	return &s
}

// shortEpisode is an episode without its calls and transcript, its outcome's numbers only.
func shortEpisode(ep run.Episode) run.Episode {
	ep.Calls, ep.Transcript = nil, nil
	if o := ep.Outcome; o != nil {
		short := *o
		short.Missed, short.Diff = nil, nil
		ep.Outcome = &short
	}
	return ep
}

// shortBatch is a batch's report with each verdict in short (nil for nil).
func shortBatch(b *protocol.Batch) *protocol.Batch {
	if b == nil {
		return nil
	}
	out := &protocol.Batch{Report: b.Report, Results: make([]protocol.Verdict, len(b.Results))}
	for i, v := range b.Results {
		out.Results[i] = shortVerdict(v)
	}
	return out
}

// shortErr is how much of a verdict's error a summary keeps.
const shortErr = 200

// shortVerdict is what the Runs page reads of a verdict (the leaderboard, the comparison, the
// trials): the sample, the kind, the category, whether it is right, the gold tool, the ROUGE-L,
// the head of the error; not the envelopes, the gold call or the calls of a set.
func shortVerdict(v protocol.Verdict) protocol.Verdict {
	if c := v.CallVerdict; c != nil {
		v.CallVerdict = &protocol.CallVerdict{Category: c.Category, Correct: c.Correct, Tool: c.Tool, Error: headOf(c.Error, shortErr)}
	}
	if r := v.ReplyVerdict; r != nil {
		v.ReplyVerdict = &protocol.ReplyVerdict{RougeL: r.RougeL, Error: headOf(r.Error, shortErr)}
	}
	return v
}

// headOf is s cut to n bytes at a rune's start, copied so that the rest can be freed.
func headOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.Clone(s[:n])
}

// wholeRun is r whole: r itself when it is whole (opened from a file or a link), else read back
// from the store.
func wholeRun(r *SavedRun) (*SavedRun, error) {
	if !r.summary {
		return r, nil
	}
	return runStore.Whole(r.ID)
}
