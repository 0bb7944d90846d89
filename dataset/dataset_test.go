package dataset

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/value"
)

const (
	userTurn = `{"role":"User","text":"What day is it?"}`
	apiTurn  = `{"role":"API","api_name":"GetToday","param_dict":{},"result":{"api_name":"GetToday","input":null,"output":"2023-03-31","exception":null}}`
	aiTurn   = `{"role":"AI","text":"Friday."}`
)

// turnsOf renders a dialogue's turns as "line:role" for comparison.
func turnsOf(d *Dialogue) string {
	var b []string
	for _, t := range d.Turns {
		b = append(b, strconv.Itoa(t.Line)+":"+t.Role)
	}
	return strings.Join(b, " ")
}

// TestParseDialogueInputs: the same dialogue with any line ending and a byte order mark parses the
// same; a line over the limit is an error of its own and the lines after it are read; a role that is
// not a text is named.
func TestParseDialogueInputs(t *testing.T) {
	turns := []string{userTurn, apiTurn, aiTurn}
	long := `{"role":"User","text":"` + strings.Repeat("x", lines.Max) + `"}`
	tests := []struct {
		name  string
		in    string
		turns string
		errs  string // "line:fragment", separated by "|"
	}{
		{"LF", strings.Join(turns, "\n"), "1:User 2:API 3:AI", ""},
		{"CRLF", strings.Join(turns, "\r\n") + "\r\n", "1:User 2:API 3:AI", ""},
		{"CR only", strings.Join(turns, "\r"), "1:User 2:API 3:AI", ""},
		{"BOM", lines.BOM + strings.Join(turns, "\n"), "1:User 2:API 3:AI", ""},
		{"BOM and CRLF", lines.BOM + strings.Join(turns, "\r\n"), "1:User 2:API 3:AI", ""},
		{"a line over the limit", strings.Join([]string{userTurn, long, apiTurn, aiTurn}, "\n"), "1:User 3:API 4:AI", "2:longer than 67108864 bytes"},
		{"role not a text", strings.Join([]string{`{"role":1,"text":"x"}`, userTurn}, "\n"), "2:User", "1:role"},
		{"api_name not a text", strings.Join([]string{userTurn, `{"role":"API","api_name":7,"param_dict":{},"result":{}}`}, "\n"), "1:User", "2:api_name"},
		{"Meta line number not an integer", strings.Join([]string{`{"role":"Meta","special":"no_tool","line":true}`, userTurn}, "\n"), "2:User", "1:line must be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, errs := ParseDialogue(Level1, "d.jsonl", []byte(tt.in))
			if got := turnsOf(d); got != tt.turns {
				t.Errorf("turns %q, want %q", got, tt.turns)
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
				if strconv.Itoa(errs[i].Line) != line || !strings.Contains(errs[i].Message, frag) {
					t.Errorf("error %v, want line %s with %q", errs[i], line, frag)
				}
			}
		})
	}
}

// TestLoadJSONFiles: database and scene files with a byte order mark or any line ending load; a
// database of the wrong JSON type is an error naming the file and the type expected, and is left out;
// a syntax error is located on its line whatever the line endings.
func TestLoadJSONFiles(t *testing.T) {
	scene := `{"scene":"s","utterance":"u",` + "\r\n" + `"calls":[{"api_name":"Calculator","param_dict":{"formula":"1+2"},"result":{"api_name":"Calculator","input":{"formula":"1+2"},"output":3.0,"exception":null}}]}`
	tests := []struct {
		name   string
		path   string
		data   string
		loaded bool   // the database (or scene) is in the data
		err    string // in the error, "" for none
		line   int
	}{
		{"object database", "init_database/Alarm.json", `{"a": {"time": "x"}}`, true, "", 0},
		{"database with a BOM", "init_database/Alarm.json", lines.BOM + `{"a": {}}`, true, "", 0},
		{"database with CR line ends", "init_database/Alarm.json", "{\r\"a\":\r{}\r}", true, "", 0},
		{"array database", "init_database/ImageCaptioning.json", `[{"url": "u", "caption": "c"}]`, true, "", 0},
		{"array for an object database", "init_database/Alarm.json", `[1, 2]`, false, "the Alarm database must be a JSON object, not an array", 0},
		{"text for an object database", "init_database/Account.json", `"x"`, false, "the Account database must be a JSON object, not a text", 0},
		{"object for an array database", "init_database/ImageCaptioning.json", `{}`, false, "must be a JSON array, not an object", 0},
		{"unknown database, any type", "init_database/Mine.json", `[1]`, true, "", 0},
		{"syntax error after CR lines", "init_database/Alarm.json", "{\r\"a\": {},\r\n\"b\": }", false, "not JSON", 3},
		{"scene with a BOM and CRLF", "level-3/s.json", lines.BOM + scene, true, "", 0},
		{"database with escapes and indentation", "init_database/Wiki.json", "{\n        \"k\u00e9\": \"a\\n\\\"b\\\" \\ud83d\\ude00\",\n        \"n\": [1, -2.5e3, true, null]\n}", true, "", 0},
		{"bad escape on line 2", "init_database/Wiki.json", "{\n\"k\": \"\\q\"}", false, "invalid escape \\q", 2},
		{"bad unicode escape on line 3", "init_database/Wiki.json", "{\n\"k\": 1,\n\"j\": \"\\u12\"}", false, "invalid \\u escape", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, errs, err := Load("t", Files{tt.path: []byte(tt.data), "init_database/Other.json": []byte(`{}`)})
			if err != nil {
				t.Fatal(err)
			}
			stem := strings.TrimSuffix(filepath.Base(tt.path), ".json")
			_, has := d.Base.Database(stem)
			if strings.HasPrefix(tt.path, "level-3/") {
				has = len(d.Scenes()) == 1
			}
			if has != tt.loaded {
				t.Errorf("loaded = %v, want %v (errors %v)", has, tt.loaded, errs)
			}
			if db, ok := d.Base.Database(stem); ok && strings.HasPrefix(tt.path, "init_database/") {
				// Decoded when first read (tools.Defer): the value the whole file decodes to.
				want, err := value.Decode([]byte(strings.TrimPrefix(tt.data, lines.BOM)))
				if err != nil || !value.Equal(db, want) {
					t.Errorf("database reads %s, want %s (%v)", value.Marshal(db), value.Marshal(want), err)
				}
			}
			if tt.err == "" {
				if len(errs) > 0 {
					t.Errorf("errors %v", errs)
				}
				return
			}
			if len(errs) != 1 || errs[0].File != tt.path || !strings.Contains(errs[0].Message, tt.err) || errs[0].Line != tt.line {
				t.Errorf("errors %v, want one for %s at line %d with %q", errs, tt.path, tt.line, tt.err)
			}
		})
	}
}

func keys(f Files) []string {
	var k []string
	for p := range f {
		k = append(k, p)
	}
	return k
}

// TestCallSetsAndStyles: parallel API turns join the set of the API turn before them, and each set
// has APIGen's style from its calls and the tools the prompt offers.
func TestCallSetsAndStyles(t *testing.T) {
	user := `{"role":"User","text":"q"}`
	ai := `{"role":"AI","text":"a"}`
	call := func(tool string, parallel bool) string {
		p := ""
		if parallel {
			p = `"parallel":true,`
		}
		return fmt.Sprintf(`{"role":"API","api_name":%q,"param_dict":{},%s"result":{"api_name":%q,"input":{},"output":null,"exception":null}}`, tool, p, tool)
	}
	tests := []struct {
		name   string
		level  string
		lines  []string
		sets   string // turn indexes per set
		styles string
	}{
		{"one tool, one call", Level1, []string{user, call("A", false), ai}, "[[1]]", protocol.StyleSimple},
		{"two tools, one call each", Level1, []string{user, call("A", false), ai, call("B", false), ai}, "[[1] [3]]", "multiple multiple"},
		{"one tool twice at once", Level1, []string{user, call("A", false), call("A", true), ai}, "[[1 2]]", protocol.StyleParallel},
		{"two tools at once, then one", Level1, []string{user, call("A", false), call("B", true), ai, call("A", false), ai}, "[[1 2] [4]]", "parallel-multiple multiple"},
		{"consecutive calls without the mark are two sets", Level1, []string{user, call("A", false), call("A", false), ai}, "[[1] [2]]", "simple simple"},
		{"level 2: one call is a choice among many", Level2, []string{user, call("A", false), ai}, "[[1]]", protocol.StyleMultiple},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, errs := ParseDialogue(tt.level, "d.jsonl", []byte(strings.Join(tt.lines, "\n")))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			sets := d.CallSets()
			var styles []string
			for _, s := range sets {
				styles = append(styles, d.Style(s))
			}
			if got := fmt.Sprint(sets); got != tt.sets {
				t.Errorf("sets %s, want %s", got, tt.sets)
			}
			if got := strings.Join(styles, " "); got != tt.styles {
				t.Errorf("styles %s, want %s", got, tt.styles)
			}
		})
	}
}

// TestFilesPaths: the paths in order and the bytes they hold.
func TestFilesPaths(t *testing.T) {
	for _, c := range []struct {
		files Files
		paths []string
		size  int
	}{
		{Files{}, []string{}, 0},
		{Files{"b/x.json": []byte("{}"), "a.jsonl": []byte("abc"), "c": nil}, []string{"a.jsonl", "b/x.json", "c"}, 5},
	} {
		paths, size := c.files.Paths()
		if !slices.Equal(paths, c.paths) || size != c.size {
			t.Errorf("%v: %v, %d; want %v, %d", c.files, paths, size, c.paths, c.size)
		}
	}
}
