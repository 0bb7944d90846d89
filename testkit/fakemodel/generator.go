package fakemodel

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Generator answers synthesis requests (package synth's prompts) with candidates of known kinds,
// so that a test knows which stage each one must fail and why: candidate i (read from "Candidate i
// of n." in the request) is of kind Kinds[(i-1) % len(Kinds)]. It answers judge requests ("Judge
// this candidate.") with yes, except for a request about a joke (the judge_no kind), which it
// rejects. Requests of neither sort go to the rules.
type Generator struct {
	// Kinds is the cycle of candidate kinds; empty means GeneratorKinds.
	Kinds []string `json:"kinds,omitempty"`
}

// Candidate kinds a Generator serves.
const (
	// KindOK is a calculation the user asks for, called and answered: accepted.
	KindOK = "ok"
	// KindChain logs a user in (GetUserToken) and sets an alarm with the token it got: accepted.
	KindChain = "ok_chain"
	// KindBadJSON is cut in the middle of its JSON: rejected at format.
	KindBadJSON = "bad_json"
	// KindUnknownTool calls CalculatorPro: rejected at format.
	KindUnknownTool = "unknown_tool"
	// KindMissingArgument calls Calculator without its formula: rejected at format.
	KindMissingArgument = "missing_argument"
	// KindWrongType gives Calculator a number for its text formula: rejected at format.
	KindWrongType = "wrong_type"
	// KindException logs in a user who does not exist: rejected at execution.
	KindException = "exception"
	// KindUngrounded adds a number the user never said: rejected at grounding.
	KindUngrounded = "ungrounded"
	// KindDuplicate repeats the request of the last ok candidate before it, in other case and
	// spacing: rejected as a duplicate.
	KindDuplicate = "duplicate"
	// KindJudgeNo answers a request for a joke with a calculation: rejected by the judge.
	KindJudgeNo = "judge_no"
)

// GeneratorKinds is the default cycle: two kinds accepted, one failing each way.
var GeneratorKinds = []string{KindOK, KindChain, KindBadJSON, KindUnknownTool, KindMissingArgument, KindException, KindUngrounded, KindJudgeNo, KindDuplicate, KindWrongType}

// validate says what in the generator cannot be served.
func (g *Generator) validate() error {
	for i, k := range g.Kinds {
		if !slices.Contains(GeneratorKinds, k) {
			return fmt.Errorf("generator kind %d: unknown kind %q", i, k)
		}
	}
	return nil
}

func (g *Generator) kinds() []string {
	if len(g.Kinds) == 0 {
		return GeneratorKinds
	}
	return g.Kinds
}

// Kind is the kind of candidate i (from 1).
func (g *Generator) Kind(i int) string {
	ks := g.kinds()
	return ks[(max(i, 1)-1)%len(ks)]
}

var (
	candidateNumber = regexp.MustCompile(`Candidate (\d+) of (\d+)\.`)
	styleRule       = regexp.MustCompile(`(?:Style|Special case) ([a-z_-]+):`)
)

// answer returns the generator's reply to req, the kind served ("judge_yes"/"judge_no" for a
// verdict), and whether the request was one of its own. The style is read from the prompt's rule
// ("Style parallel: ...", "Special case no_tool: ..."); simple when it has none.
func (g *Generator) answer(req *ChatRequest) (Reply, string, bool) {
	last, all := "", ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		all += req.Messages[i].text() + "\n"
		if req.Messages[i].Role == "user" && last == "" {
			last = req.Messages[i].text()
		}
	}
	if strings.HasPrefix(last, "Judge this candidate.") {
		if strings.Contains(strings.ToLower(last), "joke") {
			return Reply{Content: `{"verdict": "no", "reason": "the example does not answer a request for a joke"}`}, "judge_no", true
		}
		return Reply{Content: `{"verdict": "yes", "reason": "the calls answer the request and the reply states their outputs"}`}, "judge_yes", true
	}
	m := candidateNumber.FindStringSubmatch(last)
	if m == nil {
		return Reply{}, "", false
	}
	style := "simple"
	if sm := styleRule.FindStringSubmatch(all); sm != nil {
		style = sm[1]
	}
	i, _ := strconv.Atoi(m[1])
	kind := g.Kind(i)
	return Reply{Content: g.Candidate(style, kind, i)}, kind, true
}

// gcall and gcand are a candidate as the generator builds it.
type gcall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"arguments"`
}

type gcand struct {
	Request string    `json:"request"`
	Steps   [][]gcall `json:"steps"`
	Reply   string    `json:"reply"`
}

func (c gcand) json() string {
	if c.Steps == nil {
		c.Steps = [][]gcall{}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

func calc(formula string) gcall { return gcall{"Calculator", map[string]any{"formula": formula}} }

// specialCase is a special case's accepted candidate: a request and the right reply, no call.
var specialCase = map[string][2]string{
	"missing_value": {"Please set alarm number %d for me.", "Sure: at what time should alarm %d ring?"},
	"no_tool":       {"Can you book table %d at a restaurant for tonight?", "Sorry, none of my tools can book restaurant table %d."},
	"ambiguous":     {"Take care of meeting %d.", "Should I add meeting %d to your calendar, change it, or cancel it?"},
	"wrong_value":   {"Set alarm %d for February 30 at 7 am.", "February 30 is not a date: which day should alarm %d ring on?"},
}

// accepted is candidate i of a style that passes every stage; variant 1 (the ok_chain kind) is a
// second form of it.
func accepted(style string, i, variant int) gcand {
	a, b := 100+i, 7+i%5
	if sc, ok := specialCase[style]; ok {
		please := ""
		if variant == 1 {
			please = " Thanks!"
		}
		return gcand{Request: fmt.Sprintf(sc[0], i) + please, Reply: fmt.Sprintf(sc[1], i)}
	}
	switch style {
	case "multiple":
		day, minute := 1+i%28, i%60
		hour := 6 + variant
		return gcand{
			Request: fmt.Sprintf("I'm PriyaSharma, password Monsoon@19. Set an alarm for %d:%02d am on March %d.", hour, minute, day),
			Steps: [][]gcall{
				{{"GetUserToken", map[string]any{"username": "PriyaSharma", "password": "Monsoon@19"}}},
				{{"AddAlarm", map[string]any{"token": "y82xqb5chiwl8xfia55t", "time": fmt.Sprintf("2023-03-%02d %02d:%02d:00", day, hour, minute)}}},
			},
			Reply: fmt.Sprintf("Your alarm is set for %d:%02d am on March %d.", hour, minute, day),
		}
	case "parallel":
		c := a + 50
		if variant == 1 {
			return gcand{Request: fmt.Sprintf("What are %d times %d and %d times %d?", a, b, c, b),
				Steps: [][]gcall{{calc(fmt.Sprintf("%d*%d", a, b)), calc(fmt.Sprintf("%d*%d", c, b))}}, Reply: fmt.Sprintf("%d and %d.", a*b, c*b)}
		}
		return gcand{Request: fmt.Sprintf("What is %d plus %d, and %d plus %d?", a, b, c, b),
			Steps: [][]gcall{{calc(fmt.Sprintf("%d+%d", a, b)), calc(fmt.Sprintf("%d+%d", c, b))}}, Reply: fmt.Sprintf("%d and %d.", a+b, c+b)}
	case "parallel-multiple":
		if variant == 1 {
			return gcand{Request: fmt.Sprintf("What is %d times %d, and what day is it today?", a, b),
				Steps: [][]gcall{{calc(fmt.Sprintf("%d*%d", a, b)), {"GetToday", map[string]any{}}}}, Reply: fmt.Sprintf("%d; today is 2023-03-31.", a*b)}
		}
		return gcand{Request: fmt.Sprintf("What is today's date, and what is %d plus %d?", a, b),
			Steps: [][]gcall{{{"GetToday", map[string]any{}}, calc(fmt.Sprintf("%d+%d", a, b))}}, Reply: fmt.Sprintf("Today is 2023-03-31; %d plus %d is %d.", a, b, a+b)}
	}
	if variant == 1 {
		return gcand{Request: fmt.Sprintf("What is %d times %d?", a, b), Steps: [][]gcall{{calc(fmt.Sprintf("%d*%d", a, b))}}, Reply: fmt.Sprintf("%d times %d is %d.", a, b, a*b)}
	}
	return gcand{Request: fmt.Sprintf("What is %d plus %d?", a, b), Steps: [][]gcall{{calc(fmt.Sprintf("%d+%d", a, b))}}, Reply: fmt.Sprintf("%d plus %d is %d.", a, b, a+b)}
}

// Candidate writes candidate i of a kind, for a style, as the model would: a JSON object (cut short
// for bad_json). A failing kind is the style's accepted candidate changed in one known way, so that
// it fails its stage whatever the style; a special case has no call to break, so the kinds that
// break a call give it one (rejected at format).
func (g *Generator) Candidate(style, kind string, i int) string {
	c := accepted(style, i, 0)
	_, special := specialCase[style]
	last := func() *gcall { // the last call that has arguments
		for s := len(c.Steps) - 1; s >= 0; s-- {
			for j := len(c.Steps[s]) - 1; j >= 0; j-- {
				if len(c.Steps[s][j].Args) > 0 {
					return &c.Steps[s][j]
				}
			}
		}
		return nil
	}
	a := 100 + i
	switch kind {
	case KindChain:
		c = accepted(style, i, 1)
	case KindBadJSON:
		text := c.json()
		return text[:len(text)/2]
	case KindJudgeNo:
		c.Request = "Tell me a joke first. " + c.Request
	case KindDuplicate:
		j := i - 1
		for j >= 1 && g.Kind(j) != KindOK {
			j--
		}
		if j < 1 {
			j = i
		}
		c = accepted(style, j, 0)
		c.Request = strings.ToUpper(c.Request[:1]) + strings.ReplaceAll(c.Request[1:], " ", "  ")
		if len(c.Request) > 3 {
			c.Request = strings.ToUpper(c.Request[:4]) + c.Request[4:]
		}
	case KindUnknownTool, KindMissingArgument, KindWrongType, KindException, KindUngrounded:
		if special {
			c.Steps = [][]gcall{{calc(fmt.Sprintf("%d+1", i))}}
			break
		}
		call := last()
		switch kind {
		case KindUnknownTool:
			call.Name += "Pro"
		case KindMissingArgument:
			call.Args = withoutOne(call.Args)
		case KindWrongType:
			for _, k := range sortedKeys(call.Args) {
				if s, ok := call.Args[k].(string); ok {
					call.Args = copyWith(call.Args, k, len(s))
					break
				}
			}
		case KindException:
			if call.Name == "Calculator" {
				call.Args = map[string]any{"formula": fmt.Sprintf("%d/0", a)}
				c.Request += fmt.Sprintf(" Also, what is %d divided by 0?", a)
			} else {
				c.Request = strings.Replace(c.Request, "Monsoon@19", "Monsoon@20", 1)
				c.Steps[0][0].Args = map[string]any{"username": "PriyaSharma", "password": "Monsoon@20"}
			}
		case KindUngrounded:
			if call.Name == "Calculator" {
				call.Args = map[string]any{"formula": fmt.Sprintf("%d+%d", a, 9000+i)}
			} else {
				call.Args = copyWith(call.Args, "time", "2023-03-01 09:59:00")
			}
		}
	}
	return c.json()
}

// withoutOne returns args without its first key in sorted order.
func withoutOne(args map[string]any) map[string]any {
	keys := sortedKeys(args)
	out := map[string]any{}
	for _, k := range keys[1:] {
		out[k] = args[k]
	}
	return out
}

func copyWith(args map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for key, val := range args {
		out[key] = val
	}
	out[k] = v
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
