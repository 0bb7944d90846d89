package run

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/apibank-playground/apibank/protocol"
)

// ScoreStep is how many prediction lines one step of ScoreInSteps sends to the engine. In the
// browser tab the UI's Go code runs on the page's thread: decoding the verdicts of a whole level-1
// run (about 900) at once made a task of 100-250 ms, while a step's hundred decode in a few ms.
const ScoreStep = 100

// ScoreStepBytes also ends a step once its lines reach it: a run of long answers sends a megabyte
// at a time, not a hundred answers of near the size limit each.
const ScoreStepBytes = 1 << 20

// ScoreInSteps judges prediction JSONL as the score op does (the same verdicts, line errors and
// report), through the engine's scoring stream in steps of ScoreStep lines (or ScoreStepBytes), each step's verdicts
// decoded apart. yield, when not nil, is called before each step: the tab gives its page a turn
// there. A run scores its predictions with it at its end, in both hosts.
func ScoreInSteps(ctx context.Context, do protocol.Transport, preds []byte, state, name string, yield func()) (protocol.Batch, error) {
	if yield == nil {
		yield = func() {}
	}
	sc, err := startScoring(ctx, do, state, name)
	if err != nil {
		return protocol.Batch{}, err
	}
	defer sc.close()
	for len(preds) > 0 {
		cut, n := 0, 0
		for cut < len(preds) && n < ScoreStep && cut < ScoreStepBytes {
			i := bytes.IndexByte(preds[cut:], '\n')
			if i < 0 {
				cut = len(preds)
			} else {
				cut += i + 1
			}
			n++
		}
		chunk := preds[:cut]
		preds = preds[cut:]
		yield()
		if err := sc.lines(chunk, n); err != nil {
			return protocol.Batch{}, err
		}
	}
	yield()
	return sc.finish()
}

// scoring is an open scoring stream of the engine, fed a chunk of prediction lines at a time (in
// the order of their file), whose verdicts it keeps.
type scoring struct {
	ctx      context.Context
	do       protocol.Transport
	stream   int
	line     int
	batch    protocol.Batch
	finished bool
}

// startScoring opens a scoring stream; close (or finish) must follow.
func startScoring(ctx context.Context, do protocol.Transport, state, name string) (*scoring, error) {
	st, err := protocol.Call[protocol.ScoreStarted](ctx, do, protocol.Request{Op: protocol.OpScoreStart, State: state, Name: name})
	if err != nil {
		return nil, err
	}
	return &scoring{ctx: ctx, do: do, stream: st.Stream, line: 1, batch: protocol.Batch{Results: []protocol.Verdict{}, Errors: []protocol.LineError{}}}, nil
}

// lines judges the next n lines of the file (chunk holds them) and keeps their verdicts.
func (sc *scoring) lines(chunk []byte, n int) error {
	la, body, err := protocol.CallLines[protocol.LinesAnswer](sc.ctx, sc.do, protocol.Request{Op: protocol.OpScoreLines, Stream: sc.stream, Lines: string(chunk), Line: sc.line})
	if err != nil {
		return err
	}
	for l := range bytes.Lines(body) {
		if bytes.HasPrefix(l, []byte(`{"error":`)) {
			continue // a line error: la.Errors has it
		}
		var v protocol.Verdict
		if err := json.Unmarshal(l, &v); err != nil {
			return fmt.Errorf("the engine's verdict for line %d: %w", sc.line, err)
		}
		sc.batch.Results = append(sc.batch.Results, v)
	}
	sc.batch.Errors = append(sc.batch.Errors, la.Errors...)
	sc.line += n
	return nil
}

// finish closes the stream and returns the verdicts kept with the engine's report.
func (sc *scoring) finish() (protocol.Batch, error) {
	rep, err := protocol.Call[protocol.Report](sc.ctx, sc.do, protocol.Request{Op: protocol.OpScoreFinish, Stream: sc.stream})
	sc.finished = true
	if err != nil {
		return protocol.Batch{}, err
	}
	sc.batch.Report = &rep
	return sc.batch, nil
}

// close closes a stream not finished (the engine keeps only a few open).
func (sc *scoring) close() {
	if !sc.finished {
		sc.finished = true
		_, _ = protocol.Call[protocol.Report](context.WithoutCancel(sc.ctx), sc.do, protocol.Request{Op: protocol.OpScoreFinish, Stream: sc.stream})
	}
}
