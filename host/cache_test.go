package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestCacheKeepsRecentBuilds: the compilation cache keeps the current build's folder and the most
// recently used others, keptBuilds in all; older builds and the older layout are removed, unrelated
// files are left alone, and a second runtime of the same build finds its code there.
func TestCacheKeepsRecentBuilds(t *testing.T) {
	tests := []struct {
		name   string
		others int      // other builds' folders, the first the most recently used
		want   []string // the other builds kept
	}{
		{"none", 0, nil},
		{"fewer than kept", 2, []string{"engine-other-0", "engine-other-1"}},
		{"more than kept", keptBuilds + 2, []string{"engine-other-0", "engine-other-1", "engine-other-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			parent := t.TempDir()
			old := []string{"wazero-v1.11.0-amd64-linux"}
			for i := range tt.others {
				old = append(old, fmt.Sprintf("engine-other-%d", i))
			}
			for i, dir := range old {
				if err := os.MkdirAll(filepath.Join(parent, dir), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(parent, dir, "code"), make([]byte, 1024), 0o600); err != nil {
					t.Fatal(err)
				}
				used := time.Now().Add(-time.Duration(i+1) * time.Hour)
				if err := os.Chtimes(filepath.Join(parent, dir), used, used); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(parent, "notes.txt"), []byte("mine"), 0o600); err != nil {
				t.Fatal(err)
			}
			wasm := fakeEngine()
			for range 2 {
				rt, err := New(ctx, wasm, Config{CacheDir: parent})
				if err != nil {
					t.Fatal(err)
				}
				rt.Close(ctx)
			}
			current, _ := buildCache(parent, wasm)
			want := append([]string{filepath.Base(current), "notes.txt"}, tt.want...)
			entries, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			slices.Sort(names)
			slices.Sort(want)
			if !slices.Equal(names, want) {
				t.Fatalf("cache holds %v, want %v", names, want)
			}
			code, _ := os.ReadDir(current)
			if len(code) == 0 {
				t.Fatal("the current build's folder holds no compiled code")
			}
		})
	}
}
