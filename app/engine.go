package ui

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Engine sends one engine protocol request and returns the response's result. Do blocks until the
// engine answers: call it from a goroutine (app.Context.Async), never from a render or event handler.
//
// In the browser the engine runs in this tab's Web Worker (see NewBrowserEngine); tests use the
// engine package in-process.
type Engine interface {
	Do(req Request) (json.RawMessage, error)
}

// Request is an engine protocol request (see the engine package for the ops and their fields).
type Request struct {
	V         int               `json:"v"`
	Op        string            `json:"op"`
	Name      string            `json:"name,omitempty"`
	Files     map[string]string `json:"files,omitempty"`
	Builtin   bool              `json:"builtin,omitempty"`
	Catalog   string            `json:"catalog,omitempty"`
	Level     string            `json:"level,omitempty"`
	File      string            `json:"file,omitempty"`
	Sample    *int              `json:"sample,omitempty"`
	Form      string            `json:"form,omitempty"`
	Call      json.RawMessage   `json:"call,omitempty"`
	Preds     string            `json:"preds,omitempty"`
	State     string            `json:"state,omitempty"`
	Databases []string          `json:"databases,omitempty"`
}

// EngineError is an error answered by the engine: Code is bad_request, not_found or internal.
type EngineError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *EngineError) Error() string { return e.Message }

// DecodeResponse reads an engine response envelope and returns its result or its error.
func DecodeResponse(text []byte) (json.RawMessage, error) {
	var env struct {
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
		Error  *EngineError    `json:"error"`
	}
	if err := json.Unmarshal(text, &env); err != nil {
		return nil, fmt.Errorf("engine answered something that is not a protocol response: %v", err)
	}
	if !env.OK {
		if env.Error == nil {
			return nil, errors.New("engine failed without saying why")
		}
		return nil, env.Error
	}
	return env.Result, nil
}

// call sends req and decodes the result into out.
func call[T any](e Engine, req Request) (T, error) {
	var out T
	if e == nil {
		return out, errors.New("the engine is not running (it runs in the browser tab)")
	}
	req.V = 1
	raw, err := e.Do(req)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("engine %s answer: %v", req.Op, err)
	}
	return out, nil
}

// Hello is the answer to hello.
type Hello struct {
	Protocol     int            `json:"protocol"`
	Engine       string         `json:"engine"`
	Catalogs     map[string]int `json:"catalogs"`
	Data         string         `json:"data"`
	BuiltinError string         `json:"builtin_error"`
}

// LineError is a problem in an input, located by file and line (0: the whole file).
type LineError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

func (e LineError) String() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Message)
}

// LoadResult is the answer to load.
type LoadResult struct {
	Name      string         `json:"name"`
	Dialogues map[string]int `json:"dialogues"`
	Scenes    int            `json:"scenes"`
	Databases []string       `json:"databases"`
	Tables    string         `json:"tables"`
	Errors    []LineError    `json:"errors"`
}

// DialogueSummary describes a dialogue in lists.
type DialogueSummary struct {
	Level   string   `json:"level"`
	File    string   `json:"file"`
	Turns   int      `json:"turns"`
	Calls   int      `json:"calls"`
	Tools   []string `json:"tools"`
	Special string   `json:"special"`
	First   string   `json:"first"`
}

// Turn is a dialogue turn as the engine shows it.
type Turn struct {
	Role    string          `json:"role"`
	Text    string          `json:"text"`
	APIName string          `json:"api_name"`
	Params  json.RawMessage `json:"param_dict"`
	Result  json.RawMessage `json:"result"`
	Line    int             `json:"line"`
}

// Dialogue is the answer to dialogue.
type Dialogue struct {
	Level string `json:"level"`
	File  string `json:"file"`
	Turns []Turn `json:"turns"`
	Meta  *struct {
		Special string `json:"special"`
		Line    int    `json:"line"`
	} `json:"meta"`
}

// GoldTurn returns the turn a sample predicts: for id 2k the k-th API turn, for 2k+1 the turn after
// it. ok is false when there is none.
func (d *Dialogue) GoldTurn(id int) (Turn, bool) {
	k := 0
	for i, t := range d.Turns {
		if t.Role != "API" {
			continue
		}
		if k == id/2 {
			if id%2 == 0 {
				return t, true
			}
			if i+1 < len(d.Turns) {
				return d.Turns[i+1], true
			}
			return Turn{}, false
		}
		k++
	}
	return Turn{}, false
}

// SampleView describes one sample.
type SampleView struct {
	Level string `json:"level"`
	File  string `json:"file"`
	ID    int    `json:"id"`
	Kind  string `json:"kind"`
	Tool  string `json:"tool"`
}

// Prompt is what a model gets for a sample.
type Prompt struct {
	Text       string          `json:"text"`
	Messages   json.RawMessage `json:"messages"`
	Tools      json.RawMessage `json:"tools"`
	Expect     string          `json:"expect"`
	Gold       string          `json:"gold"`
	GoldNative string          `json:"gold_native"`
}

// CallResult is the answer to a sandbox call.
type CallResult struct {
	Form    string          `json:"form"`
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
	Changed []string        `json:"changed"`
	History int             `json:"history"`
}

// SandboxCall is one entry of the sandbox history.
type SandboxCall struct {
	Call    string          `json:"call"`
	Catalog string          `json:"catalog"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
}

// World is the answer to world: the databases (in the engine's order) and the call history.
type World struct {
	Databases OrderedObject `json:"databases"`
	Changed   []string      `json:"changed"`
	History   []SandboxCall `json:"history"`
}

// Verdict is the judgement of one prediction line (a call or a reply sample).
type Verdict struct {
	Level    string          `json:"level"`
	File     string          `json:"file"`
	ID       int             `json:"id"`
	Line     int             `json:"line"`
	Kind     string          `json:"kind"`
	Special  string          `json:"special,omitempty"`
	Category string          `json:"category,omitempty"`
	Correct  bool            `json:"correct,omitempty"`
	Tool     string          `json:"tool,omitempty"`
	Form     string          `json:"form,omitempty"`
	Called   string          `json:"called,omitempty"`
	Result   json.RawMessage `json:"result,omitempty"`
	Error    string          `json:"error,omitempty"`
	RougeL   *float64        `json:"rouge_l,omitempty"`
}

// Tally counts verdicts of a level, a tool or everything.
type Tally struct {
	Name           string  `json:"name,omitempty"`
	Calls          int     `json:"calls"`
	Correct        int     `json:"correct"`
	Accuracy       float64 `json:"accuracy"`
	Replies        int     `json:"replies"`
	RougeL         float64 `json:"rouge_l"`
	Special        int     `json:"special,omitempty"`
	SpecialCorrect int     `json:"special_correct,omitempty"`
}

// Count is a category's number of verdicts.
type Count struct {
	Category string `json:"category"`
	Count    int    `json:"count"`
}

// Replayed is the gold ceiling of a level.
type Replayed struct {
	Level    string `json:"level"`
	Form     string `json:"form"`
	Total    int    `json:"total"`
	Accepted int    `json:"accepted"`
}

// Report sums up a scored batch.
type Report struct {
	State      string         `json:"state"`
	Data       string         `json:"data"`
	Notes      []string       `json:"notes,omitempty"`
	Overall    Tally          `json:"overall"`
	Levels     []Tally        `json:"levels"`
	Categories []Count        `json:"categories"`
	Tools      []Tally        `json:"tools"`
	Forms      map[string]int `json:"forms"`
	Ceiling    []Replayed     `json:"ceiling"`
}

// Batch is the answer to score.
type Batch struct {
	Results []Verdict   `json:"results"`
	Errors  []LineError `json:"errors"`
	Report  Report      `json:"report"`
}

// EngineStatus is the bridge's view of the worker (web/bridge.js status()).
type EngineStatus struct {
	State     string  `js:"state"`
	Restarts  int     `js:"restarts"`
	ReadyMS   float64 `js:"readyMs"`
	LastError string  `js:"lastError"`
	EngineMS  float64 `js:"engineMs"`
}
