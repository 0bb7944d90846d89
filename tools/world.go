package tools

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/apibank-playground/apibank/value"
)

// Base is an immutable set of initial databases, as the original's init_database folder holds them
// (file stem -> parsed JSON), plus the tables Dictionary and Translate answer from. Worlds made from
// one Base share it and copy a database only when they first write it, so a fresh world costs
// microseconds even with the large read-only databases (Wiki, ImageCaptioning, SearchEngine).
type Base struct {
	dbs map[string]any
	// repaired: see Repair.
	repaired bool

	// The indexes over the large read-only databases, each built on first use (see info.go).
	captionsOnce sync.Once
	captionIdx   *captionIndex
	searchOnce   sync.Once
	search       searchIndexed
}

// NewBase returns a Base over the given databases. The Base takes ownership: callers must not modify
// the values afterwards. Databases a tool needs but dbs lacks start empty. A value may be a *Deferred,
// decoded when a tool first reads it.
func NewBase(dbs map[string]any) *Base {
	if dbs == nil {
		dbs = map[string]any{}
	}
	return &Base{dbs: dbs}
}

// Repair marks the base's worlds as running the tools without the original's persistent-state
// quirks: FlightSearch and HotelAvailability then answer a repeated search again instead of failing
// on the flight or hotel an earlier search reached (TOOLS.md). A lookup is then a lookup however
// often it is made, as a user of our data expects; and ModifyAlarm's "no such alarm" error names an
// alarm, not an agenda. Call it once, before the base is shared; the
// original's data keeps the quirks, for verdict parity.
func (b *Base) Repair() { b.repaired = true }

// Repaired says whether Repair marked the base.
func (b *Base) Repaired() bool { return b.repaired }

// Names returns the names of the databases the base holds, sorted.
func (b *Base) Names() []string {
	names := make([]string, 0, len(b.dbs))
	for n := range b.dbs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Database returns the initial content of a database (read-only) and whether the base has it.
func (b *Base) Database(name string) (any, bool) {
	return b.db(name)
}

// World is one evolving state of the databases: a session's sandbox, a fresh state for one evaluated
// call, or the state a replay has advanced. It is not safe for concurrent use.
type World struct {
	base *Base
	// own holds the databases this world has written (copied from the base on first write).
	own map[string]any
	// shallow names the tables of own copied only at their top level (see writeTop): their records
	// may still be the base's.
	shallow []string
	// pcg is the state of the generator that draws the random ids and tokens some tools create;
	// seeded, so runs are reproducible. It is made on first use (most worlds never draw).
	pcg *rand.PCG
	rnd *rand.Rand
	// ctx is what the tool running in this world sees (see Catalog.Call).
	ctx Ctx
	// today, when not "", is the world's today instead of its base's (see SetToday).
	today string
}

// SetToday makes date the world's today (GetToday's answer) instead of its base's: a dialogue
// written from another today than its data's runs in a world at its own ("" is the base's again).
func (w *World) SetToday(date string) { w.today = date }

// Today returns the world's today: the one SetToday gave it, or its base's (Base.Today).
func (w *World) Today() string {
	if w.today != "" {
		return w.today
	}
	return w.base.Today()
}

// seed is the fixed seed of every new world's generator.
const seed = 0x41504942616e6b // "APIBank"

// NewWorld returns a world in the base's initial state.
func (b *Base) NewWorld() *World {
	return &World{base: b}
}

// Reset puts w back in b's initial state, as b.NewWorld makes one: a caller that uses one fresh
// world at a time (a scorer: one a verdict) reuses it rather than making one each time. The
// world's table of written databases is emptied and kept, not made again at the next write.
func (b *Base) Reset(w *World) {
	own, shallow := w.own, w.shallow
	clear(own)
	*w = World{base: b, own: own, shallow: shallow[:0]}
}

// rng returns the world's random generator, made on first use.
func (w *World) rng() *rand.Rand {
	if w.rnd == nil {
		if w.pcg == nil {
			w.pcg = rand.NewPCG(seed, seed)
		}
		w.rnd = rand.New(w.pcg)
	}
	return w.rnd
}

// Base returns the base the world started from.
func (w *World) Base() *Base { return w.base }

// Clone returns an independent copy of the world: later writes to either are not seen by the other.
func (w *World) Clone() *World {
	c := &World{base: w.base, own: make(map[string]any, len(w.own)), today: w.today}
	for k, v := range w.own {
		c.own[k] = value.Clone(v)
	}
	// Copy the generator's state so the clone continues the same sequence.
	if w.pcg != nil {
		p := *w.pcg
		c.pcg = &p
	}
	return c
}

// read returns the current content of a database for reading only. Callers must not modify it;
// use write for that.
func (w *World) read(name string) any {
	if v, ok := w.own[name]; ok {
		return v
	}
	if v, ok := w.base.db(name); ok {
		return v
	}
	if v, ok := literal(name); ok {
		// Literal tables of the original's tools: read from one shared copy, so a lookup writes
		// nothing (Changed stays as it was); a write makes the world its own.
		return v
	}
	return value.NewMap(0)
}

// literal returns the shared, read-only copy of a tool's literal default table (see defaults).
func literal(name string) (any, bool) {
	literalsOnce.Do(func() {
		literals = make(map[string]any, len(defaults))
		for n, f := range defaults {
			literals[n] = f()
		}
	})
	v, ok := literals[name]
	return v, ok
}

var (
	literalsOnce sync.Once
	literals     map[string]any
)

// write returns the world's own, modifiable copy of a database, copying it from the base (or from
// the tool's literal default table) on first use.
func (w *World) write(name string) any {
	if v, ok := w.own[name]; ok {
		if i := slices.Index(w.shallow, name); i >= 0 {
			// Copied at its top level only: its records become the world's own now.
			v = value.Clone(v)
			w.own[name] = v
			w.shallow = slices.Delete(w.shallow, i, i+1)
		}
		return v
	}
	var v any
	if b, ok := w.base.db(name); ok {
		v = value.Clone(b)
	} else if f, ok := defaults[name]; ok {
		v = f()
	} else {
		v = value.NewMap(0)
	}
	if w.own == nil {
		w.own = map[string]any{}
	}
	w.own[name] = v
	return v
}

// writeTop returns the world's own copy of an object database at its top level, for adding,
// replacing and removing records: on first use only the table is copied, not its records, which
// may stay the base's (most writes add or remove a record: copying every record of the table each
// time was most of such a call's work). A record of it must never be changed in place: writeRecord
// gives one that may be. A database that is not an object is copied whole, as write does.
func (w *World) writeTop(name string) any {
	if v, ok := w.own[name]; ok {
		return v
	}
	b, ok := w.base.db(name)
	m, isMap := b.(*value.Map)
	if !ok || !isMap {
		return w.write(name)
	}
	top := m.Copy()
	if w.own == nil {
		w.own = map[string]any{}
	}
	w.own[name] = top
	w.shallow = append(w.shallow, name)
	return top
}

// writeRecord returns the world's own copy of the record under key of an object database, for
// changing it, and whether there is one that is an object; the table is written as writeTop writes
// it. A record that may be the base's is copied (and stored in its place) first.
func (w *World) writeRecord(table, key string) (*value.Map, bool) {
	t, _ := w.writeTop(table).(*value.Map)
	v, ok := t.Get(key)
	rec, isMap := v.(*value.Map)
	if !ok || !isMap {
		return nil, false
	}
	if slices.Contains(w.shallow, table) {
		rec, _ = value.Clone(rec).(*value.Map)
		t.Set(key, rec)
	}
	return rec, true
}

// Database returns the current content of a database, as a deep copy the caller may keep.
func (w *World) Database(name string) any { return value.Clone(w.read(name)) }

// Changed returns the names of the databases this world has written since it started, sorted.
// Internal bookkeeping tables (names starting with "_", such as ForgotPassword's remembered code)
// are left out: they are state, but not a database a user would recognise.
func (w *World) Changed() []string {
	names := make([]string, 0, len(w.own))
	for n := range w.own {
		if strings.HasPrefix(n, "_") {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// defaults are the literal tables of tools that keep in-memory data instead of a database file
// (OpenBankAccount, the lv3 tools), keyed by the database name the world keeps them under: each
// file of tools lists its own, and this is their union.
var defaults = union(accountDefaults(), lv3Defaults())

// union merges tables of defaults; a name in two tables is a defect caught at start.
func union(tables ...map[string]func() any) map[string]func() any {
	out := map[string]func() any{}
	for _, t := range tables {
		for name, f := range t {
			if _, dup := out[name]; dup {
				panic("tools: two default tables for database " + name)
			}
			out[name] = f
		}
	}
	return out
}

// DatabaseShape returns the JSON type a database must have for the tools to read it, "object" or
// "array", and whether any tool reads a database of that name. Loading checks it, so a database file
// of the wrong type is reported by name instead of making every call that reads it fail unexplained.
func DatabaseShape(name string) (string, bool) {
	shapesOnce.Do(func() {
		shapes = map[string]string{}
		for _, c := range []*Catalog{APIs, LV3} {
			for _, t := range c.tools {
				if t.Database != "" {
					shapes[t.Database] = "object"
				}
			}
		}
		// Read by tools whose Database names another (CheckToken and every token-taking tool).
		shapes["Account"] = "object"
		shapes["ImageCaptioning"] = "array"
		for n, f := range defaults {
			if _, isList := f().([]any); isList {
				shapes[n] = "array"
			} else {
				shapes[n] = "object"
			}
		}
	})
	s, ok := shapes[name]
	return s, ok
}

var (
	shapesOnce sync.Once
	shapes     map[string]string
)
