package app

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// BulkScorer is an engine that scores a large prediction text outside the UI's Go memory: the
// browser's bridge hands the text to the worker, which scores it in chunks of lines, moves a progress
// bar and keeps the verdict rows; the UI takes only the rows it shows. A 20 MB paste then never
// crosses into app.wasm (whose heap a batch of that size used to exhaust) nor stays in the DOM.
type BulkScorer interface {
	// BulkScore scores the text of the textarea opts.Element, or the text held for it (see Held),
	// with progress shown in opts.Progress.
	BulkScore(opts BulkOptions) (BulkResult, error)
	// Rows returns the verdicts [from, from+count) of the last bulk run and the prediction text of
	// each. It waits for the worker: call it from a goroutine.
	Rows(from, count int) ([]protocol.Verdict, []string, error)
	// Held says how many characters of text the bridge holds for the textarea element (a paste too
	// large to keep in the box) and where they came from; ok is false when it holds none.
	Held(element string) (size int, name string, ok bool)
	// Hold keeps text for the textarea element as a large paste is kept (a file read by the page).
	Hold(element, text, name string)
	// DropHeld forgets the text held for element.
	DropHeld(element string)
}

// nextTask waits, in a goroutine, until the browser has run its next task: the page's thread gets
// a turn between two pieces of work that would otherwise make one long task. Outside the browser it
// returns at once.
var nextTask = func() {}

// browserTurns says whether nextTask gives the page a turn (in the browser) or returns at once.
var browserTurns = false

// BulkOptions says what a bulk run scores and where it shows its progress.
type BulkOptions struct {
	Element string `js:"element"`
	// Text is scored when Element is empty.
	Text string `js:"text"`
	// Scratch runs keep no rows (the last real run's rows stay): the UI's warm-up.
	Scratch  bool   `js:"scratch"`
	Progress string `js:"progress"`
	Level    string `js:"level"`
	State    string `js:"state"`
	// Episodes sets level-3 episode lines aside (a run's predictions file): not judged, handed back
	// in BulkResult.Episodes for the page to replay.
	Episodes bool `js:"episodes"`
}

// BulkResult is a finished bulk run: the report (equal to the score op's), the first line errors
// (ErrorCount counts them all) and how many verdict rows the bridge holds.
type BulkResult struct {
	Report     protocol.Report
	Errors     []protocol.LineError
	ErrorCount int
	Verdicts   int
	MS         float64
	// Episodes are the episode lines set aside (BulkOptions.Episodes).
	Episodes []protocol.EpisodeLine
}

// virtualFrom is the number of verdict rows from which the table is rendered virtually (only the rows
// in view are in the DOM) and the rows stay in the bridge instead of the tab's saved results: below
// it a batch is rendered and saved whole, as small batches always were.
const virtualFrom = 2000

// rowHeight is a virtual table row's height in CSS pixels (style.css .verdicts-virtual), and
// viewRows how many rows the scrolling box shows; overscan rows are rendered above and below. Each
// rendered row is a dozen DOM nodes mounted by go-app on the page's thread: the window stays small
// so one render of it is a short task.
const (
	rowHeight = 32
	viewRows  = 16
	overscan  = 8
)

// csvSafe neutralises a CSV cell a spreadsheet would run as a formula (one starting with =, +, -, @,
// a tab or a carriage return): a leading apostrophe makes it text. A predicted tool name such as
// =HYPERLINK(...) is then shown, never evaluated.
func csvSafe(cell string) string {
	if cell == "" {
		return cell
	}
	switch cell[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + cell
	}
	return cell
}

// bulkWarm is set once the bulk path has been warmed up in this tab (warmBulkPath).
var bulkWarm atomic.Bool

// warmBulkPath runs the Score page's bulk path once, on one line, in idle time: the browser compiles
// app.wasm's functions the first time they run, so the first real batch would otherwise pay, on the
// page's thread, for compiling the report's decoding and the saved batch's encoding (tasks of a few
// hundred ms measured on the first 20 MB paste, tens of ms on later ones). It runs once per tab, in
// short tasks, and keeps nothing (a scratch run: the rows of a real run stay).
func warmBulkPath(ctx app.Context, bs BulkScorer) {
	if !bulkWarm.CompareAndSwap(false, true) {
		return
	}
	ctx.Async(func() {
		nextTask()
		ds, err := tab.Dialogues()
		if err != nil || len(ds) == 0 {
			return
		}
		line, _ := json.Marshal(map[string]any{"level": ds[0].Level, "file": ds[0].File, "id": 0, "pred": "[GetToday()]"})
		res, err := bs.BulkScore(BulkOptions{Text: string(line) + "\n" + "{bad\n", Scratch: true})
		if err != nil {
			return
		}
		nextTask()
		sb := &SavedBatch{Format: batchFormat, Source: Source{Kind: "paste"},
			Batch: protocol.Batch{Results: []protocol.Verdict{}, Errors: res.Errors, Report: &res.Report}, ErrorCount: res.ErrorCount, Rows: virtualFrom}
		_, _ = json.Marshal(sb)
		nextTask()
		// The result's view is built (not shown) with a call and a reply row, so its functions are
		// compiled too.
		rows := []protocol.Verdict{
			{Level: ds[0].Level, File: ds[0].File, Line: 1, Kind: protocol.KindCall, CallVerdict: &protocol.CallVerdict{Category: "CORRECT", Correct: true}},
			{Level: ds[0].Level, File: ds[0].File, ID: 1, Line: 2, Kind: protocol.KindReply, ReplyVerdict: &protocol.ReplyVerdict{RougeL: 0.5}},
		}
		vr := &virtualRows{total: virtualFrom, rows: rows, preds: []string{"", ""}, live: true, want: -1}
		_ = batchView(sb, 1, &Compares{}, vr, nil)
	})
}

// writeCSVRow appends row to b as one CSV record, exactly as encoding/csv's Writer (comma, LF line
// ends) writes it: app.wasm links no encoding/csv for two exports (see RATIONALE, "First visit on a
// phone network: bytes first").
func writeCSVRow(b *bytes.Buffer, row []string) {
	for i, f := range row {
		if i > 0 {
			b.WriteByte(',')
		}
		r, _ := utf8.DecodeRuneInString(f)
		if f == "" || f != `\.` && !strings.ContainsAny(f, ",\"\r\n") && !unicode.IsSpace(r) {
			b.WriteString(f)
			continue
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(f, `"`, `""`))
		b.WriteByte('"')
	}
	b.WriteByte('\n')
}
