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
type reserveAllocator struct{ owner *sessionMemory }

// Allocate reserves max bytes of address space (4 GiB when the module declares no maximum).
func (a reserveAllocator) Allocate(cap, max uint64) experimental.LinearMemory {
	if max == 0 || max > 4<<30 {
		max = 4 << 30
	}
	buf, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	return &reserved{buf: buf, owner: a.owner}
}

type reserved struct {
	buf   []byte
	owner *sessionMemory
}

// Reallocate grows the memory within the reservation: the address never changes, nothing is copied.
func (r *reserved) Reallocate(size uint64) []byte {
	if size > uint64(len(r.buf)) {
		return nil
	}
	return r.buf[:size]
}

// Free is wazero's "done with the memory": the session unmaps it once no call into the module runs
// (see sessionMemory).
func (r *reserved) Free() {
	buf := r.buf
	if buf == nil {
		return
	}
	r.buf = nil
	r.owner.done(func() { _ = syscall.Munmap(buf) })
}

// memoryAllocator returns the allocator for a new instance whose memory owner is the session's.
func memoryAllocator(owner *sessionMemory) experimental.MemoryAllocator {
	return reserveAllocator{owner: owner}
}
