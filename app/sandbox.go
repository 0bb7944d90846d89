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
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render, which has no engine and so shows the page empty, and the component tests).
func (p *SandboxPage) OnPreRender(ctx app.Context) { p.OnMount(ctx) }

// OnMount fetches the world.
func (p *SandboxPage) OnMount(ctx app.Context) {
	p.catalog = "apis"
	p.refreshWorld(ctx)
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) { p.output = ""; p.refreshWorld(ctx) })
	ctx.Handle(dataCleared, func(ctx app.Context, a app.Action) { p.refreshWorld(ctx) })
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

// Render draws the page.
func (p *SandboxPage) Render() app.UI {
	examples := Examples(p.world)
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
					p.catalog = ctx.JSSrc().Get("value").String()
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
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
					e.PreventDefault()
					p.run(ctx)
				}
			}),
		app.Div().Class("row").Body(
			app.Button().Class("primary").DataSet("testid", "sandbox-run").Disabled(p.busy).Text("Run (Ctrl+Enter)").
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
					})
				}),
			)
		}),
		errorBox(p.err),
		app.H2().Text("Result"),
		app.Pre().Class(map[bool]string{true: "output error", false: "output"}[p.outErr]).DataSet("testid", "sandbox-output").Aria("live", "polite").Text(p.output),
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
					b := app.Button().Class("link-button").DataSet("testid", "db-"+n).Text(label).OnClick(func(ctx app.Context, e app.Event) { p.selected = n })
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
	var e struct {
		Exception *string `json:"exception"`
	}
	if json.Unmarshal(env, &e) != nil || e.Exception == nil {
		return ""
	}
	return *e.Exception
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
		p.world = newWorld(cw.w)
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
	})
}
