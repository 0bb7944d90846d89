package protocol

import (
	"encoding/json"
	"fmt"
)

// Values of the benchmark's world (databases, call arguments, result envelopes, chat messages) travel
// as json.RawMessage: they are JSON-like data whose key order matters, and a host shows or forwards
// them rather than computing with them. Fields of answers that were JSON objects of sorted keys keep
// that order, so every answer's bytes are what they always were.

// Hello answers hello (and restart): which protocol and engine this is, and the data loaded.
type Hello struct {
	// BuiltinError says why the builtin data could not be loaded ("" normally).
	BuiltinError string `json:"builtin_error"`
	// Catalogs counts the tools of each catalog, by name.
	Catalogs map[string]int `json:"catalogs"`
	// Data names the loaded dataset; Variant sums it up when it is a variant of the builtin data.
	Data     string   `json:"data"`
	Variant  *Variant `json:"variant,omitempty"`
	Engine   string   `json:"engine"`
	Protocol int      `json:"protocol"`
}

// Catalog answers catalog: the tools of one catalog, each as its API description entry, and for a
// request of form "native" their function-calling schemas (the `tools` array of an OpenAI-compatible
// chat request, exactly as prompts offer them).
type Catalog struct {
	Catalog string            `json:"catalog"`
	Tools   []json.RawMessage `json:"tools"`
	// Schemas are the catalog's tools as OpenAI function-calling schemas (the "tools" array of a
	// chat request, with each tool's required parameters), in the order of Tools; answered when the
	// request's form is native.
	Schemas json.RawMessage `json:"schemas,omitempty"`
	// Examples maps a tool name to a call of it that runs: the first gold call of the tool in the
	// loaded data, in the text form where that form carries it exactly, else as native JSON.
	Examples map[string]string `json:"examples,omitempty"`
	// Exceptions maps a tool name to the exception texts its gold calls in the loaded data record,
	// distinct, in order of first appearance.
	Exceptions map[string][]string `json:"exceptions,omitempty"`
}

// ToolEntry is one of Catalog.Tools: a tool's API description as the original's API files write it,
// its parameters kept as the JSON objects they are (their key order is the documented order).
type ToolEntry struct {
	Name             string          `json:"name"`
	Description      string          `json:"description"`
	InputParameters  json.RawMessage `json:"input_parameters"`
	OutputParameters json.RawMessage `json:"output_parameters"`
}

// Entries decodes Tools, in the catalog's order.
func (c Catalog) Entries() ([]ToolEntry, error) {
	out := make([]ToolEntry, len(c.Tools))
	for i, raw := range c.Tools {
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			return nil, fmt.Errorf("the %s catalog's tool %d: %w", c.Catalog, i+1, err)
		}
	}
	return out, nil
}

// Envelope is a tool call's result as the world records it (a CallResult's, a verdict's Result and
// GoldResult, a turn's, an episode call's): the input the tool got, its output, and its exception
// (null when it raised none). Hosts read results through it rather than their own mirror of it.
type Envelope struct {
	Input     json.RawMessage `json:"input"`
	Output    json.RawMessage `json:"output"`
	Exception json.RawMessage `json:"exception"`
}

// ReadEnvelope decodes a result. A view may ignore the error: what is not an envelope shows empty.
func ReadEnvelope(raw json.RawMessage) (Envelope, error) {
	var e Envelope
	err := json.Unmarshal(raw, &e)
	return e, err
}

// Raised returns the exception's text and true when the tool raised one (a JSON string), or "" and
// false when the exception is null or absent.
func (e Envelope) Raised() (string, bool) {
	var text *string
	if json.Unmarshal(e.Exception, &text) != nil || text == nil {
		return "", false
	}
	return *text, true
}

// ToolSchema is one entry of Catalog.Schemas: an OpenAI function-calling tool, read into the fields
// hosts use (its name and required parameters), with Raw keeping the entry's bytes exactly as a chat
// request sends them.
type ToolSchema struct {
	Type     string         `json:"type"`
	Function FunctionSchema `json:"function"`
	// Raw is the whole entry as the engine wrote it.
	Raw json.RawMessage `json:"-"`
}

// FunctionSchema is a ToolSchema's function: what the model is told of the tool.
type FunctionSchema struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Parameters  struct {
		// Required names the parameters a call must give.
		Required []string `json:"required"`
	} `json:"parameters"`
}

// ToolSchemas decodes Schemas (none when the catalog was asked for in the text form), so that every
// host reads the schemas through one type rather than its own mirror of their shape.
func (c Catalog) ToolSchemas() ([]ToolSchema, error) {
	if len(c.Schemas) == 0 {
		return nil, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(c.Schemas, &raws); err != nil {
		return nil, fmt.Errorf("the %s catalog's schemas: %w", c.Catalog, err)
	}
	out := make([]ToolSchema, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			return nil, fmt.Errorf("the %s catalog's schema %d: %w", c.Catalog, i+1, err)
		}
		out[i].Raw = r
	}
	return out, nil
}

// LineError is a problem in an input, located by file and line (0 when it concerns the whole file).
type LineError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Error returns "file:line: message" (or "file: message" for a whole file), the form editors jump to.
func (e LineError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Message)
}

// Loaded answers load: what was loaded and the problems met (the rest of the data still loads).
type Loaded struct {
	Name string `json:"name"`
	// Dialogues counts the dialogues per level.
	Dialogues map[string]int `json:"dialogues"`
	Scenes    int            `json:"scenes"`
	Databases []string       `json:"databases"`
	// Tables says where Dictionary and Translate answer from: "world" (the folder's databases) or
	// "gold results" (tables harvested from its dialogues' recorded results).
	Tables string      `json:"tables"`
	Errors []LineError `json:"errors"`
	// Memo says the load took the request's memo: the files were parsed on first use, not here.
	Memo bool `json:"memo,omitempty"`
	// Variant, for a variant of the builtin data (Request.Seed), says what moved and what could not.
	Variant *Variant `json:"variant,omitempty"`
}

// Variant sums up a variant of the builtin data: its seed, how many values moved by kind, how many
// dialogue and scene files are served as the variant and which are served unchanged because their
// variant failed a check (never judged with a variant that is not proven).
type Variant struct {
	Seed int64 `json:"seed"`
	// Moved counts the values moved, by kind (name, username, password, email, place, date, time, ...).
	Moved map[string]int `json:"moved"`
	// Shift is how many days the variant's dates moved, its today with them (whole weeks; 0: none).
	Shift int `json:"shift,omitempty"`
	// Hours is how many hours the variant's times of day moved (0: none).
	Hours int `json:"hours,omitempty"`
	// Varied counts the dialogue and scene files served as the variant; Unchanged lists those served
	// as they are, with the check their variant failed.
	Varied    int             `json:"varied"`
	Unchanged []UnchangedFile `json:"unchanged"`
	// Digest tells variants apart: a run's data hash folds it in.
	Digest string `json:"digest"`
}

// UnchangedFile is a file of a variant served as it is: the check its variant failed and why.
type UnchangedFile struct {
	Path  string `json:"path"`
	Check string `json:"check"`
	Why   string `json:"why"`
}

// Memo is the answer of the memo op: what the engine learned about the loaded folder (that it has no
// problem, its counts, the tables harvested from its gold results, the gold ceilings it replayed) as
// an opaque text of its own. A host may keep it under a digest of the engine module's bytes and the
// folder's, and send it with a later load of the very same files by the very same module
// (Request.Memo), which then costs a fraction: a CLI run on one prediction parses one dialogue file
// and replays no gold call. Empty for the builtin data and for a folder with problems (they are
// reported at every load).
type Memo struct {
	// Memo is the memo's text, to be sent back as is in Request.Memo; empty when there is none.
	Memo string `json:"memo"`
	// Unchanged says the memo the load was given still says it all (Memo is then empty): the host
	// keeps what it has.
	Unchanged bool `json:"unchanged,omitempty"`
}

// DialogueSummary describes a dialogue in lists (answer of dialogues).
type DialogueSummary struct {
	Level string `json:"level"`
	File  string `json:"file"`
	Turns int    `json:"turns"`
	Calls int    `json:"calls"`
	// Tools are the tools its gold calls use, sorted.
	Tools   []string `json:"tools"`
	Special string   `json:"special,omitempty"`
	// First is the first user utterance.
	First string `json:"first"`
}

// Dialogue answers dialogue: its turns in the file's own JSON shape.
type Dialogue struct {
	File  string `json:"file"`
	Level string `json:"level"`
	Meta  *Meta  `json:"meta,omitempty"`
	Turns []Turn `json:"turns"`
	// Answer, for a level-3 scene whose request is a question, is what the final answer to the user
	// must say.
	Answer []Need `json:"answer,omitempty"`
}

// Turn is one turn of a dialogue.
type Turn struct {
	// Role is User, AI or API.
	Role    string          `json:"role"`
	Text    string          `json:"text,omitempty"`
	APIName string          `json:"api_name,omitempty"`
	Params  json.RawMessage `json:"param_dict,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	// Parallel marks an API turn made in the same assistant turn as the API turn before it: such
	// consecutive turns are one gold call set (native form: one message with several tool_calls).
	Parallel bool `json:"parallel,omitempty"`
	// Line is the turn's line in its file.
	Line int `json:"line"`
	// Free names the arguments whose text the user never dictated: any non-empty text is right.
	Free []string `json:"free,omitempty"`
	// Accept lists other argument sets (param_dict objects) judged as right as Params.
	Accept []json.RawMessage `json:"accept,omitempty"`
}

// Meta is a dialogue's optional first line: the special case it tests and the values it derives.
type Meta struct {
	// Special names the special case the dialogue tests (one of Specials: "missing_value", "no_tool",
	// "ambiguous", "wrong_value"); empty for ordinary dialogues.
	Special string `json:"special,omitempty"`
	// Line is, in a special-case dialogue, the file line of the AI turn that is the right answer
	// where a model might wrongly call a tool.
	Line int `json:"line,omitempty"`
	// Derived lists argument values that the dialogue derives rather than quotes (such as "tomorrow"
	// -> a date), with the rule used, for the grounding check.
	Derived []Derivation `json:"derived,omitempty"`
	// Needs, in a special-case dialogue, is what a right reply must do, each need a thing the reply
	// names (the missing value, the wrong value, each candidate, the missing tool): a reply that makes
	// no call is right when it meets every need. Judged deterministically, never by a model.
	Needs []Need `json:"needs,omitempty"`
	// Audit is what a careful reader found when the dialogue was read with the prompt a model gets.
	Audit *Audit `json:"audit,omitempty"`
}

// Need is one thing a right reply (a special case's answer, a level-3 task's final answer) must
// contain: What says it in words, for people (the Sample page, the verdict); Any lists the phrases
// that show it, any one of which is enough (compared case-insensitively, whitespace collapsed).
type Need struct {
	What string   `json:"what"`
	Any  []string `json:"any"`
}

// Audit statuses: what the reading of a sample found.
const (
	// AuditVerified: read and found fair as it was.
	AuditVerified = "verified"
	// AuditFixed: read, found wanting and fixed (Note says what).
	AuditFixed = "fixed"
)

// Audit records a careful reader's verdict on one dialogue or scene of our data.
type Audit struct {
	// Status is AuditVerified or AuditFixed.
	Status string `json:"status"`
	// Note says what was fixed (or, for a verified one, anything a reader should know).
	Note string `json:"note,omitempty"`
}

// Derivation records one derived argument value.
type Derivation struct {
	Value string `json:"value"`
	Rule  string `json:"rule"`
}

// SampleView describes one sample (answer of samples).
type SampleView struct {
	Level string `json:"level"`
	File  string `json:"file"`
	ID    int    `json:"id"`
	// Kind is call, reply, special or skip (see the Kind constants).
	Kind string `json:"kind"`
	// Tool is the gold call's tool, for call samples.
	Tool string `json:"tool,omitempty"`
	// GoldLine is the file line of the turn the sample predicts, so a host can mark it without
	// knowing how sample ids map to turns.
	GoldLine int `json:"gold_line"`
}

// Sample kinds.
const (
	// KindCall: predict the next API call (id 2k).
	KindCall = "call"
	// KindReply: predict the AI reply after it (id 2k+1).
	KindReply = "reply"
	// KindSpecial: a special case, where the right answer is to reply, not to call.
	KindSpecial = "special"
	// KindSkip: the gold turn is a User turn; the original never scores it.
	KindSkip = "skip"
)

// Prompt is what a model gets for a sample, in both forms: a single text in the original's call
// format, and chat messages with function-calling tool schemas.
type Prompt struct {
	// Text is the whole prompt for text-format models.
	Text string `json:"text"`
	// Messages are chat messages (system, user, assistant with tool_calls, tool) for native models,
	// as a JSON array.
	Messages json.RawMessage `json:"messages"`
	// Tools are the function schemas offered to native models, as a JSON array.
	Tools json.RawMessage `json:"tools"`
	// Expect says what the answer should be: "call", "reply", or "special" (a reply where a careless
	// model would call).
	Expect string `json:"expect"`
	// Gold is the expected answer: the call in text form when the text format can write it exactly,
	// else in native form; or the reply text.
	Gold string `json:"gold"`
	// GoldNative is the expected call as a native call, for call samples.
	GoldNative string `json:"gold_native,omitempty"`
}

// CallResult answers a sandbox call.
type CallResult struct {
	Args json.RawMessage `json:"args"`
	// Changed names the databases the sandbox has changed so far.
	Changed []string `json:"changed"`
	Error   string   `json:"error"`
	// Form is how the call was written: text or native.
	Form string `json:"form"`
	// History is the number of calls in the sandbox's history.
	History int             `json:"history"`
	Name    string          `json:"name"`
	Result  json.RawMessage `json:"result"`
}

// SandboxCall is one call made in the sandbox, kept so a host can show (and restore) the history.
type SandboxCall struct {
	Call    string          `json:"call"`
	Catalog string          `json:"catalog"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// World answers world: the databases (a JSON object in the engine's order), the names of those
// changed, and the call history.
type World struct {
	Changed   []string        `json:"changed"`
	Databases json.RawMessage `json:"databases"`
	History   []SandboxCall   `json:"history"`
}

// Reset answers reset.
type Reset struct {
	Reset bool `json:"reset"`
}

// Batch answers score: a verdict per judged line, the lines that could not be judged, and the report.
type Batch struct {
	Results []Verdict   `json:"results"`
	Errors  []LineError `json:"errors"`
	Report  *Report     `json:"report"`
}

// Report sums up a batch of verdicts: accuracy per level, per category and per tool, mean ROUGE-L,
// and the gold ceiling (what the gold calls themselves score in the same mode).
type Report struct {
	// State is the state mode the calls ran in: fresh or replay.
	State string `json:"state"`
	// Data names the dataset.
	Data string `json:"data"`
	// Notes explain where the numbers cannot match the original (offline tables, ToolSearcher).
	Notes []string `json:"notes,omitempty"`
	// Overall sums every level.
	Overall Tally `json:"overall"`
	// Levels has one tally per level present, in level order.
	Levels []Tally `json:"levels"`
	// Categories counts call verdicts per category, in the original's order then ours.
	Categories []Count `json:"categories"`
	// SpecialCategories counts the verdicts of special-case samples (CORRECT or PREMATURE_CALL),
	// kept apart from the call categories as their accuracy is.
	SpecialCategories []Count `json:"special_categories,omitempty"`
	// Tools tallies call verdicts per gold tool, by name (a gold call set once under each of its tools).
	Tools []Tally `json:"tools"`
	// Forms counts call predictions per form (text, native; "none" when no call was found).
	Forms map[string]int `json:"forms"`
	// Ceiling is the gold replay of every level present, in the same mode: the best a model can score
	// (none when the score was asked bare).
	Ceiling []Replayed `json:"ceiling"`
}

// Tally counts call verdicts and reply scores for a level, a tool, or everything.
type Tally struct {
	Name string `json:"name,omitempty"`
	// Calls is the number of call predictions judged; Correct how many were right.
	Calls   int `json:"calls"`
	Correct int `json:"correct"`
	// Accuracy is Correct/Calls (0 when there are none).
	Accuracy float64 `json:"accuracy"`
	// Replies is the number of reply predictions scored; RougeL their mean ROUGE-L.
	Replies int     `json:"replies"`
	RougeL  float64 `json:"rouge_l"`
	// Scenes counts the level-3 scenes with predictions; ScenesCorrect those whose every predicted
	// step is correct (the original's per-scene accuracy).
	Scenes        int `json:"scenes,omitempty"`
	ScenesCorrect int `json:"scenes_correct,omitempty"`
	// Special counts call predictions of special-case samples; SpecialCorrect the right ones
	// (reported apart from call accuracy).
	Special        int `json:"special,omitempty"`
	SpecialCorrect int `json:"special_correct,omitempty"`
}

// Count is the number of verdicts of one category.
type Count struct {
	Category string `json:"category"`
	Count    int    `json:"count"`
}

// Replayed is the gold replay of one level: how many of its gold calls are accepted.
type Replayed struct {
	Level string `json:"level"`
	// Form is how the gold calls were written: text or native.
	Form     string `json:"form"`
	Total    int    `json:"total"`
	Accepted int    `json:"accepted"`
	// Rejected lists the turns not accepted, with their verdicts.
	Rejected []Verdict `json:"rejected,omitempty"`
}

// Replay answers replay: the gold replay of every level present.
type Replay struct {
	Data   string     `json:"data"`
	Form   string     `json:"form"`
	Levels []Replayed `json:"levels"`
	State  string     `json:"state"`
}

// Rouge is one answer of the rouge op: F, or the error the original's package raised.
type Rouge struct {
	F     *float64 `json:"f,omitempty"`
	Error string   `json:"error,omitempty"`
}

// Stats answers stats: a dataset's sizes, as `apibank dataset stats` prints them.
type Stats struct {
	Dialogues int `json:"dialogues"`
	APICalls  int `json:"api_calls"`
	// Levels has "1", "2" and "3" (scenes count as level-3 dialogues).
	Levels map[string]LevelStats `json:"levels"`
	// ToolsTotal is the number of distinct tool names over both catalogs; ToolsCovered how many of
	// them appear in at least one gold call.
	ToolsTotal   int `json:"tools_total"`
	ToolsCovered int `json:"tools_covered"`
	// SpecialCases is the number of dialogues marked as special cases.
	SpecialCases int `json:"special_cases"`
	// Specials counts the special cases by kind (every kind of Specials, 0 included).
	Specials map[string]int `json:"specials"`
	// Styles counts the gold call turns of levels 1 and 2 by APIGen's query style (every style of
	// Styles, 0 included); a gold call set counts once.
	Styles map[string]int `json:"styles"`
}

// Special-case kinds: the right answer is an AI message, not a call.
const (
	// SpecialMissingValue: a value the call needs was not given; the AI asks for it.
	SpecialMissingValue = "missing_value"
	// SpecialNoTool: no tool of the catalog can do what is asked; the AI says so.
	SpecialNoTool = "no_tool"
	// SpecialAmbiguous: the request could mean several calls; the AI asks which.
	SpecialAmbiguous = "ambiguous"
	// SpecialWrongValue: a value was given in a form the tool cannot take (a date that is not a
	// date, a malformed email); the AI points it out (ACEBench's error-parameter case).
	SpecialWrongValue = "wrong_value"
)

// Specials lists the special-case kinds in report order.
var Specials = []string{SpecialMissingValue, SpecialNoTool, SpecialAmbiguous, SpecialWrongValue}

// Query styles of a gold call turn, as APIGen names them: how many calls the turn makes and how
// many tools the model has to choose among.
const (
	// StyleSimple: one call, and the prompt offers one tool.
	StyleSimple = "simple"
	// StyleMultiple: one call, chosen among several tools the prompt offers (or a ToolSearcher).
	StyleMultiple = "multiple"
	// StyleParallel: several calls of one tool in one turn.
	StyleParallel = "parallel"
	// StyleParallelMultiple: several calls of different tools in one turn.
	StyleParallelMultiple = "parallel-multiple"
)

// Styles lists the query styles in report order.
var Styles = []string{StyleSimple, StyleMultiple, StyleParallel, StyleParallelMultiple}

// Categories of a gold call set's verdict (besides the single-call categories, which a set verdict
// takes from its one wrong call).
const (
	// MissingCall: fewer calls were predicted than the gold set has; each call that was predicted
	// may still be right (see CallVerdict.Calls).
	MissingCall = "MISSING_CALL"
	// ExtraCall: more calls were predicted than the gold set has (or than the one gold call of a
	// sample of our data).
	ExtraCall = "EXTRA_CALL"
)

// LevelStats are one level's sizes.
type LevelStats struct {
	Dialogues int `json:"dialogues"`
	APICalls  int `json:"api_calls"`
}

// Filled answers fill: the files with their gold results written, and the problems.
type Filled struct {
	Files  map[string]string `json:"files"`
	Errors []LineError       `json:"errors"`
}

// Validation answers validate, in the shape `apibank validate --json` prints.
type Validation struct {
	OK bool `json:"ok"`
	// Checks tallies each check (format, execution, grounding, coverage, and on our data writable,
	// special, shown and audit), by name.
	Checks   map[string]CheckTally `json:"checks"`
	Failures []Failure             `json:"failures"`
}

// CheckTally counts what a check passed and failed.
type CheckTally struct {
	Passed int `json:"passed"`
	Failed int `json:"failed"`
}

// Failure is one problem validate found, located.
type Failure struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Check string `json:"check"`
	Why   string `json:"why"`
}

// EpisodeStarted answers episode_start: the episode's id and what the model is told.
type EpisodeStarted struct {
	Catalog string   `json:"catalog"`
	Episode int      `json:"episode"`
	File    string   `json:"file"`
	KeyInfo []string `json:"key_info"`
	Prompt  Prompt   `json:"prompt"`
	Scene   string   `json:"scene"`
	// Tools are the function schemas of every tool of the scene's catalog, for a native episode:
	// function calling cannot call a tool it was not offered, so a live native episode offers the
	// whole catalog where the text prompt offers only ToolSearcher.
	Tools     json.RawMessage `json:"tools"`
	Utterance string          `json:"utterance"`
}

// EpisodeCall is one call a model made in an episode (answer of episode_step).
type EpisodeCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// Outcome is an episode's judgement (answer of episode_finish).
type Outcome struct {
	Scene string `json:"scene"`
	// Calls is the number of calls the model made; Gold the number of the scene's required gold
	// calls: every gold call but ToolSearcher's (a lookup in the catalog, which a plan may make or
	// not: a model offered every tool needs none) and the lookups the scene marks optional.
	Calls int `json:"calls"`
	Gold  int `json:"gold"`
	// Matched is how many required gold calls the model's calls achieved: a call of the same tool
	// whose every argument is alike to the gold's (equal, or a value the tool takes as the same, or
	// any text where the user dictated none), each model call achieving at most one.
	Matched int `json:"matched"`
	// Milestone is the episode's per-step credit, Matched/Gold in [0, 1] (1 for a scene with no
	// required call): the share of the plan's milestones reached, whether or not the episode
	// succeeded (ACEBench's process accuracy).
	Milestone float64 `json:"milestone"`
	// Recall is Milestone under the name records made before milestone credit read.
	Recall float64 `json:"recall"`
	// Missed lists the required gold calls no model call achieved, as text calls.
	Missed []string `json:"missed"`
	// StateMatch is true when the final world equals the gold final world (the gold calls' effect,
	// with the model's words where the user dictated none): an unrequested write (a second
	// reminder, a meeting nobody asked for) makes it false; a lookup never does.
	StateMatch bool `json:"state_match"`
	// Diff lists the differences between the final world and the gold final world.
	Diff []Difference `json:"diff"`
	// AnswerMet is true when the final reply says everything the scene's answer needs (always, for
	// a scene without answer needs); Unmet lists, in words, each need it does not meet.
	AnswerMet bool     `json:"answer_met"`
	Unmet     []string `json:"unmet,omitempty"`
	// Success is a matching final state, every required gold call achieved and the answer met.
	Success bool `json:"success"`
}

// Difference is one difference between two worlds: a database path, the gold value and the model's.
type Difference struct {
	Path string          `json:"path"`
	Gold json.RawMessage `json:"gold"`
	Got  json.RawMessage `json:"got"`
}

// The checks validate runs, by the names Validation.Checks and Failure.Check use.
const (
	// CheckFormat: every file parses and every turn has the expected shape.
	CheckFormat = "format"
	// CheckExecution: each gold call, replayed in order, yields exactly its recorded result.
	CheckExecution = "execution"
	// CheckGrounding: every argument value occurs earlier in the dialogue or is declared derived.
	CheckGrounding = "grounding"
	// CheckCoverage: the dataset reaches its size and per-tool goals (builtin data only).
	CheckCoverage = "coverage"
	// CheckWritable: on our data, every gold call (set) is judged right when written in the text
	// form the prompt teaches and in the native form, each form on its own.
	CheckWritable = "writable"
	// CheckSpecial: on our data, every special case records what a right reply must do (its needs),
	// and its gold reply does it.
	CheckSpecial = "special"
	// CheckShown: on our data, every level-3 step sample's prompt shows the tool its gold calls, or
	// a ToolSearcher call that finds the tool is judged right.
	CheckShown = "shown"
	// CheckAudit: on the builtin data, every dialogue and scene records a careful reader's verdict.
	CheckAudit = "audit"
)

// Checks lists the checks in the order a report shows them.
var Checks = []string{CheckFormat, CheckExecution, CheckGrounding, CheckWritable, CheckSpecial, CheckShown, CheckAudit, CheckCoverage}
