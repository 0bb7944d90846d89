package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// kindRules say in words what every reply to a special case of a kind must do, whatever the case
// (score.KindNeed's What; a test holds them equal).
var kindRules = map[string]string{
	protocol.SpecialMissingValue: "asks the user for it",
	protocol.SpecialAmbiguous:    "asks which one is meant",
	protocol.SpecialWrongValue:   "says the value is wrong or asks for it again",
	protocol.SpecialNoTool:       "says it cannot do that",
}

// auditBadge shows what a careful reader found when the dialogue was read with the prompt a model
// gets: verified, or fixed with what was fixed. Nothing when the dialogue records no audit.
func auditBadge(m *protocol.Meta) app.UI {
	if m == nil || m.Audit == nil {
		return nil
	}
	a := m.Audit
	cls, title := "badge", "Read with the prompt a model gets and found wanting; fixed."
	if a.Status == protocol.AuditVerified {
		cls, title = "badge badge-ready", "Read with the prompt a model gets and found fair."
	}
	return el("p", []string{"class", "small", "data-testid", "audit"}, "Audit: ",
		el("span", []string{"class", cls, "data-testid", "audit-badge", "data-status", a.Status, "title", title}, a.Status),
		app.Text(" "+a.Note))
}

// goldTurns returns the API turns of the gold call (set) at line: the turn there and the parallel
// ones after it.
func goldTurns(d *protocol.Dialogue, line int) []protocol.Turn {
	var out []protocol.Turn
	for _, t := range d.Turns {
		switch {
		case t.Line == line && t.Role == "API":
			out = append(out, t)
		case len(out) > 0 && t.Role == "API" && t.Parallel:
			out = append(out, t)
		case len(out) > 0:
			return out
		}
	}
	return out
}

// needList lists needs in words, each with the phrases that show it, after the rule of a kind when
// there is one (rule "" for none).
func needList(testid, rule string, needs []protocol.Need) app.UI {
	items := make([]app.UI, 0, len(needs)+1)
	if rule != "" {
		items = append(items, el("li", []string{"data-testid", "kind-need"}, rule))
	}
	for _, n := range needs {
		what := n.What
		if len(n.Any) > 0 {
			what += " (any of: " + strings.Join(n.Any, ", ") + ")"
		}
		items = append(items, el("li", []string{"data-testid", "need"}, what))
	}
	return el("ul", []string{"data-testid", testid}, "", items...)
}

// sampleJudging says how the shown sample is judged: for a call, the arguments any wording fits and
// how many other argument sets are right; for a special case, the kind's rule and the case's needs;
// for a reply, ROUGE-L. It links to the section of the "How we judge" page. What would give the
// answer away (the accepted sets, a scene's answer needs) is in goldExtras, shown with the gold.
func sampleJudging(d *protocol.Dialogue, s protocol.SampleView) app.UI {
	var lines []string
	var extra app.UI
	section := s.Kind
	switch s.Kind {
	case protocol.KindSpecial:
		var needs []protocol.Need
		rule := ""
		if d.Meta != nil {
			needs = d.Meta.Needs
			if r, ok := kindRules[d.Meta.Special]; ok {
				section, rule = d.Meta.Special, r
			}
		}
		lines = append(lines, "A right reply makes no call (a call is PREMATURE_CALL) and does all of this, or it is MISSED_NEED:")
		extra = needList("needs", rule, needs)
	case protocol.KindCall:
		gold := goldTurns(d, s.GoldLine)
		section = "call"
		if len(gold) > 1 {
			section = "set"
			lines = append(lines, "A gold call set: make its calls at once, in one list, in any order.")
		}
		if d.Level == "level-3" {
			section = "step"
			lines = append(lines, "A level-3 step: the gold call, or a ToolSearcher call that finds its tool where it has not been shown.")
		}
		lines = append(lines, "Right when the call's result passes the tool's check against the gold's and it leaves the world as the gold call does.")
		accepted, free := 0, []string(nil)
		for _, t := range gold {
			accepted += len(t.Accept)
			for _, f := range t.Free {
				free = append(free, t.APIName+"."+f)
			}
		}
		if len(free) > 0 {
			extra = el("p", []string{"data-testid", "free"}, "Any wording (any non-empty text): "+strings.Join(free, ", ")+".")
		}
		if accepted == 1 {
			lines = append(lines, "1 other argument set is right too (shown with the gold answer).")
		} else if accepted > 1 {
			lines = append(lines, strconv.Itoa(accepted)+" other argument sets are right too (shown with the gold answer).")
		}
	case protocol.KindReply:
		lines = append(lines, "Scored by ROUGE-L against the gold reply, from 0 to 1.")
	}
	kids := []app.UI{el("h3", nil, "How this sample is judged")}
	for _, l := range lines {
		kids = append(kids, el("p", nil, l))
	}
	kids = append(kids, extra, el("p", []string{"class", "small"}, "", el("a", []string{"href", judgingLink(section)}, "How we judge")))
	return el("div", []string{"data-testid", "sample-judging"}, "", kids...)
}

// goldExtras is shown with the gold answer: each accepted argument set of the gold call (set), and
// for a level-3 scene what its final answer must say.
func goldExtras(d *protocol.Dialogue, s protocol.SampleView) app.UI {
	var out []app.UI
	if s.Kind == protocol.KindCall {
		for _, t := range goldTurns(d, s.GoldLine) {
			for _, a := range t.Accept {
				out = append(out, el("p", []string{"class", "small"}, "Also right, "+t.APIName+" with:"), el("pre", []string{"data-testid", "gold-accept"}, Pretty(a)))
			}
		}
	}
	if len(d.Answer) > 0 {
		out = append(out, el("p", []string{"class", "small"}, "Played live, the final answer to the user must say:"), needList("answer-needs", "", d.Answer))
	}
	return el("div", nil, "", out...)
}

// judging is how the shown sample is judged (sampleJudging), or with gold set what the gold answer
// adds (goldExtras); nothing before the sample is known.
func (p *SamplePage) judging(gold bool) app.UI {
	for _, s := range p.samples {
		if s.ID != p.id {
			continue
		}
		if gold {
			return goldExtras(p.dlg, s)
		}
		return sampleJudging(p.dlg, s)
	}
	return nil
}
