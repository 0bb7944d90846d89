package fakemodel

import (
	"encoding/json"
	"fmt"
	"regexp"
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

var generatorKinds = map[string]bool{}

func init() {
	for _, k := range GeneratorKinds {
		generatorKinds[k] = true
	}
}

// validate says what in the generator cannot be served.
func (g *Generator) validate() error {
	for i, k := range g.Kinds {
		if !generatorKinds[k] {
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

var candidateNumber = regexp.MustCompile(`Candidate (\d+) of (\d+)\.`)

// answer returns the generator's reply to req, the kind served ("judge_yes"/"judge_no" for a
// verdict), and whether the request was one of its own.
func (g *Generator) answer(req *ChatRequest) (Reply, string, bool) {
	last := ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			last = req.Messages[i].text()
			break
		}
	}
	if strings.HasPrefix(last, "Judge this candidate.") {
		if strings.Contains(strings.ToLower(last), "joke") {
			return Reply{Content: `{"verdict": "no", "reason": "a calculation does not answer a request for a joke"}`}, "judge_no", true
		}
		return Reply{Content: `{"verdict": "yes", "reason": "the call answers the request and the reply states its output"}`}, "judge_yes", true
	}
	m := candidateNumber.FindStringSubmatch(last)
	if m == nil {
		return Reply{}, "", false
	}
	i, _ := strconv.Atoi(m[1])
	kind := g.Kind(i)
	return Reply{Content: g.candidate(kind, i)}, kind, true
}

// candidate writes candidate i of a kind as the model would: a JSON object.
func (g *Generator) candidate(kind string, i int) string {
	a, b := 100+i, 7+i%5
	calc := func(request string, formula any, reply string) string {
		return candidateJSON(request, "Calculator", map[string]any{"formula": formula}, reply)
	}
	sum := fmt.Sprintf("What is %d plus %d?", a, b)
	answer := fmt.Sprintf("%d plus %d is %d.", a, b, a+b)
	switch kind {
	case KindChain:
		day, minute := 1+i%28, i%60
		request := fmt.Sprintf("I'm PriyaSharma, password Monsoon@19. Set an alarm for 6:%02d am on March %d.", minute, day)
		return fmt.Sprintf(`{"request": %q, "steps": [[{"name": "GetUserToken", "arguments": {"username": "PriyaSharma", "password": "Monsoon@19"}}], [{"name": "AddAlarm", "arguments": {"token": "y82xqb5chiwl8xfia55t", "time": "2023-03-%02d 06:%02d:00"}}]], "reply": %q}`,
			request, day, minute, fmt.Sprintf("Your alarm is set for 6:%02d am on March %d.", minute, day))
	case KindBadJSON:
		return fmt.Sprintf(`{"request": "What is %d plus`, a)
	case KindUnknownTool:
		return candidateJSON(sum, "CalculatorPro", map[string]any{"formula": fmt.Sprintf("%d+%d", a, b)}, answer)
	case KindMissingArgument:
		return candidateJSON(sum, "Calculator", map[string]any{}, answer)
	case KindWrongType:
		return calc(sum, a+b, answer)
	case KindException:
		user := fmt.Sprintf("NoSuchUser%d", i)
		return candidateJSON(fmt.Sprintf("Log me in: I'm %s, password pw%d.", user, i), "GetUserToken", map[string]any{"username": user, "password": fmt.Sprintf("pw%d", i)}, "You are logged in.")
	case KindUngrounded:
		return calc(sum, fmt.Sprintf("%d+%d", a, 9000+i), answer)
	case KindDuplicate:
		j := i - 1
		for j >= 1 && g.Kind(j) != KindOK {
			j--
		}
		if j < 1 {
			j = i
		}
		aj, bj := 100+j, 7+j%5
		return calc(fmt.Sprintf("WHAT is  %d plus %d?", aj, bj), fmt.Sprintf("%d+%d", aj, bj), fmt.Sprintf("%d plus %d is %d.", aj, bj, aj+bj))
	case KindJudgeNo:
		return calc(fmt.Sprintf("Tell me a joke about the numbers %d and %d.", a, b), fmt.Sprintf("%d+%d", a, b), answer)
	}
	return calc(sum, fmt.Sprintf("%d+%d", a, b), answer)
}

// candidateJSON writes a candidate of one call.
func candidateJSON(request, tool string, args map[string]any, reply string) string {
	c := map[string]any{"request": request, "steps": [][]map[string]any{{{"name": tool, "arguments": args}}}, "reply": reply}
	b, _ := json.Marshal(c)
	return string(b)
}
