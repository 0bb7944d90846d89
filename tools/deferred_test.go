package tools

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// TestDeferredDatabase: a deferred database reads as its decoded text, is decoded once however many
// readers ask at once, is copied on a world's first write like any database, and a text Decode
// refuses reads as a database the base does not have.
func TestDeferredDatabase(t *testing.T) {
	cases := []struct {
		name, text string
		ok         bool
	}{
		{"object", `{"a": {"b": [1, "x"]}, "c": null}`, true},
		{"array", ` [{"url": "u", "caption": "c"}] `, true},
		{"escapes", `{"k\u00e9": "line\nbreak \ud83d\ude00"}`, true},
		{"refused", `{"a": }`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBase(map[string]any{"Db": Defer([]byte(c.text))})
			var wg sync.WaitGroup
			got := make([]any, 4)
			for i := range got {
				wg.Go(func() { got[i], _ = b.Database("Db") })
			}
			wg.Wait()
			v, ok := b.Database("Db")
			if ok != c.ok {
				t.Fatalf("Database ok = %v, want %v", ok, c.ok)
			}
			if !c.ok {
				return
			}
			want, err := value.Decode([]byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			if !value.Equal(v, want) {
				t.Fatalf("Database = %s, want %s", value.Marshal(v), value.Marshal(want))
			}
			for i, g := range got {
				if !value.Equal(g, want) {
					t.Errorf("concurrent reader %d got %s", i, value.Marshal(g))
				}
			}
			w := b.NewWorld()
			if m, isMap := w.write("Db").(*value.Map); isMap {
				m.Set("added", true)
			}
			if after, _ := b.Database("Db"); !value.Equal(after, want) {
				t.Errorf("a world's write changed the base: %s", value.Marshal(after))
			}
		})
	}
}

// TestIndexesBuiltApart: a call of ImageCaption builds the caption index alone, and one of
// SearchEngine the search index alone: neither decodes the other's database (the original's
// ImageCaptioning is 2.5 MB, a one-prediction run's largest decode).
func TestIndexesBuiltApart(t *testing.T) {
	for _, tc := range []struct {
		tool, param, arg, untouched string
	}{
		{"ImageCaption", "url", "a.jpg", "SearchEngine"},
		{"SearchEngine", "keyword", "river", "ImageCaptioning"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			dbs := map[string]any{
				"ImageCaptioning": Defer([]byte(`[{"url": "a.jpg", "caption": "a river"}]`)),
				"SearchEngine":    Defer([]byte(`{"raw_documents": [{"title": "River", "abstract": "a river"}]}`)),
			}
			b := NewBase(dbs)
			env, err := APIs.CallNative(b.NewWorld(), tc.tool, value.MapOf(tc.param, tc.arg))
			if err != nil {
				t.Fatal(err)
			}
			if exc, _ := env.Get("exception"); exc != nil {
				t.Fatalf("%s raised %v", tc.tool, exc)
			}
			if _, ok := dbs[tc.untouched].(*Deferred).undecoded(); !ok {
				t.Errorf("calling %s decoded %s", tc.tool, tc.untouched)
			}
		})
	}
}

// TestCaptionIndexOfText: the caption index read from a database's text answers as the one built
// from the decoded database, whatever the items hold; it scans only as far as a lookup needs, and
// leaves the database undecoded.
func TestCaptionIndexOfText(t *testing.T) {
	texts := map[string]string{
		"first of a repeated url":             `[{"url": "a.jpg", "caption": "one"}, {"url": "a.jpg", "caption": "two"}]`,
		"not objects, no url, url not a text": `[1, "x", null, [{"url": "in.jpg"}], {"caption": "lost"}, {"url": 3, "caption": "n"}, {"url": null}]`,
		"no caption, caption not a text":      `[{"url": "a.jpg"}, {"url": "b.jpg", "caption": {"k": [1, 2.5]}}, {"url": "c.jpg", "caption": null}]`,
		"last of a repeated key":              `[{"url": "a.jpg", "u\u0072l": "b.jpg", "caption": "c", "caption": "d", "extra": [true]}]`,
		"escaped url":                         `[{"url": "http:\/\/x\/\u00e9.jpg", "caption": "\u00e9 \"q\""}]`,
		"empty":                               `[]`,
		"not an array":                        `{"url": "a.jpg", "caption": "c"}`,
	}
	if b, err := os.ReadFile(filepath.Join(infoShared, "init_database", "ImageCaptioning.json")); err == nil {
		texts["the original's ImageCaptioning.json"] = string(b)
	} else {
		t.Logf("the original's ImageCaptioning.json is not beside the repository: its row is left out (%v)", err)
	}
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			v, err := value.Decode([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			want := captionMap(v)
			deferred := Defer([]byte(text))
			ci := NewBase(map[string]any{"ImageCaptioning": deferred}).captions()
			// Asked in the database's order, each lookup scans on to its item.
			items, _ := v.([]any)
			for _, it := range items {
				m, ok := it.(*value.Map)
				if !ok {
					continue
				}
				u, isText := m.String("url"), false
				if x, ok := m.Get("url"); ok {
					_, isText = x.(string)
				}
				if !isText {
					continue
				}
				got, ok := ci.find(u)
				if !ok || !value.Equal(got.value(), want[u].value()) {
					t.Fatalf("%q: %s (found %v), want %s", u, value.Marshal(got.value()), ok, value.Marshal(want[u].value()))
				}
			}
			if _, ok := ci.find("never.jpg"); ok {
				t.Error("a url no item has was found")
			}
			if len(ci.byURL) != len(want) || ci.scan != nil {
				t.Errorf("after a miss: %d urls indexed (want %d), scan done %v", len(ci.byURL), len(want), ci.scan == nil)
			}
			if _, ok := deferred.undecoded(); !ok {
				t.Error("indexing decoded the whole database")
			}
		})
	}
	// A lookup stops at its item: the rest of the database is not read.
	ci := NewBase(map[string]any{"ImageCaptioning": Defer([]byte(`[{"url": "a.jpg", "caption": "A"}, {"url": "b.jpg", "caption": "B"}, {"url": "c.jpg"}]`))}).captions()
	if c, ok := ci.find("a.jpg"); !ok || c.value() != "A" || len(ci.byURL) != 1 || ci.scan == nil {
		t.Errorf("the first item: %v %v, %d urls indexed, scan done %v", c.value(), ok, len(ci.byURL), ci.scan == nil)
	}
	if c, ok := ci.find("c.jpg"); !ok || c.value() != nil || len(ci.byURL) != 3 {
		t.Errorf("the last item (no caption): %v %v, %d urls indexed", c.value(), ok, len(ci.byURL))
	}
}
