package app

import "testing"

// TestStoreOnChange: every change of what is saved tells the watchers, whose reading of Used is then
// current; a stopped watcher hears nothing more.
func TestStoreOnChange(t *testing.T) {
	s := NewMemoryStore()
	var seen []int
	stop := s.OnChange(func() { seen = append(seen, s.Used()) })
	steps := []struct {
		name string
		do   func()
		used int
	}{
		{"set", func() { _ = s.Set("a", "12345") }, len(`"12345"`)},
		{"set another", func() { _ = s.Set("b", 7) }, len(`"12345"`) + 1},
		{"delete", func() { s.Del("a") }, 1},
		{"clear", func() { s.Clear() }, 0},
	}
	for i, st := range steps {
		st.do()
		if len(seen) != i+1 || seen[i] != st.used {
			t.Fatalf("after %s the watcher saw %v, want a last reading of %d", st.name, seen, st.used)
		}
	}
	stop()
	_ = s.Set("c", 1)
	if len(seen) != len(steps) {
		t.Errorf("a stopped watcher was told: %v", seen)
	}
	// A Set the budget refuses changes nothing, and tells nobody.
	n := 0
	s.OnChange(func() { n++ })
	if err := s.Set("big", string(make([]byte, Budget+1))); err == nil || n != 0 {
		t.Errorf("an over-budget Set: err %v, %d watchers told", err, n)
	}
}
