package memo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKeyChangesWithEveryInput: any change to the module or to the files (a byte, a path, a file
// more or less, bytes moved from one file to the next) gives another key; the same inputs in
// another map give the same key.
func TestKeyChangesWithEveryInput(t *testing.T) {
	module := []byte("\x00asm module bytes")
	files := map[string][]byte{"a/x.jsonl": []byte("one\ntwo\n"), "b/y.json": []byte(`{"k": 1}`)}
	base := Key(Module(module), files)
	if again := Key(Module(append([]byte(nil), module...)), map[string][]byte{"b/y.json": []byte(`{"k": 1}`), "a/x.jsonl": []byte("one\ntwo\n")}); again != base {
		t.Fatalf("the same inputs give %s and %s", base, again)
	}
	with := func(edit func(m map[string][]byte)) map[string][]byte {
		c := map[string][]byte{}
		for p, b := range files {
			c[p] = append([]byte(nil), b...)
		}
		edit(c)
		return c
	}
	cases := []struct {
		name   string
		module []byte
		files  map[string][]byte
	}{
		{"a module byte", []byte("\x00asm module bytez"), files},
		{"a module byte more", append(append([]byte(nil), module...), 0), files},
		{"a file byte", module, with(func(m map[string][]byte) { m["a/x.jsonl"][0] = 'O' })},
		{"a byte more", module, with(func(m map[string][]byte) { m["b/y.json"] = append(m["b/y.json"], '\n') })},
		{"a path", module, with(func(m map[string][]byte) { m["a/z.jsonl"] = m["a/x.jsonl"]; delete(m, "a/x.jsonl") })},
		{"a file more", module, with(func(m map[string][]byte) { m["c/empty.json"] = nil })},
		{"a file less", module, with(func(m map[string][]byte) { delete(m, "b/y.json") })},
		{"bytes moved between files", module, with(func(m map[string][]byte) {
			m["a/x.jsonl"] = []byte("one\n")
			m["b/y.json"] = append([]byte("two\n"), m["b/y.json"]...)
		})},
		{"a path's bytes moved into the file", module, map[string][]byte{"a/x.jsonl": []byte("one\ntwo\n"), "b/y.js": []byte(`on{"k": 1}`)}},
	}
	seen := map[string]string{base: "the base"}
	for _, c := range cases {
		k := Key(Module(c.module), c.files)
		if prev, ok := seen[k]; ok {
			t.Errorf("%s: the key of %s", c.name, prev)
		}
		seen[k] = c.name
	}
}

// TestStoreKeepsAndReplaces: Get finds what Put kept under its key only; a second Put replaces
// it; a memo over MaxSize is neither kept nor read.
func TestStoreKeepsAndReplaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memo")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the folder: %v, %v (want mode 0700)", info.Mode(), err)
	}
	if got := s.Get("k1"); got != "" {
		t.Fatalf("an empty store has %q", got)
	}
	for _, memo := range []string{`{"v":1}`, `{"v":1,"more":true}`} {
		if err := s.Put("k1", memo); err != nil {
			t.Fatal(err)
		}
		if got := s.Get("k1"); got != memo {
			t.Errorf("Get after Put(%q) = %q", memo, got)
		}
	}
	if got := s.Get("k2"); got != "" {
		t.Errorf("another key has %q", got)
	}
	if err := s.Put("big", strings.Repeat("x", MaxSize+1)); err == nil {
		t.Error("a memo over MaxSize was kept")
	}
	if err := os.WriteFile(filepath.Join(dir, "big"+suffix), make([]byte, MaxSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := s.Get("big"); got != "" {
		t.Errorf("a file over MaxSize was read (%d bytes)", len(got))
	}
	// What is not a regular file is no memo: a folder, a link (and a FIFO: memo_unix_test.go).
	os.Mkdir(filepath.Join(dir, "folder"+suffix), 0o700)
	os.Symlink(filepath.Join(dir, "k1"+suffix), filepath.Join(dir, "link"+suffix))
	for _, key := range []string{"folder", "link"} {
		if got := s.Get(key); got != "" {
			t.Errorf("the %s read as the memo %q", key, got)
		}
	}
	// A file whose header does not vouch for it is no memo: changed, cut short, or kept under
	// another key.
	if err := s.Put("k3", `{"v":1,"n":12}`); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(s.path("k3"))
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func() (string, []byte){
		"changed":       func() (string, []byte) { return "k3", []byte(strings.Replace(string(text), "12", "13", 1)) },
		"cut short":     func() (string, []byte) { return "k3", text[:len(text)-2] },
		"no header":     func() (string, []byte) { return "k3", []byte(`{"v":1,"n":12}`) },
		"another key's": func() (string, []byte) { return "k4", text },
	} {
		key, b := edit()
		if err := os.WriteFile(s.path(key), b, 0o600); err != nil {
			t.Fatal(err)
		}
		if got := s.Get(key); got != "" {
			t.Errorf("%s: read as the memo %q", name, got)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestStoreKeepsTheMostRecentlyUsed: beyond Keep memos the least recently used go, and a memo read
// counts as used.
func TestStoreKeepsTheMostRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for i := range Keep {
		key := fmt.Sprint("k", i)
		if err := s.Put(key, "memo"); err != nil {
			t.Fatal(err)
		}
		at := old.Add(time.Duration(i) * time.Minute) // k0 the oldest
		os.Chtimes(s.path(key), at, at)
	}
	s.Get("k0") // used now: k1 is the least recently used
	if err := s.Put("new", "memo"); err != nil {
		t.Fatal(err)
	}
	for i := range Keep {
		key := fmt.Sprint("k", i)
		if got, want := s.Get(key) != "", i != 1; got != want {
			t.Errorf("%s kept: %v, want %v", key, got, want)
		}
	}
	if s.Get("new") == "" {
		t.Error("the new memo is gone")
	}
	other := filepath.Join(dir, "not-a-memo.txt")
	os.WriteFile(other, []byte("x"), 0o600)
	stale, fresh := filepath.Join(dir, tempPrefix+"1.tmp"), filepath.Join(dir, tempPrefix+"2.tmp")
	os.WriteFile(stale, []byte("{"), 0o600)
	os.WriteFile(fresh, []byte("{"), 0o600)
	os.Chtimes(stale, old, old)
	for i := range Keep {
		s.Put(fmt.Sprint("more", i), "memo")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file that is not a memo was removed: %v", err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a temporary file an hour old, left by a run that died writing it, was kept")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a temporary file being written was removed: %v", err)
	}
}

// TestOpenFails: a store cannot be opened where a file stands, and a run then goes on without it.
func TestOpenFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := Open(file); err == nil {
		t.Error("a store opened in a file")
	}
}

// ExampleStore keeps a memo under the key of a module and a folder, and finds it again for the
// same bytes only.
func ExampleStore() {
	dir, _ := os.MkdirTemp("", "memo-example-")
	defer os.RemoveAll(dir)
	s, _ := Open(dir)
	module := []byte("the engine module's bytes")
	folder := map[string][]byte{"lv1-lv2-samples/level-1-given-desc/a.jsonl": []byte(`{"role": "User", "text": "Hi"}`)}
	s.Put(Key(Module(module), folder), `{"v":1}`)
	fmt.Printf("%q\n", s.Get(Key(Module(module), folder)))
	folder["lv1-lv2-samples/level-1-given-desc/a.jsonl"] = []byte(`{"role": "User", "text": "Hello"}`)
	fmt.Printf("%q\n", s.Get(Key(Module(module), folder)))
	// Output:
	// "{\"v\":1}"
	// ""
}
