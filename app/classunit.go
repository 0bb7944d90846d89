package app

import (
	"encoding/json"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// workedExample is a unit's example as the engine runs it: the request, the gold answer (a call and
// the result the tool gives, or the reply a special case needs).
type workedExample struct {
	Sample protocol.SampleView
	User   string
	Call   string
	Result json.RawMessage
	Reply  string
}

// runExample judges the gold answer's slot with an empty prediction and the gold asked for, which
// runs the gold call in the engine, and reads the request and any gold reply from the dialogue.
func (p *ClassroomPage) runExample(ctx app.Context, s protocol.SampleView) {
	onBuiltin := p.onBuiltin
	refresh(ctx, func() (w *workedExample, err error) {
		if !onBuiltin {
			return workedOn(tab.Engine, s)
		}
		// A worked example is the builtin data's: no student's variant.
		err = tab.OnVariant(0, func(e Engine) error { w, err = workedOn(e, s); return err })
		return w, err
	}, func(w *workedExample, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		p.example = w
	})
}

// curriculum lists the units in their teaching order with the progress of each.
func (p *ClassroomPage) curriculum() app.UI {
	if len(p.units) == 0 {
		return app.Text("")
	}
	return app.Nav().Class("card").Aria("label", "Curriculum").Body(
		// Not a heading: the page's first h2 is the exercise's (no unit open) or the unit's.
		app.Strong().Text("Curriculum"),
		app.Ol().Body(app.Range(p.units).Slice(func(i int) app.UI {
			solved, total := 0, 0
			if i < len(p.unitEx) {
				total = len(p.unitEx[i])
				for _, s := range p.unitEx[i] {
					if p.progress[exerciseKey(s)].Solved {
						solved++
					}
				}
			}
			label := p.units[i].Title
			if i == p.unit {
				label = "▸ " + label
			}
			return app.Li().Body(
				app.Button().Class("link").DataSet("testid", "unit").DataSet("unit", p.units[i].ID).Aria("current", i == p.unit).Text(label).
					OnClick(func(ctx app.Context, e app.Event) { p.unit = i; p.load(ctx) }),
				app.Span().Class("small").DataSet("testid", "unit-progress").Text(fmt.Sprintf(" %d of %d solved", solved, total)),
			)
		})),
	)
}

// unitIntro is the open unit's explanation and its worked example.
func (p *ClassroomPage) unitIntro() app.UI {
	u := p.units[p.unit]
	w := p.example
	return app.Section().Class("card").DataSet("testid", "unit-intro").Body(
		app.H2().Text(u.Title),
		app.P().Text(u.Text),
		app.If(w != nil, func() app.UI {
			return app.Div().DataSet("testid", "unit-example").Body(
				app.H3().Text("Worked example · "+w.Sample.File),
				app.P().Body(app.Span().Class("who").Text("User "), app.Text(w.User)),
				app.If(w.Call != "", func() app.UI {
					return app.Div().Body(
						app.P().Body(app.Text("The call: "), app.Code().Text(w.Call)),
						app.Details().Body(app.Summary().Text("what the tool returns"), app.Pre().Text(Pretty(w.Result))))
				}).Else(func() app.UI {
					return app.P().Body(app.Text("The right answer is a reply, not a call: "), app.Q().Text(w.Reply))
				}),
			)
		}),
	)
}

// workedOn reads a worked example from the data e holds.
func workedOn(e Engine, s protocol.SampleView) (*workedExample, error) {
	d, err := call[protocol.Dialogue](e, protocol.Request{Op: protocol.OpDialogue, Level: s.Level, File: s.File})
	if err != nil {
		return nil, err
	}
	w := &workedExample{Sample: s}
	for _, t := range d.Turns {
		switch {
		case t.Line < s.GoldLine && t.Role == "User":
			w.User = t.Text
		case t.Line == s.GoldLine && t.Role == "AI":
			w.Reply = t.Text
		}
	}
	line, _ := json.Marshal(map[string]any{"level": s.Level, "file": s.File, "id": s.ID, "pred": ""})
	b, err := call[protocol.Batch](e, protocol.Request{Op: protocol.OpScore, Preds: string(line), Name: "example", Gold: true})
	if err != nil {
		return nil, err
	}
	if len(b.Results) > 0 {
		v := b.Results[0].Call()
		w.Call, w.Result = v.GoldCall, v.GoldResult
	}
	return w, nil
}
