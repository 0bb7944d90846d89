package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// A chunk sent to the engine holds whole lines, at most chunkBytes of them (a longer single line goes
// alone) or chunkLines lines: large enough that a call's overhead is small against its work, small
// enough that memory stays flat whatever the file's size (variables: tests make chunks small).
var (
	chunkBytes = 1 << 20
	chunkLines = 4096
)

// lineLimit is the longest input line sent to the engine (lines.Max; tests lower it).
var lineLimit = lines.Max

// chunker reads a JSONL file with lines.Reader (a BOM skipped, CRLF and CR-only line ends, a
// line over lines.Max an error for that line alone) and hands it on in chunks of whole lines,
// each with the number of its first line.
type chunker struct {
	lr    *lines.Reader
	chunk bytes.Buffer
	first int
	lines int
	// send judges one chunk; tooLong answers a line over the limit (never sent).
	send    func(chunk []byte, first int) error
	tooLong func(line int, err error) error
	// aside, when set, takes the lines it returns true for out of the stream: an empty line is sent
	// in their place, so the others keep their line numbers.
	aside func(line []byte, n int) bool
}

// run reads the whole input.
func (c *chunker) run() error {
	for {
		raw, n, err := c.lr.Next()
		if err == io.EOF {
			return c.flush()
		}
		if errors.Is(err, lines.ErrTooLong) {
			if err := c.flush(); err != nil {
				return err
			}
			if err := c.tooLong(n, err); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if c.aside != nil && c.aside(raw, n) {
			raw = nil
		}
		if c.lines == 0 {
			c.first = n
		} else if c.chunk.Len()+len(raw) >= chunkBytes {
			if err := c.flush(); err != nil {
				return err
			}
			c.first = n
		}
		c.chunk.Write(raw)
		c.chunk.WriteByte('\n')
		c.lines++
		if c.lines >= chunkLines || c.chunk.Len() >= chunkBytes {
			if err := c.flush(); err != nil {
				return err
			}
		}
	}
}

func (c *chunker) flush() error {
	if c.lines == 0 {
		return nil
	}
	err := c.send(c.chunk.Bytes(), c.first)
	c.chunk.Reset()
	c.lines = 0
	return err
}

// streamScore judges the prediction file at path in chunks: each chunk's verdict lines are written
// to out as they come (nil: not written), line errors to stderr. A level-3 episode line (as run --out
// writes them) is taken aside and replayed in the engine afterwards: its outcome is the engine's, not
// the one the line carries. It returns the report, the episodes and how many lines could not be judged.
func streamScore(r runner, path, level, state string, out io.Writer, stderr io.Writer) (*protocol.Report, []run.Episode, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, err
	}
	defer f.Close()
	var eps []run.Episode
	bad := 0
	aside := func(line []byte, n int) bool {
		if !run.IsEpisodeLine(line) {
			return false
		}
		var ep run.Episode
		why := protocol.CheckEpisodeLine(line)
		if err := json.Unmarshal(line, &ep); why == "" && err != nil {
			why = fmt.Sprintf("not a level-3 episode: %v", err)
		}
		if why != "" {
			fmt.Fprintln(stderr, protocol.LineError{File: path, Line: n, Message: why}.Error())
			bad++
			return true
		}
		eps = append(eps, ep)
		return true
	}
	rep, nbad, err := scoreStream(r, path, f, level, state, out, stderr, aside)
	bad += nbad
	if err != nil {
		return nil, nil, bad, err
	}
	for i := range eps {
		ep := &eps[i]
		o, err := run.ReplayEpisode(context.Background(), r.do, *ep)
		if err != nil {
			fmt.Fprintf(stderr, "%s: episode of %s: %v\n", path, ep.File, err)
			bad++
			ep.Outcome = nil
			continue
		}
		ep.Outcome = &o
	}
	return rep, eps, bad, nil
}

// scoreReader is streamScore of the prediction JSONL read from src, its line errors named path,
// every line judged as a prediction.
func scoreReader(r runner, path string, src io.Reader, level, state string, out io.Writer, stderr io.Writer) (*protocol.Report, int, error) {
	return scoreStream(r, path, src, level, state, out, stderr, nil)
}

// scoreStream judges the prediction JSONL read from src in chunks, its line errors named path; the
// lines aside takes (when set) are not judged.
func scoreStream(r runner, path string, src io.Reader, level, state string, out io.Writer, stderr io.Writer, aside func([]byte, int) bool) (*protocol.Report, int, error) {
	ctx := context.Background()
	st, err := call[protocol.ScoreStarted](r, protocol.Request{Op: protocol.OpScoreStart, Level: level, State: state, Name: path})
	if err != nil {
		return nil, 0, err
	}
	bad := 0
	c := &chunker{lr: lines.NewReader(src, lineLimit), aside: aside}
	c.send = func(chunk []byte, first int) error {
		la, body, err := protocol.CallLines[protocol.LinesAnswer](ctx, r.do, protocol.Request{Op: protocol.OpScoreLines, Stream: st.Stream, Body: chunk, Line: first})
		if err != nil {
			return err
		}
		for _, e := range la.Errors {
			fmt.Fprintln(stderr, e.Error())
		}
		bad += len(la.Errors)
		if out != nil {
			_, err = out.Write(body)
		}
		return err
	}
	c.tooLong = func(line int, lineErr error) error {
		e := protocol.LineError{File: path, Line: line, Message: lineErr.Error()}
		fmt.Fprintln(stderr, e.Error())
		bad++
		if out != nil {
			_, err := out.Write(protocol.ErrorLine(e))
			return err
		}
		return nil
	}
	if err := c.run(); err != nil {
		return nil, bad, fmt.Errorf("%s: %w", path, err)
	}
	rep, err := call[protocol.Report](r, protocol.Request{Op: protocol.OpScoreFinish, Stream: st.Stream})
	if err != nil {
		return nil, bad, err
	}
	return &rep, bad, nil
}

// streamRouge scores the pairs file at path in chunks, writing {"f"} or {"error"} a line to out as
// they come and each bad line's error to stderr. It returns how many lines were not pairs.
func streamRouge(r runner, path string, out io.Writer, stderr io.Writer) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	ctx := context.Background()
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	bad := 0
	c := &chunker{lr: lines.NewReader(f, lineLimit)}
	c.send = func(chunk []byte, first int) error {
		la, body, err := protocol.CallLines[protocol.LinesAnswer](ctx, r.do, protocol.Request{Op: protocol.OpRougeLines, Name: path, Body: chunk, Line: first})
		if err != nil {
			return err
		}
		for _, e := range la.Errors {
			fmt.Fprintln(stderr, e.Error())
		}
		bad += len(la.Errors)
		_, err = w.Write(body)
		return err
	}
	c.tooLong = func(line int, lineErr error) error {
		fmt.Fprintln(stderr, protocol.LineError{File: path, Line: line, Message: lineErr.Error()}.Error())
		bad++
		_, err := w.Write(protocol.RougeErrorLine(fmt.Sprintf("line %d: %v", line, lineErr)))
		return err
	}
	if err := c.run(); err != nil {
		return bad, fmt.Errorf("%s: %w", path, err)
	}
	return bad, w.Flush()
}
