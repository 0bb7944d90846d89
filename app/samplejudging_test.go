package app

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// flat renders ui as HTML without the indentation go-app writes between elements.
func flat(ui app.UI) string {
	return regexp.MustCompile(`>\s+`).ReplaceAllString(app.HTMLString(ui), ">")
}

func TestAuditBadge(t *testing.T) {
	tests := []struct {
		name string
		meta *protocol.Meta
		want []string
		not  []string
	}{
		{"none", nil, nil, []string{"audit-badge"}},
		{"no audit", &protocol.Meta{Special: "no_tool"}, nil, []string{"audit-badge"}},
		{"verified", &protocol.Meta{Audit: &protocol.Audit{Status: protocol.AuditVerified}},
			[]string{`data-status="verified"`, "badge badge-ready", ">verified<"}, []string{"fixed"}},
		{"fixed", &protocol.Meta{Audit: &protocol.Audit{Status: protocol.AuditFixed, Note: "needs added"}},
			[]string{`data-status="fixed"`, ">fixed<", "needs added"}, []string{"badge-ready"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html := flat(app.Div().Body(auditBadge(tt.meta)))
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("lacks %q:\n%s", w, html)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(html, w) {
					t.Errorf("has %q:\n%s", w, html)
				}
			}
		})
	}
}

func TestSampleJudging(t *testing.T) {
	api := func(line int, name string, parallel bool, free []string, accept ...string) protocol.Turn {
		t := protocol.Turn{Role: "API", APIName: name, Line: line, Parallel: parallel, Params: json.RawMessage(`{}`), Free: free}
		for _, a := range accept {
			t.Accept = append(t.Accept, json.RawMessage(a))
		}
		return t
	}
	user := protocol.Turn{Role: "User", Text: "hi", Line: 1}
	ai := func(line int) protocol.Turn { return protocol.Turn{Role: "AI", Text: "ok", Line: line} }
	special := &protocol.Dialogue{Level: "level-1-given-desc", File: "s.jsonl",
		Meta:  &protocol.Meta{Special: protocol.SpecialMissingValue, Line: 3, Needs: []protocol.Need{{What: "names the missing time", Any: []string{"time", "when"}}}},
		Turns: []protocol.Turn{user, api(2, "GetUserToken", false, nil), ai(3)}}
	calls := &protocol.Dialogue{Level: "level-1-given-desc", File: "c.jsonl",
		Turns: []protocol.Turn{user, api(2, "SendEmail", false, []string{"content"}, `{"receiver":"a@b.c","content":"x"}`), ai(3),
			api(4, "AddAlarm", false, nil), api(5, "AddAlarm", true, nil, `{"time":"2023-04-01 07:00:00"}`, `{"time":"2023-04-01 7:00"}`), ai(6)}}
	scene := &protocol.Dialogue{Level: "level-3", File: "scene.json",
		Answer: []protocol.Need{{What: "says the average is 80", Any: []string{"80"}}},
		Turns:  []protocol.Turn{user, api(2, "UserPosts", false, nil)}}
	tests := []struct {
		name      string
		d         *protocol.Dialogue
		s         protocol.SampleView
		want, not []string
		// gold is what the gold answer adds; goldNot, what it must not.
		gold, goldNot []string
	}{
		{"special case", special, protocol.SampleView{Kind: protocol.KindSpecial, GoldLine: 3},
			[]string{`data-testid="kind-need">asks the user for it<`, `data-testid="need">names the missing time (any of: time, when)<`, "MISSED_NEED", "PREMATURE_CALL", `href="/judging#missing_value"`},
			[]string{"any wording"}, nil, []string{"gold-accept", "answer-needs"}},
		{"a call with a free argument and an accepted set", calls, protocol.SampleView{Kind: protocol.KindCall, GoldLine: 2},
			[]string{`data-testid="free">Any wording (any non-empty text): SendEmail.content.<`, "1 other argument set is right too", `href="/judging#call"`},
			[]string{"kind-need", "gold call set"},
			[]string{`data-testid="gold-accept"`, "Also right, SendEmail with:", "a@b.c"}, []string{"answer-needs"}},
		{"a gold call set", calls, protocol.SampleView{Kind: protocol.KindCall, GoldLine: 4},
			[]string{"A gold call set", "2 other argument sets are right too", `href="/judging#set"`},
			[]string{`data-testid="free"`},
			[]string{"Also right, AddAlarm with:", "2023-04-01 7:00"}, []string{"SendEmail"}},
		{"a reply", calls, protocol.SampleView{Kind: protocol.KindReply, GoldLine: 3},
			[]string{"ROUGE-L", `href="/judging#reply"`}, []string{"any wording", "other argument set"}, nil, []string{"gold-accept"}},
		{"a level-3 step", scene, protocol.SampleView{Kind: protocol.KindCall, GoldLine: 2},
			[]string{"A level-3 step", "ToolSearcher", `href="/judging#step"`}, nil,
			[]string{`data-testid="answer-needs"`, `data-testid="need">says the average is 80 (any of: 80)<`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html := flat(app.Div().Body(sampleJudging(tt.d, tt.s)))
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("lacks %q:\n%s", w, html)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(html, w) {
					t.Errorf("has %q:\n%s", w, html)
				}
			}
			gold := flat(app.Div().Body(goldExtras(tt.d, tt.s)))
			for _, w := range tt.gold {
				if !strings.Contains(gold, w) {
					t.Errorf("the gold lacks %q:\n%s", w, gold)
				}
			}
			for _, w := range tt.goldNot {
				if strings.Contains(gold, w) {
					t.Errorf("the gold has %q:\n%s", w, gold)
				}
			}
		})
	}
}

func TestSampleJudgingShowsDataAsText(t *testing.T) {
	evil := `<img src=x onerror=alert(1)>`
	d := &protocol.Dialogue{Level: "level-3",
		Meta:   &protocol.Meta{Special: evil, Needs: []protocol.Need{{What: evil, Any: []string{evil}}}, Audit: &protocol.Audit{Status: protocol.AuditFixed, Note: evil}},
		Answer: []protocol.Need{{What: evil, Any: []string{evil}}},
		Turns:  []protocol.Turn{{Role: "API", APIName: evil, Line: 1, Free: []string{evil}, Accept: []json.RawMessage{json.RawMessage(`{"a":"` + strings.ReplaceAll(evil, `"`, `\"`) + `"}`)}}}}
	html := flat(app.Div().Body(
		auditBadge(d.Meta),
		sampleJudging(d, protocol.SampleView{Kind: protocol.KindSpecial, GoldLine: 1}),
		sampleJudging(d, protocol.SampleView{Kind: protocol.KindCall, GoldLine: 1}),
		goldExtras(d, protocol.SampleView{Kind: protocol.KindCall, GoldLine: 1}),
	))
	if strings.Contains(html, "<img") {
		t.Fatalf("markup from data became an element:\n%s", html)
	}
	if !strings.Contains(html, `href="/judging#special"`) {
		t.Errorf("an unknown kind links to its own anchor:\n%s", html)
	}
}

// TestSamplePageShowsHowItIsJudged renders the Sample page on builtin dialogues the engine serves: a
// special case with needs (its audit badge, the kind's rule, every need), and a call whose gold has
// free arguments or accepted sets (shown, the sets with the gold answer).
func TestSamplePageShowsHowItIsJudged(t *testing.T) {
	useNative(t)
	ds, err := tab.Dialogues()
	if err != nil {
		t.Fatal(err)
	}
	page := func(d *protocol.Dialogue, kind string, pick func(protocol.SampleView) bool) (*SamplePage, bool) {
		ss, err := call[[]protocol.SampleView](tab.Engine, protocol.Request{Op: protocol.OpSamples, Level: d.Level, File: d.File})
		if err != nil {
			t.Fatal(err)
		}
		p := &SamplePage{level: d.Level, file: d.File, dlg: d}
		for _, s := range ss {
			if scorable(s.Kind) {
				p.samples = append(p.samples, s)
			}
		}
		for _, s := range p.samples {
			if s.Kind == kind && pick(s) {
				p.id = s.ID
				pr, err := tab.Prompt(d.Level, d.File, s.ID)
				if err != nil {
					t.Fatal(err)
				}
				p.prompt = &pr
				return p, true
			}
		}
		return nil, false
	}
	var special, free, accept bool
	for _, sum := range ds {
		if special && free && accept {
			break
		}
		d, err := tab.Dialogue(sum.Level, sum.File)
		if err != nil {
			t.Fatal(err)
		}
		if !special && d.Meta != nil && len(d.Meta.Needs) > 0 && d.Meta.Audit != nil {
			p, ok := page(d, protocol.KindSpecial, func(protocol.SampleView) bool { return true })
			if !ok {
				t.Fatalf("%s has needs but no special sample", d.File)
			}
			special = true
			html := flat(p.Render())
			want := []string{`data-testid="audit-badge"`, `data-status="` + d.Meta.Audit.Status + `"`, `data-testid="kind-need">` + kindRules[d.Meta.Special] + "<", "MISSED_NEED"}
			for _, n := range d.Meta.Needs {
				want = append(want, `data-testid="need">`+escapeHTML(n.What))
			}
			for _, w := range want {
				if !strings.Contains(html, w) {
					t.Errorf("%s: the special case's page lacks %q", d.File, w)
				}
			}
		}
		for _, tn := range d.Turns {
			if tn.Role != "API" || tn.Parallel || (free || len(tn.Free) == 0) && (accept || len(tn.Accept) == 0) {
				continue
			}
			p, ok := page(d, protocol.KindCall, func(s protocol.SampleView) bool { return s.GoldLine == tn.Line })
			if !ok {
				continue
			}
			p.showGold = true
			html := flat(p.Render())
			if len(tn.Free) > 0 && !free {
				free = true
				if w := tn.APIName + "." + strings.Join(tn.Free, ", "+tn.APIName+"."); !strings.Contains(html, w) || !strings.Contains(html, `data-testid="free"`) {
					t.Errorf("%s line %d: the page lacks %q", d.File, tn.Line, w)
				}
			}
			if len(tn.Accept) > 0 && !accept {
				accept = true
				if n := strings.Count(html, `data-testid="gold-accept"`); n < len(tn.Accept) {
					t.Errorf("%s line %d: %d accepted sets shown with the gold, want %d", d.File, tn.Line, n, len(tn.Accept))
				}
			}
		}
	}
	if !special || !free || !accept {
		t.Errorf("the builtin data lacks a special case with needs (%v), a free argument (%v) or an accepted set (%v)", special, free, accept)
	}
}

func TestMissedNeedHints(t *testing.T) {
	if h := Hint("MISSED_NEED"); h == "" || strings.Contains(h, "MISSED_NEED") {
		t.Errorf("MISSED_NEED has no hint of its own: %q", h)
	}
	v := protocol.CallVerdict{Category: "MISSED_NEED", Error: "the reply does not do what the case needs: asks where the asado is"}
	got := ConcreteHint(v, nil)
	if len(got) != 1 || !strings.Contains(got[0], "asks where the asado is") {
		t.Errorf("ConcreteHint = %q, want the need the reply missed", got)
	}
}
