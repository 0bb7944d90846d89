//go:build unix

package main

import (
	"log/slog"
	"syscall"
)

// reservedFDs are the file descriptors kept out of the connection cap: the listener, logs, the
// runtime's own, and files a handler opens.
const reservedFDs = 256

// fitConns lowers the connection cap to what the process's file descriptor limit allows, so a
// flood of connections can never leave the server unable to open anything.
func fitConns(want int, logger *slog.Logger) int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return want
	}
	room := int64(lim.Cur) - reservedFDs
	if room < 16 {
		room = 16
	}
	if int64(want) > room {
		logger.Warn("connection cap lowered to fit the file descriptor limit", "wanted", want, "max_conns", room, "nofile", lim.Cur)
		return int(room)
	}
	return want
}
