package dataset

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
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
	// Free names the arguments whose text the user never dictated (a meeting's topic, a reminder's
	// wording, the call's "free"): an episode's call with any non-empty text there achieves the
	// gold call, and its text is what the judged world keeps.
	Free []string
	// About, for some free arguments (the call's "about": {name: [phrases]}), lists the phrases one
	// of which the text must contain (case-insensitive): a reminder of the video call must say it is
	// about a call, not about a dentist. Every name in About is also in Free.
	About map[string][]string
	// Optional marks a lookup a right plan may skip (the call's "optional": true): an intermediate
	// value another plan computes in one formula, the status of the user who is asking. A live
	// episode does not require it (its milestones are the other calls); its step sample stays.
	Optional bool
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
//	 "calls": [{"api_name", "param_dict", "result", "free"?: [names], "about"?: {name: [phrases]},
//	            "optional"?: true}],
//	 "catalog"?: "lv3_apis" | "apis",
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
		if c.Free, c.About, err = parseFree(cm); err != nil {
			return nil, bad("call %d: %v", i+1, err)
		}
		if o, ok := cm.Get("optional"); ok {
			b, isBool := o.(bool)
			if !isBool {
				return nil, bad("call %d: \"optional\" must be true or false", i+1)
			}
			c.Optional = b
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

// parseFree reads a scene call's "free" (argument names) and "about" ({name: [phrases]}): each
// name must be a text argument of the call's param_dict; a name in "about" is free too.
func parseFree(cm *value.Map) ([]string, map[string][]string, error) {
	pd, _ := cm.Get("param_dict")
	params, _ := pd.(*value.Map)
	var free []string
	text := func(name string) error {
		v, _ := params.Get(name)
		if _, ok := v.(string); !ok {
			return errorf("%q is not a text argument of the call", name)
		}
		return nil
	}
	if v, ok := cm.Get("free"); ok {
		list, isList := v.([]any)
		if !isList {
			return nil, nil, errorf("\"free\" must be a list of argument names")
		}
		for _, e := range list {
			name, _ := e.(string)
			if err := text(name); err != nil {
				return nil, nil, errorf("free: %w", err)
			}
			free = append(free, name)
		}
	}
	var about map[string][]string
	if v, ok := cm.Get("about"); ok {
		am, isMap := v.(*value.Map)
		if !isMap {
			return nil, nil, errorf("\"about\" must be an object {argument: [phrases]}")
		}
		about = map[string][]string{}
		var err error
		am.Each(func(name string, pv any) bool {
			if err = text(name); err != nil {
				err = errorf("about: %w", err)
				return false
			}
			list, _ := pv.([]any)
			for _, p := range list {
				if s, ok := p.(string); ok && strings.TrimSpace(s) != "" {
					about[name] = append(about[name], s)
				}
			}
			if len(about[name]) == 0 {
				err = errorf("about %q needs a non-empty list of phrases", name)
				return false
			}
			if !slices.Contains(free, name) {
				free = append(free, name)
			}
			return true
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return free, about, nil
}

// parsePyCall reads Name(key=literal, ...) where literals are Python/JSON values; a bare word is
// taken as text. A comment after the call (": what it does", as some original scenes have) is
// ignored.
func parsePyCall(text string) (SceneCall, error) {
	open := strings.IndexByte(text, '(')
	end := closingParen(text, open)
	if open <= 0 || end < 0 || !(strings.TrimSpace(text[end+1:]) == "" || strings.HasPrefix(strings.TrimSpace(text[end+1:]), ":")) {
		return SceneCall{}, errorf("not a call: %q (want Name(key=value, ...))", text)
	}
	text = text[:end+1]
	name := strings.TrimSpace(text[:open])
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return SceneCall{}, errorf("bad tool name %q", name)
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
			return SceneCall{}, errorf("expected a parameter name at %q", p.rest())
		}
		p.skip()
		if !p.eat('=') {
			return SceneCall{}, errorf("expected '=' after %s", key)
		}
		v, err := p.literal()
		if err != nil {
			return SceneCall{}, errorf("parameter %s: %v", key, err)
		}
		args.Set(key, v)
		p.skip()
		if !p.eat(',') && !p.done() {
			return SceneCall{}, errorf("expected ',' at %q", p.rest())
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
		return nil, errorf("missing value")
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
		return nil, errorf("unterminated string")
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
				return nil, errorf("expected ',' or ']' in a list")
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
				return nil, errorf("expected ':' in a dict")
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
				return nil, errorf("expected ',' or '}' in a dict")
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
			return nil, errorf("missing value")
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
		return nil, errorf("unexpected %q after the value", p.rest())
	}
	return v, nil
}
