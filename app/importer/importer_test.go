package importer

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for name, body := range files {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(body))
	}
	w.Close()
	return b.Bytes()
}

func TestKind(t *testing.T) {
	tests := []struct{ path, want string }{
		{"apibank/lv1-lv2-samples/level-1-given-desc/AddAlarm-level-1-1.jsonl", "level-1-given-desc"},
		{"lv1-lv2-samples/level-2-toolsearcher/x.jsonl", "level-2-toolsearcher"},
		{"lv3-samples/scene.txt", "scene"},
		{"x/level-3/scene.json", "scene"},
		{"init_database/Account.json", "database"},
		{"oracle/verdicts.jsonl", ""},
		{"TOOLS.md", ""},
		{"init_database/notes.txt", ""},
		{"lv1-lv2-samples/level-1-given-desc/readme.txt", ""},
	}
	for _, tt := range tests {
		if got := Kind(tt.path); got != tt.want {
			t.Errorf("Kind(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestCollect(t *testing.T) {
	folder := []Entry{
		{Path: "apibank/lv1-lv2-samples/level-1-given-desc/a.jsonl", Data: []byte(`{"role":"User","text":"hi"}`)},
		{Path: "apibank/lv1-lv2-samples/level-2-toolsearcher/b.jsonl", Data: []byte(`{}`)},
		{Path: "apibank/init_database/Account.json", Data: []byte(`{}`)},
		{Path: "apibank/lv3-samples/s.txt", Data: []byte(`x`)},
		{Path: "apibank/oracle/verdicts.jsonl", Data: []byte(`{}`)},
	}
	tests := []struct {
		name    string
		entries []Entry
		want    Summary
		files   int
		err     string
	}{
		{"a folder", folder, Summary{Name: "apibank", Level1: 1, Level2: 1, Scenes: 1, Databases: 1, Skipped: 1}, 4, ""},
		{"a zip", []Entry{{Path: "orig.zip", Data: zipOf(t, map[string]string{
			"api-bank/lv1-lv2-samples/level-1-given-desc/a.jsonl": "{}",
			"api-bank/init_database/Wiki.json":                    "{}",
			"api-bank/README.md":                                  "#",
		})}}, Summary{Name: "orig", Level1: 1, Databases: 1, Skipped: 1}, 2, ""},
		{"a broken zip", []Entry{{Path: "bad.zip", Data: []byte("PK not really")}}, Summary{}, 0, "bad.zip: not a readable zip archive"},
		{"not text", []Entry{{Path: "init_database/A.json", Data: []byte{0xff, 0xfe, 0x00}}}, Summary{}, 0, "init_database/A.json: not UTF-8 text"},
		{"nothing of the layout", []Entry{{Path: "photos/cat.txt", Data: []byte("x")}}, Summary{}, 0, "no API-Bank files found among 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, sum, err := Collect(tt.entries)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sum != tt.want || len(files) != tt.files {
				t.Fatalf("summary %+v with %d files, want %+v with %d", sum, len(files), tt.want, tt.files)
			}
		})
	}
}
