package host

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCacheKeepsCurrentBuild: the compilation cache holds one folder, the current build's: the
// folders of other builds and of the older layout are removed, unrelated files are left alone, and
// a second runtime of the same build finds its code there.
func TestCacheKeepsCurrentBuild(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	for _, old := range []string{"engine-0123456789abcdef", "wazero-v1.11.0-amd64-linux"} {
		if err := os.MkdirAll(filepath.Join(parent, old), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(parent, old, "code"), make([]byte, 1024), 0o600); err != nil {
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
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want, _ := buildCache(parent, wasm)
	if len(names) != 2 || filepath.Join(parent, names[0]) != want || names[1] != "notes.txt" {
		t.Fatalf("cache holds %v, want [%s notes.txt]", names, filepath.Base(want))
	}
	code, _ := os.ReadDir(want)
	if len(code) == 0 {
		t.Fatal("the current build's folder holds no compiled code")
	}
}
