package app

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestSetVerdictView scores a prediction that makes one of a gold set's two calls, through the
// engine, and renders its row and comparison: the label says how many calls were right and the
// comparison lists each call with its own category.
func TestSetVerdictView(t *testing.T) {
	useNative(t)
	one := `{"name":"QueryStock","arguments":{"stock_code":"AAPL","date":"2023-03-29"}}`
	both := `[` + one + `,{"name":"QueryStock","arguments":{"stock_code":"TSM","date":"2023-03-29"}}]`
	line := func(pred string) string {
		b, _ := json.Marshal(map[string]any{"level": "level-1-given-desc", "file": "par-stock-01.jsonl", "id": 0, "pred": pred})
		return string(b)
	}
	b, err := tab.Score(line(one)+"\n"+line(both), "", "")
	if err != nil || len(b.Results) != 2 {
		t.Fatalf("score: %v, %d verdicts", err, len(b.Results))
	}
	if c := b.Results[0].Call(); c.Category != "MISSING_CALL" || len(c.Calls) != 2 {
		t.Fatalf("one call of two: %s %+v", c.Category, c.Calls)
	}
	cs := &Compares{}
	row := goapp.HTMLString(verdictRow(b.Results[0], func(int) string { return one }, cs, nil))
	got := goapp.HTMLString(gotView(b.Results[0], one))
	html := regexp.MustCompile(`>\s+`).ReplaceAllString(row+got, ">")
	tests := []struct {
		what  string
		attrs []string
		text  string
	}{
		{"the row keeps the category for filters and tests", []string{`data-category="MISSING_CALL"`}, ""},
		{"the label counts the right calls", []string{`class="verdict bad"`}, "MISSING_CALL · 1 of 2 calls right"},
		{"the list of calls", []string{`data-testid="set-verdict"`}, ""},
		{"the right call", []string{`data-category="CORRECT"`}, ""},
		{"the call not made", []string{`class="verdict bad"`}, "MISSING_CALL"},
	}
	for _, tt := range tests {
		if !hasElem(html, tt.text, tt.attrs...) {
			t.Errorf("%s: no element with %v and text %q in\n%s", tt.what, tt.attrs, tt.text, html)
		}
	}
	if !strings.Contains(html, "QueryStock: not called") {
		t.Errorf("the missing call is not named:\n%s", html)
	}
	if c := b.Results[1].Call(); !c.Correct || setLabel(c) != "CORRECT · 2 of 2 calls right" {
		t.Errorf("both calls: %s, label %q", c.Category, setLabel(c))
	}
}
