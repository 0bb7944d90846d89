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
	builtinErrs []LineError
	builtinErr  error
)

// Builtin returns the project's own dataset, embedded in the binary: written by us from scratch, in the
// original's layout. It is parsed once and shared (Data is read-only; worlds copy on write). Files
// with problems are reported by BuiltinErrors; the rest loads.
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
		builtinData, builtinErrs, builtinErr = Load(BuiltinName, files)
	})
	return builtinData, builtinErr
}

// BuiltinErrors returns the problems met loading the builtin data: none in a release (the tests
// require it), but a dataset author sees them in validate while writing.
func BuiltinErrors() []LineError {
	_, _ = Builtin()
	return builtinErrs
}
