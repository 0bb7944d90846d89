package engine

import (
	"strings"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/value"
)

// toolDocs are what a catalog page shows beside a tool's declaration, learnt from the loaded data:
// a call of each tool that runs (its first gold call) and the exceptions its gold calls record.
type toolDocs struct {
	examples   map[string]string
	exceptions map[string][]string
}

// docsOf gathers the examples and exceptions of the tools of catalog from the gold calls of d:
// the level 1-2 dialogues call "apis", each scene its own catalog.
func docsOf(d *dataset.Data, catalog string) toolDocs {
	docs := toolDocs{examples: map[string]string{}, exceptions: map[string][]string{}}
	add := func(tool string, params, result *value.Map) {
		if _, ok := docs.examples[tool]; !ok && params != nil {
			docs.examples[tool] = exampleCall(tool, params)
		}
		if result == nil {
			return
		}
		if exc, ok := result.Get("exception"); ok {
			if text, ok := exc.(string); ok && text != "" && !containsString(docs.exceptions[tool], text) {
				docs.exceptions[tool] = append(docs.exceptions[tool], text)
			}
		}
	}
	if catalog == "apis" {
		for _, dl := range d.Dialogues() {
			for _, t := range dl.Turns {
				if t.Role == dataset.API {
					add(t.Tool, t.Params, t.Result)
				}
			}
		}
	}
	for _, sc := range d.Scenes() {
		if sc.Catalog != catalog {
			continue
		}
		for _, c := range sc.Calls {
			add(c.Tool, c.Params, c.Result)
		}
	}
	return docs
}

// exampleCall writes a call in the text form when that form carries every argument exactly (no
// quotes, newlines, empty strings, lists or objects: the original's parser would change them), and
// as a native call otherwise.
func exampleCall(tool string, params *value.Map) string {
	plain := true
	params.Each(func(_ string, v any) bool {
		switch x := v.(type) {
		case string:
			plain = x != "" && !strings.ContainsAny(x, "'\"\n")
		case *value.Map, []any, value.Tuple:
			plain = false
		}
		return plain
	})
	if plain {
		return call.Format(tool, params)
	}
	return `{"name": ` + string(value.Marshal(tool)) + `, "arguments": ` + string(value.Marshal(params)) + `}`
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
