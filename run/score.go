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

// ScoreInSteps judges prediction JSONL as the score op does (the same verdicts, line errors and
// report), through the engine's scoring stream in steps of ScoreStep lines, each step's verdicts
// decoded apart. yield, when not nil, is called before each step: the tab gives its page a turn
// there. A run scores its predictions with it at its end, in both hosts.
func ScoreInSteps(ctx context.Context, do protocol.Transport, preds []byte, state, name string, yield func()) (protocol.Batch, error) {
	if yield == nil {
		yield = func() {}
	}
	st, err := protocol.Call[protocol.ScoreStarted](ctx, do, protocol.Request{Op: protocol.OpScoreStart, State: state, Name: name})
	if err != nil {
		return protocol.Batch{}, err
	}
	finished := false
	defer func() {
		if !finished { // close the stream: the engine keeps only a few open
			_, _ = protocol.Call[protocol.Report](context.WithoutCancel(ctx), do, protocol.Request{Op: protocol.OpScoreFinish, Stream: st.Stream})
		}
	}()
	b := protocol.Batch{Results: []protocol.Verdict{}, Errors: []protocol.LineError{}}
	line := 1
	for len(preds) > 0 {
		cut, n := 0, 0
		for cut < len(preds) && n < ScoreStep {
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
		la, body, err := protocol.CallLines[protocol.LinesAnswer](ctx, do, protocol.Request{Op: protocol.OpScoreLines, Stream: st.Stream, Lines: string(chunk), Line: line})
		if err != nil {
			return protocol.Batch{}, err
		}
		for l := range bytes.Lines(body) {
			if bytes.HasPrefix(l, []byte(`{"error":`)) {
				continue // a line error: la.Errors has it
			}
			var v protocol.Verdict
			if err := json.Unmarshal(l, &v); err != nil {
				return protocol.Batch{}, fmt.Errorf("the engine's verdict for line %d: %w", line, err)
			}
			b.Results = append(b.Results, v)
		}
		b.Errors = append(b.Errors, la.Errors...)
		line += n
	}
	yield()
	rep, err := protocol.Call[protocol.Report](ctx, do, protocol.Request{Op: protocol.OpScoreFinish, Stream: st.Stream})
	finished = true
	if err != nil {
		return protocol.Batch{}, err
	}
	b.Report = &rep
	return b, nil
}
