//go:build wasm
// +build wasm

package app

// Handler is declared for wasm so that the API shared by both sides compiles
// (GenerateStaticWebsite takes one). Serving pages is the server's job: the
// Handler that does it lives in http.go, built for other architectures only,
// so that a wasm binary does not link net/http (and crypto/tls, crypto/x509,
// math/big through their init functions) when it does not use them itself.
type Handler struct{}
