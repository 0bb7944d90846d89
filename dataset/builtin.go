package dataset

import (
	_ "embed"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
)

// BuiltinName is the name of the project's own dataset.
const BuiltinName = "builtin"

//go:generate go run ./internal/pack builtin builtin.pack builtin.stats

// builtinPack is the builtin folder packed by `go generate` (see Pack).
//
//go:embed builtin.pack
var builtinPack []byte

var (
	builtinOnce sync.Once
	builtinData *Data
	builtinErrs []LineError
	builtinErr  error
	// builtinBuilt is set once Builtin has parsed the pack.
	builtinBuilt atomic.Bool
)

// BuiltinBuilt reports whether this process has built the builtin data yet (Builtin's first call):
// a host that loads a folder of its own should never pay for it, and tests check that it does not.
func BuiltinBuilt() bool { return builtinBuilt.Load() }

// Builtin returns the project's own dataset, embedded in the binary: written by us from scratch, in the
// original's layout (the dataset/builtin folder). It is parsed once and shared (Data is read-only;
// worlds copy on write). Files with problems are reported by BuiltinErrors; the rest loads.
func Builtin() (*Data, error) {
	builtinOnce.Do(func() {
		defer builtinBuilt.Store(true)
		files, err := BuiltinFiles()
		if err != nil {
			builtinErr = err
			return
		}
		builtinData, builtinErrs, builtinErr = LoadRepaired(BuiltinName, files)
	})
	return builtinData, builtinErr
}

// BuiltinFiles returns the files of the builtin data in the original's layout (a fresh map each
// call; the bytes are shared and must not be changed): what a variant of the builtin data is made
// from. The pack is unpacked once per process, for the builtin data and its variants alike.
func BuiltinFiles() (Files, error) {
	files, err := builtinUnpacked()
	return maps.Clone(files), err
}

// builtinUnpacked is the builtin pack unpacked, once.
var builtinUnpacked = sync.OnceValues(func() (Files, error) { return Unpack(builtinPack) })

// LoadRepaired loads files written as the builtin data is (our own data, or a variant of it): lazily,
// as Load does, and judged without the original's defects. Its worlds run the tools without the
// original's persistent-state quirks, and its text calls are read as Python literals (Repaired).
func LoadRepaired(name string, files Files) (*Data, []LineError, error) {
	d, errs, err := load(name, files, true, nil)
	if d != nil {
		d.Repaired = true
		d.Base.Repair()
		for _, dl := range d.dialogues { // not parsed yet: see load
			dl.Repaired = true
		}
		// A scene is marked when it is parsed (sceneFile.parse).
	}
	return d, errs, err
}

// BuiltinErrors returns the problems met loading the builtin data, parsing every dialogue and scene to
// find them (in path order): none in a release (the tests require it), but a dataset author sees them
// in validate while writing.
func BuiltinErrors() []LineError {
	d, _ := Builtin()
	if d == nil {
		return builtinErrs
	}
	errs := append(slices.Clip(builtinErrs), d.ParseAll()...)
	byPath(errs)
	return errs
}
