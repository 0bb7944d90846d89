package app

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
)

// TestVerdictsShowTheirOwnPrediction: whatever ends the lines of a prediction file (LF, CRLF, a lone
// CR, a mix, a byte order mark first), each verdict row's comparison shows the prediction text of the
// line the engine judged, not another line's (before the line rule was shared, a CR-only file showed
// no prediction at all, and a mixed one showed the next line's).
func TestVerdictsShowTheirOwnPrediction(t *testing.T) {
	gold, line := firstDialogueLines(t)
	input := []string{line(0, gold), line(1, "The first reply."), "{broken", line(0, "[NoSuchTool(a='b')]"), line(1, "The second reply.")}
	want := map[int]string{1: gold, 2: "The first reply.", 4: "[NoSuchTool(a='b')]", 5: "The second reply."}
	for _, tt := range []struct{ name, text string }{
		{"LF", strings.Join(input, "\n")},
		{"CRLF", strings.Join(input, "\r\n") + "\r\n"},
		{"CR only", strings.Join(input, "\r")},
		{"mixed", input[0] + "\r" + input[1] + "\n" + input[2] + "\r\n" + input[3] + "\r" + input[4]},
		{"BOM and CR", lines.BOM + strings.Join(input, "\r")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tab.Score(tt.text, "", "")
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Results) != len(want) || len(b.Errors) != 1 || b.Errors[0].Line != 3 {
				t.Fatalf("the engine judged %d lines with errors %+v; want %d verdicts and line 3 an error", len(b.Results), b.Errors, len(want))
			}
			sb := &SavedBatch{Format: batchFormat, Data: "builtin", Batch: b, Preds: predsByLine(tt.text)}
			cs := &Compares{open: map[int]bool{}, gold: map[int]*protocol.Turn{}, more: map[int][]protocol.Turn{}, err: map[int]string{}}
			for _, v := range b.Results {
				if sb.Preds[v.Line] != want[v.Line] {
					t.Errorf("line %d: prediction %q, want %q", v.Line, sb.Preds[v.Line], want[v.Line])
				}
				cs.open[v.Line], cs.gold[v.Line] = true, &protocol.Turn{}
			}
			page := app.HTMLString(batchView(sb, 1, cs, nil, nil))
			var rows []string
			for _, tr := range strings.Split(page, "<tr ")[1:] {
				if strings.Contains(tr[:strings.Index(tr, ">")], `data-testid="verdict-row"`) {
					rows = append(rows, tr)
				}
			}
			if len(rows) != len(want) {
				t.Fatalf("%d verdict rows, want %d", len(rows), len(want))
			}
			lineOf := regexp.MustCompile(`data-line="(\d+)"`)
			for _, row := range rows {
				m := lineOf.FindStringSubmatch(row[:strings.Index(row, ">")])
				if m == nil {
					t.Fatalf("a verdict row without its line: %s", row)
				}
				got := html.UnescapeString(row)
				for n, p := range want {
					if shown := strings.Contains(got, p); shown != (m[1] == strconv.Itoa(n)) {
						t.Errorf("row of line %s shows the prediction of line %d: %v", m[1], n, shown)
					}
				}
			}
		})
	}
}
