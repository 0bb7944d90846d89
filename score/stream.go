package score

import (
	"bytes"

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
	reader *value.MemberReader
	name   string
	level  string
	gold   bool
	head   resultHead
	// Aside, when set, takes lines out of the stream before they are judged: a line it returns
	// taken for is not judged and writes nothing, unless why says why it is a line error.
	Aside func(text []byte, line int) (taken bool, why string)
}

// resultHead is the start of the last verdict written (appendResultHead's part), for the level and
// file it was written for: consecutive lines of a file mostly share both.
type resultHead struct {
	level, file string
	text        []byte
}

// append writes r as appendResult does, with the head kept when r has the same level and file.
func (h *resultHead) append(b []byte, r *Result) []byte {
	if h.text == nil || r.Level != h.level || r.File != h.file {
		h.level, h.file, h.text = r.Level, r.File, appendResultHead(h.text[:0], r.Level, r.File)
	}
	return appendResultAfterHead(append(b, h.text...), r)
}

// NewStream starts judging a prediction file called name in mode; level is used for lines without
// one; gold adds each call verdict's gold answer (as AttachGold).
func NewStream(data *dataset.Data, ix *Index, mode Mode, name, level string, gold bool) *Stream {
	s := New(data, mode)
	s.reuse = true // each verdict is written out before the next line is judged
	return &Stream{data: data, ix: ix, scorer: s, report: newReportBuilder(), reader: newPredictionReader(), name: name, level: level, gold: gold}
}

// Lines judges a chunk of prediction JSONL whose first line is number first, appending to out one
// JSONL line per non-blank input line, in input order: the verdict (as AppendResult writes it) or
// protocol.ErrorLine. It returns the lines written, how many are verdicts, and the line errors.
func (st *Stream) Lines(chunk []byte, first int, out *bytes.Buffer) (lines, verdicts int, errs []dataset.LineError) {
	if first < 1 {
		first = 1
	}
	var aside func([]byte, int) bool
	if st.Aside != nil {
		aside = func(text []byte, line int) bool {
			taken, why := st.Aside(text, line)
			if taken && why != "" {
				e := dataset.LineError{File: st.name, Line: line, Message: why}
				lines++
				out.Write(protocol.ErrorLine(e))
				errs = append(errs, e)
			}
			return taken
		}
	}
	eachPrediction(st.reader, st.name, chunk, st.level, first, aside, func(p Prediction, e *dataset.LineError) {
		lines++
		if e == nil {
			var r Result
			if r, e = st.scorer.judgeLine(st.ix, p, st.name); e == nil {
				if st.gold {
					attachGold(&r, st.ix)
				}
				st.report.add(&r)
				out.Write(append(st.head.append(out.AvailableBuffer(), &r), '\n'))
				verdicts++
				return
			}
		}
		out.Write(protocol.ErrorLine(*e))
		errs = append(errs, *e)
	})
	return lines, verdicts, errs
}

// Report returns the report of every verdict so far: at the end of the file, the report Score gives.
func (st *Stream) Report() *Report { return st.report.report(st.data, st.ix, st.scorer.mode, true) }
