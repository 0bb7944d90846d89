package run

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
)

// planChat is a scripted model of one episode: each request is answered with the next answer of
// the plan, whatever it says; a plan that has run out answers with its final reply.
type planChat struct {
	answers []model.Response
	reply   string
	asked   []model.Request
}

func (c *planChat) Chat(_ context.Context, r model.Request) (model.Response, error) {
	c.asked = append(c.asked, r)
	if n := len(c.asked) - 1; n < len(c.answers) {
		return c.answers[n], nil
	}
	return model.Response{Content: c.reply}, nil
}

// goldStep is one gold call of a scene as the engine shows it: its text form and its native call.
type goldStep struct {
	name   string
	text   string
	native json.RawMessage // {"name", "arguments"}
}

// sceneGold reads a scene's gold calls (as the engine's prompts give them) and its answer needs.
func sceneGold(t *testing.T, do protocol.Transport, file string) ([]goldStep, []protocol.Need) {
	t.Helper()
	ctx := context.Background()
	d, err := protocol.Call[protocol.Dialogue](ctx, do, protocol.Request{Op: protocol.OpDialogue, Level: Level3, File: file})
	if err != nil {
		t.Fatal(err)
	}
	var steps []goldStep
	k := 0
	for _, turn := range d.Turns {
		if turn.Role != "API" {
			continue
		}
		id := k
		k++
		p, err := protocol.Call[protocol.Prompt](ctx, do, protocol.Request{Op: protocol.OpPrompt, Level: Level3, File: file, Sample: &id})
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, goldStep{name: turn.APIName, text: p.Gold, native: json.RawMessage(p.GoldNative)})
	}
	return steps, d.Answer
}

// nameWords are the words of a tool's name ("MovieRecommendations" -> "movie recommendations"),
// keywords a model that knows what it needs might search with.
func nameWords(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// search is a ToolSearcher call for a tool, as a gold step.
func search(tool string) goldStep {
	kw := nameWords(tool)
	args, _ := json.Marshal(map[string]string{"keywords": kw})
	native, _ := json.Marshal(map[string]json.RawMessage{"name": json.RawMessage(`"ToolSearcher"`), "arguments": args})
	return goldStep{name: "ToolSearcher", text: "[ToolSearcher(keywords='" + kw + "')]", native: native}
}

// answers are a plan's steps as a model's answers in a form, one call an answer.
func answers(plan []goldStep, form string) []model.Response {
	out := make([]model.Response, len(plan))
	for i, s := range plan {
		if form == Text {
			out[i] = model.Response{Content: s.text}
			continue
		}
		var c struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(s.native, &c)
		out[i] = model.Response{ToolCalls: []model.ToolCall{{ID: fmt.Sprintf("call_%d", i), Name: c.Name, Arguments: string(c.Arguments)}}}
	}
	return out
}

// replyTo meets every need of a scene's answer: the first phrase of each.
func replyTo(needs []protocol.Need) string {
	parts := []string{"Done."}
	for _, n := range needs {
		parts = append(parts, n.Any[0]+".")
	}
	return strings.Join(parts, " ")
}

// play runs one scripted episode of a scene.
func play(t *testing.T, do protocol.Transport, file, form string, plan []model.Response, reply string) *Episode {
	t.Helper()
	chat := &planChat{answers: plan, reply: reply}
	ep, _, fail := playEpisode(context.Background(), &serial{do: do}, chat, Config{Form: form}.withDefaults(), Task{Level: Level3, File: file, ID: -1})
	if fail != nil || ep.Outcome == nil {
		t.Fatalf("%s %s: the episode failed: %+v", file, form, fail)
	}
	return ep
}

// TestEveryScenePlans plays every builtin scene in both forms with three right plans — the gold
// calls as recorded, the gold calls without the ToolSearcher lookups, and a search for each tool
// before its first call — and requires each to succeed with full milestone credit within the
// default step limit; then the gold plan with a final answer that says nothing asked, which must
// fail on the answer alone where the scene asks something.
func TestEveryScenePlans(t *testing.T) {
	do := native()
	ctx := context.Background()
	scenes, err := protocol.Call[[]protocol.DialogueSummary](ctx, do, protocol.Request{Op: protocol.OpDialogues, Level: Level3})
	if err != nil || len(scenes) < 50 {
		t.Fatalf("%d scenes: %v", len(scenes), err)
	}
	plans, asking := 0, 0
	for _, sc := range scenes {
		steps, needs := sceneGold(t, do, sc.File)
		var direct, searchFirst []goldStep
		searched := map[string]bool{}
		for _, s := range steps {
			if s.name == "ToolSearcher" {
				continue
			}
			direct = append(direct, s)
			if !searched[s.name] {
				searched[s.name] = true
				searchFirst = append(searchFirst, search(s.name))
			}
			searchFirst = append(searchFirst, s)
		}
		if need := 2*len(direct) + 2; DefaultSteps < need {
			t.Errorf("%s: the default step limit %d leaves no room for a search per call (%d)", sc.File, DefaultSteps, need)
		}
		for _, form := range []string{Text, Native} {
			for _, v := range []struct {
				name string
				plan []goldStep
			}{{"gold", steps}, {"no search", direct}, {"search first", searchFirst}} {
				ep := play(t, do, sc.File, form, answers(v.plan, form), replyTo(needs))
				o := ep.Outcome
				plans++
				if !o.Success || o.Milestone != 1 || ep.Stopped != "reply" || len(ep.Calls) != len(v.plan) {
					t.Errorf("%s %s, %s plan: stopped %s after %d of %d calls, outcome %+v", sc.File, form, v.name, ep.Stopped, len(ep.Calls), len(v.plan), o)
				}
			}
			if len(needs) == 0 {
				continue
			}
			asking++
			ep := play(t, do, sc.File, form, answers(steps, form), "All done, I hope that helps.")
			if o := ep.Outcome; o.Success || o.AnswerMet || len(o.Unmet) != len(needs) || !o.StateMatch || o.Milestone != 1 {
				t.Errorf("%s %s: a final answer that says nothing asked judged %+v", sc.File, form, o)
			}
		}
	}
	t.Logf("%d right plans played; %d of %d scenes ask something, and fail with an answer that says nothing", plans, asking/2, len(scenes))
	if asking == 0 {
		t.Error("no scene asks anything: the final answer went untested")
	}
}

// TestTextListRunsEachCall: a text answer with a list of calls [A(..), B(..)] runs each call in
// order, each with its own result line in the next prompt, and the episode goes on to succeed.
func TestTextListRunsEachCall(t *testing.T) {
	do := native()
	file := "scene-household-income-01.json"
	steps, needs := sceneGold(t, do, file)
	if len(steps) != 5 || steps[0].name != "GetOccupationSalary" || steps[1].name != "GetOccupationSalary" {
		t.Fatalf("%s: the test expects two salary lookups first, has %+v", file, steps)
	}
	list := "[" + strings.TrimSuffix(steps[0].text, "]") + ", " + strings.TrimPrefix(steps[1].text, "[") + "]"
	plan := append([]model.Response{{Content: list}}, answers(steps[2:], Text)...)
	chat := &planChat{answers: plan, reply: replyTo(needs)}
	ep, _, fail := playEpisode(context.Background(), &serial{do: do}, chat, Config{Form: Text}.withDefaults(), Task{Level: Level3, File: file, ID: -1})
	if fail != nil || ep.Outcome == nil || !ep.Outcome.Success {
		t.Fatalf("failure %+v, outcome %+v", fail, ep.Outcome)
	}
	if len(ep.Calls) != 5 || ep.Calls[0].Name != "GetOccupationSalary" || ep.Calls[1].Name != "GetOccupationSalary" {
		t.Fatalf("the list ran as %d calls: %+v", len(ep.Calls), ep.Calls)
	}
	// The second request shows each call of the list with its own result.
	second := chat.asked[1].Messages
	last := second[len(second)-1].Content
	if n := strings.Count(last, "API: [GetOccupationSalary("); n != 2 || !strings.Contains(last, "200000") || !strings.Contains(last, "100000") {
		t.Errorf("the results of the list as the model reads them:\n%s", last)
	}
}

// TestCallText: an episode's call as the text prompts write a past call.
func TestCallText(t *testing.T) {
	tests := []struct {
		call protocol.EpisodeCall
		want string
	}{
		{protocol.EpisodeCall{Name: "Calculator", Args: json.RawMessage(`{"formula":"1+1"}`)}, `[Calculator(formula="1+1")]`},
		{protocol.EpisodeCall{Name: "AddMeeting", Args: json.RawMessage(`{"b":2,"a":["x","y"]}`)}, `[AddMeeting(b=2, a=["x","y"])]`},
		{protocol.EpisodeCall{Name: "GetToday", Args: json.RawMessage(`{}`)}, `[GetToday()]`},
		{protocol.EpisodeCall{Name: "X"}, `[X()]`},
	}
	for _, tt := range tests {
		if got := CallText(tt.call); got != tt.want {
			t.Errorf("CallText(%s %s) = %s, want %s", tt.call.Name, tt.call.Args, got, tt.want)
		}
	}
}
