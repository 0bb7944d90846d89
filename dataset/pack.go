package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Pack writes files as one gzip stream of (path, content) records, each a uvarint length followed by
// the bytes, in path order. The builtin data is embedded packed: it is a quarter of its raw size, which
// keeps the engine module within its size budget.
func Pack(w io.Writer, files Files) error {
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	var n [binary.MaxVarintLen64]byte
	for _, p := range names {
		for _, b := range [][]byte{[]byte(p), files[p]} {
			if _, err := zw.Write(n[:binary.PutUvarint(n[:], uint64(len(b)))]); err != nil {
				return err
			}
			if _, err := zw.Write(b); err != nil {
				return err
			}
		}
	}
	return zw.Close()
}

// Unpack reads what Pack wrote.
func Unpack(data []byte) (Files, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	// The stream's last four bytes give its size (modulo 4 GiB): read into a buffer of that size at
	// once rather than one grown and copied over and over (this runs at every start-up of the engine).
	// A size past 64 MiB (a corrupt trailer: the pack is under 2 MB) is not trusted.
	size := 0
	if len(data) >= 4 {
		size = min(int(binary.LittleEndian.Uint32(data[len(data)-4:])), 64<<20)
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead)) // ReadFrom wants MinRead free to read on
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, err
	}
	raw := buf.Bytes()
	files := Files{}
	for len(raw) > 0 {
		var rec [2][]byte
		for i := range rec {
			l, k := binary.Uvarint(raw)
			if k <= 0 || uint64(len(raw)-k) < l {
				return nil, errors.New("packed data is corrupt")
			}
			rec[i], raw = raw[k:k+int(l)], raw[k+int(l):]
		}
		files[string(rec[0])] = rec[1]
	}
	return files, nil
}

// ReadFS reads every file under root of fsys, keyed by path relative to root, skipping README files.
func ReadFS(fsys fs.FS, root string) (Files, error) {
	files := Files{}
	err := fs.WalkDir(fsys, root, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() || path.Base(p) == "README.md" {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		rel := p
		if root != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		}
		files[rel] = b
		return nil
	})
	return files, err
}
