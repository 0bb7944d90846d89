package protocol

import "encoding/json"

// The stages a synthesized candidate passes, in order (APIGen's three, split where ours differ):
// format (JSON of the shape, tools and parameters exist, types right), execution (the calls run
// cleanly in a fresh world), grounding (every argument value traceable), duplicate (the request
// or the call set is new), then the host's judge (a model's verdict). Grounding and the judge
// together are APIGen's semantic stage.
const (
	StageFormat    = "format"
	StageExecution = "execution"
	StageGrounding = "grounding"
	StageDuplicate = "duplicate"
	StageJudge     = "judge"
)

// Stages lists the stages in the order a candidate meets them.
var Stages = []string{StageFormat, StageExecution, StageGrounding, StageDuplicate, StageJudge}

// SynthCandidate is the shape a model proposes a dialogue in (the JSON of a synth_check request's
// candidate):
//
//	{"request": "the user's words",
//	 "steps": [[{"name": "Tool", "arguments": {...}}, ...], ...],
//	 "reply": "the assistant's answer after the calls",
//	 "derived": [{"value": "2023-03-17", "rule": "tomorrow from GetToday"}]}
//
// Steps are the assistant's turns in order; each is the list of calls it makes at once (one call
// for the simple and multiple styles, several for the parallel ones). A special case has no steps.
type SynthCandidate struct {
	Request string          `json:"request"`
	Steps   [][]SynthCall   `json:"steps"`
	Reply   string          `json:"reply"`
	Derived []Derivation    `json:"derived,omitempty"`
	Outputs [][]SynthOutput `json:"outputs,omitempty"`
}

// SynthCall is one call of a candidate.
type SynthCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// SynthOutput is what one call of a candidate answered when it ran (filled by the engine, never by
// the model): the tool's output and exception as the dialogue records them.
type SynthOutput struct {
	Output    json.RawMessage `json:"output"`
	Exception json.RawMessage `json:"exception"`
}

// SynthCheck answers synth_check: whether the candidate passed the engine's stages, and if not the
// first stage it failed and why. A passed candidate comes back as a dialogue file of our format
// (path in the original layout and text, results filled by running its calls).
type SynthCheck struct {
	// OK is true when every engine stage passed (the judge is the host's, after this).
	OK bool `json:"ok"`
	// Stage is the failed stage (StageFormat, StageExecution, StageGrounding, StageDuplicate); ""
	// when OK.
	Stage string `json:"stage,omitempty"`
	// Reason says what failed, and where.
	Reason string `json:"reason,omitempty"`
	// Candidate is the candidate as read (nil when it is not JSON of the shape), with the calls'
	// outputs once they ran.
	Candidate *SynthCandidate `json:"candidate,omitempty"`
	// File is the dialogue's path in the original layout ("lv1-lv2-samples/level-1-given-desc/x.jsonl")
	// and Text its content; set once the calls ran.
	File string `json:"file,omitempty"`
	Text string `json:"text,omitempty"`
	// Keys are the candidate's duplicate keys (normalised request, normalised call set): a host
	// passes the keys of accepted candidates back as Seen.
	Keys []string `json:"keys,omitempty"`
}

// WorldFiles answers world_files: the initial world of the loaded data, one init_database/NAME.json
// file per database, as a folder in the original layout carries it.
type WorldFiles struct {
	Files map[string]string `json:"files"`
}
