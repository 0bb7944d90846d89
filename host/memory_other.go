//go:build !(linux && (amd64 || arm64))

package host

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator returns nil: wazero's default allocator (see memory_linux.go for why Linux differs).
func memoryAllocator(*sessionMemory) experimental.MemoryAllocator { return nil }
