package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
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
// to out as they come (nil: not written), line errors to stderr. It returns the report and how many
// lines could not be judged.
func streamScore(r runner, path, level, state string, out io.Writer, stderr io.Writer) (*protocol.Report, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	return scoreReader(r, path, f, level, state, out, stderr)
}

// scoreReader is streamScore of the prediction JSONL read from src, its line errors named path.
func scoreReader(r runner, path string, src io.Reader, level, state string, out io.Writer, stderr io.Writer) (*protocol.Report, int, error) {
	ctx := context.Background()
	st, err := call[protocol.ScoreStarted](r, protocol.Request{Op: protocol.OpScoreStart, Level: level, State: state, Name: path})
	if err != nil {
		return nil, 0, err
	}
	bad := 0
	c := &chunker{lr: lines.NewReader(src, lineLimit)}
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
