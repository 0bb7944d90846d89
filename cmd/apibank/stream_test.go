package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/rouge"
)

// smallChunks makes the CLI send chunks of two lines and refuse lines over 200 bytes for one test.
func smallChunks(t *testing.T) {
	lines, bytes, limit := chunkLines, chunkBytes, lineLimit
	chunkLines, chunkBytes, lineLimit = 2, 1<<20, 200
	t.Cleanup(func() { chunkLines, chunkBytes, lineLimit = lines, bytes, limit })
}

// tooLong is what lines.Reader says of a line over the 200-byte limit smallChunks sets.
var tooLong = func() string {
	_, _, err := lines.NewBytesReader([]byte(strings.Repeat("x", 201)), 200).Next()
	return err.Error()
}()

// TestRougeStreamsLines: --pairs is read as every JSONL input is (a BOM skipped; CRLF and CR-only
// line ends), in chunks; a line over the limit is an error line in its place and reading goes on, so
// every later pair is still scored and line numbers stay those of the file.
func TestRougeStreamsLines(t *testing.T) {
	smallChunks(t)
	long := `{"ref":"` + strings.Repeat("a ", 150) + `","hyp":"a"}`
	tests := []struct {
		name, in string
	}{
		{"LF", "\xef\xbb\xbf" + `{"ref":"a b","hyp":"a b"}` + "\n" + long + "\n\n" + `{"ref":"x y","hyp":"x"}` + "\n" + `{"ref":1}` + "\n" + `{"ref":"c","hyp":"c"}`},
		{"CRLF", "\xef\xbb\xbf" + `{"ref":"a b","hyp":"a b"}` + "\r\n" + long + "\r\n\r\n" + `{"ref":"x y","hyp":"x"}` + "\r\n" + `{"ref":1}` + "\r\n" + `{"ref":"c","hyp":"c"}` + "\r\n"},
		{"CR only", "\xef\xbb\xbf" + `{"ref":"a b","hyp":"a b"}` + "\r" + long + "\r\r" + `{"ref":"x y","hyp":"x"}` + "\r" + `{"ref":1}` + "\r" + `{"ref":"c","hyp":"c"}` + "\r"},
	}
	f := func(hyp, ref string) string {
		v, err := rouge.L(hyp, ref)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(map[string]float64{"f": v})
		return string(b)
	}
	want := strings.Join([]string{
		f("a b", "a b"),
		`{"error":"line 2: ` + tooLong + `"}`,
		f("x", "x y"),
		`{"error":"line 5: want {\"ref\": text, \"hyp\": text}"}`,
		f("c", "c"),
	}, "\n") + "\n"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, mode := range engineModes(t) {
				p := writeFile(t, t.TempDir(), "pairs.jsonl", tt.in)
				out, stderr, code := runCapture(t, append([]string{"rouge", "--pairs", p}, mode...)...)
				if code != 1 || !strings.Contains(stderr, p+":2: line too long") || !strings.Contains(stderr, p+":5: want") {
					t.Errorf("%v: exit %d, stderr %q", mode, code, stderr)
				}
				if out != want {
					t.Errorf("%v: out =\n%s\nwant\n%s", mode, out, want)
				}
			}
		})
	}
}

// TestScoreStreamsLines: score reads --preds the same way: a BOM and CR-only line ends read, a
// line over the limit is an error line in --out in its place (and on stderr), and the lines after it
// are judged, across chunk boundaries, with their own line numbers.
func TestScoreStreamsLines(t *testing.T) {
	smallChunks(t)
	callLine := func(pred string) string {
		return `{"level":"level-1-given-desc","file":"` + builtinCallFile(t) + `","id":0,"pred":"` + pred + `"}`
	}
	in := "\xef\xbb\xbf" + callLine("[GetToday()]") + "\r" + callLine(strings.Repeat("x", 300)) + "\r" + callLine("no call") + "\r\r" + `{bad` + "\r" + callLine("[GetToday()]")
	for _, mode := range engineModes(t) {
		dir := t.TempDir()
		p := writeFile(t, dir, "preds.jsonl", in)
		outPath := filepath.Join(dir, "out.jsonl")
		report, stderr, code := runCapture(t, append([]string{"score", "--preds", p, "--out", outPath, "--json"}, mode...)...)
		if code != 1 || !strings.Contains(stderr, p+":2: line too long") || !strings.Contains(stderr, p+":5: not JSON") {
			t.Errorf("%v: exit %d, stderr %q", mode, code, stderr)
		}
		if !strings.Contains(report, `"calls": 3`) {
			t.Errorf("%v: report does not count the 3 judged calls:\n%s", mode, report)
		}
		b, err := os.ReadFile(outPath)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		wants := []string{`"line":1,`, `{"error":"` + tooLong + `","line":2}`, `"line":3,`, `"line":5}`, `"line":6,`}
		if len(lines) != len(wants) {
			t.Fatalf("%v: %d out lines, want %d:\n%s", mode, len(lines), len(wants), b)
		}
		for i, w := range wants {
			if !strings.Contains(lines[i], w) {
				t.Errorf("%v: out line %d = %s, want it to contain %s", mode, i+1, lines[i], w)
			}
		}
	}
}

// builtinCallFile is the first builtin level-1 dialogue whose sample 0 is a call.
func builtinCallFile(t *testing.T) string {
	t.Helper()
	d, err := dataset.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, dl := range d.Dialogues() {
		if dl.Level == dataset.Level1 && (dl.Meta == nil || dl.Meta.Special == "") {
			return dl.File
		}
	}
	t.Fatal("no builtin level-1 dialogue")
	return ""
}

// engineModes are the engine flags to run a command with: natively, and under wazero when the module
// is built.
func engineModes(t *testing.T) [][]string {
	modes := [][]string{{"--native"}}
	if p := filepath.Join("..", "..", "web", "engine.wasm"); fileExists(p) {
		modes = append(modes, []string{"--wasm", p})
	} else {
		t.Log("web/engine.wasm not built (make wasm): checked natively only")
	}
	return modes
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
