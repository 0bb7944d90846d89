package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
)

// Batch files: the OpenAI Batch API's file formats, which several OpenAI-compatible providers
// accept too. An input file has one request a line, {"custom_id","method","url","body"}; the
// provider answers with an output file of {"id","custom_id","response":{"status_code",
// "request_id","body"},"error"} lines in any order, and an error file of the same lines for the
// requests it could not run.
const (
	// BatchMethod is the method of every input line.
	BatchMethod = "POST"
	// BatchURL is the endpoint of every input line: chat completions.
	BatchURL = "/v1/chat/completions"
	// MaxCustomID is the longest custom_id written: providers document 64 characters.
	MaxCustomID = 64
)

// batchHost names where a batch answer came from in its errors (it has no endpoint host).
const batchHost = "batch output"

// levelCodes are the short names of the levels in custom ids.
var levelCodes = map[string]string{"level-1-given-desc": "1", "level-2-toolsearcher": "2", Level3: "3"}

// CustomID names a sample in a batch file: "<level>/<file>/<id>", the level as 1, 2 or 3 and the
// file without its extension ("1/AddAlarm-level-1-1/2"). A name longer than MaxCustomID keeps the
// start of the file's name and ends it with "~" and 8 hex digits of a hash of the whole name, so
// that it stays unique and still says which dialogue it is; batch scoring reads it back through
// the data's samples (CustomIDs), not by parsing it.
func CustomID(t Task) string {
	code, ok := levelCodes[t.Level]
	if !ok {
		code = t.Level
	}
	stem := strings.TrimSuffix(t.File, path.Ext(t.File))
	id := strconv.Itoa(t.ID)
	full := code + "/" + stem + "/" + id
	if len(full) <= MaxCustomID {
		return full
	}
	h := fnv.New32a()
	h.Write([]byte(t.File))
	tail := fmt.Sprintf("~%08x", h.Sum32())
	keep := max(MaxCustomID-len(code)-len(id)-2-len(tail), 0)
	for keep > 0 && !utf8.RuneStart(stem[keep]) {
		keep--
	}
	return code + "/" + stem[:min(keep, len(stem))] + tail + "/" + id
}

// levelOfID is the level a custom id names by its first part ("" when it names none).
func levelOfID(id string) string {
	code, _, ok := strings.Cut(id, "/")
	if !ok {
		return ""
	}
	for l, c := range levelCodes {
		if c == code {
			return l
		}
	}
	return code
}

// BatchInput writes the batch input file of cfg for the model settings s: one line per
// single-request sample (SampleTasks: levels 1 and 2, level 3's step samples), {"custom_id",
// "method":"POST","url":"/v1/chat/completions","body"}, the body exactly what a run sends for the
// sample (Body), never streamed. Custom ids are unique (CustomID); a clash is an error.
func BatchInput(ctx context.Context, do protocol.Transport, cfg Config, s model.Settings) ([]byte, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(s.Model) == "" {
		return nil, errors.New("a batch needs the model's name")
	}
	s.Stream = false
	var b bytes.Buffer
	seen := map[string]Task{}
	err := eachBody(ctx, do, cfg, s, func(t Task, body []byte) error {
		id := CustomID(t)
		if o, dup := seen[id]; dup {
			return fmt.Errorf("custom id %q names both %s/%s#%d and %s/%s#%d", id, o.Level, o.File, o.ID, t.Level, t.File, t.ID)
		}
		seen[id] = t
		q, _ := json.Marshal(id)
		b.WriteString(`{"custom_id":`)
		b.Write(q)
		b.WriteString(`,"method":"` + BatchMethod + `","url":"` + BatchURL + `","body":`)
		b.Write(body)
		b.WriteString("}\n")
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// BatchFile is one file of a batch: its name, for line errors, and its bytes.
type BatchFile struct {
	Name string
	Data []byte
}

// LineError is a line of a batch file that could not be used: the file, the line (from 1) and
// what is wrong. The other lines are used all the same.
type LineError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Error says where and what, as file:line: message.
func (e LineError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message) }

// inputLine is a line of a batch input file as read back.
type inputLine struct {
	CustomID *string         `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// outputLine is a line of a batch output or error file.
type outputLine struct {
	ID       string  `json:"id"`
	CustomID *string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		RequestID  string          `json:"request_id"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	} `json:"error"`
}

// lines splits a file into its lines (numbered from 1), the blank ones left out.
func lines(data []byte, fn func(n int, line []byte)) {
	n := 0
	for l := range bytes.Lines(data) {
		n++
		l = bytes.TrimRight(l, "\r\n")
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		fn(n, l)
	}
}

// asked is one request of a batch input file.
type asked struct {
	id     string
	body   json.RawMessage // the request's body, checked against the loaded data's (preparedFrom)
	task   Task
	answer *model.Response
	fail   *Failure
	where  string // the file:line that answered it
}

// ScoreBatch scores a provider's answers to a batch input file exactly as Run scores the same
// answers live: each answer body is read as the model client reads a plain answer
// (model.DecodeResponse), turned into a prediction as a run turns it (PredictionOf), and the
// predictions are judged together in the input's order (ScoreInSteps, the batch named "run"), in
// the state mode state. A request the provider failed (an error-file line, an output line with an
// error or a status other than 200, an answer the client would refuse) or did not answer is a
// Failure, counted apart from model errors as in a run. Lines that cannot be used are LineErrors
// with their file and line; the good lines around them are scored all the same. The error is for
// an input that names no sample at all, or an engine failure.
func ScoreBatch(ctx context.Context, do protocol.Transport, input, output, errorsFile BatchFile, state string, yield func()) (*Result, []LineError, error) {
	var bad []LineError
	badLine := func(f BatchFile, n int, format string, a ...any) {
		bad = append(bad, LineError{File: f.Name, Line: n, Message: fmt.Sprintf(format, a...)})
	}
	// The input: which samples were asked, in which order, in which form.
	var order []*asked
	byID := map[string]*asked{}
	var levels []string
	native := false
	lines(input.Data, func(n int, l []byte) {
		var in inputLine
		switch err := json.Unmarshal(l, &in); {
		case err != nil:
			badLine(input, n, "not a batch input line: %v", err)
			return
		case in.CustomID == nil || *in.CustomID == "":
			badLine(input, n, "no custom_id")
			return
		case byID[*in.CustomID] != nil:
			badLine(input, n, "custom_id %q is on line %s too; this line is left out", *in.CustomID, byID[*in.CustomID].where)
			return
		case in.Method != BatchMethod || in.URL != BatchURL:
			badLine(input, n, "not a chat-completions request (method %q, url %q; want %s %s)", in.Method, in.URL, BatchMethod, BatchURL)
			return
		}
		var body struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(in.Body, &body); err != nil || len(in.Body) == 0 || in.Body[0] != '{' {
			badLine(input, n, "the body is not a JSON object")
			return
		}
		native = native || len(body.Tools) > 0
		a := &asked{id: *in.CustomID, body: in.Body, where: strconv.Itoa(n)}
		byID[a.id] = a
		order = append(order, a)
		if l := levelOfID(a.id); l != "" && !slices.Contains(levels, l) {
			levels = append(levels, l)
		}
	})
	// The samples the ids name, from the engine's lists of the levels they name.
	e := &serial{do: do}
	named := map[string]Task{}
	for _, l := range levels {
		ts, err := sampleTasks(ctx, e, l, 0, yield)
		if err != nil {
			var pe *protocol.Error
			if errors.As(err, &pe) {
				continue // a level the loaded data does not have: its ids name nothing
			}
			return nil, bad, err
		}
		for _, t := range ts {
			named[CustomID(t)] = t
		}
	}
	kept := order[:0]
	for _, a := range order {
		t, ok := named[a.id]
		if !ok {
			badLine(input, atoi(a.where), "custom_id %q names no sample of the loaded data (was the file prepared from other data?)", a.id)
			delete(byID, a.id)
			continue
		}
		a.task = t
		kept = append(kept, a)
	}
	order = kept
	if len(order) == 0 {
		return nil, bad, fmt.Errorf("%s: no request names a sample of the loaded data", input.Name)
	}
	if err := preparedFrom(ctx, e, input.Name, order, native, yield); err != nil {
		return nil, bad, err
	}
	// The answers, in any order, and the provider's failures.
	read := func(f BatchFile, errorFile bool) {
		lines(f.Data, func(n int, l []byte) {
			var out outputLine
			if err := json.Unmarshal(l, &out); err != nil {
				badLine(f, n, "not a batch output line: %v", err)
				return
			}
			if out.CustomID == nil {
				badLine(f, n, "no custom_id")
				return
			}
			a := byID[*out.CustomID]
			switch {
			case a == nil:
				badLine(f, n, "custom_id %q is not in %s", *out.CustomID, input.Name)
				return
			case a.answer != nil || a.fail != nil:
				badLine(f, n, "a second line for custom_id %q (the first, %s, is kept)", *out.CustomID, a.where)
				return
			}
			a.where = fmt.Sprintf("%s:%d", f.Name, n)
			resp, fail := answerOf(out, errorFile)
			if fail != nil {
				fail.Task = a.task
				a.fail = fail
				return
			}
			a.answer = &resp
		})
	}
	read(output, false)
	read(errorsFile, true)

	form := Text
	if native {
		form = Native
	}
	res := &Result{Config: Config{Form: form, Levels: levels, State: state}.withDefaults(), Responses: map[string]model.Response{},
		Predictions: []Prediction{}, Episodes: []Episode{}, Failures: []Failure{}}
	for _, a := range order {
		switch {
		case a.answer != nil:
			res.Predictions = append(res.Predictions, PredictionOf(a.task, *a.answer))
			res.Responses[Key(a.task)] = *a.answer
			res.TokensIn += a.answer.Usage.PromptTokens
			res.TokensOut += a.answer.Usage.CompletionTokens
		case a.fail != nil:
			res.Failures = append(res.Failures, *a.fail)
		default:
			res.Failures = append(res.Failures, Failure{Task: a.task, Message: "no line answers this request in the output or error file"})
		}
	}
	if len(res.Predictions) > 0 {
		b, err := ScoreInSteps(ctx, do, PredictionsJSONL(res.Predictions), state, "run", yield)
		if err != nil {
			return res, bad, err
		}
		res.Batch = &b
	}
	return res, bad, nil
}

// answerOf reads one output or error line: the model's answer, or the failure of the request.
func answerOf(out outputLine, errorFile bool) (model.Response, *Failure) {
	status := 0
	if out.Response != nil {
		status = out.Response.StatusCode
	}
	if out.Error != nil && (out.Error.Message != "" || len(out.Error.Code) > 0) {
		msg := out.Error.Message
		if code := strings.Trim(string(out.Error.Code), `"`); code != "" && code != "null" {
			msg = strings.TrimSpace(msg + " (" + code + ")")
		}
		return model.Response{}, &Failure{Status: status, Message: "the provider failed the request: " + msg}
	}
	switch {
	case out.Response == nil:
		return model.Response{}, &Failure{Message: "the line has neither a response nor an error"}
	case errorFile && status == 200:
		return model.Response{}, &Failure{Status: status, Message: "the provider put this request in its error file"}
	}
	body := []byte(out.Response.Body)
	var text string
	if json.Unmarshal(body, &text) == nil { // a body sent as a JSON string
		body = []byte(text)
	}
	resp, err := model.DecodeResponse(body, batchHost)
	if status != 200 {
		msg := "HTTP " + strconv.Itoa(status)
		var me *model.Error
		if errors.As(err, &me) {
			msg = me.Message
		}
		return model.Response{}, &Failure{Status: status, Message: msg}
	}
	if err != nil {
		f := &Failure{Message: err.Error()}
		var me *model.Error
		if errors.As(err, &me) {
			f.Status, f.Message = me.Status, me.Message
		}
		return model.Response{}, f
	}
	return resp, nil
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// preparedFrom checks that a batch input was prepared from the loaded data: every request must ask
// what the loaded data's prompt for its sample asks (its messages and tools). Custom ids name
// samples, not data, so an input prepared from a variant (batch prepare --seed) or another folder
// names the same samples; judged on the loaded data, its right answers would be counted wrong,
// without a word. A variant leaves some files unchanged, so no one request can vouch for the
// others: each is checked, at the cost of building its prompt again (as batch prepare did). The
// error names the first request that differs, as file:line, and what to give instead. yield, when
// not nil, is called every samplesStep requests (the tab's page gets a turn).
func preparedFrom(ctx context.Context, e *serial, name string, order []*asked, native bool, yield func()) error {
	form := Text
	if native {
		form = Native
	}
	for i, a := range order {
		if yield != nil && i > 0 && i%samplesStep == 0 {
			yield()
		}
		same, err := asksAsLoaded(ctx, e, a, form)
		if err != nil {
			return err
		}
		if !same {
			return fmt.Errorf("%s:%s: the request for %s/%s#%d is not what the loaded data asks: the file was prepared from other data (another --seed or --data); score it with the --seed or --data it was prepared with",
				name, a.where, a.task.Level, a.task.File, a.task.ID)
		}
	}
	return nil
}

// asksAsLoaded says whether the request a asks what the loaded data's prompt for its sample asks
// in form: the same messages and the same tools (the model and its settings are the user's).
func asksAsLoaded(ctx context.Context, e *serial, a *asked, form string) (bool, error) {
	id := a.task.ID
	p, err := ask[protocol.Prompt](ctx, e, protocol.Request{Op: protocol.OpPrompt, Level: a.task.Level, File: a.task.File, Sample: &id})
	if err != nil {
		return false, err
	}
	want, err := Body(p, form, model.Settings{Model: DefaultPromptModel})
	if err != nil {
		return false, err
	}
	type asks struct {
		Messages any `json:"messages"`
		Tools    any `json:"tools"`
	}
	var got, loaded asks
	if json.Unmarshal(a.body, &got) != nil || json.Unmarshal(want, &loaded) != nil {
		return false, nil
	}
	return reflect.DeepEqual(got, loaded), nil
}
