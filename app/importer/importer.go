// Package importer turns what a user chose or dropped (a folder's files, or zip archives) into the
// files of a dataset in the original API-Bank layout, ready for the engine's load request: it keeps
// only the files that layout holds and says what it found and what it left out.
package importer

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/internal/zipfile"
)

// Entry is one chosen file: its slash-separated path (relative to what was chosen) and content.
type Entry struct {
	Path string
	Data []byte
}

// Summary says what Collect kept.
type Summary struct {
	// Name is a name for the dataset: the chosen folder's or zip's name.
	Name string
	// Level1, Level2, Scenes and Databases count the kept files of each kind.
	Level1, Level2, Scenes, Databases int
	// Skipped counts the files left out (not part of the layout).
	Skipped int
}

// MaxUnzipped is the most a zip may expand to (a guard against zip bombs).
const MaxUnzipped = 256 << 20

// Kind tells what a path is in the original layout: "level-1-given-desc", "level-2-toolsearcher",
// "scene", "database", or "" for a file the layout does not hold.
func Kind(p string) string {
	dir, base := path.Split(p)
	parent := path.Base(strings.TrimSuffix(dir, "/"))
	switch {
	case strings.HasSuffix(base, ".jsonl") && (parent == "level-1-given-desc" || parent == "level-2-toolsearcher"):
		return parent
	case strings.HasSuffix(base, ".txt") && parent == "lv3-samples", strings.HasSuffix(base, ".json") && parent == "level-3":
		return "scene"
	case strings.HasSuffix(base, ".json") && parent == "init_database":
		return "database"
	}
	return ""
}

// Collect keeps the layout's files of entries, opening zips (by their .zip suffix) on the way. Every
// kept file must be UTF-8 text. It fails, saying which file and why, on a zip it cannot read, a file
// that is not text, or when nothing of the layout is found.
func Collect(entries []Entry) (map[string]string, Summary, error) {
	var sum Summary
	files := map[string]string{}
	var add func(prefix string, e Entry) error
	add = func(prefix string, e Entry) error {
		p := strings.TrimPrefix(path.Clean("/"+prefix+e.Path), "/")
		if strings.HasSuffix(strings.ToLower(p), ".zip") {
			entries, err := zipfile.Read(e.Data)
			if err != nil {
				return fmt.Errorf("%s: not a readable zip archive: %v", p, err)
			}
			total := 0
			for _, f := range entries {
				if f.IsDir() {
					continue
				}
				if Kind(f.Name) == "" {
					sum.Skipped++
					continue
				}
				data, err := f.Read(MaxUnzipped - int64(total))
				if err != nil {
					return fmt.Errorf("%s: %s: %v", p, f.Name, err)
				}
				total += len(data)
				if total > MaxUnzipped {
					return fmt.Errorf("%s: expands to more than %d MB: not imported", p, MaxUnzipped>>20)
				}
				if err := add(p+"/", Entry{Path: f.Name, Data: data}); err != nil {
					return err
				}
			}
			return nil
		}
		k := Kind(p)
		if k == "" {
			sum.Skipped++
			return nil
		}
		if !utf8.Valid(e.Data) {
			return fmt.Errorf("%s: not UTF-8 text", p)
		}
		switch k {
		case "level-1-given-desc":
			sum.Level1++
		case "level-2-toolsearcher":
			sum.Level2++
		case "scene":
			sum.Scenes++
		case "database":
			sum.Databases++
		}
		files[p] = string(e.Data)
		return nil
	}
	for _, e := range entries {
		if err := add("", e); err != nil {
			return nil, sum, err
		}
	}
	if len(files) == 0 {
		return nil, sum, fmt.Errorf("no API-Bank files found among %d: expected lv1-lv2-samples/level-1-given-desc/*.jsonl, lv1-lv2-samples/level-2-toolsearcher/*.jsonl, lv3-samples/*.txt or init_database/*.json", len(entries))
	}
	sum.Name = name(entries)
	return files, sum, nil
}

// name is the first path element shared by the entries (a folder's name), or the zip's name.
func name(entries []Entry) string {
	firsts := map[string]bool{}
	for _, e := range entries {
		first, _, _ := strings.Cut(strings.TrimPrefix(e.Path, "/"), "/")
		firsts[first] = true
	}
	if len(firsts) == 1 {
		for f := range firsts {
			f = strings.TrimSuffix(f, ".zip")
			if f != "" && Kind(f) == "" && f != "lv1-lv2-samples" && f != "init_database" && f != "lv3-samples" {
				return f
			}
		}
	}
	list := make([]string, 0, len(firsts))
	for f := range firsts {
		list = append(list, f)
	}
	sort.Strings(list)
	if len(list) > 0 && strings.HasSuffix(list[0], ".zip") {
		return strings.TrimSuffix(list[0], ".zip")
	}
	return "imported"
}
