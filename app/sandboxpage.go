package app

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// SandboxPage runs calls in this tab's own world, shows the databases change, and resets.
type SandboxPage struct {
	app.Compo
	catalog  string
	input    string
	output   string
	outErr   bool
	world    *world
	selected string
	busy     bool
	err      string
	// docs are the tools of each catalog, for the examples and the completion.
	docs    map[string][]ToolDoc
	suggest []Suggestion
	// diffNames and diff are what the last call changed, database by database.
	diffNames []string
	diff      map[string][]RowChange
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render, which has no engine and so shows the page empty, and the component tests).
func (p *SandboxPage) OnPreRender(ctx app.Context) { p.OnMount(ctx) }

// OnNav takes a catalog and a call to type in from the URL (?catalog=lv3_apis&call=...), as the
// Tools page's "Try it in the Sandbox" links give them.
func (p *SandboxPage) OnNav(ctx app.Context) {
	if !app.IsClient {
		return
	}
	q := ctx.Page().URL().Query()
	if c := q.Get("catalog"); contains(Catalogs, c) {
		p.catalog = c
	}
	if c := q.Get("call"); c != "" {
		p.input = c
		if el := app.Window().GetElementByID("sandbox-input"); el.Truthy() {
			el.Set("value", c)
		}
	}
}

// OnMount fetches the world.
func (p *SandboxPage) OnMount(ctx app.Context) {
	if p.catalog == "" {
		p.catalog = "apis"
	}
	p.refreshWorld(ctx)
	p.loadDocs(ctx)
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) {
		p.output = ""
		p.refreshWorld(ctx)
		if p.docs == nil {
			p.loadDocs(ctx) // refused while the engine could not start
		}
	})
	ctx.Handle(dataCleared, func(ctx app.Context, a app.Action) { p.refreshWorld(ctx) })
}

// loadDocs fetches the catalogs' tools (the example chips and the completion).
func (p *SandboxPage) loadDocs(ctx app.Context) {
	refresh(ctx, func() (map[string][]ToolDoc, error) {
		out := map[string][]ToolDoc{}
		for _, c := range Catalogs {
			r, err := call[protocol.Catalog](tab.Engine, protocol.Request{Op: protocol.OpCatalog, Catalog: c, Form: protocol.FormNative})
			if err != nil {
				return nil, err
			}
			if out[c], err = ToolDocs(r); err != nil {
				return nil, err
			}
		}
		return out, nil
	}, func(d map[string][]ToolDoc, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		p.docs = d
	})
}

func (p *SandboxPage) refreshWorld(ctx app.Context) {
	refresh(ctx, tab.World, func(w protocol.World, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		p.world, p.err = newWorld(w), ""
	})
}

// world is the sandbox world as the page shows it: the engine's answer, its databases decoded once
// with their order kept.
type world struct {
	protocol.World
	dbs OrderedObject
}

func newWorld(w protocol.World) *world {
	v := &world{World: w}
	_ = json.Unmarshal(w.Databases, &v.dbs)
	return v
}

// Examples returns calls to try, made from the world's first account (none when it has no accounts).
func Examples(w *world) []string {
	if w == nil {
		return nil
	}
	raw, ok := w.dbs.Get("Account")
	if !ok {
		return nil
	}
	var accounts OrderedObject
	if json.Unmarshal(raw, &accounts) != nil || len(accounts) == 0 {
		return nil
	}
	var a struct {
		Password string `json:"password"`
		Token    string `json:"token"`
	}
	if json.Unmarshal(accounts[0].Value, &a) != nil {
		return nil
	}
	user := accounts[0].Key
	return []string{
		fmt.Sprintf("[GetUserToken(username='%s', password='%s')]", user, a.Password),
		fmt.Sprintf("[QueryAlarm(token='%s', time='2023-04-03 07:15:00')]", a.Token),
		fmt.Sprintf("[AddAlarm(token='%s', time='2023-06-01 06:30:00')]", a.Token),
		fmt.Sprintf(`{"name": "AddAgenda", "arguments": {"token": "%s", "content": "Dentist", "time": "2023-06-02 09:00:00", "location": "Main St"}}`, a.Token),
	}
}

// CatalogExamples returns up to n example calls of a catalog's tools (their gold calls from the data).
func CatalogExamples(docs []ToolDoc, n int) []string {
	var out []string
	for _, d := range docs {
		if d.Example != "" && len(out) < n {
			out = append(out, d.Example)
		}
	}
	return out
}

// examples are the chips of the chosen catalog: calls made from the world's first account for the
// levels 1-2 tools, the data's own calls for the level-3 ones (whose tools take no token).
func (p *SandboxPage) examples() []string {
	if p.catalog == "lv3_apis" {
		return CatalogExamples(p.docs["lv3_apis"], 4)
	}
	return Examples(p.world)
}

// onType follows the call being typed and proposes tool and parameter names.
func (p *SandboxPage) onType(ctx app.Context, e app.Event) {
	el := ctx.JSSrc()
	p.input = el.Get("value").String()
	p.suggest = Complete(p.input, ByteOffset(p.input, el.Get("selectionStart").Int()), p.docs[p.catalog])
	if len(p.suggest) > 8 {
		p.suggest = p.suggest[:8]
	}
}

// accept applies a suggestion and puts the cursor after it.
func (p *SandboxPage) accept(s Suggestion) {
	el := app.Window().GetElementByID("sandbox-input")
	if !el.Truthy() {
		return
	}
	v := el.Get("value").String()
	caret := ByteOffset(v, el.Get("selectionStart").Int())
	if s.From > caret || caret > len(v) {
		return
	}
	next := v[:s.From] + s.Insert + v[caret:]
	el.Set("value", next)
	pos := utf16Len(v[:s.From] + s.Insert)
	el.Call("focus")
	el.Call("setSelectionRange", pos, pos)
	p.input = next
	p.suggest = Complete(next, len(v[:s.From]+s.Insert), p.docs[p.catalog])
}

// Render draws the page.
func (p *SandboxPage) Render() app.UI {
	examples := p.examples()
	var changed []string
	var history []protocol.SandboxCall
	var names []string
	if p.world != nil {
		history = p.world.History
		// Names starting with "_" are the engine's own bookkeeping, not databases of the original.
		for _, n := range p.world.Changed {
			if !strings.HasPrefix(n, "_") {
				changed = append(changed, n)
			}
		}
		for _, f := range p.world.dbs {
			if !strings.HasPrefix(f.Key, "_") {
				names = append(names, f.Key)
			}
		}
	}
	sort.Strings(changed)
	return shell("/sandbox", "Sandbox",
		app.P().Text("Type a call and run it in this tab's own world: another tab has a world of its own. "+
			"Write it as the original does, [ToolName(key='value', ...)], or as a native call {\"name\": ..., \"arguments\": {...}}."),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Catalog "),
				app.Select().DataSet("testid", "catalog-select").OnChange(func(ctx app.Context, e app.Event) {
					p.catalog, p.suggest = ctx.JSSrc().Get("value").String(), nil
				}).Body(
					app.Option().Value("apis").Selected(p.catalog != "lv3_apis").Text("apis (levels 1-2)"),
					app.Option().Value("lv3_apis").Selected(p.catalog == "lv3_apis").Text("lv3_apis (level 3)"),
				),
			),
		),
		app.Label().For("sandbox-input").Class("block").Text("Call"),
		app.Textarea().ID("sandbox-input").DataSet("testid", "sandbox-input").Rows(3).Spellcheck(false).Text(p.input).
			Placeholder("[GetUserToken(username='…', password='…')]").
			OnChange(func(ctx app.Context, e app.Event) { p.input = ctx.JSSrc().Get("value").String() }).
			OnInput(p.onType).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
					e.PreventDefault()
					p.run(ctx)
				}
			}),
		app.If(len(p.suggest) > 0, func() app.UI {
			return app.Div().Class("examples").DataSet("testid", "sandbox-suggestions").Body(
				app.Span().Class("small").Text("Complete: "),
				app.Range(p.suggest).Slice(func(i int) app.UI {
					sg := p.suggest[i]
					return app.Button().Class("chip").DataSet("testid", "sandbox-suggest").Text(sg.Label).
						OnClick(func(ctx app.Context, e app.Event) { p.accept(sg) }, app.EventScope(sg.Label, sg.From, sg.Insert))
				}),
			)
		}),
		app.Div().Class("row").Body(
			app.Button().Class("primary").DataSet("testid", "sandbox-run").Disabled(p.busy).Body(app.Text("Run"), keyHint("Ctrl+Enter")).
				OnClick(func(ctx app.Context, e app.Event) { p.run(ctx) }),
			app.Button().DataSet("testid", "sandbox-reset").Disabled(p.busy).Text("Reset the world").OnClick(p.reset),
		),
		app.If(len(examples) > 0, func() app.UI {
			return app.Div().Class("examples").Body(
				app.Span().Class("small").Text("Try: "),
				app.Range(examples).Slice(func(i int) app.UI {
					ex := examples[i]
					return app.Button().Class("chip").DataSet("testid", "sandbox-example").Text(truncate(ex, 60)).Title(ex).OnClick(func(ctx app.Context, e app.Event) {
						p.input = ex
						app.Window().GetElementByID("sandbox-input").Set("value", ex)
					}, app.EventScope(ex))
				}),
			)
		}),
		errorBox(p.err),
		app.H2().Text("Result"),
		app.Pre().Class(map[bool]string{true: "output error", false: "output"}[p.outErr]).DataSet("testid", "sandbox-output").Aria("live", "polite").Text(p.output),
		app.If(len(p.diffNames) > 0, func() app.UI { return diffView(p.diffNames, p.diff) }),
		app.Div().Class("two").Body(
			app.Section().Body(
				app.H2().Text("Databases"),
				app.P().Class("small").DataSet("testid", "sandbox-changed").Text("Changed: "+orNone(changed)),
				app.Ul().Class("dbs").Body(app.Range(names).Slice(func(i int) app.UI {
					n := names[i]
					label := n
					if contains(changed, n) {
						label += " (changed)"
					}
					b := app.Button().Class("link-button").DataSet("testid", "db-"+n).Text(label).OnClick(func(ctx app.Context, e app.Event) { p.selected = n }, app.EventScope(n))
					return app.Li().Body(b)
				})),
				app.If(p.selected != "" && p.world != nil, func() app.UI {
					raw, _ := p.world.dbs.Get(p.selected)
					return app.Div().Body(app.H3().Text(p.selected), app.Pre().Class("db").TabIndex(0).DataSet("testid", "sandbox-db").Text(Pretty(raw)))
				}),
			),
			app.Section().Body(
				app.H2().Text("History"),
				app.If(len(history) == 0, func() app.UI { return app.P().Class("small").Text("No calls yet.") }),
				app.Ol().Class("history").Body(app.Range(history).Slice(func(i int) app.UI {
					h := history[i]
					status := "ok"
					if h.Error != "" {
						status = "error: " + h.Error
					} else if exc := exception(h.Result); exc != "" {
						status = "exception: " + exc
					}
					return app.Li().DataSet("testid", "sandbox-history").Body(app.Code().Text(h.Call), app.Span().Class("small").Text(" · "+h.Catalog+" · "+status))
				})),
			),
		),
	)
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

// exception returns the exception text of a call envelope ("" when none).
func exception(env json.RawMessage) string {
	e, _ := protocol.ReadEnvelope(env)
	text, _ := e.Raised()
	return text
}

func (p *SandboxPage) run(ctx app.Context) {
	if el := app.Window().GetElementByID("sandbox-input"); el.Truthy() {
		p.input = el.Get("value").String()
	}
	text, catalog := strings.TrimSpace(p.input), p.catalog
	if text == "" {
		p.output, p.outErr = "Type a call first.", true
		return
	}
	p.busy = true
	refresh(ctx, func() (callAndWorld, error) {
		r, err := tab.Call(text, catalog)
		if err != nil {
			return callAndWorld{}, err
		}
		w, err := tab.World()
		return callAndWorld{r, w}, err
	}, func(cw callAndWorld, err error) {
		p.busy = false
		if err != nil {
			p.output, p.outErr = err.Error(), true
			return
		}
		r := cw.r
		if r.Error != "" {
			p.output, p.outErr = r.Error, true
		} else {
			p.output, p.outErr = Pretty(r.Result), false
		}
		next := newWorld(cw.w)
		if p.world != nil {
			p.diffNames, p.diff = DiffWorld(visible(p.world.dbs), visible(next.dbs))
		}
		p.world = next
		if len(r.Changed) > 0 && p.selected == "" {
			p.selected = r.Changed[0]
		}
	})
}

type callAndWorld struct {
	r protocol.CallResult
	w protocol.World
}

func (p *SandboxPage) reset(ctx app.Context, e app.Event) {
	p.busy = true
	refresh(ctx, func() (protocol.World, error) {
		if err := tab.Reset(); err != nil {
			return protocol.World{}, err
		}
		return tab.World()
	}, func(w protocol.World, err error) {
		p.busy = false
		if err != nil {
			p.output, p.outErr = err.Error(), true
			return
		}
		p.world, p.output, p.outErr = newWorld(w), "The world is back to its initial state.", false
		p.diffNames, p.diff = nil, nil
	})
}

// visible leaves out the engine's own bookkeeping (names starting with "_").
func visible(o OrderedObject) OrderedObject {
	out := make(OrderedObject, 0, len(o))
	for _, f := range o {
		if !strings.HasPrefix(f.Key, "_") {
			out = append(out, f)
		}
	}
	return out
}

// diffView shows what a call changed: for each database, the rows added, removed and changed.
func diffView(names []string, diff map[string][]RowChange) app.UI {
	return app.Section().Class("card").DataSet("testid", "sandbox-diff").Aria("labelledby", "diff-h").Body(
		app.H2().ID("diff-h").Text("What the call changed"),
		app.Range(names).Slice(func(i int) app.UI {
			n := names[i]
			rows := diff[n]
			return app.Div().DataSet("testid", "diff-db").DataSet("db", n).Body(
				app.H3().Text(n),
				app.Div().Class("table-box").Body(app.Table().Class("diff").Body(
					app.THead().Body(app.Tr().Body(app.Th().Scope("col").Text("row"), app.Th().Scope("col").Text("change"),
						app.Th().Scope("col").Text("before"), app.Th().Scope("col").Text("after"))),
					app.TBody().Body(app.Range(rows).Slice(func(j int) app.UI {
						r := rows[j]
						return app.Tr().Class("diff-"+r.Kind).DataSet("testid", "diff-row").DataSet("kind", r.Kind).DataSet("key", r.Key).Body(
							app.Td().Body(app.Code().Text(r.Key)), app.Td().Body(app.Span().Class("tag diff-tag-"+r.Kind).Text(r.Kind)),
							app.Td().Body(rowValue(r.Old)), app.Td().Body(rowValue(r.New)),
						)
					})),
				)),
			)
		}),
	)
}

// rowValue shows a row's value in a diff, or a dash where the row does not exist.
func rowValue(v json.RawMessage) app.UI {
	if len(v) == 0 {
		return app.Span().Class("small").Text("—")
	}
	return app.Pre().Text(Pretty(v))
}
