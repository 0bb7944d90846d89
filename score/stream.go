package score

import (
	"bytes"
	"sort"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/value"
)

// Stream judges a prediction file that arrives in chunks of whole lines, with one Scorer for the whole
// file (the original's per-run state carries across chunks) and only the report's tallies kept: its
// memory does not grow with the file. Its verdicts and its Report are those Score gives for the whole
// file at once.
type Stream struct {
	data   *dataset.Data
	ix     *Index
	scorer *Scorer
	report *reportBuilder
	reader *value.FieldReader
	name   string
	level  string
	gold   bool
}

// NewStream starts judging a prediction file called name in mode; level is used for lines without
// one; gold adds each call verdict's gold answer (as AttachGold).
func NewStream(data *dataset.Data, ix *Index, mode Mode, name, level string, gold bool) *Stream {
	return &Stream{data: data, ix: ix, scorer: New(data, mode), report: newReportBuilder(), reader: newPredictionReader(), name: name, level: level, gold: gold}
}

// Lines judges a chunk of prediction JSONL whose first line is number first, appending to out one
// JSONL line per non-blank input line, in input order: the verdict (as AppendResult writes it) or
// protocol.ErrorLine. It returns the lines written, how many are verdicts, and the line errors.
func (st *Stream) Lines(chunk []byte, first int, out *bytes.Buffer) (lines, verdicts int, errs []dataset.LineError) {
	if first < 1 {
		first = 1
	}
	preds, parseErrs := parsePredictions(st.reader, st.name, chunk, st.level, first)
	sort.SliceStable(parseErrs, func(i, j int) bool { return parseErrs[i].Line < parseErrs[j].Line })
	next := 0 // the next parse error to write
	writeErrorsBefore := func(line int) {
		for ; next < len(parseErrs) && parseErrs[next].Line < line; next++ {
			out.Write(protocol.ErrorLine(parseErrs[next]))
			errs = append(errs, parseErrs[next])
			lines++
		}
	}
	for _, p := range preds {
		writeErrorsBefore(p.Line)
		r, e := st.scorer.judgeLine(st.ix, p, st.name)
		lines++
		if e != nil {
			out.Write(protocol.ErrorLine(*e))
			errs = append(errs, *e)
			continue
		}
		if st.gold {
			attachGold(&r, st.ix)
		}
		st.report.add(&r)
		AppendResult(out, &r)
		out.WriteByte('\n')
		verdicts++
	}
	writeErrorsBefore(int(^uint(0) >> 1))
	return lines, verdicts, errs
}

// Report returns the report of every verdict so far: at the end of the file, the report Score gives.
func (st *Stream) Report() *Report { return st.report.report(st.data, st.ix, st.scorer.mode) }
