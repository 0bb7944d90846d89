package api

import (
	"net/http"
	"net/http/httptest"
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

// TestPromptsLevelNames: /api/v1/prompts reads a level as apibank prompts --level does (its folder,
// its number, "level-N"), each level once however often it is named, and refuses any other name
// with the list of levels.
func TestPromptsLevelNames(t *testing.T) {
	h := New(&nativePool{}, Limits{})
	get := func(query string) (int, string) {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/prompts?form=native&"+query, nil))
		return rec.Code, rec.Body.String()
	}
	code, want := get("level=level-1-given-desc")
	if code != http.StatusOK || want == "" {
		t.Fatalf("level-1-given-desc: %d %.300s", code, want)
	}
	_, level2 := get("level=level-2-toolsearcher")
	_, both := get("level=level-1-given-desc&level=level-2-toolsearcher")
	for _, tt := range []struct{ query, want string }{
		{"level=1", want},
		{"level=level-1", want},
		{"level=1&level=level-1&level=level-1-given-desc", want},
		{"level=2", level2},
		{"level=1&level=2", both},
		{"level=level-1&level=level-2-toolsearcher&level=2", both},
	} {
		if code, got := get(tt.query); code != http.StatusOK || got != tt.want {
			t.Errorf("%s: %d, %d bytes; want 200 and the %d bytes its levels' folder names give: %.300s", tt.query, code, len(got), len(tt.want), got)
		}
	}
	for _, bad := range []string{"0", "4", "level-4", "L1", "one", "level-1-given", "1&level=level-9"} {
		code, body := get("level=" + bad)
		name := strings.Split(bad, "&level=")
		if code != http.StatusBadRequest || !strings.Contains(body, `no level \"`+name[len(name)-1]+`\"`) || !strings.Contains(body, "level-1-given-desc (1), level-2-toolsearcher (2), level-3 (3)") {
			t.Errorf("level=%s: %d %s; want 400 naming the level and the levels", bad, code, body)
		}
	}
}
