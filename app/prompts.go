package app

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/run"
)

// promptsRow is the Dataset page's "Download all prompts": every sample's model request as JSONL
// (run.Prompts through this tab's engine), so any model anywhere can answer it and the answers can
// be pasted back.
func (p *DatasetPage) promptsRow() app.UI {
	if p.promptsForm == "" {
		p.promptsForm = run.Text
	}
	return app.Div().Class("row").Body(
		app.Label().Class("field").Body(
			app.Span().Text("Prompts in the "),
			app.Select().DataSet("testid", "prompts-form").OnChange(func(ctx app.Context, e app.Event) { p.promptsForm = ctx.JSSrc().Get("value").String() }).Body(
				app.Option().Value(run.Text).Selected(p.promptsForm == run.Text).Text("text form"),
				app.Option().Value(run.Native).Selected(p.promptsForm == run.Native).Text("native form"),
			),
		),
		app.Button().DataSet("testid", "download-prompts").Disabled(p.prompting).Text("Download all prompts").OnClick(p.onPrompts),
		app.If(p.promptsMsg != "", func() app.UI { return app.Span().Class("small").Aria("live", "polite").Text(p.promptsMsg) }),
	)
}

func (p *DatasetPage) onPrompts(ctx app.Context, e app.Event) {
	if tab.Engine == nil {
		return
	}
	form := p.promptsForm
	p.prompting, p.promptsMsg = true, "Writing the prompts…"
	ctx.Async(func() {
		text, err := run.Prompts(context.Background(), tab.Engine.Do, run.Config{Form: form, Levels: Levels})
		name := ""
		if err == nil {
			data, _ := tab.DataName()
			name = "apibank-prompts-" + data + "-" + form + ".jsonl"
		}
		ctx.Dispatch(func(app.Context) {
			p.prompting = false
			if err != nil {
				p.err, p.promptsMsg = "Prompts: "+err.Error(), ""
				return
			}
			if download(name, "application/x-ndjson", text) {
				p.promptsMsg = "Saved " + name + " (" + Size(len(text)) + ")."
			} else {
				p.promptsMsg = Size(len(text)) + " of prompts written."
			}
		})
	})
}
