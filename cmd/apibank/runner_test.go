package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestCallWithFilesFraming: callWithFiles sends the bytes protocol.Encode makes of the same request
// with its files as parts and body (asParts), whatever the files, and decodes the answer.
func TestCallWithFilesFraming(t *testing.T) {
	cases := map[string]map[string][]byte{
		"none":  {},
		"one":   {"init_database/Alarm.json": []byte(`{"a": {}}`)},
		"empty": {"b.jsonl": nil, "a.jsonl": []byte("{}\n")},
		"several": {
			"lv1-lv2-samples/level-1-given-desc/z.jsonl": []byte("{\"role\":\"User\",\"text\":\"hi\"}\n"),
			"init_database/Wiki.json":                    []byte("[\"\\u00e9\", \"\n\"]"),
			"lv3-samples/a.txt":                          []byte("line\r\nline"),
		},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			parts, body := asParts(files)
			if body == nil {
				body = []byte{}
			}
			want, err := protocol.Encode(protocol.Request{Op: protocol.OpLoad, Name: "d", Parts: parts, Body: body})
			if err != nil {
				t.Fatal(err)
			}
			var sent []byte
			r := runner{do: func(_ context.Context, req []byte) ([]byte, error) {
				sent = req
				return []byte(`{"v":1,"ok":true,"result":{"name":"d","dialogues":{},"scenes":0,"databases":[],"tables":"world","errors":[]}}`), nil
			}}
			got, err := callWithFiles[protocol.Loaded](r, protocol.Request{Op: protocol.OpLoad, Name: "d"}, files)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(sent, want) {
				t.Errorf("sent\n%q\nwant\n%q", sent, want)
			}
			if got.Name != "d" || got.Tables != "world" {
				t.Errorf("answer decoded as %+v", got)
			}
		})
	}
}

// TestFindWasm: --wasm, then $APIBANK_WASM, then web/engine.wasm; a path the user gave that is not
// there is an error naming it, and when no module is found the error lists the places looked at.
func TestFindWasm(t *testing.T) {
	dir := t.TempDir()
	module := filepath.Join(dir, "engine.wasm")
	if err := os.WriteFile(module, []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // no web/engine.wasm here
	for _, tc := range []struct {
		name, flag, env string
		want, wantErr   string
	}{
		{name: "flag", flag: module, env: "/nope", want: module},
		{name: "env", env: module, want: module},
		{name: "missing flag", flag: filepath.Join(dir, "gone.wasm"), env: module, wantErr: "--wasm " + filepath.Join(dir, "gone.wasm") + ": no such file"},
		{name: "missing env", env: filepath.Join(dir, "gone.wasm"), wantErr: "APIBANK_WASM=" + filepath.Join(dir, "gone.wasm") + ": no such file"},
		{name: "a folder is not a module", flag: dir, wantErr: "--wasm " + dir + ": no such file"},
		{name: "none", wantErr: "engine.wasm not found (looked at " + filepath.Join("web", "engine.wasm")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("APIBANK_WASM", tc.env)
			got, err := findWasm(tc.flag)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("findWasm(%q) = %q, %v; want the error %q", tc.flag, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("findWasm(%q) = %q, %v; want %q", tc.flag, got, err, tc.want)
			}
		})
	}
}
