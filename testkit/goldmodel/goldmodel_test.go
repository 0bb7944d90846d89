package goldmodel

import (
	"encoding/json"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

func builtin(t *testing.T) *dataset.Data {
	t.Helper()
	d, err := dataset.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// requests are a prompt's requests as a run sends them: the text form's one user message, and the
// native form's messages with the tools offered.
func requests(t *testing.T, p score.Prompt) (text, native *fakemodel.ChatRequest) {
	t.Helper()
	content := p.Text
	text = &fakemodel.ChatRequest{Messages: []fakemodel.ChatMessage{{Role: "user", Content: &content}}}
	native = &fakemodel.ChatRequest{Tools: p.Tools}
	if err := json.Unmarshal(p.Messages, &native.Messages); err != nil {
		t.Fatal(err)
	}
	return text, native
}

// TestAnswersEverySample: every sample's request, in either form, is recognised and answered with the
// gold the engine shows: the text form's content is the prompt's Gold, the native form's calls are
// GoldNative's (a set as several calls), a reply is the same text in both forms.
func TestAnswersEverySample(t *testing.T) {
	m, err := New(builtin(t), false)
	if err != nil {
		t.Fatal(err)
	}
	ix := score.NewIndex(builtin(t))
	sets := 0
	for _, sm := range ix.All() {
		if sm.Kind == score.KindSkip {
			continue
		}
		p := score.BuildPrompt(sm)
		text, native := requests(t, p)
		r, fault, kind, ok := m.Answer(text)
		if !ok || fault != nil || kind != "gold" || r.Content != p.Gold || len(r.ToolCalls) != 0 {
			t.Fatalf("%s #%d text: answered %v %q %+v, want the gold %q", sm.Dialogue.File, sm.ID, ok, kind, r, p.Gold)
		}
		r, _, _, ok = m.Answer(native)
		if !ok {
			t.Fatalf("%s #%d native: not recognised", sm.Dialogue.File, sm.ID)
		}
		if p.Expect != score.KindCall {
			if r.Content != p.Gold || len(r.ToolCalls) != 0 {
				t.Errorf("%s #%d native reply: %+v, want %q", sm.Dialogue.File, sm.ID, r, p.Gold)
			}
			continue
		}
		want, err := nativeCalls(p.GoldNative)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.ToolCalls) != len(want) || r.Content != "" {
			t.Errorf("%s #%d native: %d calls, want %d", sm.Dialogue.File, sm.ID, len(r.ToolCalls), len(want))
		}
		if len(want) > 1 {
			sets++
		}
	}
	if sets == 0 {
		t.Error("no gold call set answered as several tool_calls: the builtin data has parallel calls")
	}
}

// TestEpisodeSteps: an episode's request is recognised by its opening and answered step by step; past
// the last gold call the model says it is done.
func TestEpisodeSteps(t *testing.T) {
	m, err := New(builtin(t), false)
	if err != nil {
		t.Fatal(err)
	}
	d := score.NewIndex(builtin(t)).Scenes()[0]
	samples := score.SceneSamples(d)
	text, _ := requests(t, score.BuildPrompt(samples[0]))
	for step := range len(samples) + 1 {
		r, _, _, ok := m.Answer(text)
		if !ok {
			t.Fatalf("step %d not recognised", step)
		}
		want := Done
		if r := score.GoldReply(d); r != "" {
			want += " " + r // the closing message says what the scene's answer needs
		}
		if step < len(samples) {
			want = score.BuildPrompt(samples[step]).Gold
		}
		if r.Content != want {
			t.Fatalf("step %d: %q, want %q", step, r.Content, want)
		}
		result := "Response: ok"
		text.Messages = append(text.Messages, fakemodel.ChatMessage{Role: "assistant", Content: &r.Content}, fakemodel.ChatMessage{Role: "user", Content: &result})
	}
	other := "a request no sample makes"
	if _, _, _, ok := m.Answer(&fakemodel.ChatRequest{Messages: []fakemodel.ChatMessage{{Role: "user", Content: &other}}}); ok {
		t.Error("an unknown request was recognised")
	}
}

// TestAdversarialBehaviours: the adversarial model gives each behaviour to some sample, and none of
// its answers is the gold.
func TestAdversarialBehaviours(t *testing.T) {
	m, err := New(builtin(t), true)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, sm := range score.NewIndex(builtin(t)).All()[:50] {
		if sm.Kind == score.KindSkip {
			continue
		}
		p := score.BuildPrompt(sm)
		_, native := requests(t, p)
		r, fault, kind, ok := m.Answer(native)
		if !ok {
			t.Fatal("not recognised")
		}
		seen[kind]++
		if (kind == Endless || kind == Huge) != (fault != nil) {
			t.Errorf("%s: fault %+v", kind, fault)
		}
		if kind == InvalidJSON && len(r.ToolCalls) == 1 {
			var s string
			if json.Unmarshal(r.ToolCalls[0].Arguments, &s) != nil || json.Valid([]byte(s)) {
				t.Errorf("invalid-json sent valid arguments %s", r.ToolCalls[0].Arguments)
			}
		}
	}
	for _, b := range Behaviours {
		if seen[b] == 0 {
			t.Errorf("behaviour %s given to no sample: %v", b, seen)
		}
	}
}
