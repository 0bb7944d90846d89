package tools

import (
	"slices"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// TestWorldTopLevelWrites: a table written at its top level (writeTop) or one record at a time
// (writeRecord) shows the world's changes, leaves the base and every other world as they were, and
// becomes wholly the world's own when it is then written whole (write).
func TestWorldTopLevelWrites(t *testing.T) {
	newBase := func() *Base {
		return NewBase(map[string]any{
			"Agenda": value.MapOf("1", value.MapOf("user", "a", "content", "x"), "2", value.MapOf("user", "b", "content", "y")),
			"List":   []any{value.MapOf("k", "v")},
		})
	}
	const baseAgenda = `{"1":{"user":"a","content":"x"},"2":{"user":"b","content":"y"}}`
	tests := []struct {
		name   string
		change func(w *World)
		want   string // the world's Agenda after the change
	}{
		{"add a record", func(w *World) { w.writeTop("Agenda").(*value.Map).Set("3", value.MapOf("user", "c")) },
			`{"1":{"user":"a","content":"x"},"2":{"user":"b","content":"y"},"3":{"user":"c"}}`},
		{"remove a record", func(w *World) { w.writeTop("Agenda").(*value.Map).Delete("1") }, `{"2":{"user":"b","content":"y"}}`},
		{"change a record", func(w *World) {
			rec, _ := w.writeRecord("Agenda", "2")
			rec.Set("content", "z")
		}, `{"1":{"user":"a","content":"x"},"2":{"user":"b","content":"z"}}`},
		{"change a record twice", func(w *World) {
			rec, _ := w.writeRecord("Agenda", "2")
			rec.Set("content", "z")
			rec, _ = w.writeRecord("Agenda", "2")
			rec.Set("user", "q")
		}, `{"1":{"user":"a","content":"x"},"2":{"user":"q","content":"z"}}`},
		{"written whole after its top level", func(w *World) {
			w.writeTop("Agenda").(*value.Map).Set("3", value.MapOf("user", "c"))
			rec, _ := w.write("Agenda").(*value.Map).Get("1")
			rec.(*value.Map).Set("content", "w")
		}, `{"1":{"user":"a","content":"w"},"2":{"user":"b","content":"y"},"3":{"user":"c"}}`},
		{"a record after a whole write", func(w *World) {
			w.write("Agenda")
			rec, _ := w.writeRecord("Agenda", "1")
			rec.Set("content", "v")
		}, `{"1":{"user":"a","content":"v"},"2":{"user":"b","content":"y"}}`},
		{"a clone changed after the top level", func(w *World) {
			w.writeTop("Agenda").(*value.Map).Set("3", value.MapOf("user", "c"))
			c := w.Clone()
			rec, _ := c.writeRecord("Agenda", "1")
			rec.Set("content", "clone")
			c.writeTop("Agenda").(*value.Map).Delete("2")
		}, `{"1":{"user":"a","content":"x"},"2":{"user":"b","content":"y"},"3":{"user":"c"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBase()
			w := b.NewWorld()
			tt.change(w)
			if got := string(value.Marshal(w.read("Agenda"))); got != tt.want {
				t.Errorf("the world's Agenda is %s, want %s", got, tt.want)
			}
			if got := string(value.Marshal(b.NewWorld().read("Agenda"))); got != baseAgenda {
				t.Errorf("the base's Agenda is now %s, want %s", got, baseAgenda)
			}
			if got := w.Changed(); !slices.Equal(got, []string{"Agenda"}) {
				t.Errorf("Changed() = %v, want [Agenda]", got)
			}
		})
	}
	// A database that is not an object is copied whole, and a record that is not an object is none.
	w := newBase().NewWorld()
	if l, ok := w.writeTop("List").([]any); !ok || len(l) != 1 {
		t.Errorf("writeTop of a list gave %v", w.writeTop("List"))
	}
	if _, ok := w.writeRecord("Agenda", "9"); ok {
		t.Errorf("writeRecord found a record that is not there")
	}
}

// TestEntryTexts: a catalog's tools answer the entry that their declaration gives (the texts kept
// with the catalog are the declaration's), for every tool of both catalogs.
func TestEntryTexts(t *testing.T) {
	for _, c := range []*Catalog{APIs, LV3} {
		for _, tool := range c.Tools() {
			bare := *tool
			bare.entryTexts = nil // as a tool outside a catalog: its texts made for the call
			got, want := string(value.Marshal(tool.Entry())), string(value.Marshal(bare.Entry()))
			if got != want || tool.entryTexts == nil {
				t.Errorf("%s: catalog entry %s, declared %s", tool.Name, got, want)
			}
		}
	}
}
