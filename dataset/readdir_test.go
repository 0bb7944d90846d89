//go:build linux || darwin

package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFolder: regular files are read; a named pipe, a link to /dev/zero, a link to a folder and
// a file over MaxFile are refused by name without being opened or read, and the rest still loads.
func TestReadFolder(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lv1-lv2-samples/level-1-given-desc/a.jsonl", strings.Join([]string{userTurn, apiTurn, aiTurn}, "\n"))
	write("init_database/Alarm.json", `{}`)
	write("notes/ignored.json", `not read`)
	db := filepath.Join(dir, "init_database")
	if err := syscall.Mkfifo(filepath.Join(db, "Pipe.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(db, "Zero.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(db, "Loop.json")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(db, "Big.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(MaxFile + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	big.Close()

	files, problems, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"init_database/Pipe.json": "named pipe",
		"init_database/Zero.json": "a device",
		"init_database/Loop.json": "a folder",
		"init_database/Big.json":  "67108865 bytes, more than the 67108864 (64 MiB)",
	}
	if len(problems) != len(want) {
		t.Errorf("problems %v, want %d", problems, len(want))
	}
	for _, p := range problems {
		if w, ok := want[p.File]; !ok || !strings.Contains(p.Message, w) {
			t.Errorf("problem %v, want %q", p, w)
		}
	}
	if len(files) != 2 || files["init_database/Alarm.json"] == nil || files["lv1-lv2-samples/level-1-given-desc/a.jsonl"] == nil {
		t.Errorf("files %v", keys(files))
	}
	// ReadDir stops, naming each refused file.
	if _, err := ReadDir(dir); err == nil || strings.Count(err.Error(), "not read") != len(want) || !strings.Contains(err.Error(), filepath.Join(dir, "init_database/Pipe.json")) {
		t.Errorf("ReadDir error %v", err)
	}
	// ReadFile alone refuses the same, and reads a regular file.
	for _, tt := range []struct {
		name, err string
	}{
		{"Pipe.json", "named pipe"}, {"Zero.json", "device"}, {"Big.json", "more than"}, {"Alarm.json", ""},
	} {
		b, err := ReadFile(filepath.Join(db, tt.name), MaxFile)
		if tt.err == "" {
			if err != nil || string(b) != "{}" {
				t.Errorf("ReadFile(%s) = %q, %v", tt.name, b, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("ReadFile(%s) error %v, want %q", tt.name, err, tt.err)
		}
	}
}
