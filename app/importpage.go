package app

import (
	"fmt"
	"sort"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/app/importer"
	"github.com/apibank-playground/apibank/protocol"
)

// ImportPage loads a folder or zip in the original layout into this tab's engine.
type ImportPage struct {
	app.Compo
	busy    bool
	err     string
	summary *importer.Summary
	result  *protocol.Loaded
}

// Render draws the page.
func (p *ImportPage) Render() app.UI {
	return shell("/import", "Import a dataset",
		app.P().Text("Choose or drop a folder in the original API-Bank layout — lv1-lv2-samples/level-1-given-desc/*.jsonl, "+
			"lv1-lv2-samples/level-2-toolsearcher/*.jsonl, lv3-samples/*.txt, init_database/*.json — or a zip of one. "+
			"The files stay in this tab: nothing is uploaded."),
		app.Div().Class("row").Body(
			app.Label().Class("file-button").Body(
				app.Span().Text("Choose a folder…"),
				app.Input().Type("file").DataSet("testid", "import-folder").Attr("webkitdirectory", true).Attr("multiple", true).OnChange(p.onInput),
			),
			app.Label().Class("file-button").Body(
				app.Span().Text("Choose a zip…"),
				app.Input().Type("file").Accept(".zip").DataSet("testid", "import-zip").OnChange(p.onInput),
			),
		),
		app.Div().Class("dropzone").DataSet("drop", "folder").DataSet("testid", "import-drop").On("apibank-drop", p.onDrop).
			Text("…or drop the folder or zip here"),
		app.If(p.busy, func() app.UI { return note("Reading and loading…") }),
		errorBox(p.err),
		app.If(p.result != nil, func() app.UI { return p.resultView() }),
	)
}

func (p *ImportPage) onInput(ctx app.Context, e app.Event) {
	p.read(ctx, app.Window().Get("apibankFiles").Call("fromInput", ctx.JSSrc()))
}

func (p *ImportPage) onDrop(ctx app.Context, e app.Event) {
	p.read(ctx, app.Window().Get("apibankFiles").Call("takeDrop"))
}

// read waits for the chosen files, then collects and loads them in the background.
func (p *ImportPage) read(ctx app.Context, promise app.Value) {
	if held := runHolding(); held != "" {
		p.err = "Not loaded: " + held + " (Cancel it on the Run page, or choose the files again then)."
		return
	}
	p.busy, p.err, p.result = true, "", nil
	promise.Then(func(list app.Value) {
		n := list.Get("length").Int()
		entries := make([]importer.Entry, 0, n)
		for i := 0; i < n; i++ {
			it := list.Index(i)
			e := importer.Entry{Path: it.Get("path").String()}
			if b := it.Get("bytes"); b.Truthy() {
				e.Data = make([]byte, b.Get("length").Int())
				app.CopyBytesToGo(e.Data, b)
			} else {
				e.Data = []byte(it.Get("text").String())
			}
			entries = append(entries, e)
		}
		p.load(ctx, entries)
	})
}

type importOutcome struct {
	sum importer.Summary
	res protocol.Loaded
}

func (p *ImportPage) load(ctx app.Context, entries []importer.Entry) {
	refresh(ctx, func() (importOutcome, error) {
		files, sum, err := importer.Collect(entries)
		if err != nil {
			return importOutcome{}, err
		}
		res, err := tab.Load(sum.Name, files)
		return importOutcome{sum, res}, err
	}, func(o importOutcome, err error) {
		p.busy = false
		if err != nil {
			p.err = err.Error()
			return
		}
		p.summary, p.result = &o.sum, &o.res
		ctx.NewAction(dataChanged)
	})
}

func (p *ImportPage) resultView() app.UI {
	r, s := p.result, p.summary
	levels := make([]string, 0, len(r.Dialogues))
	for l := range r.Dialogues {
		levels = append(levels, l)
	}
	sort.Strings(levels)
	return app.Section().Class("card").DataSet("testid", "import-result").Body(
		app.H2().Text("Loaded “"+r.Name+"”"),
		app.Ul().Body(
			app.Range(levels).Slice(func(i int) app.UI {
				return app.Li().Text(fmt.Sprintf("%s: %d dialogues", LevelLabel(levels[i]), r.Dialogues[levels[i]]))
			}),
			app.Li().Text(fmt.Sprintf("Level-3 scenes: %d", r.Scenes)),
			app.Li().Text(fmt.Sprintf("Databases: %d", len(r.Databases))),
			app.Li().Text(fmt.Sprintf("Dictionary and Translate tables from: %s", r.Tables)),
			app.Li().Text(fmt.Sprintf("Files left out (not part of the layout): %d", s.Skipped)),
		),
		app.If(len(r.Errors) > 0, func() app.UI {
			return app.Div().Body(
				app.H3().Text(fmt.Sprintf("%d problems (the rest loaded)", len(r.Errors))),
				app.Ul().Body(app.Range(r.Errors).Slice(func(i int) app.UI {
					return app.Li().DataSet("testid", "import-error").Text(r.Errors[i].Error())
				})),
			)
		}),
		app.P().Body(app.Text("It is now this tab's data: "), app.A().Href("/dataset").Text("browse it"), app.Text(" or "), app.A().Href("/score").Text("score predictions"), app.Text(".")),
	)
}
