package app

import (
	"context"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/run"
)

// promptsRow is the Dataset page's "Download all prompts": every single-request sample as the
// exact chat-completions request body a run sends (run.Prompts through this tab's engine), one
// JSON line each, so that any OpenAI-compatible endpoint takes it as it is.
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
		app.Label().Class("field").Body(
			app.Span().Text("for the model "),
			app.Input().Type("text").DataSet("testid", "prompts-model").Value(p.promptsModel).Placeholder(run.DefaultPromptModel).
				OnChange(func(ctx app.Context, e app.Event) {
					p.promptsModel = strings.TrimSpace(ctx.JSSrc().Get("value").String())
				}),
		),
		app.Button().DataSet("testid", "download-prompts").Disabled(p.prompting).Text("Download all prompts").OnClick(p.onPrompts),
		app.If(p.promptsMsg != "", func() app.UI { return app.Span().Class("small").Aria("live", "polite").Text(p.promptsMsg) }),
	)
}

func (p *DatasetPage) onPrompts(ctx app.Context, e app.Event) {
	if tab.Engine == nil {
		return
	}
	form, name := p.promptsForm, p.promptsModel
	p.prompting, p.promptsMsg = true, "Writing the prompts…"
	ctx.Async(func() {
		text, err := run.Prompts(context.Background(), tab.Engine.Do, run.Config{Form: form, Levels: Levels}, model.Settings{Model: name})
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
