package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
)

// ScoreRequest is the JSON form of a score request's body (Content-Type application/json). The
// other form is prediction JSONL itself, with state and level in the query.
type ScoreRequest struct {
	// Data is a dataset in the original layout to judge against; absent, the builtin data.
	Data *Data `json:"data,omitempty"`
	// State is the state mode, fresh or replay (empty: the data's default).
	State string `json:"state,omitempty"`
	// Level is the level of predictions that do not name one.
	Level string `json:"level,omitempty"`
	// Seed names the variant of the builtin data the predictions were asked on, and are judged on
	// (1 to protocol.MaxSeed; 0 or absent: the builtin data itself): answers right on a variant are
	// wrong on the builtin data wherever a value moved. Not with Data.
	Seed int64 `json:"seed,omitempty"`
	// Predictions are the prediction lines' objects, {"level"?, "file", "id", "pred"}: element i is
	// line i+1.
	Predictions []json.RawMessage `json:"predictions"`
}

// Data is a dataset sent with a request: its files by path in the original layout
// (lv1-lv2-samples/..., lv3-samples/..., init_database/...) and the name its report carries.
type Data struct {
	Name  string            `json:"name,omitempty"`
	Files map[string]string `json:"files"`
}

// ScoreReport is the last member of a score answer (and the last NDJSON line): the report, and the
// problems met loading the data sent, if any.
type ScoreReport struct {
	Report     *protocol.Report     `json:"report"`
	DataErrors []protocol.LineError `json:"data_errors,omitempty"`
}

// NDJSON is the media type of streamed answers: one JSON value a line.
const NDJSON = "application/x-ndjson"

// readBody reads the whole body within MaxBody and the read deadline, or answers 413 or 408.
func (h *handler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	return readBody(w, r, h.limits.MaxBody, h.limits.Timeout)
}

// readBody reads a request body of at most max bytes (413 above it) within timeout (408 past it).
func readBody(w http.ResponseWriter, r *http.Request, max int64, timeout time.Duration) ([]byte, bool) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return body, true
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("the request body is over the limit of %d bytes", max), 0)
	case errors.Is(err, os.ErrDeadlineExceeded) || isTimeout(err):
		writeError(w, http.StatusRequestTimeout, CodeTimeout, fmt.Sprintf("the request body did not arrive within the time limit (%d bytes read)", len(body)), 0)
	default:
		writeError(w, http.StatusBadRequest, CodeBadRequest, "reading the request body: "+err.Error(), 0)
	}
	return nil, false
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// isJSON reports whether the request says its body is one JSON document (the other forms are JSONL).
func isJSON(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "application/json"
}

// wantsNDJSON reports whether the client asks for the streamed form of an answer.
func wantsNDJSON(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err == nil && (mt == NDJSON || mt == "application/jsonl") && params["q"] != "0" {
			return true
		}
	}
	return false
}

// decodeJSON decodes a JSON body strictly into v; a syntax or type error names its line.
func decodeJSON(body []byte, v any) (line int, err error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil && dec.More() {
		return lineAt(body, dec.InputOffset()), errors.New("text after the JSON document")
	}
	if err == nil {
		return 0, nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return lineAt(body, syn.Offset), err
	case errors.As(err, &typ):
		return lineAt(body, typ.Offset), err
	}
	return 0, err
}

// lineAt is the line (from 1) of the byte at offset, by the one line rule (package lines).
func lineAt(body []byte, offset int64) int {
	return lines.Number(body, int(min(max(offset, 0), int64(len(body)))))
}

// overLimit returns the line number of the first non-blank line past max, or 0. Lines end as the
// engine ends them: \n, \r\n or a lone \r.
func overLimit(body []byte, max int) int {
	count := 0
	for n, line := range lines.All(body) {
		if len(bytes.Trim(line, " \t")) == 0 {
			continue
		}
		if count++; count > max {
			return n
		}
	}
	return 0
}

// seedParam reads the seed an address names (?seed=S: the variant of the builtin data a request is
// about; 0 when it names none), as every host reads a seed (protocol.ParseSeed). A seed given empty,
// twice, or as no seed is refused rather than read as none: a request meant for a variant must not be
// answered on the builtin data without a word.
func seedParam(r *http.Request) (int64, error) {
	texts, ok := r.URL.Query()["seed"]
	switch {
	case !ok:
		return 0, nil
	case len(texts) > 1:
		return 0, fmt.Errorf("seed is given %d times: give it once", len(texts))
	}
	seed, err := protocol.ParseSeed(texts[0])
	if err != nil {
		return 0, fmt.Errorf("seed %q: %s", texts[0], protocol.SeedRule)
	}
	return seed, nil
}

// score judges prediction lines: POST /api/v1/score.
func (h *handler) score(w http.ResponseWriter, r *http.Request) {
	body, ok := h.readBody(w, r)
	if !ok {
		return
	}
	req := ScoreRequest{State: r.URL.Query().Get("state"), Level: r.URL.Query().Get("level")}
	seed, err := seedParam(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, CodeBadRequest, err.Error(), 0)
		return
	}
	req.Seed = seed
	preds := body
	if isJSON(r) {
		req = ScoreRequest{}
		if line, err := decodeJSON(body, &req); err != nil {
			var typ *json.UnmarshalTypeError
			if errors.As(err, &typ) && typ.Field == "seed" {
				err = errors.New(`"seed": ` + protocol.SeedRule + ", written as a JSON number")
			}
			writeError(w, http.StatusBadRequest, CodeBadRequest, "the body is not a score request {\"data\"?, \"seed\"?, \"state\"?, \"level\"?, \"predictions\": [...]}: "+err.Error(), line)
			return
		}
		if r.URL.Query().Has("seed") {
			writeError(w, http.StatusBadRequest, CodeBadRequest, "a JSON body names its seed in its \"seed\" member, not in the address", 0)
			return
		}
		switch {
		case !protocol.ValidSeed(req.Seed):
			writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("\"seed\": %d: %s", req.Seed, protocol.SeedRule), 0)
			return
		case req.Seed != 0 && req.Data != nil:
			writeError(w, http.StatusBadRequest, CodeBadRequest, "\"seed\" names a variant of the builtin data; predictions sent with \"data\" are judged on that data: send one or the other", 0)
			return
		}
		if req.Predictions == nil {
			writeError(w, http.StatusBadRequest, CodeBadRequest, "the body has no \"predictions\" (a list of {\"level\"?, \"file\", \"id\", \"pred\"})", 0)
			return
		}
		if len(req.Predictions) > h.limits.MaxLines {
			writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("%d predictions; the limit is %d a request", len(req.Predictions), h.limits.MaxLines), h.limits.MaxLines+1)
			return
		}
		var b bytes.Buffer
		for i, p := range req.Predictions {
			if err := json.Compact(&b, p); err != nil {
				writeError(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("predictions[%d]: %v", i, err), i+1)
				return
			}
			b.WriteByte('\n')
		}
		preds = b.Bytes()
	} else if line := overLimit(body, h.limits.MaxLines); line > 0 {
		writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("more than %d prediction lines; the limit is %d a request", h.limits.MaxLines, h.limits.MaxLines), line)
		return
	}
	h.work(w, r, req.Data != nil, func(ctx context.Context, s *session) error {
		var dataErrs []protocol.LineError
		if req.Data != nil {
			if len(req.Data.Files) == 0 {
				writeError(w, http.StatusBadRequest, CodeBadRequest, "\"data\" has no files (path in the original layout -> text)", 0)
				return nil
			}
			loaded, err := call[protocol.Loaded](ctx, s, protocol.Request{Op: protocol.OpLoad, Name: req.Data.Name, Files: req.Data.Files})
			if err != nil {
				return err
			}
			dataErrs = loaded.Errors
		}
		if req.Seed != 0 {
			// The variant the answers were asked on, made and proven by the engine (see variant).
			if _, err := call[protocol.Loaded](ctx, s, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: req.Seed}); err != nil {
				return err
			}
		}
		b, err := call[protocol.Batch](ctx, s, protocol.Request{Op: protocol.OpScore, Preds: string(preds), State: req.State, Level: req.Level})
		if err != nil {
			return err
		}
		s.done() // the engine goes back to the pool while the answer is written
		return writeBatch(w, r, &b, dataErrs)
	})
}

// writeBatch writes a score answer: with Accept NDJSON, one line per prediction line and a last line
// {"report", "data_errors"?}; otherwise one JSON object {"lines": [...], "report", "data_errors"?}. The
// lines are the exact bytes of `apibank score --out`.
func writeBatch(w http.ResponseWriter, r *http.Request, b *protocol.Batch, dataErrs []protocol.LineError) error {
	tail, err := encodeCompact(ScoreReport{Report: b.Report, DataErrors: dataErrs})
	if err != nil {
		return err
	}
	stream := wantsNDJSON(r)
	if stream {
		w.Header().Set("Content-Type", NDJSON)
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	out := newStream(w)
	sep := []byte("\n")
	if !stream {
		out.Write([]byte(`{"lines":[`))
		sep = []byte(",\n")
	}
	first := true
	_ = b.EachLine(func(line []byte) error {
		if !stream && !first {
			out.Write(sep)
		}
		first = false
		out.Write(line)
		if stream {
			out.Write(sep)
		}
		return out.err
	})
	if stream {
		out.Write(tail)
		out.Write([]byte("\n"))
	} else {
		// The report's members follow the lines in the same object.
		out.Write([]byte("],"))
		out.Write(tail[1:])
		out.Write([]byte("\n"))
	}
	out.Flush()
	return nil
}

// encodeCompact encodes v as compact JSON without HTML escaping (the CLI's --json is its indented form).
func encodeCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// stream writes a long answer in chunks, giving each chunk its own write deadline, so a large
// answer to a slow reader is bounded per chunk rather than as a whole. Once a write fails, the
// rest is dropped (the client is gone).
type stream struct {
	w   http.ResponseWriter
	buf *bufio.Writer
	rc  *http.ResponseController
	err error
}

// chunkDeadline is the time one 32 KiB chunk may take to be written.
const chunkDeadline = 10 * time.Second

func newStream(w http.ResponseWriter) *stream {
	s := &stream{w: w, rc: http.NewResponseController(w)}
	s.buf = bufio.NewWriterSize(writerFunc(s.chunk), 32<<10)
	return s
}

func (s *stream) chunk(p []byte) (int, error) {
	_ = s.rc.SetWriteDeadline(time.Now().Add(chunkDeadline))
	return s.w.Write(p)
}

func (s *stream) Write(p []byte) {
	if s.err == nil {
		_, s.err = s.buf.Write(p)
	}
}

func (s *stream) Flush() {
	if s.err == nil {
		s.err = s.buf.Flush()
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
