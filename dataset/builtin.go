package dataset

import (
	"embed"
	"io/fs"
	"sync"
)

// BuiltinName is the name of the project's own dataset.
const BuiltinName = "builtin"

//go:embed all:builtin
var builtinFS embed.FS

var (
	builtinOnce sync.Once
	builtinData *Data
	builtinErr  error
)

// Builtin returns the project's own dataset, embedded in the binary: written by us from scratch, in the
// original's layout. It is parsed once and shared (Data is read-only; worlds copy on write).
func Builtin() (*Data, error) {
	builtinOnce.Do(func() {
		files := Files{}
		builtinErr = fs.WalkDir(builtinFS, "builtin", func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() {
				return err
			}
			b, err := builtinFS.ReadFile(p)
			if err != nil {
				return err
			}
			files[p] = b
			return nil
		})
		if builtinErr != nil {
			return
		}
		var errs []LineError
		builtinData, errs, builtinErr = Load(BuiltinName, files)
		if builtinErr == nil && len(errs) > 0 {
			builtinErr = errs[0]
		}
	})
	return builtinData, builtinErr
}
