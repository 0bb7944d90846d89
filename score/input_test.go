package score

import (
	"strconv"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

// TestParsePredictionsInputs: a byte order mark is skipped, every line ending reads, a line over the
// limit is an error of its own and the lines after it are read, and JSON types are strict.
func TestParsePredictionsInputs(t *testing.T) {
	p := func(id string) string { return `{"file":"a.jsonl","id":` + id + `,"pred":"x"}` }
	long := `{"file":"a.jsonl","id":0,"pred":"` + strings.Repeat("y", dataset.MaxLine) + `"}`
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
