package dataset

import (
	"fmt"
	"github.com/apibank-playground/apibank/protocol"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// Scene is a level-3 task: one request that needs several tools, planned by the model. The original
// ships eight as text files (lv3-samples/*.txt); ParseScene reads that format.
type Scene struct {
	// File is the scene's file name.
	File string
	// Name is the scene's title.
	Name string
	// Utterance is the user's first (and only) request.
	Utterance string
	// KeyInfo are the facts the user knows and gives when asked, one per line.
	KeyInfo []string
	// Calls is the gold call list, in order.
	Calls []SceneCall
	// Catalog is the tool catalog the scene's calls use: "lv3_apis" for our scenes; the original's
	// sample scenes call the levels 1-2 tools, so they get "apis".
	Catalog string
	// Repaired: see Dialogue.Repaired.
	Repaired bool
	// Answer, for a scene whose request is a question, is what the final answer to the user must
	// say (the scene's "answer"): an episode whose calls are right but whose conclusion is wrong is
	// not a success.
	Answer []Need
	// Audit is what a careful reader found (the scene's "audit").
	Audit *protocol.Audit
}

// Need is one thing a right reply must contain (the protocol's type).
type Need = protocol.Need

// SceneCall is one gold call of a scene. Result is the recorded envelope when the scene has one (our
// own scenes do; the original's text files do not).
type SceneCall struct {
	Tool   string
	Params *value.Map
	Result *value.Map
	Line   int
}

// ParseScene reads a scene in the original's text layout: "Scene: ...", "First Utterance: ...", a
// "Key Info:" block, and a block headed "GT API Call:", "API Call:" or "API Calls:" with one call per
// line written as Name(key="value", n=1, list=["a"], obj={"k": 1}).
func ParseScene(name string, data []byte) (*Scene, []LineError) {
	sc := &Scene{File: path.Base(name)}
	var errs []LineError
	section := ""
	lr := lines.NewBytesReader(data, lines.Max)
	for {
		raw, line, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs = append(errs, LineError{File: name, Line: line, Message: err.Error()})
			continue
		}
		text := strings.TrimSpace(string(raw))
		head := strings.TrimSpace(strings.TrimPrefix(text, "- "))
		lower := strings.ToLower(head)
		switch {
		case text == "":
			continue
		case strings.HasPrefix(lower, "scene:"):
			sc.Name = strings.TrimSpace(head[len("scene:"):])
			continue
		case strings.HasPrefix(lower, "first utter"):
			if i := strings.Index(head, ":"); i >= 0 {
				sc.Utterance = strings.TrimSpace(head[i+1:])
			}
			continue
		case strings.HasPrefix(lower, "key info"):
			section = "info"
			continue
		case strings.HasSuffix(lower, "api call:") || strings.HasSuffix(lower, "api calls:"):
			section = "calls"
			continue
		}
		switch section {
		case "info":
			sc.KeyInfo = append(sc.KeyInfo, text)
		case "calls":
			c, err := parsePyCall(text)
			if err != nil {
				errs = append(errs, LineError{File: name, Line: line, Message: err.Error()})
				continue
			}
			c.Line = line
			sc.Calls = append(sc.Calls, c)
		}
	}
	if sc.Utterance == "" {
		errs = append(errs, LineError{File: name, Message: "no \"First Utterance:\" line"})
	}
	if len(sc.Calls) == 0 {
		errs = append(errs, LineError{File: name, Message: "no gold API calls (expected a \"GT API Call:\" block)"})
		return nil, errs
	}
	sc.Catalog = sceneCatalog(sc.Calls)
	return sc, errs
}

// sceneCatalog picks the catalog whose tools declare every call's parameters: lv3_apis when it
// does, else apis.
func sceneCatalog(calls []SceneCall) string {
	for _, c := range calls {
		t, ok := tools.LV3.Lookup(c.Tool)
		if !ok {
			return tools.APIs.Name
		}
		for _, k := range c.Params.Keys() {
			if _, ok := t.Param(k); !ok {
				return tools.APIs.Name
			}
		}
	}
	return tools.LV3.Name
}

// ParseSceneJSON reads a scene in our own format, one JSON object a file:
//
//	{"scene": title, "utterance": the request, "key_info": [facts the user gives when asked],
//	 "calls": [{"api_name", "param_dict", "result"}], "catalog"?: "lv3_apis" | "apis",
//	 "answer"?: [{"what", "any": [phrases]}], "audit"?: {"status", "note"}}
//
// Results may be null in a draft (fill them by running the calls).
func ParseSceneJSON(name string, data []byte, draft bool) (*Scene, []LineError) {
	bad := func(format string, a ...any) []LineError {
		return []LineError{{File: name, Line: 1, Message: fmt.Sprintf(format, a...)}}
	}
	v, line, err := decodeFile(data)
	if err != nil {
		return nil, []LineError{{File: name, Line: line, Message: "not JSON: " + err.Error()}}
	}
	m, ok := v.(*value.Map)
	if !ok {
		return nil, bad("a scene must be a JSON object")
	}
	sc := &Scene{File: path.Base(name), Name: m.String("scene"), Utterance: m.String("utterance"), Catalog: m.String("catalog")}
	if sc.Utterance == "" {
		return nil, bad("missing \"utterance\"")
	}
	if ki, ok := m.Get("key_info"); ok {
		list, ok := ki.([]any)
		if !ok {
			return nil, bad("key_info must be a list of texts")
		}
		for _, e := range list {
			sc.KeyInfo = append(sc.KeyInfo, value.Str(e))
		}
	}
	calls, _ := m.Get("calls")
	list, ok := calls.([]any)
	if !ok || len(list) == 0 {
		return nil, bad("calls must be a non-empty list")
	}
	for i, e := range list {
		cm, ok := e.(*value.Map)
		if !ok {
			return nil, bad("call %d is not an object", i+1)
		}
		c := SceneCall{Tool: cm.String("api_name"), Line: i + 1}
		pd, _ := cm.Get("param_dict")
		c.Params, ok = pd.(*value.Map)
		if c.Tool == "" || !ok {
			return nil, bad("call %d needs api_name and a param_dict object", i+1)
		}
		res, _ := cm.Get("result")
		c.Result, ok = res.(*value.Map)
		if !ok && !(draft && res == nil) {
			return nil, bad("call %d has no result object", i+1)
		}
		sc.Calls = append(sc.Calls, c)
	}
	if sc.Answer, err = parseNeeds(m, "answer"); err != nil {
		return nil, bad("%v", err)
	}
	if sc.Audit, err = parseAudit(m); err != nil {
		return nil, bad("%v", err)
	}
	switch sc.Catalog {
	case "":
		sc.Catalog = sceneCatalog(sc.Calls)
	case tools.APIs.Name, tools.LV3.Name:
	default:
		return nil, bad("catalog must be apis or lv3_apis")
	}
	return sc, nil
}

// parsePyCall reads Name(key=literal, ...) where literals are Python/JSON values; a bare word is
// taken as text. A comment after the call (": what it does", as some original scenes have) is
// ignored.
func parsePyCall(text string) (SceneCall, error) {
	open := strings.IndexByte(text, '(')
	end := closingParen(text, open)
	if open <= 0 || end < 0 || !(strings.TrimSpace(text[end+1:]) == "" || strings.HasPrefix(strings.TrimSpace(text[end+1:]), ":")) {
		return SceneCall{}, fmt.Errorf("not a call: %q (want Name(key=value, ...))", text)
	}
	text = text[:end+1]
	name := strings.TrimSpace(text[:open])
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return SceneCall{}, fmt.Errorf("bad tool name %q", name)
		}
	}
	p := &litParser{s: text[open+1 : len(text)-1]}
	args := value.NewMap(4)
	for {
		p.skip()
		if p.done() {
			break
		}
		key := p.ident()
		if key == "" {
			return SceneCall{}, fmt.Errorf("expected a parameter name at %q", p.rest())
		}
		p.skip()
		if !p.eat('=') {
			return SceneCall{}, fmt.Errorf("expected '=' after %s", key)
		}
		v, err := p.literal()
		if err != nil {
			return SceneCall{}, fmt.Errorf("parameter %s: %v", key, err)
		}
		args.Set(key, v)
		p.skip()
		if !p.eat(',') && !p.done() {
			return SceneCall{}, fmt.Errorf("expected ',' at %q", p.rest())
		}
	}
	return SceneCall{Tool: name, Params: args}, nil
}

// litParser reads Python literals: quoted strings (either quote), numbers, True/False/None, lists
// and dicts.
type litParser struct {
	s string
	i int
}

func (p *litParser) done() bool   { return p.i >= len(p.s) }
func (p *litParser) rest() string { return p.s[p.i:] }
func (p *litParser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}
func (p *litParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}
func (p *litParser) ident() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			p.i++
			continue
		}
		break
	}
	return p.s[start:p.i]
}

func (p *litParser) literal() (any, error) {
	p.skip()
	if p.done() {
		return nil, fmt.Errorf("missing value")
	}
	switch c := p.s[p.i]; {
	case c == '"' || c == '\'':
		p.i++
		var b strings.Builder
		for p.i < len(p.s) {
			ch := p.s[p.i]
			if ch == '\\' && p.i+1 < len(p.s) {
				b.WriteByte(p.s[p.i+1])
				p.i += 2
				continue
			}
			if ch == c {
				p.i++
				return b.String(), nil
			}
			b.WriteByte(ch)
			p.i++
		}
		return nil, fmt.Errorf("unterminated string")
	case c == '[':
		p.i++
		list := []any{}
		for {
			p.skip()
			if p.eat(']') {
				return list, nil
			}
			v, err := p.literal()
			if err != nil {
				return nil, err
			}
			list = append(list, v)
			p.skip()
			if !p.eat(',') {
				p.skip()
				if p.eat(']') {
					return list, nil
				}
				return nil, fmt.Errorf("expected ',' or ']' in a list")
			}
		}
	case c == '{':
		p.i++
		m := value.NewMap(2)
		for {
			p.skip()
			if p.eat('}') {
				return m, nil
			}
			k, err := p.literal()
			if err != nil {
				return nil, err
			}
			p.skip()
			if !p.eat(':') {
				return nil, fmt.Errorf("expected ':' in a dict")
			}
			v, err := p.literal()
			if err != nil {
				return nil, err
			}
			m.Set(value.Str(k), v)
			p.skip()
			if !p.eat(',') {
				p.skip()
				if p.eat('}') {
					return m, nil
				}
				return nil, fmt.Errorf("expected ',' or '}' in a dict")
			}
		}
	default:
		start := p.i
		for p.i < len(p.s) && !strings.ContainsRune(",)]} ", rune(p.s[p.i])) {
			p.i++
		}
		word := p.s[start:p.i]
		switch word {
		case "True", "true":
			return true, nil
		case "False", "false":
			return false, nil
		case "None", "null":
			return nil, nil
		}
		if n, err := strconv.ParseInt(word, 10, 64); err == nil {
			return n, nil
		}
		if f, err := strconv.ParseFloat(word, 64); err == nil {
			return f, nil
		}
		if word == "" {
			return nil, fmt.Errorf("missing value")
		}
		return word, nil
	}
}

// closingParen returns the index of the ')' that closes the '(' at open, skipping quoted text, or -1.
func closingParen(text string, open int) int {
	if open < 0 {
		return -1
	}
	depth := 0
	var quote byte
	for i := open; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth == 0 {
				if c == ')' {
					return i
				}
				return -1
			}
		}
	}
	return -1
}

// ParseLiteral reads one Python literal (a quoted text, a number, True/False/None, a list or a dict),
// as a model writes a list argument in the text format: ['Ana', 'Bo'], [{'name': 'lamp', ...}].
func ParseLiteral(s string) (any, error) {
	p := &litParser{s: s}
	v, err := p.literal()
	if err != nil {
		return nil, err
	}
	p.skip()
	if !p.done() {
		return nil, fmt.Errorf("unexpected %q after the value", p.rest())
	}
	return v, nil
}
