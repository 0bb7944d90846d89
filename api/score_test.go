package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
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

// variantPreds are prediction lines of the gold calls of variant seed for level-1 samples whose gold
// the variant moves (a sample it leaves as it is tells nothing here).
func variantPreds(t *testing.T, seed int64) []string {
	t.Helper()
	var preds []string
	for _, sm := range levelOneSamples(t) {
		orig, err1 := goldmodel.GoldCall(0, sm.Level, sm.File, sm.ID)
		gold, err2 := goldmodel.GoldCall(seed, sm.Level, sm.File, sm.ID)
		if err1 != nil || err2 != nil || gold == orig || gold == "" {
			continue
		}
		b, _ := json.Marshal(map[string]any{"level": sm.Level, "file": sm.File, "id": sm.ID, "pred": gold})
		if preds = append(preds, string(b)); len(preds) == 6 {
			break
		}
	}
	if len(preds) < 3 {
		t.Fatalf("only %d samples that variant %d moves", len(preds), seed)
	}
	return preds
}

// TestScoreOnAVariant: predictions asked on a variant are judged on it when the request names its
// seed, in the address (a JSONL body) or in a JSON body's "seed", and are not all right on the
// builtin data; a seed that is not one, a seed in the address of a JSON body, and a seed beside
// data sent are refused, saying why.
func TestScoreOnAVariant(t *testing.T) {
	const seed = 7
	preds := variantPreds(t, seed)
	h := New(&nativePool{}, Limits{})
	jsonType := map[string]string{"Content-Type": "application/json"}
	body, _ := json.Marshal(map[string]any{"seed": seed, "predictions": json.RawMessage("[" + strings.Join(preds, ",") + "]")})
	right := func(x exchange) (int, string) {
		rec := do(t, h, x)
		var answer struct {
			Report protocol.Report `json:"report"`
		}
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &answer) != nil {
			t.Fatalf("%s: %d %s", x.name, rec.Code, rec.Body.String())
		}
		return answer.Report.Overall.Correct, answer.Report.Data
	}
	jsonl := strings.Join(preds, "\n")
	for _, x := range []exchange{
		{name: "JSONL, ?seed=7", method: "POST", path: "/api/v1/score?seed=7", body: jsonl},
		{name: "JSON, \"seed\": 7", method: "POST", path: "/api/v1/score", header: jsonType, body: string(body)},
	} {
		if n, data := right(x); n != len(preds) || data != protocol.VariantName("builtin", seed) {
			t.Errorf("%s: %d of %d right, judged on %q", x.name, n, len(preds), data)
		}
	}
	if n, data := right(exchange{name: "JSONL, no seed", method: "POST", path: "/api/v1/score", body: jsonl}); n == len(preds) || data != "builtin" {
		t.Errorf("without the seed: %d of %d right on %q; want fewer, on the builtin data", n, len(preds), data)
	}
	for _, x := range []exchange{
		{"a seed with a leading zero", "POST", "/api/v1/score?seed=07", nil, jsonl, 400, []string{`seed \"07\"`, "leading zeros"}},
		{"an empty seed", "POST", "/api/v1/score?seed=", nil, jsonl, 400, []string{`seed \"\"`}},
		{"a seed given twice", "POST", "/api/v1/score?seed=7&seed=8", nil, jsonl, 400, []string{"given 2 times"}},
		{"a seed as a JSON text", "POST", "/api/v1/score", jsonType, `{"seed": "7", "predictions": []}`, 400, []string{"written as a JSON number"}},
		{"a seed in the address of a JSON body", "POST", "/api/v1/score?seed=7", jsonType, string(body), 400, []string{`its \"seed\" member`}},
		{"a negative seed", "POST", "/api/v1/score", jsonType, `{"seed": -1, "predictions": []}`, 400, []string{`\"seed\": -1`}},
		{"a seed and data", "POST", "/api/v1/score", jsonType, `{"seed": 7, "data": {"files": {"a": "b"}}, "predictions": []}`, 400, []string{"one or the other"}},
	} {
		rec := do(t, h, x)
		for _, want := range x.contains {
			if rec.Code != x.status || !strings.Contains(rec.Body.String(), want) {
				t.Errorf("%s: %d %s; want %d saying %s", x.name, rec.Code, rec.Body.String(), x.status, want)
			}
		}
	}
}

// TestPromptsOfAVariant: /api/v1/prompts?seed=S answers the prompts of variant S, as apibank prompts
// --seed S does (other bytes than the builtin data's, the same for the same seed), and refuses a seed
// that is none rather than answering the builtin data's.
func TestPromptsOfAVariant(t *testing.T) {
	h := New(&nativePool{}, Limits{})
	get := func(path string) (int, string) {
		rec := do(t, h, exchange{name: path, method: "GET", path: path})
		return rec.Code, rec.Body.String()
	}
	code0, builtin := get("/api/v1/prompts?level=1")
	code7, seven := get("/api/v1/prompts?level=1&seed=7")
	_, again := get("/api/v1/prompts?level=1&seed=7")
	if code0 != 200 || code7 != 200 || builtin == seven || seven != again || !strings.Contains(seven, `"messages"`) {
		t.Errorf("prompts of variant 7: %d, %d; differs from the builtin data's %v, the same again %v", code0, code7, builtin != seven, seven == again)
	}
	for _, bad := range []string{"seed=", "seed=007", "seed=7&seed=7"} {
		if code, body := get("/api/v1/prompts?level=1&" + bad); code != 400 || !strings.Contains(body, "seed") {
			t.Errorf("%s: %d %.200s; want 400 about the seed", bad, code, body)
		}
	}
}
