package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Store keeps the user's work across reloads: predictions, results, classroom progress. Keys are
// short names; the store adds its own prefix.
type Store interface {
	// Get decodes the value saved under key into v; a missing key leaves v as it is.
	Get(key string, v any) error
	// Set saves v under key, or says why it could not (too big, storage full).
	Set(key string, v any) error
	// Del forgets key.
	Del(key string)
	// Clear forgets everything this site saved.
	Clear()
	// Used returns the bytes saved.
	Used() int
	// OnChange makes f run after every change of what is saved (a Set, a Del, a Clear), so a view
	// of Used stays current; the returned function stops it.
	OnChange(f func()) (stop func())
}

// Budget is the most the store keeps in all: browsers give a site about 5 MB of localStorage
// (counted in UTF-16), so the store refuses early with a clear message instead of failing half-way.
const Budget = 4 << 20

const storePrefix = "apibank."

// ErrFull is the error of a Set the store cannot keep.
var ErrFull = errors.New("not saved")

// guarded is a Store over a browser storage with a size guard.
type guarded struct {
	mu    sync.Mutex
	s     app.BrowserStorage
	sizes map[string]int
	limit int
	// clearHook also clears what lives outside this storage (the engine's saved state).
	clearHook func()
	// watchers run after every change (see OnChange), by registration number.
	watchers    map[int]func()
	nextWatcher int
}

func (g *guarded) OnChange(f func()) func() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.watchers == nil {
		g.watchers = map[int]func(){}
	}
	id := g.nextWatcher
	g.nextWatcher++
	g.watchers[id] = f
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		delete(g.watchers, id)
	}
}

// changed runs the watchers, outside the lock (a watcher may read the store).
func (g *guarded) changed() {
	g.mu.Lock()
	fs := make([]func(), 0, len(g.watchers))
	for _, f := range g.watchers {
		fs = append(fs, f)
	}
	g.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// NewBrowserStore returns a Store over a browser storage (localStorage in the tab) that keeps at
// most limit bytes. clearHook, when not nil, runs on Clear.
func NewBrowserStore(s app.BrowserStorage, limit int, clearHook func()) Store {
	g := &guarded{s: s, sizes: map[string]int{}, limit: limit, clearHook: clearHook}
	s.ForEach(func(k string) {
		if strings.HasPrefix(k, storePrefix) {
			var raw json.RawMessage
			if s.Get(k, &raw) == nil {
				g.sizes[k] = len(raw)
			}
		}
	})
	return g
}

// NewMemoryStore returns a Store that keeps nothing across reloads (the server's pre-render, tests).
func NewMemoryStore() Store {
	return NewBrowserStore(newMemStorage(), Budget, nil)
}

func (g *guarded) Get(key string, v any) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.s.Get(storePrefix+key, v)
}

func (g *guarded) Set(key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrFull, err)
	}
	g.mu.Lock()
	err = g.set(key, b)
	g.mu.Unlock()
	if err == nil {
		g.changed()
	}
	return err
}

// set saves an encoded value; the caller holds the lock.
func (g *guarded) set(key string, b []byte) error {
	k := storePrefix + key
	total := len(b)
	for name, n := range g.sizes {
		if name != k {
			total += n
		}
	}
	if total > g.limit {
		return fmt.Errorf("%w: saving %s needs %s and this site's storage would then hold %s, over its %s budget; it stays on screen until you leave — export it, or use “Clear my data”",
			ErrFull, key, Size(len(b)), Size(total), Size(g.limit))
	}
	if err := g.s.Set(k, json.RawMessage(b)); err != nil {
		return fmt.Errorf("%w: the browser refused to save %s (%s): its storage for this site is full; export your results, or use “Clear my data”", ErrFull, key, Size(len(b)))
	}
	g.sizes[k] = len(b)
	return nil
}

func (g *guarded) Del(key string) {
	g.mu.Lock()
	g.s.Del(storePrefix + key)
	delete(g.sizes, storePrefix+key)
	g.mu.Unlock()
	g.changed()
}

func (g *guarded) Clear() {
	g.mu.Lock()
	var keys []string
	g.s.ForEach(func(k string) {
		if strings.HasPrefix(k, storePrefix) {
			keys = append(keys, k)
		}
	})
	for _, k := range keys {
		g.s.Del(k)
	}
	g.sizes = map[string]int{}
	hook := g.clearHook
	g.mu.Unlock()
	if hook != nil {
		hook()
	}
	g.changed()
}

func (g *guarded) Used() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, s := range g.sizes {
		n += s
	}
	return n
}

// Size formats a byte count: 1536 -> "1.5 KB".
func Size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// memStorage is an app.BrowserStorage in memory.
type memStorage struct {
	mu sync.Mutex
	m  map[string][]byte
}

func newMemStorage() *memStorage { return &memStorage{m: map[string][]byte{}} }

func (s *memStorage) Set(k string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = b
	return nil
}

func (s *memStorage) Get(k string, v any) error {
	s.mu.Lock()
	b, ok := s.m[k]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return json.Unmarshal(b, v)
}

func (s *memStorage) Del(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, k)
}

func (s *memStorage) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

func (s *memStorage) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m = map[string][]byte{}
}

func (s *memStorage) ForEach(f func(k string)) {
	s.mu.Lock()
	keys := make([]string, 0, len(s.m))
	for k := range s.m {
		keys = append(keys, k)
	}
	s.mu.Unlock()
	sort.Strings(keys)
	for _, k := range keys {
		f(k)
	}
}

func (s *memStorage) Contains(k string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[k]
	return ok
}
