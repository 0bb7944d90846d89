package app

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/run"
)

// RunStore keeps model runs across reloads: each run whole once it ends, and each sample as it
// lands while it runs, so a reload resumes where it stopped. In the tab it is IndexedDB (runs are
// too large for localStorage); tests use memory. Every method may block: call them off the UI
// goroutine.
type RunStore interface {
	// Put saves a run whole, replacing what was kept under its ID.
	Put(r *SavedRun) error
	// Runs returns every saved run.
	Runs() ([]*SavedRun, error)
	// Delete forgets a run and its landed samples.
	Delete(id string) error
	// Land keeps one finished sample of a running run.
	Land(id string, s Landed) error
	// LandedOf returns the samples kept for a run, by task key.
	LandedOf(id string) (map[string]Landed, error)
	// Clear forgets every run.
	Clear() error
}

// Landed is one finished sample (or level-3 episode) of a running run.
type Landed struct {
	Key      string         `json:"key"`
	Pred     run.Prediction `json:"pred"`
	Response model.Response `json:"response"`
	// Episode is set instead of Pred for a level-3 scene played to its end.
	Episode *run.Episode `json:"episode,omitempty"`
}

// memRuns is a RunStore in memory (the server's pre-render, tests).
type memRuns struct {
	mu     sync.Mutex
	runs   map[string][]byte
	landed map[string]map[string]Landed
}

// NewMemoryRunStore returns a RunStore that keeps nothing across reloads.
func NewMemoryRunStore() RunStore {
	return &memRuns{runs: map[string][]byte{}, landed: map[string]map[string]Landed{}}
}

func (m *memRuns) Put(r *SavedRun) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.runs[r.ID] = b
	return nil
}

func (m *memRuns) Runs() ([]*SavedRun, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]string, 0, len(m.runs))
	for id := range m.runs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []*SavedRun
	for _, id := range ids {
		var r SavedRun
		if err := json.Unmarshal(m.runs[id], &r); err != nil {
			return nil, err
		}
		out = append(out, &r)
	}
	return out, nil
}

func (m *memRuns) Delete(id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.runs, id)
	delete(m.landed, id)
	return nil
}

func (m *memRuns) Land(id string, s Landed) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.landed[id] == nil {
		m.landed[id] = map[string]Landed{}
	}
	m.landed[id][s.Key] = s
	return nil
}

func (m *memRuns) LandedOf(id string) (map[string]Landed, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]Landed{}
	for k, v := range m.landed[id] {
		out[k] = v
	}
	return out, nil
}

func (m *memRuns) Clear() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.runs, m.landed = map[string][]byte{}, map[string]map[string]Landed{}
	return nil
}

// landedKey is a landed sample's key in a store that keeps all runs' samples together: the run ID,
// a separator no ID holds, the task key.
//
//lint:ignore U1000 the browser store (runstore_js.go) uses it.
func landedKey(id, key string) string { return id + "\x00" + key }
