package protocol

import (
	"encoding/json"
	"sort"
)

// EachLine calls f with one JSON line (no line end) per prediction line of the batch, in line order:
// the verdict, or {"error": message, "line": n} for a line that could not be judged. These are the
// lines of `apibank score --out` and of the HTTP API's score answer, so both faces write them with
// this one function. It stops at f's first error and returns it.
func (b *Batch) EachLine(f func(line []byte) error) error {
	type lined struct {
		line    int
		verdict *Verdict
		err     *LineError
	}
	all := make([]lined, 0, len(b.Results)+len(b.Errors))
	for i := range b.Results {
		all = append(all, lined{line: b.Results[i].Line, verdict: &b.Results[i]})
	}
	for i := range b.Errors {
		all = append(all, lined{line: b.Errors[i].Line, err: &b.Errors[i]})
	}
	// Results and errors are each in line order already; a stable sort keeps a verdict before an
	// error of the same line.
	sort.SliceStable(all, func(i, j int) bool { return all[i].line < all[j].line })
	for _, l := range all {
		var text []byte
		var err error
		if l.verdict != nil {
			text, err = l.verdict.MarshalJSON()
		} else {
			text, err = json.Marshal(map[string]any{"line": l.err.Line, "error": l.err.Message})
		}
		if err != nil {
			return err
		}
		if err := f(text); err != nil {
			return err
		}
	}
	return nil
}
