package run

import (
	"path/filepath"
	"strings"
)

// Info is a run's settings and facts, as the run itself recorded them (the CLI's record beside its
// predictions file, RecordPath; the tab's saved run), what the board shows of a run: never typed in
// a form. It holds no key and no full endpoint URL.
type Info struct {
	Model string `json:"model"`
	// Host is the endpoint's host (api.openai.com, localhost:11434).
	Host        string   `json:"host"`
	Form        string   `json:"form"`
	Stream      bool     `json:"stream"`
	Temperature float64  `json:"temperature"`
	Levels      []string `json:"levels"`
	// Limit is the run's --limit (its first N samples a level): such a run is partial.
	Limit int    `json:"limit,omitempty"`
	State string `json:"state,omitempty"`
	Steps int    `json:"steps,omitempty"`
	// Trials is how many times the run asked every sample.
	Trials int `json:"trials"`
	// Started and Ended are RFC 3339 times.
	Started   string `json:"started"`
	Ended     string `json:"ended"`
	TokensIn  int    `json:"tokens_in"`
	TokensOut int    `json:"tokens_out"`
	// Encoder is the version of the prompts the run sent (EncoderVersion).
	Encoder int `json:"encoder"`
	// DataHash is the hash of the samples the run saw (DataHash of its levels).
	DataHash string `json:"data_hash"`
	// Engine names the engine the run's host judged with (for the record; the board judges again).
	Engine string `json:"engine,omitempty"`
	// Source says where the run ran: "cli" or "tab", or SourceBatch.
	Source string `json:"source"`
	// Seed names the variant of the builtin data the run asked (0: the builtin data itself).
	Seed int64 `json:"seed,omitempty"`
	// Variants is how many variants a robustness run asked beside the original and its rerun (its
	// trials are the original, the variants and the rerun, each with its seed).
	Variants int `json:"variants,omitempty"`
}

// SourceBatch is the Source of a run whose answers came from a provider's batch output file
// (apibank batch score, the Run page's Batch box) rather than live: its level 3 is step samples,
// not the episodes a board judges.
const SourceBatch = "batch"

// RecordFormat tags a run's record file.
const RecordFormat = "apibank-playground/run-record@1"

// Record is what `apibank run` writes beside its predictions file (RecordPath): the run's Info and,
// per trial, its predictions file's name (in the record's folder) and the requests that failed
// after their retries, which the predictions file has no line for. `apibank submit` sends a run to
// a board from it.
type Record struct {
	Format string        `json:"format"`
	Run    Info          `json:"run"`
	Trials []RecordTrial `json:"trials"`
}

// RecordTrial is one trial of a Record.
type RecordTrial struct {
	File string `json:"file"`
	// Seed names the variant the trial asked (0: the builtin data itself).
	Seed     int64     `json:"seed,omitempty"`
	Failures []Failure `json:"failures"`
}

// RecordPath is where the record of the run whose predictions go to out is written: out with
// ".run.json" for its extension (runs.jsonl → runs.run.json), one record for every trial.
func RecordPath(out string) string {
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + ".run.json"
}
