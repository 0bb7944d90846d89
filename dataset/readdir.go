package dataset

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ReadDir reads the files of a folder in the original layout that Load uses (dialogue JSONL under
// level-* folders, lv3-samples/*.txt, level-3/*.json scenes, init_database/*.json), keyed by
// slash-separated path relative to dir. Hosts use it to turn --data DIR into a load request.
func ReadDir(dir string) (Files, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	files := Files{}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != dir {
				return filepath.SkipDir
			}
			return nil
		}
		if !wanted(filepath.Base(filepath.Dir(p)), filepath.Ext(p)) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	return files, err
}

// wanted reports whether a file with this parent folder and extension is one Load reads.
func wanted(parent, ext string) bool {
	switch ext {
	case ".jsonl":
		return parent == Level1 || parent == Level2
	case ".txt":
		return parent == "lv3-samples"
	case ".json":
		return parent == "init_database" || parent == Level3
	}
	return false
}
