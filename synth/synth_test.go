package synth

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/internal/zipfile"
	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// inProcess is a transport to a fresh engine session in this process.
func inProcess() protocol.Transport {
	s := engine.New()
	return func(_ context.Context, req []byte) ([]byte, error) { return s.Handle(req), nil }
}

// expected says, for each kind the fake's generator serves, the stage it must fail ("" for
// accepted) and a piece of the reason, in a style; a special case has no call to break, so the kinds
// that break one give it a call, rejected at format.
func expected(style, kind string) (stage, reason string) {
	special := slices.Contains(protocol.Specials, style)
	switch kind {
	case fakemodel.KindOK, fakemodel.KindChain:
		return "", ""
	case fakemodel.KindBadJSON:
		return protocol.StageFormat, "JSON"
	case fakemodel.KindDuplicate:
		return protocol.StageDuplicate, "request repeats a candidate accepted before"
	case fakemodel.KindJudgeNo:
		return protocol.StageJudge, "does not answer a request for a joke"
	}
	if special {
		return protocol.StageFormat, "answers with a reply, not calls"
	}
	switch kind {
	case fakemodel.KindUnknownTool:
		return protocol.StageFormat, "Pro in the apis catalog"
	case fakemodel.KindMissingArgument:
		return protocol.StageFormat, "lacks the required parameter"
	case fakemodel.KindWrongType:
		return protocol.StageFormat, "is declared str"
	case fakemodel.KindException:
		return protocol.StageExecution, "answered the exception"
	case fakemodel.KindUngrounded:
		return protocol.StageGrounding, "is not found earlier in the dialogue"
	}
	return "?", "?"
}

func startFake(t *testing.T, g *fakemodel.Generator) *model.Client {
	t.Helper()
	srv, err := fakemodel.Start(fakemodel.Script{Generator: g})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return model.New(model.Settings{BaseURL: srv.URL(), Model: "fake-model", Retries: -1})
}

// TestRunFunnel runs candidates of every style against the fake generator and checks every
// candidate's stage and reason, and the funnel's counts, against what each kind must do; the
// accepted dialogues must make a dataset that validates, replays and counts in its style.
func TestRunFunnel(t *testing.T) {
	g := &fakemodel.Generator{}
	client := startFake(t, g)
	for _, style := range append(slices.Clone(protocol.Styles), protocol.Specials...) {
		n := 20
		if style == protocol.StyleSimple {
			n = 50
		}
		t.Run(style, func(t *testing.T) { checkFunnel(t, g, client, style, n) })
	}
}

func checkFunnel(t *testing.T, g *fakemodel.Generator, client *model.Client, style string, n int) {
	do := inProcess()
	var progress []Progress
	o, err := Run(context.Background(), do, client, Config{Style: style, Count: n}, Options{Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Candidates) != n || len(progress) != n || progress[n-1].Done != n {
		t.Fatalf("%d candidates, %d progress reports; want %d", len(o.Candidates), len(progress), n)
	}
	failed := map[string]int{}
	accepted := 0
	for _, c := range o.Candidates {
		stage, reason := expected(style, g.Kind(c.Index))
		if c.Stage != stage || !strings.Contains(c.Reason, reason) || c.Accepted != (stage == "") {
			t.Errorf("candidate %d (%s): stage %q reason %q accepted %v; want stage %q reason containing %q", c.Index, g.Kind(c.Index), c.Stage, c.Reason, c.Accepted, stage, reason)
		}
		if stage == "" {
			accepted++
		} else {
			failed[stage]++
		}
	}
	f := o.Funnel
	if f.Requested != n || f.Answered != n || f.RequestsFailed != 0 || f.Accepted != accepted || len(f.Rejections) != n-accepted {
		t.Fatalf("funnel %+v; want %d answered, %d accepted", f, n, accepted)
	}
	entered := n
	for _, s := range f.Stages {
		if s.Entered != entered || s.Failed != failed[s.Stage] || s.Passed != entered-failed[s.Stage] {
			t.Errorf("stage %s: entered %d passed %d failed %d; want entered %d failed %d", s.Stage, s.Entered, s.Passed, s.Failed, entered, failed[s.Stage])
		}
		entered -= failed[s.Stage]
	}
	if entered != accepted {
		t.Errorf("%d left after the last stage, %d accepted", entered, accepted)
	}
	var text bytes.Buffer
	f.Write(&text)
	if !strings.Contains(text.String(), fmt.Sprintf("accepted %d of %d", accepted, n)) {
		t.Errorf("funnel text lacks the accepted line:\n%s", text.String())
	}

	// The accepted dialogues make a dataset that loads, validates and replays on its own.
	files, err := Dataset(context.Background(), do, o)
	if err != nil {
		t.Fatal(err)
	}
	fresh := inProcess()
	loaded, err := protocol.Call[protocol.Loaded](context.Background(), fresh, protocol.Request{Op: protocol.OpLoad, Name: "synth", Files: files})
	if err != nil || len(loaded.Errors) > 0 || loaded.Dialogues["level-1-given-desc"] != accepted {
		t.Fatalf("the dataset loads as %+v, %v; want %d dialogues without errors", loaded, err, accepted)
	}
	v, err := protocol.Call[protocol.Validation](context.Background(), fresh, protocol.Request{Op: protocol.OpValidate})
	if err != nil || len(v.Failures) > 0 {
		t.Fatalf("the dataset does not validate: %+v %v", v.Failures, err)
	}
	stats, err := protocol.Call[protocol.Stats](context.Background(), fresh, protocol.Request{Op: protocol.OpStats})
	if err != nil {
		t.Fatal(err)
	}
	if special := slices.Contains(protocol.Specials, style); special && stats.Specials[style] != accepted || !special && stats.Styles[style] < accepted {
		t.Errorf("dataset stats count %v styles and %v specials; want %d of %s", stats.Styles, stats.Specials, accepted, style)
	}
	rp, err := protocol.Call[protocol.Replay](context.Background(), fresh, protocol.Request{Op: protocol.OpReplay})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range rp.Levels {
		if l.Accepted != l.Total {
			t.Errorf("replay of %s: %d of %d accepted", l.Level, l.Accepted, l.Total)
		}
	}

	// The zip holds the same files; the training JSONL a conversation per accepted dialogue.
	z, err := Zip("synth", files, zipfile.Deflate)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil || len(zr.File) != len(files) {
		t.Fatalf("zip of %d files has %d entries (%v)", len(files), len(zr.File), err)
	}
	train, err := Training(context.Background(), do, o)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(train)), "\n")
	if len(lines) != accepted {
		t.Fatalf("%d training lines for %d accepted", len(lines), accepted)
	}
	for i, line := range lines {
		var conv struct {
			Messages []struct {
				Role      string  `json:"role"`
				Content   *string `json:"content"`
				ToolCalls []struct {
					Type     string `json:"type"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
				ToolCallID string `json:"tool_call_id"`
			} `json:"messages"`
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal([]byte(line), &conv); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		c := o.Accepted()[i].Check.Candidate
		ms := conv.Messages
		if ms[0].Role != "user" || *ms[0].Content != c.Request || *ms[len(ms)-1].Content != c.Reply || len(conv.Tools) == 0 {
			t.Fatalf("line %d does not hold the request, the reply and the tools: %s", i+1, line)
		}
		calls := 0
		for _, m := range ms {
			for _, tc := range m.ToolCalls {
				calls++
				if tc.Type != "function" || !json.Valid([]byte(tc.Function.Arguments)) {
					t.Fatalf("line %d: a tool call not in OpenAI form: %s", i+1, line)
				}
			}
		}
		if want := len(c.Steps); calls < want {
			t.Fatalf("line %d: %d tool calls for %d steps", i+1, calls, want)
		}
	}
}

// TestPrompt checks the prompt names the style's rule, offers the chosen tools (with GetUserToken
// for a tool taking a token) and carries seeds that use only them.
func TestPrompt(t *testing.T) {
	do := inProcess()
	tests := []struct {
		name  string
		cfg   Config
		tools []string
		rule  string
	}{
		{"any tool", Config{Style: protocol.StyleSimple, Count: 1}, nil, "Style simple"},
		{"chosen tools", Config{Style: protocol.StyleMultiple, Count: 1, Tools: []string{"AddAlarm", "Calculator"}, Seeds: 3}, []string{"AddAlarm", "Calculator", "GetUserToken"}, "Style multiple"},
		{"special case", Config{Style: "missing_value", Count: 1}, nil, "Special case missing_value"},
		{"no seeds", Config{Style: protocol.StyleParallel, Count: 1, Seeds: -1}, nil, "Style parallel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := BuildPrompt(context.Background(), do, tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(p.System, tt.rule) || !strings.Contains(p.Text(5), "Candidate 1 of 5.") {
				t.Errorf("prompt lacks %q or the candidate marker:\n%s", tt.rule, p.Text(5))
			}
			if tt.tools != nil && strings.Join(p.Tools, ",") != strings.Join(tt.tools, ",") {
				t.Errorf("offered %v; want %v", p.Tools, tt.tools)
			}
			want := tt.cfg.Seeds
			if want == 0 {
				want = DefaultSeeds
			}
			if want < 0 {
				want = 0
			}
			if tt.cfg.Tools != nil {
				// Seeds are the dialogues that use only the offered tools: as many as there are, up
				// to the number asked.
				want = min(want, len(fitting(t, do, tt.tools)))
			}
			if len(p.Seeds) != want || strings.Count(p.System, `{"request":`) != want+1 {
				t.Errorf("%d seeds (%v); want %d", len(p.Seeds), p.Seeds, want)
			}
		})
	}
	if _, err := BuildPrompt(context.Background(), do, Config{Style: protocol.StyleSimple, Count: 1, Tools: []string{"Nope"}}); err == nil {
		t.Error("an unknown tool makes a prompt")
	}
}

// fitting lists the level-1 ordinary dialogues whose calls use only the given tools.
func fitting(t *testing.T, do protocol.Transport, tools []string) []string {
	t.Helper()
	list, err := protocol.Call[[]protocol.DialogueSummary](context.Background(), do, protocol.Request{Op: protocol.OpDialogues, Level: "level-1-given-desc"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range list {
		ok := d.Special == "" && d.Calls > 0
		for _, tool := range d.Tools {
			ok = ok && slices.Contains(tools, tool)
		}
		if ok {
			out = append(out, d.File)
		}
	}
	return out
}

func TestReadVerdict(t *testing.T) {
	for _, tt := range []struct {
		text   string
		ok     bool
		reason string
	}{
		{`{"verdict": "yes", "reason": "fine"}`, true, "fine"},
		{"```json\n{\"verdict\": \"No\", \"reason\": \"wrong tool\"}\n```", false, "wrong tool"},
		{`{"verdict": "no"}`, false, "without a reason"},
		{`{"verdict": "maybe", "reason": "?"}`, false, "neither yes nor no"},
		{`I think it is fine.`, false, "not a verdict"},
	} {
		v := ReadVerdict(tt.text)
		if v.OK != tt.ok || !strings.Contains(v.Reason, tt.reason) || v.Raw != tt.text {
			t.Errorf("ReadVerdict(%q) = %+v; want ok %v reason containing %q", tt.text, v, tt.ok, tt.reason)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{Style: protocol.StyleSimple, Count: 3}, ""},
		{Config{Style: "wrong_value", Count: 3}, ""},
		{Config{Style: "fancy", Count: 3}, `style "fancy"`},
		{Config{Style: protocol.StyleSimple, Count: 0}, "count must be"},
		{Config{Style: protocol.StyleSimple, Count: 1, Seeds: 99}, "seeds must be"},
	} {
		err := tt.cfg.Validate()
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v; want %q", tt.cfg, err, tt.want)
		}
	}
}

// TestRequestFailure: a model that fails every request leaves failed requests in the funnel and
// nothing accepted.
func TestRequestFailure(t *testing.T) {
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{{Fault: &fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 400, Message: "no such model"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client := model.New(model.Settings{BaseURL: srv.URL(), Model: "m", Retries: -1})
	o, err := Run(context.Background(), inProcess(), client, Config{Style: protocol.StyleSimple, Count: 3}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Funnel.RequestsFailed != 3 || o.Funnel.Accepted != 0 || o.Funnel.Answered != 0 || !strings.Contains(o.Funnel.Rejections[0].Reason, "no such model") {
		t.Fatalf("funnel %+v", o.Funnel)
	}
}

// TestCancel: a cancelled run ends with what was decided.
func TestCancel(t *testing.T) {
	client := startFake(t, &fakemodel.Generator{})
	ctx, cancel := context.WithCancel(context.Background())
	o, err := Run(ctx, inProcess(), client, Config{Style: protocol.StyleSimple, Count: 20}, Options{Progress: func(p Progress) {
		if p.Done == 3 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Cancelled || len(o.Candidates) != 3 {
		t.Fatalf("cancelled %v with %d candidates; want 3", o.Cancelled, len(o.Candidates))
	}
}
