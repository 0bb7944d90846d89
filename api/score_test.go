package api

import (
	"strings"
	"testing"
)

// TestDecodeJSONNamesTheLine: a JSON body's syntax error, wrong type or trailing text is placed on
// its line by the one line rule, whatever ends the body's lines.
func TestDecodeJSONNamesTheLine(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		for _, tt := range []struct {
			name, body string
			line       int
			err        string
		}{
			{"fine", `{"pairs": [` + nl + `{"ref": "a", "hyp": "b"}` + nl + `]}`, 0, ""},
			{"syntax", `{"pairs": [` + nl + `{"ref": "a",` + nl + `"hyp" "b"}]}`, 3, "invalid character"},
			{"type", `{` + nl + nl + `"pairs": [{"ref": 1, "hyp": "b"}]}`, 3, "cannot unmarshal number"},
			{"text after", `{"pairs": []}` + nl + `{"pairs": []}`, 2, "text after the JSON document"}, // the line the extra text starts on
			{"unknown field", `{"pairs": [],` + nl + `"more": 1}`, 0, "unknown field"},
		} {
			var req RougeRequest
			line, err := decodeJSON([]byte(tt.body), &req)
			name := tt.name + " " + strings.NewReplacer("\n", "LF", "\r", "CR").Replace(nl)
			if line != tt.line || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("%s: line %d, error %v; want line %d, error %q", name, line, err, tt.line, tt.err)
			}
		}
	}
}
