package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// ResultsCSV writes one row a verdict: what a spreadsheet needs to recount anything.
func ResultsCSV(sb *SavedBatch) []byte {
	var b bytes.Buffer
	writeCSVRow(&b, []string{"line", "level", "file", "id", "kind", "category", "correct", "gold_tool", "called", "form", "rouge_l", "special", "error"})
	for _, v := range sb.Batch.Results {
		rouge := ""
		if r, ok := v.Reply(); ok {
			rouge = strconv.FormatFloat(r.RougeL, 'f', 4, 64)
		}
		c := v.Call()
		correct := ""
		if v.Kind == protocol.KindCall {
			correct = strconv.FormatBool(c.Correct)
		}
		row := []string{strconv.Itoa(v.Line), v.Level, v.File, strconv.Itoa(v.ID), v.Kind, c.Category, correct, c.Tool, c.Called, c.Form, rouge, v.Special, v.Err()}
		for i := range row {
			row[i] = csvSafe(row[i])
		}
		writeCSVRow(&b, row)
	}
	return b.Bytes()
}

// ParseSavedBatch reads an exported result file, saying what is wrong with one that is not.
func ParseSavedBatch(data []byte) (*SavedBatch, error) {
	var sb SavedBatch
	if err := json.Unmarshal(data, &sb); err != nil {
		var se *json.SyntaxError
		if errorAs(err, &se) {
			line := bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")) + 1
			return nil, fmt.Errorf("line %d: not a result file (invalid JSON: %v)", line, err)
		}
		return nil, fmt.Errorf("not a result file: %v", err)
	}
	if sb.Format != batchFormat {
		return nil, fmt.Errorf("not a result file of this playground (its \"format\" is %q, want %q)", sb.Format, batchFormat)
	}
	return &sb, nil
}

// ResultsPage shows the last scored batch: accuracy per level, category and tool, ROUGE-L, the gold
// ceiling, charts, export and import.
type ResultsPage struct {
	app.Compo
	data     string
	saved    *SavedBatch
	imported bool
	err      string
	msg      string
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render, which has no engine and so shows the page empty, and the component tests).
func (p *ResultsPage) OnPreRender(ctx app.Context) { p.OnMount(ctx) }

// OnMount loads the tab's last results.
func (p *ResultsPage) OnMount(ctx app.Context) {
	p.load(ctx)
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) { p.load(ctx) })
	ctx.Handle(dataCleared, func(ctx app.Context, a app.Action) { p.saved = nil })
}

func (p *ResultsPage) load(ctx app.Context) {
	refresh(ctx, tab.DataName, func(name string, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		p.data = name
		var sb SavedBatch
		p.saved, p.imported = nil, false
		if tab.Store.Get(batchKey(name), &sb) == nil && sb.Format == batchFormat {
			p.saved = &sb
		}
	})
}

// Render draws the page.
func (p *ResultsPage) Render() app.UI {
	return shell("/results", "Results",
		app.Div().Class("row").Body(
			app.Label().Class("file-button").Body(
				app.Span().Text("Open a saved result file…"),
				app.Input().Type("file").Accept(".json").DataSet("testid", "results-file").OnChange(p.onImport),
			),
			app.If(p.saved != nil, func() app.UI {
				return app.Div().Class("row").Body(
					app.Button().DataSet("testid", "export-json").Text("Export JSON").OnClick(p.export("json")),
					app.Button().DataSet("testid", "export-csv").Text("Export CSV").OnClick(p.export("csv")),
				)
			}),
		),
		errorBox(p.err),
		note(p.msg),
		app.If(p.saved == nil && p.err == "", func() app.UI {
			return app.P().Body(app.Text("No results yet for this dataset. "), app.A().Href("/score").Text("Paste and score"), app.Text(" predictions first, or open a saved result file."))
		}),
		app.If(p.saved != nil, func() app.UI { return reportView(p.saved, p.imported) }),
	)
}

func (p *ResultsPage) export(kind string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		sb := p.saved
		name := "apibank-results-" + sb.Data
		var body []byte
		var mime string
		if kind == "csv" {
			body, mime, name = ResultsCSV(sb), "text/csv", name+".csv"
		} else {
			body, _ = json.MarshalIndent(sb, "", " ")
			mime, name = "application/json", name+".json"
		}
		if f := app.Window().Get("apibankDownload"); f.Truthy() {
			f.Invoke(name, mime, string(body))
			p.msg = "Saved " + name + " (" + Size(len(body)) + ")."
		}
	}
}

func (p *ResultsPage) onImport(ctx app.Context, e app.Event) {
	readFirstFile(ctx, ctx.JSSrc().Get("files"), func(ctx app.Context, name, text string) {
		sb, err := ParseSavedBatch([]byte(text))
		if err != nil {
			p.err = name + ": " + err.Error()
			return
		}
		p.saved, p.imported, p.err = sb, true, ""
		p.msg = "Showing " + name + "."
	})
}

// reportView draws the numbers and charts of a batch.
func reportView(sb *SavedBatch, imported bool) app.UI {
	r := sb.Batch.Report
	levelBars := make([]Bar, 0, len(r.Levels))
	for _, l := range r.Levels {
		if l.Calls > 0 {
			levelBars = append(levelBars, Bar{Label: LevelLabel(l.Name), Value: l.Accuracy, Text: Percent(l.Accuracy), Class: "level"})
		}
	}
	catBars := make([]Bar, 0, len(r.Categories))
	for _, c := range r.Categories {
		catBars = append(catBars, Bar{Label: c.Category, Value: float64(c.Count), Text: strconv.Itoa(c.Count), Class: categoryClass(c.Category)})
	}
	title := "Data: " + sb.Data + " · world: " + r.State
	if imported {
		title += " · from a saved file"
	}
	return app.Div().Body(
		app.P().Class("small").Text(title),
		app.Div().Class("numbers").Body(
			app.Div().Class("number").Body(app.Span().Class("big").DataSet("testid", "accuracy").Text(Percent(r.Overall.Accuracy)),
				app.Span().Text(fmt.Sprintf(" call accuracy (%d of %d)", r.Overall.Correct, r.Overall.Calls))),
			app.Div().Class("number").Body(app.Span().Class("big").DataSet("testid", "rouge-l").Text(rougeOrDash(r.Overall)),
				app.Span().Text(fmt.Sprintf(" mean ROUGE-L (%d replies)", r.Overall.Replies))),
			app.If(r.Overall.Special > 0, func() app.UI {
				return app.Div().Class("number").Body(app.Span().Class("big").DataSet("testid", "special-score").
					Text(fmt.Sprintf("%d/%d", r.Overall.SpecialCorrect, r.Overall.Special)), app.Span().Text(" special cases right"))
			}),
		),
		app.Div().Class("two").Body(
			app.Section().Body(app.H2().Text("Accuracy per level"), BarChart("Call accuracy per level", levelBars, 1)),
			app.Section().Body(app.H2().Text("Verdict categories"), BarChart("Call verdicts per category", catBars, 0), judgingNote("verdicts")),
		),
		app.H2().Text("Per level"),
		app.Table().Class("tally").Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("level"), app.Th().Text("calls"), app.Th().Text("correct"), app.Th().Text("accuracy"),
				app.Th().Text("replies"), app.Th().Text("ROUGE-L"), app.Th().Text("gold ceiling"))),
			app.TBody().Body(app.Range(r.Levels).Slice(func(i int) app.UI {
				l := r.Levels[i]
				ceil := "—"
				for _, c := range r.Ceiling {
					if c.Level == l.Name && c.Total > 0 {
						ceil = fmt.Sprintf("%d/%d (%s)", c.Accepted, c.Total, Percent(float64(c.Accepted)/float64(c.Total)))
					}
				}
				return app.Tr().DataSet("testid", "level-row").DataSet("level", l.Name).Body(app.Td().Text(LevelLabel(l.Name)), app.Td().Text(l.Calls), app.Td().Text(l.Correct),
					app.Td().Text(accuracyOrDash(l)), app.Td().Text(l.Replies), app.Td().Text(rougeOrDash(l)), app.Td().Text(ceil))
			})),
		),
		specialView(r),
		app.H2().Text("Per tool"),
		app.Table().Class("tally").DataSet("testid", "tool-table").Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("gold tool"), app.Th().Text("calls"), app.Th().Text("correct"), app.Th().Text("accuracy"))),
			app.TBody().Body(app.Range(callTools(r.Tools)).Slice(func(i int) app.UI {
				t := callTools(r.Tools)[i]
				return app.Tr().Body(app.Td().Text(t.Name), app.Td().Text(t.Calls), app.Td().Text(t.Correct), app.Td().Text(Percent(t.Accuracy)))
			})),
		),
		app.If(len(r.Notes) > 0, func() app.UI {
			return app.Div().Body(app.H2().Text("Notes"), app.Ul().Body(app.Range(r.Notes).Slice(func(i int) app.UI { return app.Li().Text(r.Notes[i]) })))
		}),
	)
}
