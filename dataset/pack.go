package dataset

import (
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/apibank-playground/apibank/internal/lz"
)

// Pack writes files as (path, content) records, each a uvarint length followed by the bytes, in path
// order, compressed with internal/lz. The builtin data is embedded packed: a quarter of its raw size,
// which keeps the engine module within its size budget, and unpacked at every start of the engine,
// where lz decodes in a fraction of gzip's time (RATIONALE "The builtin pack").
func Pack(w io.Writer, files Files) error {
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	var raw []byte
	for _, p := range names {
		for _, b := range [][]byte{[]byte(p), files[p]} {
			raw = binary.AppendUvarint(raw, uint64(len(b)))
			raw = append(raw, b...)
		}
	}
	_, err := w.Write(lz.Compress(raw))
	return err
}

// maxPacked bounds the unpacked size Unpack trusts a pack to declare (the builtin data is under 1 MB).
const maxPacked = 64 << 20

// errCorruptPack is Unpack's error for data Pack did not write.
var errCorruptPack = errors.New("packed data is corrupt")

// Unpack reads what Pack wrote.
func Unpack(data []byte) (Files, error) {
	raw, err := lz.Decompress(data, maxPacked)
	if err != nil {
		return nil, errCorruptPack
	}
	files := Files{}
	for len(raw) > 0 {
		var rec [2][]byte
		for i := range rec {
			l, k := binary.Uvarint(raw)
			if k <= 0 || uint64(len(raw)-k) < l {
				return nil, errCorruptPack
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
			return errorf("%s: %w", p, err)
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
