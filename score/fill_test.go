package score

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/tools"
)

// TestFillEveryLineEnd: a draft's API turn gets the result of running its call, whatever ends the
// draft's lines (LF, CRLF, a lone CR, a BOM first): the lines are those the draft was parsed by, so
// the result lands on its own turn, and the filled file is written with LF, trailing blank lines
// dropped.
func TestFillEveryLineEnd(t *testing.T) {
	turns := []string{
		`{"role":"User","text":"What is 2+2?"}`,
		`{"role":"API","api_name":"Calculator","param_dict":{"formula":"2+2"},"result":null}`,
		`{"role":"AI","text":"4."}`,
	}
	want := turns[0] + "\n" +
		`{"role":"API","api_name":"Calculator","param_dict":{"formula":"2+2"},"result":{"api_name":"Calculator","input":{"formula":"2+2"},"output":4.0,"exception":null}}` + "\n" +
		turns[2] + "\n"
	base := tools.NewBase(nil)
	for _, tt := range []struct{ name, draft string }{
		{"LF", strings.Join(turns, "\n")},
		{"LF, blank lines at the end", strings.Join(turns, "\n") + "\n\n\n"},
		{"CRLF", strings.Join(turns, "\r\n") + "\r\n"},
		{"CR only", strings.Join(turns, "\r")},
		{"BOM and CR", lines.BOM + strings.Join(turns, "\r") + "\r"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := Fill(base, dataset.Level1+"/calc.jsonl", []byte(tt.draft))
			if len(errs) > 0 {
				t.Fatalf("errors %v", errs)
			}
			if string(got) != want {
				t.Errorf("filled\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestFillErrors: a file outside the level folders, and a call that raises, are errors that name
// the file (and the call's line).
func TestFillErrors(t *testing.T) {
	base := tools.NewBase(nil)
	if _, errs := Fill(base, "elsewhere/calc.jsonl", []byte(`{"role":"User","text":"hi"}`)); len(errs) != 1 || !strings.Contains(errs[0].Message, "not in a level folder") {
		t.Errorf("a file outside the level folders: %v", errs)
	}
	draft := "{\"role\":\"User\",\"text\":\"x\"}\r{\"role\":\"API\",\"api_name\":\"NoSuchTool\",\"param_dict\":{},\"result\":null}\r"
	_, errs := Fill(base, dataset.Level1+"/bad.jsonl", []byte(draft))
	if len(errs) != 1 || errs[0].Line != 2 || errs[0].File != dataset.Level1+"/bad.jsonl" {
		t.Errorf("a call that raises: %v, want one error on line 2", errs)
	}
}
