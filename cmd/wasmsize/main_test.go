package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.wasm") // a module with no section at all
	notWasm := filepath.Join(dir, "notes.txt")
	os.WriteFile(empty, []byte("\x00asm\x01\x00\x00\x00"), 0o644)
	os.WriteFile(notWasm, []byte("hello"), 0o644)
	for _, c := range []struct {
		args    []string
		want    string // in the output
		wantErr string // in the error
	}{
		{nil, "", "usage"},
		{[]string{notWasm}, "", notWasm + ": not a WebAssembly module"},
		{[]string{filepath.Join(dir, "missing.wasm")}, "", "missing.wasm"},
		{[]string{empty}, empty + ": 8 bytes, 0 functions", ""},
	} {
		var out bytes.Buffer
		err := run(c.args, &out)
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("run %v: error %v, want one saying %q", c.args, err, c.wantErr)
		case c.wantErr == "" && err != nil:
			t.Errorf("run %v: %v", c.args, err)
		case !strings.Contains(out.String(), c.want):
			t.Errorf("run %v printed %q, want %q", c.args, out.String(), c.want)
		}
	}
}

func TestGroup(t *testing.T) {
	for path, want := range map[string]string{
		ownModule + "_app":                 "ours",
		ownModule:                          "ours",
		"encoding_json":                    "std",
		"github.com_norunners_vert":        "others",
		"(other)":                          "(other)",
		"github.com_apibank_playgroundx_y": "others",
	} {
		if got := group(path); got != want {
			t.Errorf("group(%q) = %q, want %q", path, got, want)
		}
	}
}
