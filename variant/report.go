package variant

import (
	"encoding/binary"
	"hash/fnv"
	"sort"
	"strconv"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
)

// Report says what a variant moved and what it could not.
type Report struct {
	// Seed names the variant; Name is the name its data is loaded under (see Name).
	Seed uint64 `json:"seed"`
	Name string `json:"name"`
	// Moved counts the values moved, by kind: the moves found in at least one file served as the
	// variant.
	Moved map[Kind]int `json:"moved"`
	// Moves is the variant's mapping, original value → new value, in the order it was drawn.
	Moves []Move `json:"moves"`
	// Files are the dialogue and scene files, by path: how many values moved in each (distinct
	// moves found in it), and whether it is served unchanged.
	Files []FileReport `json:"files"`
	// Unchanged are the files served as they are, with why: the check their variant failed, what
	// the build learned fails (see staying), a near miss, or a time that would leave a part of the
	// day.
	Unchanged []Unchanged `json:"unchanged,omitempty"`
	// DatesKept are the files whose values moved but whose dates and times stayed, with why: their
	// variant with its dates and times moved failed a check (a question about a fact of the world on
	// a date), or they name a record whose date stays (see pinDates). They are written from the
	// data's today, which their worlds keep (see tools.TodayDB).
	DatesKept []Unchanged `json:"dates_kept,omitempty"`
	// TimesKept are the files whose dates moved but whose times stayed because they name a record
	// of the world whose time stays (see pinTimes), and TimesPinned counts those records (not their
	// copies).
	TimesKept   []string `json:"times_kept,omitempty"`
	TimesPinned int      `json:"times_pinned,omitempty"`
	// DatesPinned counts the records of the world whose dates and times stay because a file served
	// with its dates as written names them (see pinDates; a record and its copy count apart).
	DatesPinned int `json:"dates_pinned,omitempty"`
	// Shift is how many days the variant's dates moved (a whole number of weeks; 0 when they stay):
	// the dialogues', the user databases' and the world's today (see shiftDates).
	Shift int `json:"shift"`
	// Hours is how many hours the variant's times of day moved (0 when they stay): the
	// dialogues' and the user databases' (see shiftTimes).
	Hours int `json:"hours,omitempty"`
	// Copies counts the world's records copied with their values moved (see worldCopies).
	Copies int `json:"copies"`
	// Digest is a digest of the variant: what a run's data hash must fold in, since the samples of a
	// variant are those of its original (see Digest).
	Digest string `json:"digest"`
}

// FileReport is one dialogue or scene file of a variant.
type FileReport struct {
	Path string `json:"path"`
	// Moved is the number of distinct values moved in the file (0 when served unchanged).
	Moved int `json:"moved"`
	// Unchanged is set when the file's variant failed a check (see Report.Unchanged).
	Unchanged bool `json:"unchanged,omitempty"`
	// DatesKept is set when its values moved but its dates and times stayed (see Report.DatesKept).
	DatesKept bool `json:"dates_kept,omitempty"`
}

// Unchanged is a file served unchanged: the check its variant failed (a verify check name, or
// "special" for a special case's needs) and why.
type Unchanged struct {
	Path  string `json:"path"`
	Check string `json:"check"`
	Why   string `json:"why"`
}

// Name is the name a variant's data is loaded under (protocol.VariantName): the original's name,
// "~s" and the seed, "builtin~s42"; seed 0 is the original itself.
func Name(base string, seed uint64) string { return protocol.VariantName(base, seed) }

// Shares returns, for the dialogue and scene files with a value to move, how many were served as
// the variant and how many unchanged.
func (r *Report) Shares() (moved, unchanged int) {
	for _, f := range r.Files {
		switch {
		case f.Unchanged:
			unchanged++
		case f.Moved > 0:
			moved++
		}
	}
	return moved, unchanged
}

// digest digests a variant: its seed, its moves, the files served unchanged, and the paths and
// sizes of its files. Two variants of one original differ in it as soon as one value does; it
// costs no pass over the files' bytes (the moves say what changed).
func digest(seed uint64, shift, hours int, moves []Move, unchanged []Unchanged, files dataset.Files) string {
	h := fnv.New128a() // not crypto/sha256: it would bring the FIPS module into the engine
	var n [8]byte
	field := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field("apibank variant 1")
	binary.LittleEndian.PutUint64(n[:], seed)
	h.Write(n[:])
	if shift != 0 {
		field("shift " + strconv.Itoa(shift))
	}
	if hours != 0 {
		field("hours " + strconv.Itoa(hours))
	}
	for _, m := range moves {
		field(string(m.Kind))
		field(m.From)
		field(m.To)
	}
	for _, u := range unchanged {
		field(u.Path)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		field(p)
		binary.LittleEndian.PutUint64(n[:], uint64(len(files[p])))
		h.Write(n[:])
	}
	sum := h.Sum(nil)
	out := make([]byte, 16)
	for i := range out {
		out[i] = "0123456789abcdef"[sum[i/2]>>(4*(1-i%2))&15]
	}
	return string(out)
}
