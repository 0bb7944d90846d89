package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// setLabel is the verdict label of a call verdict: its category, and for a gold call set (or a
// prediction of several calls) how many of the calls were right, so MISSING_CALL or an
// OUTPUT_MISMATCH of one call in three reads as what it is.
func setLabel(c protocol.CallVerdict) string {
	if len(c.Calls) == 0 {
		return c.Category
	}
	right, gold := 0, 0
	for _, m := range c.Calls {
		if m.Tool != "" {
			gold++
		}
		if m.Correct {
			right++
		}
	}
	return fmt.Sprintf("%s · %d of %d calls right", c.Category, right, gold)
}

// setView lists the per-call verdicts of a gold call set: each gold call with the predicted call
// paired with it (or missing), then the calls no gold call wants.
func setView(c protocol.CallVerdict) app.UI {
	if len(c.Calls) == 0 {
		return nil
	}
	return app.Ol().Class("set-verdict").DataSet("testid", "set-verdict").Body(app.Range(c.Calls).Slice(func(i int) app.UI {
		m := c.Calls[i]
		cls := "bad"
		if m.Correct {
			cls = "good"
		}
		what := m.Tool
		switch {
		case m.Tool == "":
			what = "extra: " + m.Called
		case m.Called == "":
			what = m.Tool + ": not called"
		case m.Called != m.Tool:
			what = m.Tool + " (called " + m.Called + ")"
		}
		return app.Li().DataSet("category", m.Category).Body(
			app.Span().Class("verdict "+cls).Text(m.Category), app.Text(" "+what),
			app.If(m.Error != "", func() app.UI { return app.Span().Class("small").Text(" — " + m.Error) }),
		)
	}))
}
