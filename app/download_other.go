//go:build !(js && wasm)

package app

// downloadBytes has no browser to save a file with.
func downloadBytes(string, string, []byte) bool { return false }
