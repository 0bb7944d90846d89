package score

import (
	"bytes"
	"fmt"
	"path"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// Fill writes the results of a draft's gold calls by running them: a dialogue's API turns run in
// order in one world (replay state, the default for our data), a scene's calls likewise in its
// catalog. It is how our dataset's recorded results are made, so that replaying them reproduces them
// exactly. name's folder decides the kind: level-1-given-desc/ and level-2-toolsearcher/ hold JSONL
// dialogues, level-3/ JSON scenes. User and AI lines are kept as written.
func Fill(base *tools.Base, name string, data []byte) ([]byte, []dataset.LineError) {
	dir := path.Base(path.Dir(name))
	switch dir {
	case dataset.Level1, dataset.Level2:
		return fillDialogue(base, dir, name, data)
	case dataset.Level3:
		return fillScene(base, name, data)
	}
	return nil, []dataset.LineError{{File: name, Message: "not in a level folder (" + dataset.Level1 + ", " + dataset.Level2 + " or " + dataset.Level3 + ")"}}
}

func fillDialogue(base *tools.Base, level, name string, data []byte) ([]byte, []dataset.LineError) {
	d, errs := dataset.ParseDraft(level, name, data)
	if len(errs) > 0 {
		return nil, errs
	}
	cat := dataset.CatalogFor(level)
	w := base.NewWorld()
	results := map[int]*value.Map{}
	for _, t := range d.Turns {
		if t.Role != dataset.API {
			continue
		}
		env, err := cat.CallNative(w, t.Tool, t.Params)
		if err != nil {
			errs = append(errs, dataset.LineError{File: name, Line: t.Line, Message: fmt.Sprintf("%s raised: %v", t.Tool, err)})
			continue
		}
		results[t.Line] = env
	}
	if len(errs) > 0 {
		return nil, errs
	}
	// The lines as the draft was parsed (package lines: a BOM skipped, LF, CRLF or a lone CR), written
	// with LF; empty lines at the end are dropped.
	var out bytes.Buffer
	blanks := 0
	for n, line := range lines.All(data) {
		if len(line) == 0 {
			blanks++
			continue
		}
		for ; blanks > 0; blanks-- {
			out.WriteByte('\n')
		}
		env, ok := results[n]
		if !ok {
			out.Write(line)
			out.WriteByte('\n')
			continue
		}
		v, _ := value.Decode(line)
		m := v.(*value.Map)
		turn := value.NewMap(4)
		turn.Set("role", dataset.API)
		turn.Set("api_name", m.String("api_name"))
		pd, _ := m.Get("param_dict")
		turn.Set("param_dict", pd)
		if par, _ := m.Get("parallel"); par == true {
			turn.Set("parallel", true)
		}
		turn.Set("result", env)
		out.Write(value.Marshal(turn))
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}

func fillScene(base *tools.Base, name string, data []byte) ([]byte, []dataset.LineError) {
	sc, errs := dataset.ParseSceneJSON(name, data, true)
	if len(errs) > 0 {
		return nil, errs
	}
	cat, _ := tools.CatalogByName(sc.Catalog)
	// The scene as written, every member kept (answer, audit, a call's free, about and optional):
	// only the calls' results are written.
	raw, _ := value.Decode(bytes.TrimPrefix(data, []byte(lines.BOM)))
	m, _ := raw.(*value.Map)
	rawCalls, _ := m.Get("calls")
	list, _ := rawCalls.([]any)
	w := base.NewWorld()
	for i, c := range sc.Calls {
		env, err := cat.CallNative(w, c.Tool, c.Params)
		if err != nil {
			return nil, []dataset.LineError{{File: name, Line: 1, Message: fmt.Sprintf("call %d (%s) raised: %v", i+1, c.Tool, err)}}
		}
		cm, _ := list[i].(*value.Map)
		cm.Set("result", env)
	}
	if _, ok := m.Get("catalog"); !ok {
		m.Set("catalog", sc.Catalog)
	}
	var out bytes.Buffer
	writeIndented(&out, m, "")
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// writeIndented writes a scene readably: one key per line at the top, one call per line.
func writeIndented(b *bytes.Buffer, m *value.Map, indent string) {
	b.WriteString("{\n")
	for i, k := range m.Keys() {
		v, _ := m.Get(k)
		b.WriteString(indent + "  ")
		b.Write(value.Marshal(k))
		b.WriteString(": ")
		if list, ok := v.([]any); ok && len(list) > 0 {
			b.WriteString("[\n")
			for j, e := range list {
				b.WriteString(indent + "    ")
				b.Write(value.Marshal(e))
				if j < len(list)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString(indent + "  ]")
		} else {
			b.Write(value.Marshal(v))
		}
		if i < m.Len()-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + "}")
}
