package dataset

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// TestParseLiteral: Python literals as a model writes them read as the JSON values they stand for (a
// bare word is a text); a value that does not end, or that is followed by more, is an error.
func TestParseLiteral(t *testing.T) {
	tests := []struct {
		in   string
		json string // the value read, as JSON; "" for an error
	}{
		{`'Ana'`, `"Ana"`},
		{`"say \"hi\""`, `"say \"hi\""`},
		{`['Ana', "Bo"]`, `["Ana","Bo"]`},
		{`[1, ]`, `[1]`},
		{`{'name': 'lamp', 'on': True, 'dim': None}`, `{"name":"lamp","on":true,"dim":null}`},
		{`[{'a': [false, null]}]`, `[{"a":[false,null]}]`},
		{`42`, `42`},
		{`-2.5`, `-2.5`},
		{` word `, `"word"`},
		{`'open`, ""},
		{`[1 2]`, ""},
		{`{'a' 1}`, ""},
		{``, ""},
		{`1 2`, ""},
	}
	for _, tt := range tests {
		v, err := ParseLiteral(tt.in)
		if tt.json == "" {
			if err == nil {
				t.Errorf("ParseLiteral(%q) = %s, want an error", tt.in, value.Marshal(v))
			}
			continue
		}
		if err != nil || string(value.Marshal(v)) != tt.json {
			t.Errorf("ParseLiteral(%q) = %s, %v; want %s", tt.in, value.Marshal(v), err, tt.json)
		}
	}
}

// TestParseScene: the original's text layout gives the scene's title, request, key facts and calls
// (each with its line); a call whose tools and parameters are all level 3's takes the lv3_apis
// catalog, else apis; a line that is no call is an error on its line and the other calls are kept;
// a scene without a request or calls says so.
func TestParseScene(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string // "name|utterance|key info;...|Tool@line args;...|catalog"; "" for no scene
		errs    []string
		errLine []int
	}{
		{
			name: "level-3 tools",
			in:   "Scene: Sums\nFirst Utterance: What is 1+2?\nKey Info:\n- the formula is 1+2\nAPI Call:\nCalculator(formula=\"1+2\")\n",
			want: `Sums|What is 1+2?|- the formula is 1+2|Calculator@6 {"formula":"1+2"}|lv3_apis`,
		},
		{
			name: "CRLF, GT block, a comment after the call",
			in:   "Scene: Doctor\r\nFirst Utterance: Book me in.\r\n\r\nGT API Call:\r\nAppointmentRegistration(patient_name=\"John Doe\", date='2023-04-01') : books it\r\n",
			want: `Doctor|Book me in.||AppointmentRegistration@5 {"patient_name":"John Doe","date":"2023-04-01"}|apis`,
		},
		{
			name:    "a line that is no call",
			in:      "Scene: S\nFirst Utterance: U\nAPI Calls:\nCalculator(formula=\"1+2\")\nnot a call\nCalculator(formula=\"3*4\")",
			want:    `S|U||Calculator@4 {"formula":"1+2"};Calculator@6 {"formula":"3*4"}|lv3_apis`,
			errs:    []string{"not a call"},
			errLine: []int{5},
		},
		{
			name:    "neither request nor calls",
			in:      "Scene: Empty\nKey Info:\n- nothing\n",
			errs:    []string{`no "First Utterance:" line`, "no gold API calls"},
			errLine: []int{0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, errs := ParseScene("lv3-samples/s.txt", []byte(tt.in))
			got := ""
			if sc != nil {
				var calls []string
				for _, c := range sc.Calls {
					calls = append(calls, c.Tool+"@"+value.Repr(int64(c.Line))+" "+string(value.Marshal(c.Params)))
				}
				got = strings.Join([]string{sc.Name, sc.Utterance, strings.Join(sc.KeyInfo, ";"), strings.Join(calls, ";"), sc.Catalog}, "|")
				if sc.File != "s.txt" {
					t.Errorf("File = %q, want the base name s.txt", sc.File)
				}
			}
			if got != tt.want {
				t.Errorf("scene %q, want %q", got, tt.want)
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("errors %v, want %q", errs, tt.errs)
			}
			for i, e := range errs {
				if e.File != "lv3-samples/s.txt" || e.Line != tt.errLine[i] || !strings.Contains(e.Message, tt.errs[i]) {
					t.Errorf("error %+v, want line %d with %q", e, tt.errLine[i], tt.errs[i])
				}
			}
		})
	}
}

// TestParseSceneJSON: our own scene format reads with its catalog chosen from the calls when not
// given; a draft may leave results null; each malformed scene is refused with what is wrong and
// where.
func TestParseSceneJSON(t *testing.T) {
	call := `{"api_name":"Calculator","param_dict":{"formula":"1+2"},"result":{"output":3.0}}`
	tests := []struct {
		name    string
		in      string
		draft   bool
		catalog string // of the scene read; "" when refused
		err     string
		line    int
	}{
		{"a scene", `{"scene":"s","utterance":"u","key_info":["k"],"calls":[` + call + `]}`, false, "lv3_apis", "", 0},
		{"catalog given", `{"utterance":"u","catalog":"apis","calls":[` + call + `]}`, false, "apis", "", 0},
		{"draft with a null result", `{"utterance":"u","calls":[{"api_name":"Calculator","param_dict":{},"result":null}]}`, true, "lv3_apis", "", 0},
		{"null result outside a draft", `{"utterance":"u","calls":[{"api_name":"Calculator","param_dict":{},"result":null}]}`, false, "", "call 1 has no result object", 1},
		{"not an object", `[1]`, false, "", "a scene must be a JSON object", 1},
		{"no utterance", `{"calls":[` + call + `]}`, false, "", `missing "utterance"`, 1},
		{"key_info not a list", `{"utterance":"u","key_info":"k","calls":[` + call + `]}`, false, "", "key_info must be a list", 1},
		{"no calls", `{"utterance":"u","calls":[]}`, false, "", "calls must be a non-empty list", 1},
		{"call without a param_dict", `{"utterance":"u","calls":[` + call + `,{"api_name":"Calculator"}]}`, false, "", "call 2 needs api_name and a param_dict", 1},
		{"unknown catalog", `{"utterance":"u","catalog":"mine","calls":[` + call + `]}`, false, "", "catalog must be apis or lv3_apis", 1},
		{"syntax error on line 2", "{\n\"utterance\": }", false, "", "not JSON", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, errs := ParseSceneJSON("level-3/s.json", []byte(tt.in), tt.draft)
			if tt.err == "" {
				if len(errs) > 0 || sc == nil || sc.Catalog != tt.catalog || sc.Utterance != "u" || len(sc.Calls) != 1 {
					t.Fatalf("scene %+v, errors %v; want one call in catalog %s", sc, errs, tt.catalog)
				}
				return
			}
			if sc != nil || len(errs) != 1 || errs[0].File != "level-3/s.json" || errs[0].Line != tt.line || !strings.Contains(errs[0].Message, tt.err) {
				t.Errorf("scene %+v, errors %v; want none and one error at line %d with %q", sc, errs, tt.line, tt.err)
			}
		})
	}
}
