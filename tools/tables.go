package tools

import (
	"strings"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// Recorded is one recorded call of a dataset: a tool name, the arguments and the gold envelope.
type Recorded struct {
	Tool   string
	Params *value.Map
	Result *value.Map
}

// Harvest fills the Dictionary and Translate tables of dbs from recorded gold calls when dbs has no
// such table. The original's Dictionary and Translate call web services; offline, the only faithful
// answers are the ones the dataset recorded. It reports whether it added a table.
func Harvest(dbs map[string]any, calls []Recorded) bool {
	added := false
	if _, ok := dbs["Dictionary"]; !ok {
		dict := value.NewMap(0)
		for _, c := range calls {
			if c.Tool != "Dictionary" || !successful(c.Result) {
				continue
			}
			kw, ok := c.Params.Get("keyword")
			s, isText := kw.(string)
			if !ok || !isText {
				continue
			}
			out, _ := c.Result.Get("output")
			key := dictionaryKey(s)
			if !dict.Has(key) {
				dict.Set(key, value.Clone(out))
			}
		}
		if dict.Len() > 0 {
			dbs["Dictionary"] = dict
			added = true
		}
	}
	if _, ok := dbs["Translate"]; !ok {
		tr := value.NewMap(0)
		for _, c := range calls {
			if c.Tool != "Translate" || !successful(c.Result) {
				continue
			}
			src, ok := c.Params.Get("src")
			s, isText := src.(string)
			if !ok || !isText {
				continue
			}
			tgt := ""
			if v, ok := c.Params.Get("tgt_lang"); ok {
				tgt, _ = v.(string)
			}
			code, ok := translateTarget(tgt)
			if !ok {
				continue
			}
			out, _ := c.Result.Get("output")
			byText, _ := tr.Get(code)
			m, _ := byText.(*value.Map)
			if m == nil {
				m = value.NewMap(1)
				tr.Set(code, m)
			}
			if !m.Has(s) {
				m.Set(s, value.Clone(out))
			}
		}
		if tr.Len() > 0 {
			dbs["Translate"] = tr
			added = true
		}
	}
	return added
}

// successful reports whether a recorded envelope has no exception.
func successful(env *value.Map) bool {
	if env == nil {
		return false
	}
	e, _ := env.Get("exception")
	return e == nil
}

// dictionaryKey normalises a Dictionary keyword as the tool does before its lookup.
func dictionaryKey(s string) string {
	return py.Lower(py.Strip(strings.ReplaceAll(s, "_", " ")))
}
