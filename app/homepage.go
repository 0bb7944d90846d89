package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// HomePage says what API-Bank measures and where to start.
type HomePage struct {
	app.Compo
	stats *protocol.Stats
	err   string
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render, which has no engine and so shows the page empty, and the component tests).
func (h *HomePage) OnPreRender(ctx app.Context) { h.OnMount(ctx) }

// OnMount asks for the loaded dataset's counts.
func (h *HomePage) OnMount(ctx app.Context) {
	h.load(ctx)
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) { h.load(ctx) })
}

func (h *HomePage) load(ctx app.Context) {
	refresh(ctx, func() (protocol.Stats, error) {
		return call[protocol.Stats](tab.Engine, protocol.Request{Op: protocol.OpStats})
	}, func(s protocol.Stats, err error) {
		if err != nil {
			h.err = err.Error()
			return
		}
		h.stats, h.err = &s, ""
	})
}

// Render draws the page.
func (h *HomePage) Render() app.UI {
	return shell("/", "How well does a language model use tools?",
		app.P().Class("lead").Text("API-Bank gives a model a conversation and a set of tools, and asks it for the next tool call. "+
			"Here the tools really run: a predicted call is executed against a small world of accounts, meetings, alarms and more, "+
			"and judged by what it does, not by how it is spelled. Replies after a call are scored with ROUGE-L."),
		app.H2().Text("What you can do here"),
		app.Ul().Class("start").DataSet("testid", "home-start").Body(
			app.Li().Body(app.A().Href("/run").Text("Run a model"), app.Text(": connect any OpenAI-compatible endpoint with your own key and run the benchmark from this tab; the key never leaves it.")),
			app.Li().Body(app.A().Href("/score").Text("Paste and score"), app.Text(" a model's predictions (JSONL with file, id, pred) and see a verdict for each, or compare your runs on the "), app.A().Href("/runs").Text("Runs"), app.Text(" page.")),
			app.Li().Body(app.A().Href("/classroom").Text("Learn tool use by hand"), app.Text(": write the call yourself in the classroom, play a scene step by step, or try the tools in a "), app.A().Href("/sandbox").Text("sandbox"), app.Text(".")),
		),
		app.H2().Text("Three levels"),
		app.Ol().Class("levels").Body(
			app.Li().Body(app.Strong().Text("Call. "), app.Text("The tools are described in the prompt; the model picks one and fills its arguments from the conversation.")),
			app.Li().Body(app.Strong().Text("Retrieve+Call. "), app.Text("Only a ToolSearcher is given: the model must first search for the right tool, then call it.")),
			app.Li().Body(app.Strong().Text("Plan+Retrieve+Call. "), app.Text("One request needs several steps: the model plans, finds each tool and calls them in turn.")),
		),
		app.H2().Text("The data"),
		app.Ul().Body(
			app.Li().Body(app.A().Href("/dataset").Text("Browse the dataset"), app.Text(" and open a sample to see the exact prompt a model gets.")),
			app.Li().Body(app.A().Href("/import").Text("Import the original benchmark's folder"), app.Text(" and use it like the builtin data.")),
		),
		errorBox(h.err),
		app.If(h.stats != nil, func() app.UI {
			s := h.stats
			return app.P().Class("stats").Text(fmt.Sprintf("Loaded: %d dialogues, %d API calls, %d of %d tools covered, %d special cases.",
				s.Dialogues, s.APICalls, s.ToolsCovered, s.ToolsTotal, s.SpecialCases))
		}),
	)
}
