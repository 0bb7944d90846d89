package serve

import (
	"errors"
	"net"
	"testing"
	"time"
)

func TestLimitListener(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const limit = 3
	ln := LimitListener(inner, limit).(*limitListener)
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	for range limit + 2 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	var server []net.Conn
	for range limit {
		select {
		case c := <-accepted:
			server = append(server, c)
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d connections accepted, want %d", len(server), limit)
		}
	}
	select {
	case <-accepted:
		t.Fatalf("a connection beyond the cap of %d was accepted", limit)
	case <-time.After(200 * time.Millisecond):
	}
	if ln.InUse() != limit {
		t.Errorf("%d slots in use, want %d", ln.InUse(), limit)
	}
	// Closing one (twice: the slot is freed once) lets exactly one more in.
	server[0].Close()
	server[0].Close()
	select {
	case c := <-accepted:
		server = append(server, c)
	case <-time.After(5 * time.Second):
		t.Fatal("a freed slot did not let the next connection in")
	}
	select {
	case <-accepted:
		t.Fatal("closing one connection twice freed two slots")
	case <-time.After(200 * time.Millisecond):
	}
	// Close wakes the Accept that waits for a slot.
	ln.Close()
	select {
	case _, open := <-accepted:
		if open {
			t.Fatal("Accept gave a connection after Close")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not wake the waiting Accept")
	}
	if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Accept after Close: %v, want net.ErrClosed", err)
	}
	for _, c := range server[1:] {
		c.Close()
	}
	if ln.InUse() != 0 {
		t.Errorf("%d slots in use after every connection closed", ln.InUse())
	}
}
