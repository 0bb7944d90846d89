package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// Catalogs are the two tool catalogs: the levels 1-2 tools and the level-3 ones.
var Catalogs = []string{"apis", "lv3_apis"}

// CatalogLabel names a catalog in plain words.
func CatalogLabel(c string) string {
	if c == "lv3_apis" {
		return "lv3_apis (level 3)"
	}
	return "apis (levels 1-2)"
}

// ToolDoc is one tool as the catalog page shows it, read from the engine's catalog answer.
type ToolDoc struct {
	Name, Description string
	Params            []ParamDoc
	Returns           []ParamDoc
	Exceptions        []string
	Example           string
}

// ParamDoc is one parameter or output field of a tool.
type ParamDoc struct {
	Name, Type, Description string
	Required                bool
}

// ToolDocs reads a catalog answer into the tools it lists, in its order.
func ToolDocs(c protocol.Catalog) ([]ToolDoc, error) {
	schemas, err := c.ToolSchemas()
	if err != nil {
		return nil, err
	}
	required := map[string][]string{}
	for _, s := range schemas {
		required[s.Function.Name] = s.Function.Parameters.Required
	}
	entries, err := c.Entries()
	if err != nil {
		return nil, err
	}
	out := make([]ToolDoc, 0, len(entries))
	for _, e := range entries {
		in, err1 := orderedOf(e.InputParameters)
		outs, err2 := orderedOf(e.OutputParameters)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("the parameters of %s: %w", e.Name, err)
		}
		d := ToolDoc{Name: e.Name, Description: e.Description, Exceptions: c.Exceptions[e.Name], Example: c.Examples[e.Name]}
		d.Params = fields(in, required[e.Name])
		d.Returns = fields(outs, nil)
		out = append(out, d)
	}
	return out, nil
}

func fields(o OrderedObject, required []string) []ParamDoc {
	out := make([]ParamDoc, 0, len(o))
	for _, f := range o {
		var p struct {
			Type        string `json:"type"`
			Description string `json:"description"`
		}
		_ = json.Unmarshal(f.Value, &p)
		out = append(out, ParamDoc{Name: f.Key, Type: p.Type, Description: p.Description, Required: contains(required, f.Key)})
	}
	return out
}

// Matches tells whether a tool matches a search: every word in its name, description or parameter names.
func (d ToolDoc) Matches(q string) bool {
	hay := strings.ToLower(d.Name + " " + d.Description)
	for _, p := range d.Params {
		hay += " " + strings.ToLower(p.Name)
	}
	for _, w := range strings.Fields(strings.ToLower(q)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// sandboxURL opens the Sandbox on a catalog with a call typed in.
func sandboxURL(catalog, call string) string {
	return "/sandbox?" + url.Values{"catalog": {catalog}, "call": {call}}.Encode()
}

// ToolsPage is the tool catalog: every tool of both catalogs with its parameters, what it returns,
// its exceptions and an example call that runs; searchable, deep-linkable (/tools?name=AddAlarm), and
// downloadable as OpenAI tools JSON.
type ToolsPage struct {
	app.Compo
	catalog string
	name    string
	query   string
	docs    map[string][]ToolDoc
	schemas map[string]json.RawMessage
	ran     map[string]string
	err     string
}

// OnNav reads the catalog, the tool and the search from the URL, and fetches both catalogs once.
func (p *ToolsPage) OnNav(ctx app.Context) {
	q := ctx.Page().URL().Query()
	if app.IsClient {
		p.catalog, p.name, p.query = q.Get("catalog"), q.Get("name"), q.Get("q")
	}
	if p.docs != nil {
		p.pickCatalog()
		return
	}
	refresh(ctx, func() ([]protocol.Catalog, error) {
		var out []protocol.Catalog
		for _, c := range Catalogs {
			r, err := call[protocol.Catalog](tab.Engine, protocol.Request{Op: protocol.OpCatalog, Catalog: c, Form: protocol.FormNative})
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}, func(cs []protocol.Catalog, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		p.docs, p.schemas = map[string][]ToolDoc{}, map[string]json.RawMessage{}
		for _, c := range cs {
			d, err := ToolDocs(c)
			if err != nil {
				p.err = err.Error()
				return
			}
			p.docs[c.Catalog], p.schemas[c.Catalog] = d, c.Schemas
		}
		p.pickCatalog()
	})
}

// pickCatalog shows the catalog that holds the tool asked for when no catalog is named.
func (p *ToolsPage) pickCatalog() {
	if p.catalog != "" || p.name == "" {
		return
	}
	for _, c := range Catalogs {
		for _, d := range p.docs[c] {
			if d.Name == p.name {
				p.catalog = c
				return
			}
		}
	}
}

func (p *ToolsPage) url() string {
	q := url.Values{}
	if p.catalog != "" && p.catalog != "apis" {
		q.Set("catalog", p.catalog)
	}
	if p.name != "" {
		q.Set("name", p.name)
	}
	if p.query != "" {
		q.Set("q", p.query)
	}
	if len(q) == 0 {
		return "/tools"
	}
	return "/tools?" + q.Encode()
}

// Render draws the catalog.
func (p *ToolsPage) Render() app.UI {
	catalog := p.catalog
	if catalog == "" {
		catalog = "apis"
	}
	all := p.docs[catalog]
	var shown []ToolDoc
	for _, d := range all {
		if (p.name == "" || d.Name == p.name) && d.Matches(p.query) {
			shown = append(shown, d)
		}
	}
	names := make([]string, len(all))
	for i, d := range all {
		names[i] = d.Name
	}
	sort.Strings(names)
	return shell("/tools", "Tools",
		app.P().Text("Every tool a model can call, as the engine runs it: what it takes, what it returns, the exceptions "+
			"its gold calls record, and a call of it from the data that you can run here or open in the Sandbox."),
		app.Div().Class("row filters").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Catalog "),
				app.Select().DataSet("testid", "tools-catalog").OnChange(func(ctx app.Context, e app.Event) {
					p.catalog, p.name = selectValue(ctx), ""
					ctx.Navigate(p.url())
				}).Body(app.Range(Catalogs).Slice(func(i int) app.UI {
					return app.Option().Value(Catalogs[i]).Selected(Catalogs[i] == catalog).Text(CatalogLabel(Catalogs[i]))
				})),
			),
			app.Label().Class("field grow").Body(
				app.Span().Text("Search "),
				app.Input().Type("search").DataSet("testid", "tools-search").Value(p.query).Placeholder("a word of a name, description or parameter").
					OnInput(func(ctx app.Context, e app.Event) {
						p.query, p.name = ctx.JSSrc().Get("value").String(), ""
						app.Window().Get("history").Call("replaceState", nil, "", p.url())
					}),
			),
			app.If(p.schemas[catalog] != nil, func() app.UI {
				return app.A().Class("button-link").DataSet("testid", "tools-download").
					Href("data:application/json;charset=utf-8,"+url.PathEscape(Pretty(p.schemas[catalog]))).
					Attr("download", catalog+".tools.json").Text("Download " + catalog + " as OpenAI tools JSON")
			}),
		),
		errorBox(p.err),
		app.P().Class("small").DataSet("testid", "tools-count").Body(
			app.Textf("%d of %d tools of %s. ", len(shown), len(all), catalog),
			app.If(p.name != "" || p.query != "", func() app.UI {
				return app.A().Href(map[bool]string{true: "/tools?catalog=lv3_apis", false: "/tools"}[catalog == "lv3_apis"]).Text("Show every tool")
			}),
		),
		app.If(p.name != "" && len(shown) == 0 && p.docs != nil, func() app.UI {
			return errorBox("No tool " + p.name + " in " + catalog + ". Its tools are " + strings.Join(names, ", ") + ".")
		}),
		app.Div().Class("tools").Body(app.Range(shown).Slice(func(i int) app.UI { return p.toolView(catalog, shown[i]) })),
	)
}

func (p *ToolsPage) toolView(catalog string, d ToolDoc) app.UI {
	key := catalog + "/" + d.Name
	return app.Article().Class("card tool").ID("tool-"+d.Name).DataSet("testid", "tool-"+d.Name).Aria("labelledby", "h-"+d.Name).Body(
		app.H2().ID("h-"+d.Name).Body(app.A().Href("/tools?"+url.Values{"catalog": {catalog}, "name": {d.Name}}.Encode()).Text(d.Name)),
		app.P().Text(d.Description),
		app.H3().Text("Parameters"),
		paramTable(d.Params, true),
		app.H3().Text("Returns"),
		paramTable(d.Returns, false),
		app.H3().Text("Exceptions"),
		app.If(len(d.Exceptions) == 0, func() app.UI {
			return app.P().Class("small").Text("None recorded by its gold calls. A call can still fail on a missing or mistyped argument.")
		}).Else(func() app.UI {
			return app.Ul().DataSet("testid", "tool-exceptions").Body(app.Range(d.Exceptions).Slice(func(i int) app.UI { return app.Li().Body(app.Code().Text(d.Exceptions[i])) }))
		}),
		app.If(d.Example != "", func() app.UI {
			return app.Div().Body(
				app.H3().Text("Example"),
				app.Pre().DataSet("testid", "tool-example").Text(d.Example),
				app.Div().Class("row").Body(
					app.Button().DataSet("testid", "tool-run").Text("Run it in my sandbox world").OnClick(func(ctx app.Context, e app.Event) { p.run(ctx, key, catalog, d.Example) }, app.EventScope(key, d.Example)),
					app.A().DataSet("testid", "tool-try").Href(sandboxURL(catalog, d.Example)).Text("Try it in the Sandbox"),
				),
				app.If(p.ran[key] != "", func() app.UI {
					return app.Pre().Class("output").DataSet("testid", "tool-result").Aria("live", "polite").Text(p.ran[key])
				}),
			)
		}),
	)
}

func (p *ToolsPage) run(ctx app.Context, key, catalog, example string) {
	refresh(ctx, func() (protocol.CallResult, error) { return tab.Call(example, catalog) }, func(r protocol.CallResult, err error) {
		if p.ran == nil {
			p.ran = map[string]string{}
		}
		switch {
		case err != nil:
			p.ran[key] = err.Error()
		case r.Error != "":
			p.ran[key] = r.Error
		default:
			p.ran[key] = Pretty(r.Result)
		}
	})
}

func paramTable(ps []ParamDoc, withRequired bool) app.UI {
	if len(ps) == 0 {
		return app.P().Class("small").Text("None.")
	}
	return app.Div().Class("table-box").Body(app.Table().Class("params").Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("name"), app.Th().Scope("col").Text("type"),
			app.If(withRequired, func() app.UI { return app.Th().Scope("col").Text("required") }),
			app.Th().Scope("col").Text("description"),
		)),
		app.TBody().Body(app.Range(ps).Slice(func(i int) app.UI {
			q := ps[i]
			return app.Tr().DataSet("testid", "param-row").DataSet("name", q.Name).Body(
				app.Td().Body(app.Code().Text(q.Name)), app.Td().Text(q.Type),
				app.If(withRequired, func() app.UI { return app.Td().Text(map[bool]string{true: "yes", false: "no"}[q.Required]) }),
				app.Td().Text(q.Description),
			)
		})),
	))
}
