package app

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// Filter selects dialogues by level, tool, special case and text.
type Filter struct {
	Level   string
	Tool    string
	Special string // "" any, "none" ordinary only, or a special case name
	Text    string
}

// Apply returns the dialogues that pass the filter, in order.
func (f Filter) Apply(ds []protocol.DialogueSummary) []protocol.DialogueSummary {
	q := strings.ToLower(strings.TrimSpace(f.Text))
	var out []protocol.DialogueSummary
	for _, d := range ds {
		if f.Level != "" && d.Level != f.Level {
			continue
		}
		if f.Tool != "" && !contains(d.Tools, f.Tool) {
			continue
		}
		switch f.Special {
		case "":
		case "none":
			if d.Special != "" {
				continue
			}
		default:
			if d.Special != f.Special {
				continue
			}
		}
		if q != "" && !strings.Contains(strings.ToLower(d.File+" "+d.First+" "+strings.Join(d.Tools, " ")), q) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// toolsAndSpecials lists the tools and special cases that occur, sorted.
func toolsAndSpecials(ds []protocol.DialogueSummary) (tools, specials []string) {
	ts, ss := map[string]bool{}, map[string]bool{}
	for _, d := range ds {
		for _, t := range d.Tools {
			ts[t] = true
		}
		if d.Special != "" {
			ss[d.Special] = true
		}
	}
	for t := range ts {
		tools = append(tools, t)
	}
	for s := range ss {
		specials = append(specials, s)
	}
	sort.Strings(tools)
	sort.Strings(specials)
	return tools, specials
}

// DatasetPage browses the loaded dialogues.
type DatasetPage struct {
	app.Compo
	all    []protocol.DialogueSummary
	filter Filter
	err    string
	loaded bool
	// promptsForm is the form "Download all prompts" writes; prompting says it is at work.
	promptsForm string
	// promptsModel is the model named in the downloaded request bodies ("" for the placeholder).
	promptsModel string
	prompting    bool
	promptsMsg   string
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render, which has no engine and so shows the page empty, and the component tests).
func (p *DatasetPage) OnPreRender(ctx app.Context) { p.OnMount(ctx) }

// Query is the filter as URL query parameters (level, tool, special, q), empty ones left out, so
// a filtered list has an address: Back returns to it and it can be shared.
func (f Filter) Query() url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"level": f.Level, "tool": f.Tool, "special": f.Special, "q": f.Text} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q
}

// FilterOf reads a filter from URL query parameters (the inverse of Query).
func FilterOf(q url.Values) Filter {
	return Filter{Level: q.Get("level"), Tool: q.Get("tool"), Special: q.Get("special"), Text: q.Get("q")}
}

// URL is the Dataset page's address for the filter.
func (f Filter) URL() string {
	if q := f.Query().Encode(); q != "" {
		return "/dataset?" + q
	}
	return "/dataset"
}

// OnNav reads the filter from the URL (a Back, a shared link, a reload).
// The server's pre-render leaves the filter empty: it renders each page once, for every query.
func (p *DatasetPage) OnNav(ctx app.Context) {
	if !app.IsClient {
		return
	}
	p.filter = FilterOf(ctx.Page().URL().Query())
}

// setFilter applies a changed filter and records it as a new history entry.
func (p *DatasetPage) setFilter(ctx app.Context, f Filter) {
	p.filter = f
	ctx.Navigate(f.URL())
}

// OnMount fetches the dialogues.
func (p *DatasetPage) OnMount(ctx app.Context) {
	p.load(ctx)
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) { p.load(ctx) })
}

func (p *DatasetPage) load(ctx app.Context) {
	refresh(ctx, tab.Dialogues, func(ds []protocol.DialogueSummary, err error) {
		p.loaded = true
		if err != nil {
			p.err = err.Error()
			return
		}
		p.all, p.err = ds, ""
	})
}

// Render draws the filters and the list.
func (p *DatasetPage) Render() app.UI {
	tools, specials := toolsAndSpecials(p.all)
	shown := p.filter.Apply(p.all)
	return shell("/dataset", "Dataset",
		app.Div().Class("row filters").Body(
			levelSelect(p.filter.Level, true, func(ctx app.Context, v string) {
				f := p.filter
				f.Level = v
				p.setFilter(ctx, f)
			}),
			app.Label().Class("field").Body(
				app.Span().Text("Tool "),
				app.Select().DataSet("testid", "tool-select").OnChange(func(ctx app.Context, e app.Event) {
					f := p.filter
					f.Tool = selectValue(ctx)
					p.setFilter(ctx, f)
				}).Body(
					app.Option().Value(anyOption).Selected(p.filter.Tool == "").Text("any"),
					app.Range(tools).Slice(func(i int) app.UI {
						return app.Option().Value(tools[i]).Selected(tools[i] == p.filter.Tool).Text(tools[i])
					}),
				),
			),
			app.Label().Class("field").Body(
				app.Span().Text("Special case "),
				app.Select().DataSet("testid", "special-select").OnChange(func(ctx app.Context, e app.Event) {
					f := p.filter
					f.Special = selectValue(ctx)
					p.setFilter(ctx, f)
				}).Body(
					app.Option().Value(anyOption).Selected(p.filter.Special == "").Text("any"),
					app.Option().Value("none").Selected(p.filter.Special == "none").Text("none (ordinary)"),
					app.Range(specials).Slice(func(i int) app.UI {
						return app.Option().Value(specials[i]).Selected(specials[i] == p.filter.Special).Text(specials[i])
					}),
				),
			),
			app.Label().Class("field grow").Body(
				app.Span().Text("Search "),
				app.Input().Type("search").DataSet("testid", "dataset-search").Value(p.filter.Text).Placeholder("words in the first request, tool, file").
					OnInput(func(ctx app.Context, e app.Event) {
						// Typing replaces the history entry (one Back undoes the whole search, not a letter).
						p.filter.Text = ctx.JSSrc().Get("value").String()
						app.Window().Get("history").Call("replaceState", nil, "", p.filter.URL())
					}),
			),
		),
		p.promptsRow(),
		errorBox(p.err),
		app.P().Class("small").DataSet("testid", "dataset-count").Text(fmt.Sprintf("%d of %d dialogues", len(shown), len(p.all))),
		app.If(p.loaded && len(p.all) == 0 && p.err == "", func() app.UI {
			return note("This dataset has no level-1 or level-2 dialogues yet.")
		}),
		app.Ul().Class("dialogues").Body(app.Range(shown).Slice(func(i int) app.UI {
			d := shown[i]
			return app.Li().DataSet("testid", "dialogue-row").Body(
				app.A().Href("/sample?"+url.Values{"level": {d.Level}, "file": {d.File}}.Encode()).Body(app.Strong().Text(d.File)),
				app.Span().Class("meta").Text(fmt.Sprintf(" · %s · %d turns · %d calls · %s", LevelLabel(d.Level), d.Turns, d.Calls, strings.Join(d.Tools, ", "))),
				app.If(d.Special != "", func() app.UI { return app.Span().Class("tag").Text(d.Special) }),
				app.P().Class("first").Text(truncate(d.First, 200)),
			)
		})),
	)
}
