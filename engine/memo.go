package engine

import (
	"encoding/json"
	"hash/fnv"
	"sort"
	"strconv"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
)

// memoVersion numbers the layout of dataMemo: a memo of another layout is ignored.
const memoVersion = 1

// dataMemo is what loading and judging a folder taught the engine that a later load of the very
// same files can skip (protocol.Memo): the folder had no problem, so its files may be parsed as
// they are used; its counts, which would need all of them parsed; the tables harvested from its
// gold results, which would too; and the gold ceilings replayed, a level's every gold call each.
// Of a CLI run on one prediction of the original's folder under wazero, those were about half.
type dataMemo struct {
	V int `json:"v"`
	// Files is filesDigest of the folder it was learned from: a memo of other files is ignored.
	Files     string                     `json:"files"`
	Dialogues map[string]int             `json:"dialogues"`
	Scenes    int                        `json:"scenes"`
	Harvested map[string]json.RawMessage `json:"harvested,omitempty"`
	// Ceilings are the gold replays by ceilingName, as JSON (decoded when a report asks).
	Ceilings map[string]json.RawMessage `json:"ceilings,omitempty"`
	// bad names the ceilings that did not decode (replayed instead, and replaced in the next memo).
	bad map[string]bool
}

// filesDigest digests the paths and sizes of a folder's files: enough to catch a memo handed back
// for another folder, at no cost (hashing the megabytes themselves would cost more under
// WebAssembly than the memo saves). That the bytes are the same is the host's to know: it keeps a
// memo under a digest of the module's and the files' bytes.
func filesDigest(files dataset.Files) string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := fnv.New64a()
	var n []byte
	for _, p := range paths {
		h.Write([]byte(p))
		n = strconv.AppendInt(append(n[:0], 0), int64(len(files[p])), 10)
		h.Write(append(n, '\n'))
	}
	return strconv.FormatUint(h.Sum64(), 16) + "-" + strconv.Itoa(len(paths))
}

// readMemo decodes a memo for files of the given digest: nil when there is none, or it is of
// another layout, of other files, or not a memo at all.
func readMemo(text, digest string) *dataMemo {
	if text == "" {
		return nil
	}
	var m dataMemo
	if json.Unmarshal([]byte(text), &m) != nil || m.V != memoVersion || m.Files != digest || m.Dialogues == nil {
		return nil
	}
	return &m
}

// known is what dataset.LoadKnown takes from the memo.
func (m *dataMemo) known() dataset.Known {
	var k dataset.Known
	for name, raw := range m.Harvested {
		if k.Harvested == nil {
			k.Harvested = map[string][]byte{}
		}
		k.Harvested[name] = raw
	}
	return k
}

// ceiling gives the memo's gold replay of a level (for score.Index.Preset); ok is false where the
// memo has none (the index computes it).
func (m *dataMemo) ceiling(mode score.Mode, level string, native bool) (score.Replayed, bool) {
	var r score.Replayed
	name := ceilingName(mode, level, native)
	raw, ok := m.Ceilings[name]
	if !ok {
		return score.Replayed{}, false
	}
	if json.Unmarshal(raw, &r) != nil {
		if m.bad == nil {
			m.bad = map[string]bool{}
		}
		m.bad[name] = true
		return score.Replayed{}, false
	}
	return r, true
}

// memoTaken says the current data was loaded with the request's memo (a load with files always has
// some), rather than learning it.
func (s *Session) memoTaken() bool { return s.memoFiles != nil }

// newMemo is the memo of data just loaded from files without a problem; memo completes it when
// asked (most loads never are: the tab's, the server's).
func newMemo(digest string, counts map[string]int, scenes int) *dataMemo {
	return &dataMemo{V: memoVersion, Files: digest, Dialogues: counts, Scenes: scenes}
}

// memo answers the memo op: the current data's memo with every gold ceiling it had and every one
// given since, or nothing for the builtin data (its ceilings are built in), for data loaded with
// problems, for data loaded with a memo whose files turned out to have some when parsed, and for
// harvested tables that would not read back as they are (see dataset.Data.Harvested). When the load
// took a memo and nothing was learned since, it answers Unchanged instead of encoding the same memo
// again.
func (s *Session) memo() protocol.Memo {
	if s.dataMemo == nil || (s.memoTaken() && len(s.data.ErrorsSoFar()) > 0) {
		return protocol.Memo{}
	}
	m := *s.dataMemo
	learned := !s.memoTaken()
	if learned {
		tables, ok := s.data.Harvested()
		if !ok {
			return protocol.Memo{}
		}
		for name, text := range tables {
			if m.Harvested == nil {
				m.Harvested = map[string]json.RawMessage{}
			}
			m.Harvested[name] = text
		}
	}
	m.Ceilings = make(map[string]json.RawMessage, len(s.dataMemo.Ceilings))
	for name, raw := range s.dataMemo.Ceilings { // kept, though this run asked for none of them
		if !m.bad[name] {
			m.Ceilings[name] = raw
		}
	}
	s.index.Ceilings(func(mode score.Mode, level string, native bool, r score.Replayed) {
		name := ceilingName(mode, level, native)
		if _, had := m.Ceilings[name]; had {
			return
		}
		if raw, err := json.Marshal(r); err == nil {
			m.Ceilings[name] = raw
			learned = true
		}
	})
	if !learned {
		return protocol.Memo{Unchanged: true}
	}
	text, err := json.Marshal(m)
	if err != nil {
		return protocol.Memo{}
	}
	return protocol.Memo{Memo: string(text)}
}
