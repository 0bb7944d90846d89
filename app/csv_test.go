package app

import (
	"bytes"
	"encoding/csv"
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

// TestWriteCSVRowIsEncodingCSV: every record is written byte for byte as encoding/csv's Writer
// writes it, and reads back as the fields it was given.
func TestWriteCSVRowIsEncodingCSV(t *testing.T) {
	rows := [][]string{
		{"plain", "", "ü", "1.5"},
		{"a,b", `say "hi"`, "two\nlines", "cr\rhere"},
		{" leading space", "\tleading tab", "\u00a0nbsp", `\.`, "trailing "},
		{""},
		{`"`, ",", "'=1"},
	}
	for _, row := range rows {
		var ours, std bytes.Buffer
		writeCSVRow(&ours, row)
		w := csv.NewWriter(&std)
		_ = w.Write(row)
		w.Flush()
		if ours.String() != std.String() {
			t.Errorf("%q: wrote %q, encoding/csv writes %q", row, ours.String(), std.String())
		}
		if ours.String() == "\n" {
			continue // one empty field is a blank line, which a reader skips (encoding/csv writes it so too)
		}
		back, err := csv.NewReader(strings.NewReader(ours.String())).Read()
		if err != nil || len(back) != len(row) {
			t.Errorf("%q reads back as %q, %v", row, back, err)
		}
	}
}
