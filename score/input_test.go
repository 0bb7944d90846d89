package score

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/value"
)

// TestParsePredictionsInputs: a byte order mark is skipped, every line ending reads, a line over the
// limit is an error of its own and the lines after it are read, and JSON types are strict.
func TestParsePredictionsInputs(t *testing.T) {
	p := func(id string) string { return `{"file":"a.jsonl","id":` + id + `,"pred":"x"}` }
	long := `{"file":"a.jsonl","id":0,"pred":"` + strings.Repeat("y", lines.Max) + `"}`
	tests := []struct {
		name string
		in   string
		ids  string // the ids read, with their lines, "line:id" joined by " "
		errs string // "line:fragment" joined by "|"
	}{
		{"LF", p("0") + "\n" + p("1"), "1:0 2:1", ""},
		{"CRLF", p("0") + "\r\n" + p("1") + "\r\n", "1:0 2:1", ""},
		{"CR only", p("0") + "\r" + p("1") + "\r" + p("2"), "1:0 2:1 3:2", ""},
		{"BOM", "\ufeff" + p("0") + "\n" + p("1"), "1:0 2:1", ""},
		{"a line over the limit", p("0") + "\n" + long + "\n" + p("2"), "1:0 3:2", "2:longer than 67108864 bytes"},
		{"id true", p("true") + "\n" + p("1"), "2:1", "1:not true"},
		{"id a float", p("1.0"), "", "1:not 1.0"},
		{"id a text", p(`"1"`), "", `1:not "1"`},
		{"id negative", p("-1"), "", "1:not -1"},
		{"id missing", `{"file":"a.jsonl","pred":"x"}`, "", `1:missing "id"`},
		{"id beyond int64", p("99999999999999999999"), "", "1:JSON integer"},
		{"file not a text", `{"file":1,"id":0,"pred":"x"}`, "", `1:missing "file"`},
		{"level not a text", `{"level":1,"file":"a.jsonl","id":0,"pred":"x"}`, "", "1:level must be a text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			preds, errs := ParsePredictions("p.jsonl", []byte(tt.in), "")
			var ids []string
			for _, pr := range preds {
				ids = append(ids, strconv.Itoa(pr.Line)+":"+strconv.Itoa(pr.ID))
			}
			if got := strings.Join(ids, " "); got != tt.ids {
				t.Errorf("ids %q, want %q", got, tt.ids)
			}
			var want []string
			if tt.errs != "" {
				want = strings.Split(tt.errs, "|")
			}
			if len(errs) != len(want) {
				t.Fatalf("errors %v, want %v", errs, want)
			}
			for i, w := range want {
				line, frag, _ := strings.Cut(w, ":")
				if strconv.Itoa(errs[i].Line) != line || !strings.Contains(errs[i].Message, frag) || errs[i].File != "p.jsonl" {
					t.Errorf("error %v, want line %s with %q", errs[i], line, frag)
				}
			}
		})
	}
}

// TestParsePredictionAsDecoded: reading a line member by member gives, for every line, what
// decoding the whole line and then reading its members gives (the reading before the scorer read
// members one by one): the same prediction or the same error text, repeated keys and skipped
// members that are not JSON included.
func TestParsePredictionAsDecoded(t *testing.T) {
	lines := []string{
		`{"level": "L", "file": "a.jsonl", "id": 3, "pred": "[A()]", "detail": {"x": [1, 2.5, null, true, {"y": "z"}]}}`,
		`{"file": "a.jsonl", "id": 0, "pred": null}`,
		`{"file": "a.jsonl", "id": 0, "pred": {"name": "B", "arguments": {"k": "v"}}}`,
		`{"file": "a.jsonl", "id": 0}`,
		`{"file": "a.jsonl", "file": "b.jsonl", "id": 1, "id": 2, "pred": "x", "pred": "y", "level": "p", "level": "q"}`,
		`{"file": "", "id": 0, "pred": "x"}`,
		`{"file": null, "id": 0, "pred": "x"}`,
		`{"level": null, "file": "a.jsonl", "id": 0, "pred": "x"}`,
		`{"file": "a.jsonl", "id": "` + strings.Repeat("9", 60) + `", "pred": "x"}`,
		`{"file": "a.jsonl", "id": 1e2, "pred": "x"}`,
		`{"file": "a.jsonl", "id": 7, "pred": "x", "detail": {"bad": tru}}`,
		`{"file": "a.jsonl", "id": 7, "pred": "bad \x", "detail": {"bad": tru}}`,
		`{"file": "a.jsonl", "id": 7, "pred": "x", "detail": [1,]}`,
		`{"file": "a.jsonl", "id": 7, "pred": "x"} tail`,
		`{"fi\u006ce": "a.jsonl", "\u0069d": 7, "pred": "é\u00e9"}`,
		`{"file": "a.jsonl", "id": 7, "pred": "x"`,
		`{}`,
		`[1, 2]`,
		`"text"`,
		`nul`,
	}
	// The oracle's lines, when the reference data is beside the repository: every member it has.
	if data, err := os.ReadFile(filepath.Join("..", "..", "shared", "apibank", "oracle", "verdicts.jsonl")); err == nil {
		lines = append(lines, strings.Split(strings.TrimSpace(string(data)), "\n")...)
	}
	for _, line := range lines {
		want, wantWhy := decodedPrediction([]byte(line))
		got, why := parsePrediction(newPredictionReader(), []byte(line), "")
		if got != want || why != wantWhy {
			t.Errorf("%s:\n got %+v %q\nwant %+v %q", line, got, why, want, wantWhy)
		}
	}
}

// decodedPrediction reads a prediction line as the scorer did before it read members one by one:
// the whole line decoded, then its members read from the object.
func decodedPrediction(text []byte) (Prediction, string) {
	if text[0] != '{' {
		if _, err := value.Decode(text); err != nil {
			return Prediction{}, "not JSON: " + err.Error()
		}
		return Prediction{}, "a prediction must be a JSON object {\"file\", \"id\", \"pred\"}"
	}
	m, err := value.DecodeFields(text, func(k string) bool { return k == "level" || k == "file" || k == "id" || k == "pred" })
	if err != nil {
		return Prediction{}, "not JSON: " + err.Error()
	}
	var p Prediction
	if lv, ok := m.Get("level"); ok {
		s, isText := lv.(string)
		if !isText {
			return Prediction{}, "level must be a text"
		}
		p.Level = s
	}
	f, _ := m.Get("file")
	file, ok := f.(string)
	if p.File = file; !ok || file == "" {
		return Prediction{}, "missing \"file\""
	}
	idv, ok := m.Get("id")
	if !ok {
		return Prediction{}, "missing \"id\""
	}
	id, isInt := idv.(int64)
	if !isInt || id < 0 {
		got := string(value.Marshal(idv))
		if len(got) > 40 {
			got = got[:40] + "..."
		}
		return Prediction{}, fmt.Sprintf("\"id\" must be a non-negative JSON integer, not %s", got)
	}
	p.ID = int(id)
	pv, ok := m.Get("pred")
	switch x := pv.(type) {
	case string:
		p.Pred = x
	case nil:
		if !ok {
			return Prediction{}, "missing \"pred\""
		}
	default:
		p.Pred = string(value.Marshal(x))
	}
	return p, ""
}
