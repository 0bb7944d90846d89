package serve

import (
	"net"
	"sync"
)

// LimitListener caps the connections open at once at n: Accept waits for a free slot before taking
// the next connection off the kernel's queue, and a slot frees when its connection closes. With the
// header timeout closing stalled connections, a flood of half-open connections then delays new
// clients for at most that timeout instead of exhausting the process's file descriptors (which would
// stop it from opening anything, web/ files and logs included).
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// Accept waits for a slot, then for a connection.
func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

// Close stops the listener and wakes an Accept waiting for a slot.
func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.done) })
	return err
}

// InUse is the number of connections holding a slot.
func (l *limitListener) InUse() int { return len(l.slots) }

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close closes the connection and frees its slot (once, however often it is closed).
func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
