//go:build !(js && wasm)

package app

// defaultRunStore is where runs are kept until UseRuns says otherwise: memory.
func defaultRunStore() *RunStore { return NewMemoryRunStore() }

// memVault keeps the key in memory (tests and the server's pre-render).
type memVault struct {
	key      string
	remember bool
}

func (v *memVault) Load() (string, bool)           { return v.key, v.remember }
func (v *memVault) Save(key string, remember bool) { v.key, v.remember = key, remember }

// NewKeyVault returns a key storage in memory.
func NewKeyVault() KeyVault { return &memVault{} }

// EngineIdentity names the engine outside the browser (the engine package in-process).
func EngineIdentity() string { return "engine (in-process)" }

// download has no browser to save a file with.
func download(string, string, []byte) bool { return false }
