package model

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
)

// readStream reads a server-sent event stream of answer chunks and assembles the answer. It ends
// at "data: [DONE]", at the end of the body, at the size cap (the answer so far, marked cut), or
// at the attempt's timeout (the answer so far, marked cut).
func (c *Client) readStream(ctx context.Context, br *bufio.Reader, cr *capReader) (Response, *failure) {
	var a assembler
	for {
		line, complete, err := readLine(br)
		// A last line without its newline is whole when the body simply ended, not when it was cut.
		if complete || (errors.Is(err, io.EOF) && !cr.hit && len(line) > 0) {
			done, f := a.line(line)
			if f != nil {
				return Response{}, f
			}
			if done {
				return a.response(), nil
			}
		}
		switch {
		case err == nil:
			continue
		case cr.hit:
			return c.markCut(a.response(), CutSize), nil
		case errors.Is(err, io.EOF):
			return a.response(), nil
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			// Begun and still coming at the timeout (an endless or trickling stream): cut, not
			// retried, whether or not a whole event came.
			return c.markCut(a.response(), CutTimeout), nil
		default:
			return Response{}, c.noAnswer(ctx, err)
		}
	}
}

// readLine reads one line without its line ending; complete says the line ended with a newline.
func readLine(br *bufio.Reader) (line []byte, complete bool, err error) {
	for {
		part, err := br.ReadSlice('\n')
		line = append(line, part...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return line, false, err
		}
		line = bytes.TrimSuffix(line[:len(line)-1], []byte{'\r'})
		return line, true, nil
	}
}

// assembler builds an answer from stream chunks: text deltas in order, tool calls from fragments
// keyed by their index.
type assembler struct {
	events  int
	content bytes.Buffer
	calls   map[int]*ToolCall
	last    int // index of the call the latest fragment went to
	finish  string
	usage   Usage
	model   string
}

// line handles one line of the stream. Every OpenAI-compatible server sends one JSON chunk per
// "data:" line, so a data line is handled at once rather than at the blank line that ends its event.
func (a *assembler) line(line []byte) (done bool, f *failure) {
	data, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok { // blank lines, comments (": keep-alive"), event:, id:, retry:
		return false, nil
	}
	data = bytes.TrimSpace(data)
	if string(data) == "[DONE]" {
		return true, nil
	}
	if len(data) == 0 {
		return false, nil
	}
	var w wireResponse
	if err := json.Unmarshal(data, &w); err != nil {
		return false, malformed(fmt.Sprintf("stream event %d is not valid JSON", a.events+1), err, data)
	}
	a.events++
	if w.Error != nil {
		return false, inBandError(w.Error)
	}
	a.add(w)
	return false, nil
}

// add merges one chunk.
func (a *assembler) add(w wireResponse) {
	if w.Model != "" {
		a.model = w.Model
	}
	if w.Usage != nil {
		a.usage = *w.Usage
	}
	if len(w.Choices) == 0 {
		return
	}
	ch := w.Choices[0]
	d := ch.Delta
	if d.Content == "" && d.ToolCalls == nil {
		d = ch.Message // some servers put the whole answer in one chunk's message
	}
	a.content.WriteString(string(d.Content))
	for _, tc := range d.ToolCalls {
		a.fragment(tc)
	}
	if ch.FinishReason != nil && *ch.FinishReason != "" {
		a.finish = *ch.FinishReason
	}
}

// fragment merges a piece of a tool call. The id and name come once, in the call's first piece;
// the arguments come in pieces to concatenate. A piece without an index (some servers) continues
// the latest call, unless it brings a new id.
func (a *assembler) fragment(tc wireToolCall) {
	if a.calls == nil {
		a.calls = map[int]*ToolCall{}
	}
	i := a.last
	switch {
	case tc.Index != nil:
		i = *tc.Index
	case len(a.calls) == 0:
		i = 0
	case tc.ID != "" && a.calls[a.last].ID != "" && tc.ID != a.calls[a.last].ID:
		i = a.maxIndex() + 1
	}
	call := a.calls[i]
	if call == nil {
		call = &ToolCall{}
		a.calls[i] = call
	}
	a.last = i
	if call.ID == "" {
		call.ID = tc.ID
	}
	if name := tc.Function.Name; name != "" && name != call.Name {
		call.Name += name
	}
	call.Arguments += string(tc.Function.Arguments)
}

func (a *assembler) maxIndex() int {
	m := 0
	for i := range a.calls {
		m = max(m, i)
	}
	return m
}

// response is the answer assembled so far.
func (a *assembler) response() Response {
	r := Response{Content: a.content.String(), FinishReason: a.finish, Usage: a.usage, Model: a.model, Streamed: true}
	idx := make([]int, 0, len(a.calls))
	for i := range a.calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for n, i := range idx {
		call := *a.calls[i]
		call.ID = callID(call.ID, n)
		r.ToolCalls = append(r.ToolCalls, call)
	}
	return r
}
