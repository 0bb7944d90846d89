// Package protocol is the engine protocol's one home: the request and response envelope, the op names,
// the error codes and every result type, plus a typed client over any transport. The engine fills
// these types; every host (the wasm export, the wazero host, the CLI, the server, the browser UI)
// imports them to talk to it, so no host declares a copy that could drift.
//
// It imports only the standard library, so a host compiled for the browser (GOOS=js) links none of
// the engine's code by importing it.
//
// A request is a JSON object {"v": 1, "id": any, "op": "...", ...op fields}; the response is
// {"v": 1, "id": same, "ok": true, "result": ...} or {"v": 1, "id": same, "ok": false,
// "error": {"code", "message"}}. See Request for the ops and their fields.
package protocol

import "encoding/json"

// Version is the protocol version. The engine refuses a request of another version.
const Version = 1

// Op names an engine operation.
type Op string

// The operations of the protocol. Request documents each one's fields; results.go its answer.
const (
	OpHello         Op = "hello"          // protocol and engine facts: Hello
	OpCatalog       Op = "catalog"        // a catalog's tools: Catalog
	OpLoad          Op = "load"           // load a folder or the builtin data: Loaded
	OpDialogues     Op = "dialogues"      // the loaded dialogues: []DialogueSummary
	OpDialogue      Op = "dialogue"       // one dialogue's turns: Dialogue
	OpSamples       Op = "samples"        // the samples of the data: []SampleView
	OpPrompt        Op = "prompt"         // what a model gets for a sample: Prompt
	OpCall          Op = "call"           // a call in the sandbox world: CallResult
	OpWorld         Op = "world"          // the sandbox's databases: World
	OpReset         Op = "reset"          // the sandbox back to the initial world: Reset
	OpScore         Op = "score"          // judge prediction JSONL: Batch
	OpReplay        Op = "replay"         // replay every gold call: Replay
	OpRouge         Op = "rouge"          // ROUGE-L of pairs: []Rouge
	OpStats         Op = "stats"          // the loaded data's sizes: Stats
	OpFill          Op = "fill"           // record draft dialogues' gold results: Filled
	OpValidate      Op = "validate"       // verify the loaded data: Validation
	OpEpisodeStart  Op = "episode_start"  // start a live level-3 episode: EpisodeStarted
	OpEpisodeStep   Op = "episode_step"   // one call of an episode: EpisodeCall
	OpEpisodeCalls  Op = "episode_calls"  // every call of one answer of an episode: []EpisodeCall
	OpEpisodeFinish Op = "episode_finish" // judge an episode: Outcome
	OpRestart       Op = "restart"        // start over as a new session: Hello
	OpSynthCheck    Op = "synth_check"    // verify one synthesized candidate: SynthCheck
	OpWorldFiles    Op = "world_files"    // the loaded data's initial world as files: WorldFiles
	OpMemo          Op = "memo"           // what a later load of the same folder may skip: Memo
	OpVariant       Op = "variant"        // make a variant of the builtin data, not loading it: Variant
)

// Ops lists every operation, in the order above (for tests and documentation).
var Ops = []Op{OpHello, OpCatalog, OpLoad, OpDialogues, OpDialogue, OpSamples, OpPrompt, OpCall, OpWorld,
	OpReset, OpScore, OpReplay, OpRouge, OpStats, OpFill, OpValidate, OpEpisodeStart, OpEpisodeStep,
	OpEpisodeCalls, OpEpisodeFinish, OpScoreStart, OpScoreLines, OpScoreFinish, OpRougeLines, OpRestart, OpSynthCheck, OpWorldFiles, OpMemo, OpVariant}

// Request is one engine request. Op selects the operation; the other fields are its arguments:
//
//	hello                                   protocol and engine facts
//	catalog   catalog, form                 the tools of "apis" (default) or "lv3_apis"; form "native"
//	                                        adds their function-calling schemas
//	load      name, files | parts | builtin load a folder in the original layout (path -> text; or parts and
//	          memo                          the files raw in the body) or the builtin data; memo is what
//	                                        the memo op answered for the same files before
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
//	fill      files | parts                 write the results of draft dialogues' gold calls by running them
//	validate                                verify the loaded data: format, execution, grounding, coverage
//	episode_start  file                     start a live level-3 episode of a scene; returns its id
//	episode_step   episode, call            run the model's next call in the episode's world
//	episode_calls  episode, call            run every call of the model's answer (a text list
//	                                        [A(..), B(..)], or native calls), in order; none: a reply
//	episode_finish episode, reply           judge the episode: final world vs gold, milestones (the
//	                                        gold calls achieved), the final reply against the answer
//	score_start    level, state, name, gold open a scoring stream (stream.go documents the four
//	score_lines    stream, lines, line      streaming ops and the lines form of their answers)
//	score_finish   stream
//	rouge_lines    lines, line, name
//	restart                                 start over as a brand-new session (builtin data, initial
//	                                        sandbox, no episodes): what a server does between requests
//	synth_check candidate, style, catalog,  run a model's proposed dialogue (JSON text) through the
//	          tools, seen, name             format, execution, grounding and duplicate stages
//	                                        (synth.go documents the candidate's shape)
//	world_files                             the loaded data's initial world as init_database/*.json
//	                                        files, so a folder of new dialogues replays on its own
//	memo                                    what this engine learned about the loaded folder that a
//	                                        load of the very same files can skip (see Memo)
//	variant   seed                          make the variant of the builtin data that seed names and say
//	                                        what it moves, leaving the loaded data as it is: a later load
//	                                        of that seed takes it as made (an idle tab makes one so its
//	                                        browser has compiled the code a variant runs)
type Request struct {
	// V is the protocol version (Version); the typed client fills it.
	V int `json:"v"`
	// ID is echoed in the response, so a host can match answers to requests.
	ID json.RawMessage `json:"id,omitempty"`
	Op Op              `json:"op"`
	// Name names the data being loaded or the prediction file being scored (for line errors).
	Name string `json:"name,omitempty"`
	// Files maps a path in the original layout to its text (load, fill).
	Files map[string]string `json:"files,omitempty"`
	// Parts are the files of a load or fill request sent raw in Body instead of in Files: the body
	// holds their bytes one after the other, in this order, so megabytes of data cost no JSON
	// escaping and unescaping.
	Parts []Part `json:"parts,omitempty"`
	// Builtin loads the project's own data instead of Files.
	Builtin bool `json:"builtin,omitempty"`
	// Seed, with Builtin, loads the variant of the builtin data that it names (1 to MaxSeed; 0 is
	// the builtin data itself): the same seed gives the same data on every host.
	Seed int64 `json:"seed,omitempty"`
	// Memo is the memo op's answer for a load of the very same files by the very same engine build,
	// which the host kept (see Memo): the load then skips what it says. A memo that does not fit
	// the files is ignored.
	Memo string `json:"memo,omitempty"`
	// Catalog is "apis" or "lv3_apis".
	Catalog string `json:"catalog,omitempty"`
	// Level is a level's folder name (level-1-given-desc, level-2-toolsearcher, level-3).
	Level string `json:"level,omitempty"`
	// File is a dialogue's or a scene's file name.
	File string `json:"file,omitempty"`
	// Sample is a sample id (2k a call, 2k+1 the reply after it, later ids special cases).
	Sample *int `json:"sample,omitempty"`
	// Form is FormText or FormNative (empty: the op's default); any other value is refused (prompt,
	// replay; catalog: "native" adds the tools' schemas).
	Form string `json:"form,omitempty"`
	// Call is a call: the text form as a JSON string, or a native call object.
	Call json.RawMessage `json:"call,omitempty"`
	// Preds is prediction JSONL ({"level"?, "file", "id", "pred"} a line).
	Preds string `json:"preds,omitempty"`
	// State is the state mode: StateFresh or StateReplay (empty: the data's default).
	State string `json:"state,omitempty"`
	// Pairs are the reference and hypothesis texts of a rouge request.
	Pairs []Pair `json:"pairs,omitempty"`
	// Databases names the databases a world request wants (empty: all).
	Databases []string `json:"databases,omitempty"`
	// Episode is the id episode_start returned.
	Episode int `json:"episode,omitempty"`
	// Reply is an episode's final message to the user (episode_finish): the model's last answer
	// without a call, which must say what the scene's answer needs (Dialogue.Answer).
	Reply string `json:"reply,omitempty"`
	// Gold asks a score request to add each call's gold answer and recorded envelope.
	Gold bool `json:"gold,omitempty"`
	// Bare asks episode_start for the episode alone, without the prompt and the tools' schemas: an
	// episode whose calls are recorded and replayed (a kept run judged again) needs neither. It asks
	// score for the verdicts without the report's gold ceilings: a level's ceiling replays all its
	// gold calls once a data, and a class's answer, judged on a variant of its own, needs none.
	Bare bool `json:"bare,omitempty"`
	// Episodes asks score_start for a stream that sets level-3 episode lines (IsEpisodeLine) aside
	// instead of judging them: each score_lines answer hands them back (LinesAnswer.Episodes) for
	// the host to replay, and one that cannot be replayed is a line error (CheckEpisodeLine).
	Episodes bool `json:"episodes,omitempty"`
	// Stream is the id score_start returned (score_lines, score_finish).
	Stream int `json:"stream,omitempty"`
	// Lines is a chunk of whole JSONL lines: predictions (score_lines) or pairs (rouge_lines).
	Lines string `json:"lines,omitempty"`
	// Body, when not nil, is sent after the request's JSON line as raw bytes: the lines of score_lines
	// and rouge_lines (instead of Lines, see stream.go) or the files of load and fill (see Parts). A
	// chunk of megabytes then costs neither JSON escaping in the host nor unescaping in the engine.
	Body []byte `json:"-"`
	// Line is the number of the chunk's first line in its file (1 when zero).
	Line int `json:"line,omitempty"`
	// Candidate is a synthesized dialogue as the model wrote it (synth_check): JSON text, possibly
	// in a Markdown code fence.
	Candidate string `json:"candidate,omitempty"`
	// Style is the candidate's query style: one of the Style constants or a special-case kind.
	Style string `json:"style,omitempty"`
	// Tools restricts a candidate's calls to these tools (and GetUserToken when one of them takes
	// a token); empty allows the whole catalog.
	Tools []string `json:"tools,omitempty"`
	// Seen are the duplicate keys (SynthCheck.Keys) of candidates accepted before this one.
	Seen []string `json:"seen,omitempty"`
}

// MaxSeed is the largest seed of a variant: 2^53-1, the largest whole number a JSON number holds
// exactly in every host (JavaScript's numbers are doubles).
const MaxSeed = 1<<53 - 1

// The forms a call is written in: the original's text format or a native tool call.
const (
	FormText   = "text"
	FormNative = "native"
)

// The state modes a prediction is judged in: against the initial world, or after replaying the
// dialogue's earlier gold calls.
const (
	StateFresh  = "fresh"
	StateReplay = "replay"
)

// Part is one file of a request's Body: its path in the original layout and its size in bytes.
type Part struct {
	Path string `json:"path"`
	Size int    `json:"size"`
}

// Pair is a reference and a hypothesis for the rouge op.
type Pair struct {
	Ref string `json:"ref"`
	Hyp string `json:"hyp"`
}

// Response is one engine response: OK with a Result, or an Error.
type Response struct {
	V      int             `json:"v"`
	ID     json.RawMessage `json:"id,omitempty"`
	OK     bool            `json:"ok"`
	Result any             `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error codes: what kind of failure a response reports.
const (
	// CodeBadRequest: the request is malformed or asks for something impossible (a message says what).
	CodeBadRequest = "bad_request"
	// CodeNotFound: the request names a dialogue, sample, scene or episode that does not exist.
	CodeNotFound = "not_found"
	// CodeInternal: the engine failed; the message locates the defect.
	CodeInternal = "internal"
)

// Error is a failed request: Code is machine-readable (one of the Code constants), Message says what
// and where.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error returns the message with its code, e.g. "not_found: no dialogue \"x.jsonl\" in builtin".
func (e *Error) Error() string { return e.Code + ": " + e.Message }
