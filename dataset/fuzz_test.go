package dataset

import "testing"

// FuzzParse: no input makes the dialogue, scene or literal parsers panic, and every problem is located.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"{\"role\":\"User\",\"text\":\"hi\"}\n{\"role\":\"API\",\"api_name\":\"GetToday\",\"param_dict\":{},\"result\":{}}",
		"{\"role\":\"Meta\",\"special\":\"no_tool\",\"line\":2}\n{\"role\":\"AI\",\"text\":\"no\"}",
		"Scene: x\nFirst Utterance: y\nAPI Call:\nA(b=\"c\", d=[1, {\"e\": 2}])\n",
		"{\"scene\":\"s\",\"utterance\":\"u\",\"calls\":[{\"api_name\":\"A\",\"param_dict\":{},\"result\":null}]}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, errs := ParseDialogue(Level1, "f.jsonl", []byte(s))
		for _, e := range errs {
			if e.File == "" {
				t.Fatalf("unlocated error %v", e)
			}
		}
		_, _ = ParseScene("s.txt", []byte(s))
		_, _ = ParseSceneJSON("s.json", []byte(s), true)
		_, _ = ParseLiteral(s)
	})
}
