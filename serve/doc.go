// Package serve holds what a hardened HTTP face of the playground needs, whatever it serves: bodies
// compressed once at start-up and chosen by Accept-Encoding, security headers on every response, a
// structured access log that never sees secrets, a panic guard, a cap on open connections, and a
// server with every timeout set that shuts down gracefully.
//
// cmd/server puts its pages, its web/ files and (later) its API behind these pieces; nothing here
// knows about go-app or the engine.
package serve
