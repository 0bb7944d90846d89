//go:build unix

package memo

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestGetRefusesAFIFO: a FIFO where a memo would be is no memo, and reading it does not block (an
// open of a FIFO waits for a writer).
func TestGetRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"+suffix), 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() { got <- s.Get("fifo") }()
	select {
	case m := <-got:
		if m != "" {
			t.Errorf("the FIFO read as the memo %q", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Get blocked on a FIFO")
	}
}
