package tools

import (
	"sync"
	"sync/atomic"

	"github.com/apibank-playground/apibank/value"
)

// Deferred is a database kept as its JSON text, already checked (value.Check), until a tool first
// reads it: a run decodes only the databases its calls touch, and a load costs a scan instead of a
// parse (ImageCaptioning alone is 2.5 MB of the original's 3.2 MB of databases, and a start-up
// under WebAssembly spent most of its load building it). Safe for concurrent use.
type Deferred struct {
	mu sync.Mutex // held to decode, and to read text
	// decoded is set once v and ok hold the decoded database (text is then nil): after it, readers
	// take no lock (the builtin data's bases are shared by every session of a server).
	decoded atomic.Bool
	text    []byte
	v       any
	ok      bool
}

// Defer returns a database to be decoded from text on first use; text must be one JSON value that
// value.Check accepts. The database keeps text: the caller must not modify it afterwards.
func Defer(text []byte) *Deferred { return &Deferred{text: text} }

// get decodes the database once and returns it. A text Decode refuses (never, once checked) reads as
// a database the base does not have.
func (d *Deferred) get() (any, bool) {
	if d.decoded.Load() {
		return d.v, d.ok
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.decoded.Load() {
		v, err := value.Decode(d.text)
		d.v, d.ok, d.text = v, err == nil, nil
		d.decoded.Store(true)
	}
	return d.v, d.ok
}

// undecoded returns the database's text while it has not been decoded (ok false once it has): an
// index over a few members of a large database scans the text (value.ObjectScanner) rather than have
// the whole tree built. The text is the Deferred's own and never changes; the caller may keep
// subslices of it.
func (d *Deferred) undecoded() (text []byte, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.text, !d.decoded.Load()
}

// db returns the initial content of a database and whether the base has it, decoding a deferred
// one on first use.
func (b *Base) db(name string) (any, bool) {
	v, ok := b.dbs[name]
	if d, deferred := v.(*Deferred); deferred {
		return d.get()
	}
	return v, ok
}
