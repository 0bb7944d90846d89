package app

import (
	"slices"
	"strings"
	"sync"
)

// NewMemoryRunStore returns a RunStore that keeps nothing across reloads (tests, the server's
// pre-render; app.wasm keeps runs in IndexedDB and links none of this).
func NewMemoryRunStore() *RunStore { return &RunStore{kv: newMemKV()} }

// memKV is a runKV in memory.
type memKV struct {
	mu     sync.Mutex
	tables map[string]map[string][]byte
}

func newMemKV() *memKV {
	m := &memKV{tables: map[string]map[string][]byte{}}
	for _, t := range runTables {
		m.tables[t] = map[string][]byte{}
	}
	return m
}

func (m *memKV) put(table, key string, value []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tables[table][key] = slices.Clone(value)
	return nil
}

func (m *memKV) get(table, key string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.tables[table][key]
	return v, ok, nil
}

// keysUnder lists a table's keys that start with prefix, in order.
func (m *memKV) keysUnder(table, prefix string) []string {
	var keys []string
	for k := range m.tables[table] {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func (m *memKV) all(table string) ([][]byte, error) { return m.under(table, "") }

func (m *memKV) under(table, prefix string) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out [][]byte
	for _, k := range m.keysUnder(table, prefix) {
		out = append(out, m.tables[table][k])
	}
	return out, nil
}

func (m *memKV) count(table, prefix string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.keysUnder(table, prefix)), nil
}

func (m *memKV) drop(table, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.tables[table], key)
	return nil
}

func (m *memKV) dropUnder(table, prefix string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range m.keysUnder(table, prefix) {
		delete(m.tables[table], k)
	}
	return nil
}

func (m *memKV) clear(table string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tables[table] = map[string][]byte{}
	return nil
}
