// Package engine is the one door between API-Bank's benchmark logic and every host: a versioned JSON
// request/response protocol over a session that holds the loaded dataset and a sandbox world. The
// wasm export, the wazero host, the CLI, the server and the browser UI all speak only this.
//
// A request is a JSON object {"v": 1, "id": any, "op": "...", ...op fields}; the response is
// {"v": 1, "id": same, "ok": true, "result": ...} or {"v": 1, "id": same, "ok": false,
// "error": {"code", "message"}}. See Request for the ops and their fields.
//
// Database names starting with "_" are a tool's internal bookkeeping (a remembered verification code,
// which added keys were integers): they are world state but never listed by world or changed.
package engine

import (
	"encoding/json"
)

// Version is the protocol version. A request with another version is refused.
const Version = 1

// Request is one engine request. Op selects the operation; the other fields are its arguments:
//
//	hello                                   protocol and engine facts
//	catalog   catalog                       the tools of "apis" (default) or "lv3_apis"
//	load      name, files | builtin         load a folder in the original layout (path -> text) or the builtin data
//	dialogues level                         the loaded dialogues (summaries), optionally of one level
//	dialogue  level, file                   one dialogue's turns
//	samples   level, file                   the samples (level, file, id, kind)
//	prompt    level, file, sample, form     what a model gets for a sample: text prompt or native messages
//	call      call, catalog                 run a call (text or native JSON) in the session's sandbox world
//	world     databases                     the sandbox's databases (all, or the named ones)
//	reset                                   the sandbox back to the initial world
//	score     preds, level, state, name,    judge prediction JSONL; results, line errors, report
//	          gold                          (gold: true adds each call's gold answer and envelope)
//	replay    state, form                   replay every gold call; per level total and accepted
//	rouge     pairs                         ROUGE-L F of {ref, hyp} pairs
//	stats                                   counts of the loaded dataset
//	fill      files                         write the results of draft dialogues' gold calls by running them
//	validate                                verify the loaded data: format, execution, grounding, coverage
//	episode_start  file                     start a live level-3 episode of a scene; returns its id
//	episode_step   episode, call            run the model's next call in the episode's world
//	episode_finish episode                  judge the episode: final world vs gold, recall of gold calls
type Request struct {
	V       int               `json:"v"`
	ID      json.RawMessage   `json:"id,omitempty"`
	Op      string            `json:"op"`
	Name    string            `json:"name,omitempty"`
	Files   map[string]string `json:"files,omitempty"`
	Builtin bool              `json:"builtin,omitempty"`
	Catalog string            `json:"catalog,omitempty"`
	Level   string            `json:"level,omitempty"`
	File    string            `json:"file,omitempty"`
	Sample  *int              `json:"sample,omitempty"`
	Form    string            `json:"form,omitempty"`
	// Call is the sandbox call: the text form as a JSON string, or a native call object.
	Call      json.RawMessage `json:"call,omitempty"`
	Preds     string          `json:"preds,omitempty"`
	State     string          `json:"state,omitempty"`
	Pairs     []Pair          `json:"pairs,omitempty"`
	Databases []string        `json:"databases,omitempty"`
	Episode   int             `json:"episode,omitempty"`
	Gold      bool            `json:"gold,omitempty"`
}

// Pair is a reference and a hypothesis for the rouge op.
type Pair struct {
	Ref string `json:"ref"`
	Hyp string `json:"hyp"`
}

// Response is one engine response.
type Response struct {
	V      int             `json:"v"`
	ID     json.RawMessage `json:"id,omitempty"`
	OK     bool            `json:"ok"`
	Result any             `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error is a failed request: Code is machine-readable (bad_request, not_found, internal), Message says
// what and where.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func badRequest(msg string) *Error { return &Error{Code: "bad_request", Message: msg} }
func notFound(msg string) *Error   { return &Error{Code: "not_found", Message: msg} }
