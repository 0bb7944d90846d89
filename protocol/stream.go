package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Streaming: a prediction file or a pairs file of any size is sent in chunks of whole lines, and each
// chunk is answered in the lines form (LinesAnswer), so a host writes verdicts as they come and no
// side ever holds the whole file.
//
//	score_start   level, state, name, gold,  open a scoring stream: ScoreStarted (its id)
//	              episodes
//	score_lines   stream, lines, line        judge a chunk of prediction JSONL: lines form
//	score_finish  stream                     close the stream: its Report, equal to score's
//	rouge_lines   lines, line, name          ROUGE-L of a chunk of {"ref","hyp"} JSONL: lines form
//
// A chunk travels in the request's lines field, or raw after the request's JSON line (Request.Body:
// the JSON object, "\n", then the chunk's bytes as they are in the file), which spares a host
// escaping it and the engine unescaping it. The body starts after the line break that ends the JSON
// value's line; only score_lines and rouge_lines accept one (white space alone after the value is
// no body).
//
// A chunk's lines are numbered from Request.Line (1 when zero), so line errors name the line of the
// whole file; a host numbers chunks by the lines it has sent.
//
// The lines form: an OK answer is the response envelope (Result a LinesAnswer) on the first line,
// then exactly LinesAnswer.Lines lines of JSONL, one per non-blank input line of the chunk in input
// order, each ending with "\n", ready to be written to a file as they are. A refusal is a plain
// response with an Error and nothing after it. CallLines and DecodeLines read it.

// The streaming operations (see above); they are in Ops too.
const (
	OpScoreStart  Op = "score_start"  // open a scoring stream: ScoreStarted
	OpScoreLines  Op = "score_lines"  // judge a chunk of predictions: LinesAnswer + JSONL
	OpScoreFinish Op = "score_finish" // close a scoring stream: Report
	OpRougeLines  Op = "rouge_lines"  // ROUGE-L of a chunk of pairs: LinesAnswer + JSONL
)

// MaxStreams is how many scoring streams one session keeps open at once; score_start beyond it is
// refused (finish a stream first), so a host that forgets to finish cannot grow the engine's memory.
const MaxStreams = 8

// ScoreStarted answers score_start: the stream's id and the state mode it judges in.
type ScoreStarted struct {
	Stream int    `json:"stream"`
	State  string `json:"state"`
}

// LinesAnswer is the envelope's result in the lines form: how many JSONL lines follow, how many of
// them are verdicts (the rest are line errors), and the line errors themselves, so a host can report
// them without reading the JSONL.
type LinesAnswer struct {
	Lines    int         `json:"lines"`
	Verdicts int         `json:"verdicts"`
	Errors   []LineError `json:"errors"`
	// Episodes are the level-3 episode lines a stream opened with Request.Episodes set aside: not
	// judged, no JSONL line written for them, handed back for the host to replay.
	Episodes []EpisodeLine `json:"episodes,omitempty"`
}

// EpisodeLine is a level-3 episode line of a prediction file (a run's predictions file, see
// IsEpisodeLine) as a scoring stream sets it aside: its number in the file and its text.
type EpisodeLine struct {
	Line int             `json:"line"`
	Text json.RawMessage `json:"text"`
}

// IsEpisodeLine says whether a line of a run's predictions file is a level-3 episode (a run's
// Episode as a line): a JSON object with its "calls" or "transcript" and no "pred", or a line that
// begins as an episode line does but is no JSON. Such a line is never a prediction.
func IsEpisodeLine(line []byte) bool {
	if !bytes.Contains(line, []byte(`"calls"`)) && !bytes.Contains(line, []byte(`"transcript"`)) {
		return false
	}
	var probe struct {
		Pred       *json.RawMessage `json:"pred"`
		Calls      *json.RawMessage `json:"calls"`
		Transcript *json.RawMessage `json:"transcript"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		// Not JSON: an episode line when it began as one (the decoder says what is wrong).
		return bytes.HasPrefix(bytes.TrimSpace(line), []byte(`{"level":"level-3","scene"`))
	}
	return probe.Pred == nil && (probe.Calls != nil || probe.Transcript != nil)
}

// CheckEpisodeLine says why an episode line (IsEpisodeLine) cannot be replayed: not JSON of an
// episode, or no "file" (the scene). Empty when it can. Every host and the engine word it so.
func CheckEpisodeLine(line []byte) string {
	var ep struct {
		File  string        `json:"file"`
		Calls []EpisodeCall `json:"calls"`
	}
	if err := json.Unmarshal(line, &ep); err != nil {
		return fmt.Sprintf("not a level-3 episode: %v", err)
	}
	if ep.File == "" {
		return `a level-3 episode without its "file"`
	}
	return ""
}

// ErrorLine is the JSONL line written for a prediction line that could not be judged:
// {"error": message, "line": n} (members in this order, text escaped as encoding/json does), the
// same bytes whether the engine or a host (for a line over the size limit it never sent) writes it.
func ErrorLine(e LineError) []byte {
	msg, _ := json.Marshal(e.Message)
	b := make([]byte, 0, len(msg)+32)
	b = append(b, `{"error":`...)
	b = append(b, msg...)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(e.Line), 10)
	b = append(b, "}\n"...)
	return b
}

// RougeErrorLine is the JSONL line rouge_lines writes for a pair it could not score:
// {"error": message}, message escaped as encoding/json does.
func RougeErrorLine(message string) []byte {
	msg, _ := json.Marshal(message)
	b := make([]byte, 0, len(msg)+12)
	b = append(b, `{"error":`...)
	b = append(b, msg...)
	b = append(b, "}\n"...)
	return b
}

// CallLines sends a request whose answer has the lines form and returns the envelope's result as T
// and the JSONL that follows it (a slice of the transport's answer).
func CallLines[T any](ctx context.Context, do Transport, req Request) (T, []byte, error) {
	var zero T
	if do == nil {
		return zero, nil, errors.New("no engine to call")
	}
	text, err := Encode(req)
	if err != nil {
		return zero, nil, err
	}
	resp, err := do(ctx, text)
	if err != nil {
		return zero, nil, err
	}
	return DecodeLines[T](req.Op, resp)
}

// DecodeLines reads an answer in the lines form: the envelope on the first line (its result as T, or
// the engine's *Error), and the JSONL after it. For a LinesAnswer it checks that the JSONL has the
// number of lines the envelope announces.
func DecodeLines[T any](op Op, resp []byte) (T, []byte, error) {
	var zero T
	head, body := resp, []byte(nil)
	if i := bytes.IndexByte(resp, '\n'); i >= 0 {
		head, body = resp[:i], resp[i+1:]
	}
	out, err := Decode[T](op, head)
	if err != nil {
		return zero, nil, err
	}
	if la, ok := any(out).(LinesAnswer); ok {
		if n := bytes.Count(body, []byte{'\n'}); n != la.Lines || (len(body) > 0 && body[len(body)-1] != '\n') {
			return zero, nil, fmt.Errorf("engine %s answer: %d lines announced, %d lines sent", op, la.Lines, n)
		}
	}
	return out, body, nil
}
