package board

// The board's answers as JSON, declared once: the HTTP handlers (api), the static export
// (cmd/server), the CLI (apibank submit) and the tab (app) all read or write them, and the tab must
// not import the handlers.

// View is the board as GET /api/v1/board answers it (and the static export writes it as
// board.json): what the host judges with now, every entry, and the rows of the filter asked for.
type View struct {
	Current Current `json:"current"`
	Filter  Filter  `json:"filter"`
	Entries []Entry `json:"entries"`
	Rows    []Row   `json:"rows"`
	// Exported is when a static export was written (RFC 3339; empty from a live board).
	Exported string `json:"exported,omitempty"`
}

// EntryView is one entry with every sample's verdict (GET /api/v1/board/{id}).
type EntryView struct {
	Entry    Entry           `json:"entry"`
	Verdicts []SampleVerdict `json:"verdicts"`
}

// Submitted is the answer to a submission: the entry as judged, and its owner key, shown once.
type Submitted struct {
	Entry Entry `json:"entry"`
	// OwnerKey retracts the entry (DELETE with Authorization: Bearer KEY); only its hash is kept.
	OwnerKey string `json:"owner_key"`
	// Season is the season the board ranks (0: the original data): an entry made on other data
	// (Entry.Seed) is listed apart.
	Season int64 `json:"season,omitempty"`
}
