package app

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/tools"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/JUDGING.md from the How we judge page")

// judgingDoc is where the page's content is kept as Markdown, for readers of the repository.
const judgingDoc = "../docs/JUDGING.md"

func TestJudgingPageRenders(t *testing.T) {
	useNative(t)
	html := mount(t, &JudgingPage{})
	want := []string{
		"How we judge", stated, judgingOriginal,
		`data-testid="footer-judging"`,
	}
	for _, s := range judgingSections {
		want = append(want, `id="`+s.ID+`"`, s.Title)
	}
	for _, v := range judgingVerdicts {
		want = append(want, `data-category="`+v.Category+`"`, v.Meaning)
	}
	for _, w := range want {
		if !strings.Contains(html, escapeHTML(w)) && !strings.Contains(html, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	if n := strings.Count(html, `data-testid="judging-example"`); n < 10 {
		t.Errorf("%d examples, want one or more for each kind of sample", n)
	}
	if strings.Count(html, `data-answer="right"`) == 0 || strings.Count(html, `data-answer="wrong"`) == 0 {
		t.Error("the examples lack a right or a wrong answer")
	}
}

// TestResultsLinkToJudging checks that the Results page's verdicts link to How we judge.
func TestResultsLinkToJudging(t *testing.T) {
	r := protocol.Report{State: "replay", Overall: protocol.Tally{Calls: 2, Correct: 1, Special: 2, SpecialCorrect: 1},
		Categories:        []protocol.Count{{Category: "CORRECT", Count: 1}, {Category: "INPUT_MISMATCH", Count: 1}},
		SpecialCategories: []protocol.Count{{Category: "CORRECT", Count: 1}, {Category: "MISSED_NEED", Count: 1}}}
	html := app.HTMLString(reportView(&SavedBatch{Format: batchFormat, Data: "builtin", Batch: protocol.Batch{Report: &r}}, false))
	for _, w := range []string{`href="/judging#verdicts"`, `href="/judging#special"`, `data-category="MISSED_NEED"`} {
		if !strings.Contains(html, w) {
			t.Errorf("the results lack %q", w)
		}
	}
}

// escapeHTML writes s as go-app writes text.
func escapeHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestJudgingPageCoversEveryKind checks that each kind of sample has its section with a right and a
// wrong answer, and each special-case kind its own section.
func TestJudgingPageCoversEveryKind(t *testing.T) {
	ids := []string{"date", "call", "set", "reply", "special", "step", "episode"}
	ids = append(ids, protocol.Specials...)
	for _, id := range ids {
		i := slices.IndexFunc(judgingSections, func(s judgingSection) bool { return s.ID == id })
		if i < 0 {
			t.Errorf("no section %q", id)
			continue
		}
		s := judgingSections[i]
		if id == "date" || id == "special" {
			continue
		}
		var right, wrong bool
		for _, e := range s.Examples {
			for _, a := range e.Answers {
				right, wrong = right || a.Right, wrong || !a.Right
			}
		}
		if !right || !wrong {
			t.Errorf("section %q: a right answer %v, a wrong one %v; want both", id, right, wrong)
		}
	}
}

// TestJudgingVerdictsAreTheEngines holds the page's verdict list to the engine's categories, in
// report order.
func TestJudgingVerdictsAreTheEngines(t *testing.T) {
	var got []string
	for _, v := range judgingVerdicts {
		got = append(got, v.Category)
		if v.Meaning == "" {
			t.Errorf("%s has no meaning", v.Category)
		}
	}
	if !slices.Equal(got, score.Categories) {
		t.Errorf("the page lists %v\nthe engine's categories are %v", got, score.Categories)
	}
}

// TestKindRulesAreTheEngines holds the Sample page's words for each special-case kind to the rule
// the engine judges by.
func TestKindRulesAreTheEngines(t *testing.T) {
	for _, k := range protocol.Specials {
		n, ok := score.KindNeed(k)
		if !ok {
			t.Errorf("the engine has no rule for %s", k)
			continue
		}
		if kindRules[k] != n.What {
			t.Errorf("%s: the page says %q, the engine %q", k, kindRules[k], n.What)
		}
	}
	if len(kindRules) != len(protocol.Specials) {
		t.Errorf("%d kind rules for %d kinds", len(kindRules), len(protocol.Specials))
	}
}

// TestStatedDateIsThePrompts checks the date the page quotes against the world's and a builtin
// prompt.
func TestStatedDateIsThePrompts(t *testing.T) {
	useNative(t)
	if want := "Today is " + tools.TodayInWords + " (" + tools.Today + ")."; stated != want {
		t.Errorf("the page states %q, the world %q", stated, want)
	}
	pr, err := tab.Prompt("level-1-given-desc", "acct-alarm-add-40.jsonl", 2)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pr.Text, stated) {
		t.Errorf("the prompt does not state %q:\n%.400s", stated, pr.Text)
	}
}

// TestJudgingExamplesAreTheEngines judges every answer of every example taken from the builtin
// data again in the engine: the page shows the verdicts a model gets.
func TestJudgingExamplesAreTheEngines(t *testing.T) {
	useNative(t)
	for _, s := range judgingSections {
		for _, e := range s.Examples {
			if e.File == "" {
				continue
			}
			if e.Episode {
				judgeEpisodes(t, s.ID, e)
				continue
			}
			var lines []string
			for _, a := range e.Answers {
				b, _ := json.Marshal(map[string]any{"level": e.Level, "file": e.File, "id": e.ID, "pred": a.Text})
				lines = append(lines, string(b))
			}
			b, err := tab.Score(strings.Join(lines, "\n"), "", "")
			if err != nil {
				t.Fatalf("%s: %v", e.File, err)
			}
			if len(b.Errors) > 0 || len(b.Results) != len(e.Answers) {
				t.Fatalf("%s #%d: %d verdicts for %d answers, errors %v", e.File, e.ID, len(b.Results), len(e.Answers), b.Errors)
			}
			for i, v := range b.Results {
				a := e.Answers[i]
				got := v.Call().Category
				right := v.Call().Correct
				if r, ok := v.Reply(); ok {
					got = "ROUGE-L " + strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", r.RougeL), "0"), ".")
					right = r.RougeL > 0.5
				}
				if got != a.Verdict || right != a.Right {
					t.Errorf("%s (%s #%d) %q: the engine says %s (right %v), the page %s (right %v)", s.ID, e.File, e.ID, a.Text, got, right, a.Verdict, a.Right)
				}
			}
		}
	}
}

// judgeEpisodes plays each answer of an episode example in the engine and compares the outcome
// with the page's.
func judgeEpisodes(t *testing.T, section string, e judgingExample) {
	t.Helper()
	for _, a := range e.Answers {
		st, err := call[protocol.EpisodeStarted](tab.Engine, protocol.Request{Op: protocol.OpEpisodeStart, File: e.File})
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		text, _ := json.Marshal(a.Text)
		if _, err := call[[]protocol.EpisodeCall](tab.Engine, protocol.Request{Op: protocol.OpEpisodeCalls, Episode: st.Episode, Call: text}); err != nil {
			t.Fatalf("%s %q: %v", e.File, a.Text, err)
		}
		out, err := call[protocol.Outcome](tab.Engine, protocol.Request{Op: protocol.OpEpisodeFinish, Episode: st.Episode, Reply: a.Reply})
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		got := fmt.Sprintf("success, milestones %d/%d", out.Matched, out.Gold)
		if !out.Success {
			got = "no " + got
		}
		if got != a.Verdict || out.Success != a.Right {
			t.Errorf("%s (%s) %q: the engine says %s, the page %s", section, e.File, a.Text, got, a.Verdict)
		}
	}
}

func TestJudgingPageShowsDataAsText(t *testing.T) {
	evil := `<img src=x onerror=alert(1)>`
	html := app.HTMLString(app.Div().Body(
		judgingSectionView(&judgingSection{ID: "x", Title: evil, Text: []string{evil}, List: []string{evil}, Quote: evil,
			Examples: []judgingExample{{Level: "level-1-given-desc", File: evil, Context: evil, Answers: []judgedAnswer{{Text: evil, Verdict: evil, Why: evil}}}}}),
	))
	if strings.Contains(html, "<img") {
		t.Fatalf("markup became an element:\n%s", html)
	}
}

// TestJudgingDoc holds docs/JUDGING.md to the page: go test ./app -run TestJudgingDoc -update
// writes it again.
func TestJudgingDoc(t *testing.T) {
	md := judgingMarkdown()
	if *updateDocs {
		if err := os.WriteFile(judgingDoc, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(judgingDoc)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != md {
		t.Errorf("%s is not the How we judge page's content: run go test ./app -run TestJudgingDoc -update", judgingDoc)
	}
}

// judgingMarkdown writes the page's content as Markdown.
func judgingMarkdown() string {
	var b strings.Builder
	b.WriteString("# How we judge\n\n")
	b.WriteString("<!-- Written by `go test ./app -run TestJudgingDoc -update` from app/judgingpage.go, which the playground shows at /judging: edit it there. -->\n\n")
	for _, p := range judgingIntro {
		b.WriteString(p + "\n\n")
	}
	for _, s := range judgingSections {
		head := "## "
		if s.Sub {
			head = "### "
		}
		b.WriteString(head + s.Title + "\n\n")
		for _, p := range s.Text {
			b.WriteString(p + "\n\n")
		}
		if s.Quote != "" {
			b.WriteString("    " + s.Quote + "\n\n")
		}
		for _, l := range s.List {
			b.WriteString("- " + l + "\n")
		}
		if len(s.List) > 0 {
			b.WriteString("\n")
		}
		if s.ID == "verdicts" {
			for _, v := range judgingVerdicts {
				b.WriteString("- `" + v.Category + "`: " + v.Meaning + "\n")
			}
			b.WriteString("\n")
		}
		for _, e := range s.Examples {
			if e.Episode {
				fmt.Fprintf(&b, "**Example** (`%s`, played live). %s\n\n", e.File, e.Context)
			} else if e.File != "" {
				fmt.Fprintf(&b, "**Example** (`%s`, %s, sample %d). %s\n\n", e.File, e.Level, e.ID, e.Context)
			} else {
				b.WriteString("**Example.** " + e.Context + "\n\n")
			}
			for _, a := range e.Answers {
				label := "Wrong"
				if a.Right {
					label = "Right"
				}
				text := codeSpan(a.Text)
				if a.Reply != "" {
					text += ", answer \"" + a.Reply + "\""
				}
				fmt.Fprintf(&b, "- %s: %s → %s, %s\n", label, text, a.Verdict, a.Why)
			}
			b.WriteString("\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// codeSpan writes s as a Markdown code span.
func codeSpan(s string) string {
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}
