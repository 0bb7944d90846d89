package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxFile is the largest data file ReadFolder reads (64 MiB; the original's largest database is
// under 2 MB), and MaxFolder the most it reads from one folder in all (256 MiB): the whole folder
// goes to the engine in one load.
const (
	MaxFile   = 64 << 20
	MaxFolder = 256 << 20
)

// ReadFolder reads the files of a folder in the original layout that Load uses (dialogue JSONL under
// level-* folders, lv3-samples/*.txt, level-3/*.json scenes, init_database/*.json), keyed by
// slash-separated path relative to dir. Hosts use it to turn --data DIR into a load request.
//
// Only regular files are read (a symbolic link is followed to one): a named pipe would block the
// read forever and a link to a device such as /dev/zero would never end. Such files, files over
// MaxFile, files past MaxFolder in all and files that cannot be read are left out and reported as
// errors naming them; the rest is read. err is for the folder itself.
func ReadFolder(dir string) (Files, []LineError, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, errorf("%s is not a folder", dir)
	}
	files := Files{}
	var problems []LineError
	total := int64(0)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if p == dir {
				return err
			}
			problems = append(problems, LineError{File: rel, Message: err.Error()})
			return nil
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
		b, err := ReadFile(p, min(MaxFile, MaxFolder-total))
		if err != nil {
			var big *tooBigError
			if errors.As(err, &big) && MaxFolder-total < MaxFile {
				err = errorf("not read: with it the folder's data files pass %d MiB in all, the most one folder may have", MaxFolder>>20)
			}
			problems = append(problems, LineError{File: rel, Message: err.Error()})
			return nil
		}
		total += int64(len(b))
		files[rel] = b
		return nil
	})
	return files, problems, err
}

// ReadDir is ReadFolder for hosts that stop at the first refused file: it returns an error naming
// every file ReadFolder left out, or the files.
func ReadDir(dir string) (Files, error) {
	files, problems, err := ReadFolder(dir)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		errs := make([]error, len(problems))
		for i, p := range problems {
			errs[i] = errors.New(filepath.Join(dir, p.Error()))
		}
		return nil, errors.Join(errs...)
	}
	return files, nil
}

// ReadFile reads a regular file of at most max bytes (a symbolic link is followed). A named pipe, a
// device, a socket or a folder is refused without being opened (opening a pipe blocks until another
// process writes to it), and so is a file over max, with messages that say which.
func ReadFile(path string, max int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(st, max); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Check again what was opened (the path may have changed since), then read at most max+1 bytes.
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(st, max); err != nil {
		return nil, err
	}
	// Read into a buffer of the size the file has (io.ReadAll alone grows and copies its buffer a
	// dozen times for a database of megabytes); one that grows meanwhile is still read, up to max+1.
	buf := bytes.NewBuffer(make([]byte, 0, min(st.Size(), max)+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if int64(len(b)) > max {
		return nil, &tooBigError{size: -1, max: max}
	}
	return b, nil
}

// regular says why a file is not one ReadFile reads, or nil.
func regular(st fs.FileInfo, max int64) error {
	m := st.Mode()
	switch {
	case m.IsRegular():
		if st.Size() > max {
			return &tooBigError{size: st.Size(), max: max}
		}
		return nil
	case m&fs.ModeNamedPipe != 0:
		return errors.New("not read: a named pipe (FIFO), not a regular file")
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return errors.New("not read: a device, not a regular file")
	case m&fs.ModeSocket != 0:
		return errors.New("not read: a socket, not a regular file")
	case m.IsDir():
		return errors.New("not read: a folder, not a regular file")
	}
	return errorf("not read: not a regular file (%v)", m.Type())
}

// tooBigError is ReadFile's error for a file over its limit (size -1: it grew past it while read).
type tooBigError struct{ size, max int64 }

func (e *tooBigError) Error() string {
	if e.size < 0 {
		return fmt.Sprintf("not read: it grew past %d bytes, the most a data file may have, while being read", e.max)
	}
	return fmt.Sprintf("not read: %d bytes, more than the %d (%d MiB) a data file may have", e.size, e.max, e.max>>20)
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
