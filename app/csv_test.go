package app

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestCSVNeutralisesFormulas: a cell a spreadsheet would evaluate (=, +, -, @, tab, CR first) gets
// a leading apostrophe; every other cell is written as it is.
func TestCSVNeutralisesFormulas(t *testing.T) {
	tests := []struct{ in, want string }{
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{"+1+2", "'+1+2"},
		{"-3", "'-3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"AddAlarm", "AddAlarm"},
		{"", ""},
		{"a=b", "a=b"},
	}
	for _, tt := range tests {
		if got := csvSafe(tt.in); got != tt.want {
			t.Errorf("csvSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	sb := &SavedBatch{Batch: protocol.Batch{Results: []protocol.Verdict{{Line: 1, Level: "level-1-given-desc", File: "f.jsonl", Kind: "call",
		CallVerdict: &protocol.CallVerdict{Category: "API_NAME_MISMATCH", Tool: "AddAlarm", Called: "=cmd|' /C calc'!A0"}}}}}
	csv := string(ResultsCSV(sb))
	if !strings.Contains(csv, `'=cmd|`) || strings.Contains(csv, ",=cmd") {
		t.Fatalf("the called tool is a live formula in:\n%s", csv)
	}
}
