package variant

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/apibank-playground/apibank/dataset"
)

// Make returns the variant of files (a dataset in the builtin layout, as dataset.Load takes it)
// named by seed, and its report. Seed 0 is the original: files are returned as they are.
//
// The same files and seed give the same bytes, always. A dialogue or scene file whose variant fails
// a check (see guard) is served as it is, and the report says which check and why; so is every file
// that is not a dialogue, a scene or a user database. The error is not nil only when a file served
// unchanged fails in the variant's world, which its copies are made never to do: then no variant is
// served.
func Make(files dataset.Files, seed uint64) (dataset.Files, *Report, error) {
	rep := &Report{Seed: seed, Name: Name(dataset.BuiltinName, seed), Moved: map[Kind]int{}}
	if seed == 0 {
		rep.Digest = digest(0, nil, nil, files)
		return files, rep, nil
	}
	src := parse(files)
	p := newPlan(discover(src), seed)
	r := newReplacer(append(slices.Clip(p.moves), p.pins...))
	rep.Moves = p.moves

	out := make(dataset.Files, len(files))
	for k, v := range files {
		out[k] = v
	}
	hits := map[string]map[int]bool{}
	var texts []string
	for _, df := range src.dialogues {
		texts = append(texts, df.path)
	}
	for _, sf := range src.scenes {
		texts = append(texts, sf.path)
	}
	for _, pth := range texts {
		s := string(files[pth])
		h := map[int]bool{}
		if ns := r.replace(s, func(i int) { h[i] = true }); ns != s {
			out[pth] = []byte(ns)
			hits[pth] = h
		}
	}
	for _, name := range sortedKeys(src.dbs) {
		if _, user := userFields[name]; user {
			pth := src.dbs[name]
			var n int
			out[pth], n = worldCopies(name, files[pth], p, r)
			rep.Copies += n
		}
	}

	// The guard: a moved file whose variant fails is served unchanged, and is then checked again,
	// as it is, in the variant's world. Files that nothing moved in are their originals, in a world
	// that only gained records under keys no original names: Prove checks them too.
	dbs := dataset.Files{}
	for _, name := range sortedKeys(src.dbs) {
		dbs[src.dbs[name]] = out[src.dbs[name]]
	}
	subset := func(paths []string) dataset.Files {
		fs := maps.Clone(dbs)
		for _, pth := range paths {
			fs[pth] = out[pth]
		}
		return fs
	}
	fails, err := guard(subset(sortedKeys(hits)))
	if err != nil {
		return nil, nil, fmt.Errorf("variant %d: %w", seed, err)
	}
	var reverted []string
	for _, pth := range failedPaths(fails) {
		if _, moved := hits[pth]; !moved {
			continue // a file of the same name at another level: checked as it is below
		}
		out[pth] = files[pth]
		delete(hits, pth)
		rep.Unchanged = append(rep.Unchanged, fails[pth])
		reverted = append(reverted, pth)
	}
	if len(reverted) > 0 {
		fails, err := guard(subset(reverted))
		if err != nil {
			return nil, nil, fmt.Errorf("variant %d: %w", seed, err)
		}
		if len(fails) > 0 {
			u := fails[failedPaths(fails)[0]]
			return nil, nil, fmt.Errorf("variant %d: %s, served unchanged, fails in the variant's world: %s: %s", seed, u.Path, u.Check, u.Why)
		}
	}

	unchanged := map[string]bool{}
	for _, u := range rep.Unchanged {
		unchanged[u.Path] = true
	}
	used := map[int]bool{}
	for _, pth := range texts {
		fr := FileReport{Path: pth, Moved: len(hits[pth]), Unchanged: unchanged[pth]}
		for i := range hits[pth] {
			used[i] = true
		}
		rep.Files = append(rep.Files, fr)
	}
	sort.Slice(rep.Files, func(i, j int) bool { return rep.Files[i].Path < rep.Files[j].Path })
	for i := range used {
		rep.Moved[p.moves[i].Kind]++
	}
	rep.Digest = digest(seed, p.moves, rep.Unchanged, out)
	return out, rep, nil
}
