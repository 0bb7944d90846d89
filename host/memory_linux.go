//go:build linux && (amd64 || arm64)

package host

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// reserveAllocator backs each instance's linear memory with one virtual reservation of its maximum
// size (4 GiB for the engine), made with mmap and committed by the kernel page by page on first touch.
// Growing is then free: wazero's default allocator grows a Go slice by appending, copying the whole
// memory each time its capacity runs out, which dominated loads of large datasets.
type reserveAllocator struct{}

// Allocate reserves max bytes of address space (4 GiB when the module declares no maximum).
func (reserveAllocator) Allocate(cap, max uint64) experimental.LinearMemory {
	if max == 0 || max > 4<<30 {
		max = 4 << 30
	}
	buf, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	return &reserved{buf: buf}
}

type reserved struct{ buf []byte }

// Reallocate grows the memory within the reservation: the address never changes, nothing is copied.
func (r *reserved) Reallocate(size uint64) []byte {
	if size > uint64(len(r.buf)) {
		return nil
	}
	return r.buf[:size]
}

// Free releases the reservation.
func (r *reserved) Free() {
	if r.buf != nil {
		_ = syscall.Munmap(r.buf)
		r.buf = nil
	}
}

// memoryAllocator returns the allocator for new instances.
func memoryAllocator() experimental.MemoryAllocator { return reserveAllocator{} }
