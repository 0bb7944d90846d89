// Package engine is the one door between API-Bank's benchmark logic and every host: a session that
// holds the loaded dataset and a sandbox world, and answers the versioned JSON requests of package
// protocol (the wire types every host imports). The wasm export, the wazero host, the CLI, the server
// and the browser UI all speak only this.
//
// Database names starting with "_" are a tool's internal bookkeeping (a remembered verification code,
// which added keys were integers): they are world state but never listed by world or changed.
package engine

import "github.com/apibank-playground/apibank/protocol"

func badRequest(msg string) *protocol.Error {
	return &protocol.Error{Code: protocol.CodeBadRequest, Message: msg}
}

func notFound(msg string) *protocol.Error {
	return &protocol.Error{Code: protocol.CodeNotFound, Message: msg}
}

func internal(msg string) *protocol.Error {
	return &protocol.Error{Code: protocol.CodeInternal, Message: msg}
}
