package app

import "github.com/apibank-playground/apibank/protocol"

// BulkScorer is an engine that scores a large prediction text outside the UI's Go memory: the
// browser's bridge sends it to the worker in chunks of lines, moves a progress bar, and keeps the
// verdict lines in the page's JavaScript memory, from which the UI takes only the rows it shows. A
// 20 MB paste then never crosses into app.wasm, whose heap a batch of that size used to exhaust.
type BulkScorer interface {
	// BulkScore scores the text of the textarea opts.Element (progress shown in opts.Progress).
	BulkScore(opts BulkOptions) (BulkResult, error)
	// Rows returns the verdicts [from, from+count) of the last bulk run.
	Rows(from, count int) ([]protocol.Verdict, error)
	// Pred returns the prediction text of input line n of the last bulk run.
	Pred(line int) string
}

// BulkOptions says what a bulk run scores and where it shows its progress.
type BulkOptions struct {
	Element  string `js:"element"`
	Progress string `js:"progress"`
	Level    string `js:"level"`
	State    string `js:"state"`
}

// BulkResult is a finished bulk run: the report (equal to the score op's), the first line errors
// (ErrorCount counts them all) and how many verdict rows the bridge holds.
type BulkResult struct {
	Report     protocol.Report
	Errors     []protocol.LineError
	ErrorCount int
	Verdicts   int
	MS         float64
}

// virtualFrom is the number of verdict rows from which the table is rendered virtually (only the rows
// in view are in the DOM) and the rows stay in the bridge instead of the tab's saved results: below
// it a batch is rendered and saved whole, as small batches always were.
const virtualFrom = 2000

// rowHeight is a virtual table row's height in CSS pixels (style.css .verdicts-virtual), and
// viewRows how many rows the scrolling box shows; overscan rows are rendered above and below.
const (
	rowHeight = 32
	viewRows  = 16
	overscan  = 24
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
