package api

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
)

// TestParsePairs: JSONL pairs read by the one line rule (a BOM skipped, LF, CRLF or a lone CR), blank
// lines skipped; a line that is no pair keeps its slot with an error naming its line, as
// `apibank rouge --pairs` answers it.
func TestParsePairs(t *testing.T) {
	good, other := `{"ref":"the cat","hyp":"a cat"}`, `{"ref":"x","hyp":"y"}`
	for _, tt := range []struct{ name, body string }{
		{"LF", good + "\nnot json\n\n" + `{"ref":1}` + "\n" + other + "\n"},
		{"CRLF", good + "\r\nnot json\r\n\r\n" + `{"ref":1}` + "\r\n" + other},
		{"CR only", good + "\rnot json\r\r" + `{"ref":1}` + "\r" + other + "\r"},
		{"BOM", lines.BOM + good + "\nnot json\n  \n" + `{"ref":1}` + "\n" + other},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pairs, bad := parsePairs([]byte(tt.body))
			want := []protocol.Pair{{Ref: "the cat", Hyp: "a cat"}, {Ref: "x", Hyp: "y"}}
			if len(pairs) != 2 || pairs[0] != want[0] || pairs[1] != want[1] {
				t.Errorf("pairs %+v, want %+v", pairs, want)
			}
			if len(bad) != 2 || !strings.HasPrefix(bad[1], "line 2: not a JSON object") || bad[2] != `line 4: want {"ref": text, "hyp": text}` {
				t.Errorf("bad lines %q; want slot 1 line 2 not JSON, slot 2 line 4 not a pair", bad)
			}
		})
	}
}
