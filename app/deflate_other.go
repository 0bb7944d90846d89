//go:build !(js && wasm)

package app

import "github.com/apibank-playground/apibank/internal/zipfile"

// deflateRaw compresses b as raw deflate data; outside the browser with compress/flate.
func deflateRaw(b []byte) ([]byte, error) { return zipfile.Deflate(b) }
