package app

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/protocol"
)

// native is the engine in-process: the same protocol the tab's worker answers.
type native struct{ s *engine.Session }

func (n native) Do(_ context.Context, req []byte) ([]byte, error) { return n.s.Handle(req), nil }

func useNative(t *testing.T) {
	t.Helper()
	Use(native{engine.New()}, NewMemoryStore())
}

// mount loads a component in go-app's test engine and runs its mount work to the end.
func mount(t *testing.T, c app.Composer) string {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(c)
}

func TestPagesRenderWithTheEngine(t *testing.T) {
	useNative(t)
	ds, err := tab.Dialogues()
	if err != nil || len(ds) == 0 {
		t.Fatalf("builtin dialogues: %v (%d)", err, len(ds))
	}
	tests := []struct {
		name string
		page app.Composer
		want []string
	}{
		{"home", &HomePage{}, []string{"Three levels", "dialogues"}},
		{"dataset", &DatasetPage{}, []string{`data-testid="dialogue-row"`, ds[0].File, `data-testid="level-select"`}},
		{"score", &ScorePage{}, []string{`data-testid="bulk-predictions"`, `data-testid="score-button"`, ds[0].File}},
		{"results", &ResultsPage{}, []string{"No results yet"}},
		{"sandbox", &SandboxPage{}, []string{`data-testid="sandbox-input"`, `data-testid="sandbox-run"`, `data-testid="sandbox-reset"`, "Account"}},
		{"classroom", &ClassroomPage{}, []string{`data-testid="classroom-input"`, "Exercise 1 of"}},
		{"import", &ImportPage{}, []string{`data-testid="import-folder"`, "webkitdirectory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html := mount(t, tt.page)
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("%s page lacks %q", tt.name, w)
				}
			}
			if !strings.Contains(html, `data-testid="dataset-select"`) {
				t.Errorf("%s page lacks the dataset select", tt.name)
			}
		})
	}
}

func TestDatasetRowsMatchTheEngine(t *testing.T) {
	useNative(t)
	ds, _ := tab.Dialogues()
	html := mount(t, &DatasetPage{})
	if got := strings.Count(html, `data-testid="dialogue-row"`); got != len(ds) {
		t.Fatalf("%d rows, want one per dialogue (%d)", got, len(ds))
	}
}

func TestFilter(t *testing.T) {
	ds := []protocol.DialogueSummary{
		{Level: "level-1-given-desc", File: "a.jsonl", Tools: []string{"AddAlarm", "GetUserToken"}, First: "Wake me up at six"},
		{Level: "level-1-given-desc", File: "b.jsonl", Tools: []string{"QueryStock"}, Special: "no_tool", First: "Buy me a boat"},
		{Level: "level-2-toolsearcher", File: "c.jsonl", Tools: []string{"ToolSearcher", "AddAlarm"}, First: "An alarm please"},
	}
	tests := []struct {
		name string
		f    Filter
		want []string
	}{
		{"all", Filter{}, []string{"a.jsonl", "b.jsonl", "c.jsonl"}},
		{"level", Filter{Level: "level-2-toolsearcher"}, []string{"c.jsonl"}},
		{"tool", Filter{Tool: "AddAlarm"}, []string{"a.jsonl", "c.jsonl"}},
		{"special", Filter{Special: "no_tool"}, []string{"b.jsonl"}},
		{"ordinary", Filter{Special: "none"}, []string{"a.jsonl", "c.jsonl"}},
		{"text, any case", Filter{Text: "ALARM"}, []string{"a.jsonl", "c.jsonl"}},
		{"text in the first request", Filter{Text: "boat"}, []string{"b.jsonl"}},
		{"nothing", Filter{Level: "level-1-given-desc", Tool: "ToolSearcher"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range tt.f.Apply(ds) {
				got = append(got, d.File)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBatchViewShowsVerdictsAndLineErrors(t *testing.T) {
	gold, line := firstDialogueLines(t)
	preds := strings.Join([]string{
		line(0, gold),
		"{broken",
		line(0, "no call here"),
		line(1, "Done."),
	}, "\n")
	b, err := tab.Score(preds, "", "")
	if err != nil {
		t.Fatal(err)
	}
	sb := &SavedBatch{Format: batchFormat, Data: "builtin", Batch: b, Preds: predsByLine(preds)}
	html := app.HTMLString(batchView(sb, 1, &Compares{}, nil, nil))
	html = regexp.MustCompile(`>\s+`).ReplaceAllString(html, ">")
	tests := []struct {
		what  string
		attrs []string
		text  string
	}{
		{"a correct call", []string{`data-category="CORRECT"`}, ""},
		{"a missing call", []string{`data-category="NO_API_CALL"`}, ""},
		{"a reply", []string{`data-category="REPLY"`}, ""},
		{"the bad line", []string{`data-testid="line-error"`, `data-line="2"`}, ""},
		{"the accuracy", []string{`data-testid="accuracy"`}, "50.0%"},
	}
	for _, tt := range tests {
		if !hasElem(html, tt.text, tt.attrs...) {
			t.Errorf("%s: the view lacks an element with %v and text %q", tt.what, tt.attrs, tt.text)
		}
	}
	if n := strings.Count(html, `data-testid="verdict-row"`); n != 3 {
		t.Errorf("%d verdict rows, want 3", n)
	}
}

func TestMarkupInDataIsText(t *testing.T) {
	evil := `<img src=x onerror=alert(1)>`
	html := app.HTMLString(app.Div().Body(
		(&DatasetPage{}).Render(),
		BarChart("Chart", []Bar{{Label: evil, Value: 1, Text: evil}}, 0),
		app.P().Text(evil),
	))
	if strings.Contains(html, "<img") {
		t.Fatalf("markup from data became an element:\n%s", html)
	}
	if !strings.Contains(html, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Fatalf("the text is not shown escaped")
	}
}

func TestHints(t *testing.T) {
	for _, c := range []string{"CORRECT", "NO_API_CALL", "FAILED_PARSE_API_CALL", "API_NAME_MISMATCH", "INVALID_INPUT_PARAMETER",
		"MISS_INPUT_ARGUMENT", "KEY_ERROR", "HAS_EXCEPTION", "OUTPUT_MISMATCH", "INPUT_MISMATCH", "INVALID_PARAMETER_TYPE",
		"TOOL_ERROR", "CHECK_ERROR", "INCORRECT", "PREMATURE_CALL"} {
		if h := Hint(c); h == "" || strings.Contains(h, c) {
			t.Errorf("category %s has no hint of its own: %q", c, h)
		}
	}
	if h := Hint("SOMETHING_NEW"); !strings.Contains(h, "SOMETHING_NEW") {
		t.Errorf("an unknown category is named in its hint: %q", h)
	}
}

func TestResultsFiles(t *testing.T) {
	sb := &SavedBatch{Format: batchFormat, Data: "builtin", Batch: protocol.Batch{Results: []protocol.Verdict{
		{Line: 1, Level: "level-1-given-desc", File: "a.jsonl", ID: 0, Kind: "call", CallVerdict: &protocol.CallVerdict{Category: "CORRECT", Correct: true, Tool: "AddAlarm"}},
		{Line: 2, Level: "level-1-given-desc", File: "a.jsonl", ID: 1, Kind: "reply", ReplyVerdict: &protocol.ReplyVerdict{RougeL: 0.5}},
	}}}
	csv := string(ResultsCSV(sb))
	for _, want := range []string{"line,level,file,id,kind,category", "1,level-1-given-desc,a.jsonl,0,call,CORRECT,true,AddAlarm", "2,level-1-given-desc,a.jsonl,1,reply,,,,,,0.5000"} {
		if !strings.Contains(csv, want) {
			t.Errorf("CSV lacks %q:\n%s", want, csv)
		}
	}
	exported, _ := json.Marshal(sb)
	back, err := ParseSavedBatch(exported)
	if err != nil || len(back.Batch.Results) != 2 {
		t.Fatalf("a saved file does not read back: %v", err)
	}
	tests := []struct{ in, want string }{
		{"{\n\"format\": \n", "line 3"},
		{`{"format": "something else"}`, "not a result file of this playground"},
		{`[1, 2]`, "not a result file"},
	}
	for _, tt := range tests {
		if _, err := ParseSavedBatch([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one saying %q", tt.in, err, tt.want)
		}
	}
}

func TestStoreGuard(t *testing.T) {
	s := NewBrowserStore(newMemStorage(), 100, nil)
	if err := s.Set("a", strings.Repeat("x", 40)); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("b", strings.Repeat("y", 80)); err == nil || !strings.Contains(err.Error(), "budget") {
		t.Fatalf("a write over the budget: %v, want an error naming the budget", err)
	}
	if err := s.Set("a", strings.Repeat("z", 60)); err != nil {
		t.Fatalf("replacing a key counts its new size only: %v", err)
	}
	var got string
	_ = s.Get("a", &got)
	if len(got) != 60 {
		t.Fatalf("got %d bytes back", len(got))
	}
	cleared := false
	s = NewBrowserStore(newMemStorage(), 100, func() { cleared = true })
	_ = s.Set("a", 1)
	s.Clear()
	if s.Used() != 0 || !cleared {
		t.Fatalf("Clear left %d bytes, hook ran: %v", s.Used(), cleared)
	}
}

func TestExamplesComeFromTheWorld(t *testing.T) {
	useNative(t)
	w, err := tab.World()
	if err != nil {
		t.Fatal(err)
	}
	ex := Examples(newWorld(w))
	if len(ex) == 0 {
		t.Fatal("no examples from the builtin world")
	}
	r, err := tab.Call(ex[0], "apis")
	if err != nil || r.Error != "" || exception(r.Result) != "" {
		t.Fatalf("the first example does not run cleanly: %v %s %s", err, r.Error, r.Result)
	}
}

func TestOrderedObjectKeepsOrder(t *testing.T) {
	var o OrderedObject
	if err := json.Unmarshal([]byte(`{"b": 1, "a": {"x": [1]}, "c": null}`), &o); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range o {
		keys = append(keys, f.Key)
	}
	if strings.Join(keys, "") != "bac" {
		t.Fatalf("keys %v", keys)
	}
	if v, _ := o.Get("a"); string(v) != `{"x": [1]}` {
		t.Fatalf("a = %s", v)
	}
}

// hasElem reports whether html has an element carrying every attribute (in any order: go-app writes
// them in map order) whose text starts with text.
func hasElem(html, text string, attrs ...string) bool {
	for _, m := range regexp.MustCompile(`<[a-z0-9]+( [^>]*)?>([^<]*)`).FindAllStringSubmatch(html, -1) {
		all := true
		for _, a := range attrs {
			all = all && strings.Contains(m[1], a)
		}
		if all && strings.HasPrefix(strings.TrimSpace(m[2]), text) {
			return true
		}
	}
	return false
}

// firstDialogueLines uses the native engine and returns the gold call (native form) of the first
// sample of the first dialogue, and a maker of prediction lines for that dialogue's samples.
func firstDialogueLines(t *testing.T) (gold string, line func(id int, pred string) string) {
	t.Helper()
	useNative(t)
	ds, _ := tab.Dialogues()
	d, err := tab.Dialogue(ds[0].Level, ds[0].File)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := tab.Prompt(d.Level, d.File, 0)
	if err != nil || pr.GoldNative == "" {
		t.Fatalf("the first sample's gold call: %v", err)
	}
	return pr.GoldNative, func(id int, pred string) string {
		b, _ := json.Marshal(map[string]any{"level": d.Level, "file": d.File, "id": id, "pred": pred})
		return string(b)
	}
}
