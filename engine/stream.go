package engine

import (
	"bytes"
	"fmt"
	"io"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/rouge"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/value"
)

// linesAnswer is a result in the lines form: the envelope's result and the JSONL written after it.
// body is read only until the response is encoded (encode copies it), so a session may hand the
// same buffer to every chunk.
type linesAnswer struct {
	answer protocol.LinesAnswer
	body   *bytes.Buffer
	num    [32]byte // room to format a number
}

// linesBufferMax is the largest lines buffer a session keeps from one chunk to the next.
const linesBufferMax = 16 << 20

func (s *Session) scoreStart(r *protocol.Request) (any, *protocol.Error) {
	mode, err := score.ParseMode(r.State, s.defaultMode())
	if err != nil {
		return nil, badRequest(err.Error())
	}
	if len(s.streams) >= protocol.MaxStreams {
		return nil, badRequest(fmt.Sprintf("%d scoring streams are open: finish one (score_finish) before starting another", len(s.streams)))
	}
	name := r.Name
	if name == "" {
		name = "predictions"
	}
	s.nextStream++
	st := score.NewStream(s.data, s.index, mode, name, r.Level, r.Gold)
	if r.Episodes {
		st.Aside = s.setEpisodeAside
	}
	s.streams[s.nextStream] = st
	return protocol.ScoreStarted{Stream: s.nextStream, State: string(mode)}, nil
}

func (s *Session) stream(r *protocol.Request) (*score.Stream, *protocol.Error) {
	if r.Stream == 0 {
		return nil, badRequest("missing stream (the id score_start returned)")
	}
	st, ok := s.streams[r.Stream]
	if !ok {
		return nil, notFound(fmt.Sprintf("no scoring stream %d (finished, never started, or the data was reloaded)", r.Stream))
	}
	return st, nil
}

func (s *Session) scoreLines(r *protocol.Request) (any, *protocol.Error) {
	st, e := s.stream(r)
	if e != nil {
		return nil, e
	}
	chunk := chunkOf(r)
	if s.lines.Cap() > linesBufferMax {
		s.lines = bytes.Buffer{}
	}
	s.lines.Reset()
	s.lines.Grow(len(chunk) + len(chunk)/2)
	la := &linesAnswer{body: &s.lines}
	s.asideLines = nil
	lines, verdicts, errs := st.Lines(chunk, r.Line, la.body)
	if errs == nil {
		errs = []dataset.LineError{}
	}
	la.answer = protocol.LinesAnswer{Lines: lines, Verdicts: verdicts, Errors: errs, Episodes: s.asideLines}
	s.asideLines = nil
	return la, nil
}

// setEpisodeAside is the Aside of a stream opened with Request.Episodes: a level-3 episode line is
// kept for the chunk's answer (LinesAnswer.Episodes), or is a line error when it cannot be replayed.
func (s *Session) setEpisodeAside(text []byte, line int) (bool, string) {
	if !protocol.IsEpisodeLine(text) {
		return false, ""
	}
	if why := protocol.CheckEpisodeLine(text); why != "" {
		return true, why
	}
	s.asideLines = append(s.asideLines, protocol.EpisodeLine{Line: line, Text: bytes.Clone(text)})
	return true, ""
}

func (s *Session) scoreFinish(r *protocol.Request) (any, *protocol.Error) {
	st, e := s.stream(r)
	if e != nil {
		return nil, e
	}
	delete(s.streams, r.Stream)
	return st.Report(), nil
}

// chunkOf returns a request's chunk of lines: its body, or else its lines field.
func chunkOf(r *protocol.Request) []byte {
	if r.Body != nil {
		return r.Body
	}
	return []byte(r.Lines)
}

// rougeLines scores a chunk of {"ref", "hyp"} JSONL: {"f": x} or {"error": ...} a non-blank line.
// A line that is not such a pair is a line error too, its message "line N: why" in the JSONL.
func rougeLines(r *protocol.Request) *linesAnswer {
	name := r.Name
	if name == "" {
		name = "pairs"
	}
	first := r.Line
	if first < 1 {
		first = 1
	}
	la := &linesAnswer{answer: protocol.LinesAnswer{Errors: []dataset.LineError{}}, body: new(bytes.Buffer)}
	lr := lines.NewBytesReader(chunkOf(r), lines.Max)
	for {
		raw, line, err := lr.Next()
		if err == io.EOF {
			break
		}
		line += first - 1
		text := bytes.TrimSpace(raw)
		if err == nil && len(text) == 0 {
			continue
		}
		la.answer.Lines++
		ref, hyp, why := pair(text, err)
		if why != "" {
			la.answer.Errors = append(la.answer.Errors, dataset.LineError{File: name, Line: line, Message: why})
			la.body.Write(protocol.RougeErrorLine(fmt.Sprintf("line %d: %s", line, why)))
			continue
		}
		f, ferr := rouge.L(hyp, ref)
		if ferr != nil {
			la.body.Write(protocol.RougeErrorLine(ferr.Error()))
			continue
		}
		la.answer.Verdicts++
		la.body.WriteString(`{"f":`)
		la.body.Write(value.AppendJSONFloat(la.num[:0], f))
		la.body.WriteString("}\n")
	}
	return la
}

// pair reads one pairs line, or says why it is not {"ref": text, "hyp": text}.
func pair(text []byte, readErr error) (ref, hyp, why string) {
	if readErr != nil {
		return "", "", readErr.Error()
	}
	v, err := value.Decode(text)
	if err != nil {
		return "", "", "not a JSON object: " + err.Error()
	}
	m, ok := v.(*value.Map)
	if !ok {
		return "", "", `want {"ref": text, "hyp": text}`
	}
	rv, _ := m.Get("ref")
	hv, _ := m.Get("hyp")
	ref, ok1 := rv.(string)
	hyp, ok2 := hv.(string)
	if !ok1 || !ok2 {
		return "", "", `want {"ref": text, "hyp": text}`
	}
	return ref, hyp, ""
}
