package engine

import (
	"path"
	"sort"
	"sync"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/variant"
)

// keptVariants is how many variants of the builtin data a process keeps made: a class's students
// each answer on their own variant, and a server's sessions take turns with them.
const keptVariants = 8

// made is a variant of the builtin data, made once: its data (read-only, as the builtin data is),
// its index (a cache of pure results) and what it says of itself.
type made struct {
	seed    int64
	data    *dataset.Data
	index   *score.Index
	errs    []dataset.LineError
	summary *protocol.Variant
	// counts are the data's dialogues by level and scenes the number of its scenes, counted from
	// the variant's report (see counted).
	counts map[string]int
	scenes int
}

// variants holds the variants this process made, the most recently used first: every session of a
// process shares them, as it shares the builtin data.
var variants struct {
	mu   sync.Mutex
	list []*made
}

// variantOf returns the variant of the builtin data that seed names, made on first use.
func variantOf(seed int64) (*made, error) {
	variants.mu.Lock()
	defer variants.mu.Unlock()
	for i, m := range variants.list {
		if m.seed == seed {
			copy(variants.list[1:i+1], variants.list[:i])
			variants.list[0] = m
			return m, nil
		}
	}
	files, err := dataset.BuiltinFiles()
	if err != nil {
		return nil, err
	}
	vf, rep, err := variant.Make(files, uint64(seed))
	if err != nil {
		return nil, err
	}
	d, errs, err := dataset.LoadRepaired(rep.Name, vf)
	if err != nil {
		return nil, err
	}
	m := &made{seed: seed, data: d, index: score.NewIndex(d), errs: errs, summary: summarize(seed, rep)}
	m.counts, m.scenes = counted(rep)
	variants.list = append([]*made{m}, variants.list...)
	if len(variants.list) > keptVariants {
		variants.list = variants.list[:keptVariants]
	}
	return m, nil
}

// summarize is the wire form of a variant's report.
func summarize(seed int64, rep *variant.Report) *protocol.Variant {
	v := &protocol.Variant{Seed: seed, Moved: map[string]int{}, Shift: rep.Shift, Hours: rep.Hours, Unchanged: []protocol.UnchangedFile{}, Digest: rep.Digest}
	for k, n := range rep.Moved {
		v.Moved[string(k)] = n
	}
	v.Varied, _ = rep.Shares()
	for _, u := range rep.Unchanged {
		v.Unchanged = append(v.Unchanged, protocol.UnchangedFile{Path: u.Path, Check: u.Check, Why: u.Why})
	}
	sort.Slice(v.Unchanged, func(i, j int) bool { return v.Unchanged[i].Path < v.Unchanged[j].Path })
	return v
}

// counted returns a variant's dialogues by level and its number of scenes from its report, whose
// files are the dialogue and scene files that parse (Report.Files): what the data's Counts and
// Scenes say once every file is parsed (a test holds them equal), without parsing 394 files at the
// load. A variant's files are parsed on first use, as the builtin data's are.
func counted(rep *variant.Report) (map[string]int, int) {
	counts, scenes := map[string]int{}, 0
	for _, f := range rep.Files {
		switch level := path.Base(path.Dir(f.Path)); level {
		case dataset.Level3:
			scenes++
		default:
			counts[level]++
		}
	}
	return counts, scenes
}
