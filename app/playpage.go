package app

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// PlayPage puts the user in the agent's seat of a level-3 scene: read the request, make calls in the
// scene's own world (engine episode ops; a text list [A(..), B(..)] makes each of its calls), write
// the answer to the user, finish, and get the judgement a model's episode gets (the final world
// against the gold one, the required gold calls achieved, the answer's needs); the gold plan is
// shown after.
type PlayPage struct {
	app.Compo
	scenes   []protocol.DialogueSummary
	file     string
	started  *protocol.EpisodeStarted
	steps    []playStep
	outcome  *protocol.Outcome
	gold     []protocol.Turn
	showPlan bool
	busy     bool
	err      string
}

// playStep is one call the user made and what the world answered.
type playStep struct {
	Call string
	protocol.EpisodeCall
}

// PlayURL is the Play page's address for a scene.
func PlayURL(file string) string { return "/play?" + url.Values{"scene": {file}}.Encode() }

// OnNav reads the scene from the URL and lists the scenes.
func (p *PlayPage) OnNav(ctx app.Context) {
	if app.IsClient {
		p.file = ctx.Page().URL().Query().Get("scene")
	}
	refresh(ctx, func() ([]protocol.DialogueSummary, error) {
		ds, err := tab.Dialogues()
		var out []protocol.DialogueSummary
		for _, d := range ds {
			if d.Level == "level-3" {
				out = append(out, d)
			}
		}
		return out, err
	}, func(ss []protocol.DialogueSummary, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		p.scenes = ss
		if p.file != "" && p.started == nil {
			p.start(ctx)
		}
	})
}

func (p *PlayPage) start(ctx app.Context) {
	file := p.file
	p.busy, p.err = true, ""
	refresh(ctx, func() (protocol.EpisodeStarted, error) {
		return call[protocol.EpisodeStarted](tab.Engine, protocol.Request{Op: protocol.OpEpisodeStart, File: file})
	}, func(st protocol.EpisodeStarted, err error) {
		p.busy = false
		p.steps, p.outcome, p.gold, p.showPlan = nil, nil, nil, false
		if err != nil {
			p.started, p.err = nil, p.missingScene(file, err)
			return
		}
		p.started = &st
	})
}

// missingScene says which scenes exist when the one asked for does not.
func (p *PlayPage) missingScene(file string, err error) string {
	names := make([]string, len(p.scenes))
	for i, s := range p.scenes {
		names[i] = s.File
	}
	if len(names) == 0 {
		return err.Error()
	}
	return err.Error() + ". The scenes are " + strings.Join(names, ", ") + "."
}

func (p *PlayPage) step(ctx app.Context) {
	el := app.Window().GetElementByID("play-input")
	if !el.Truthy() || p.started == nil || p.outcome != nil {
		return
	}
	text := strings.TrimSpace(el.Get("value").String())
	if text == "" {
		p.err = "Type a call first."
		return
	}
	ep := p.started.Episode
	p.busy, p.err = true, ""
	refresh(ctx, func() ([]protocol.EpisodeCall, error) {
		return call[[]protocol.EpisodeCall](tab.Engine, protocol.Request{Op: protocol.OpEpisodeCalls, Episode: ep, Call: jsonString(text)})
	}, func(cs []protocol.EpisodeCall, err error) {
		p.busy = false
		if err != nil {
			p.err = err.Error()
			return
		}
		if len(cs) == 0 {
			p.err = "No call found: write [ToolName(key='value', ...)] or {\"name\": ..., \"arguments\": {...}}; your answer to the user goes in the box below."
			return
		}
		for i, c := range cs {
			shown := text
			if len(cs) > 1 {
				shown = fmt.Sprintf("%s (call %d of %d)", c.Name, i+1, len(cs))
			}
			p.steps = append(p.steps, playStep{Call: shown, EpisodeCall: c})
		}
		el.Set("value", "")
	})
}

func (p *PlayPage) finish(ctx app.Context, e app.Event) {
	if p.started == nil {
		return
	}
	ep, file := p.started.Episode, p.started.File
	reply := ""
	if el := app.Window().GetElementByID("play-reply"); el.Truthy() {
		reply = strings.TrimSpace(el.Get("value").String())
	}
	p.busy = true
	type done struct {
		o    protocol.Outcome
		gold []protocol.Turn
	}
	refresh(ctx, func() (done, error) {
		o, err := call[protocol.Outcome](tab.Engine, protocol.Request{Op: protocol.OpEpisodeFinish, Episode: ep, Reply: reply})
		if err != nil {
			return done{}, err
		}
		d, err := tab.Dialogue("level-3", file)
		if err != nil {
			return done{o: o}, err
		}
		var gold []protocol.Turn
		for _, t := range d.Turns {
			if t.Role == "API" {
				gold = append(gold, t)
			}
		}
		return done{o, gold}, nil
	}, func(d done, err error) {
		p.busy = false
		if err != nil {
			p.err = err.Error()
		}
		p.outcome, p.gold = &d.o, d.gold
	})
}

// Render draws the page.
func (p *PlayPage) Render() app.UI {
	return shell("/play", "Play a scene",
		app.P().Text("Sit in the agent's seat of a level-3 scene: read the request, call tools in the scene's own world "+
			"(text form [Tool(key='value')], a list [A(..), B(..)] for several, or native {\"name\", \"arguments\"}), write your answer "+
			"to the user, then finish. You are judged as a model's episode is: your final world against the gold one, the gold "+
			"calls you achieved (searching for a tool is never required) and what your answer says. The gold plan is shown afterwards."),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Scene "),
				app.Select().DataSet("testid", "play-scene").OnChange(func(ctx app.Context, e app.Event) {
					if f := selectValue(ctx); f != "" {
						p.file, p.started = f, nil
						ctx.Navigate(PlayURL(f))
					}
				}).Body(
					app.Option().Value(anyOption).Selected(p.file == "").Text("choose…"),
					app.Range(p.scenes).Slice(func(i int) app.UI {
						s := p.scenes[i]
						return app.Option().Value(s.File).Selected(s.File == p.file).Text(s.File + " · " + truncate(s.First, 50))
					}),
				),
			),
			app.If(p.started != nil, func() app.UI {
				return app.Button().DataSet("testid", "play-restart").Text("Start again").Disabled(p.busy).OnClick(func(ctx app.Context, e app.Event) { p.start(ctx) })
			}),
		),
		errorBox(p.err),
		app.If(p.started != nil, func() app.UI { return p.scene() }),
	)
}

func (p *PlayPage) scene() app.UI {
	st := p.started
	return app.Div().Body(
		app.Section().Class("card").Aria("labelledby", "req-h").Body(
			app.H2().ID("req-h").Text(st.Scene),
			app.Div().Class("turn turn-User").DataSet("testid", "play-request").Body(app.Span().Class("who").Text("User"), app.P().Text(st.Utterance)),
			app.If(len(st.KeyInfo) > 0, func() app.UI {
				return app.Div().Body(
					app.H3().Text("What the user knows and tells when asked"),
					keyInfoList(st.KeyInfo),
				)
			}),
			app.P().Class("small").Text("Catalog: "+CatalogLabel(st.Catalog)+". "),
			app.A().Href("/tools?catalog="+url.QueryEscape(st.Catalog)).Text("See its tools"),
		),
		app.Section().Class("card").Aria("labelledby", "calls-h").Body(
			app.H2().ID("calls-h").Text("Your calls"),
			app.If(len(p.steps) == 0, func() app.UI { return app.P().Class("small").Text("No calls yet.") }),
			app.Ol().Class("history").Body(app.Range(p.steps).Slice(func(i int) app.UI {
				s := p.steps[i]
				out := Pretty(s.Result)
				if s.Error != "" {
					out = "error: " + s.Error
				}
				return app.Li().DataSet("testid", "play-step").Body(
					app.Code().Text(s.Call),
					app.Pre().Class(map[bool]string{true: "output error", false: "output"}[s.Error != ""]).Text(out),
				)
			})),
			app.If(p.outcome == nil, func() app.UI {
				return app.Div().Body(
					app.Label().For("play-input").Class("block").Text("Next call"),
					app.Textarea().ID("play-input").DataSet("testid", "play-input").Rows(2).Spellcheck(false).
						Placeholder("[ToolSearcher(keywords='…')]").
						OnKeyDown(func(ctx app.Context, e app.Event) {
							if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
								e.PreventDefault()
								p.step(ctx)
							}
						}),
					app.Div().Class("row").Body(
						app.Button().Class("primary").DataSet("testid", "play-call").Disabled(p.busy).Body(app.Text("Call"), keyHint("Ctrl+Enter")).
							OnClick(func(ctx app.Context, e app.Event) { p.step(ctx) }),
					),
					app.Label().For("play-reply").Class("block").Text("Your answer to the user (when the task is done)"),
					app.Textarea().ID("play-reply").DataSet("testid", "play-reply").Rows(3).
						Placeholder("What you tell the user: the facts they asked for, what you did."),
					app.Div().Class("row").Body(
						app.Button().DataSet("testid", "play-finish").Disabled(p.busy).Text("Finish and judge").OnClick(p.finish),
					),
				)
			}),
		),
		app.If(p.outcome != nil, func() app.UI { return p.judgement() }),
	)
}

// keyInfoList shows a scene's key facts one a line (they ran together as one paragraph).
func keyInfoList(lines []string) app.UI {
	return app.Ul().Class("key-info").DataSet("testid", "key-info").Body(app.Range(lines).Slice(func(i int) app.UI {
		return app.Li().Text(lines[i])
	}))
}

func (p *PlayPage) judgement() app.UI {
	o := p.outcome
	verdict, cls := "Not solved", "bad"
	if o.Success {
		verdict, cls = "Solved", "good"
	}
	return app.Section().Class("card").DataSet("testid", "play-outcome").DataSet("success", o.Success).Aria("labelledby", "out-h").Body(
		app.H2().ID("out-h").Text("Judgement"),
		app.P().Class("hint "+cls).Body(app.Strong().Text(verdict+". "),
			app.Text(fmt.Sprintf("You achieved %d of %d required gold calls (milestones %s) in %d call(s) of yours; the final world %s the gold one; your answer %s.",
				o.Matched, o.Gold, Percent(o.Milestone), o.Calls, map[bool]string{true: "matches", false: "differs from"}[o.StateMatch],
				map[bool]string{true: "says what was asked", false: "misses something asked"}[o.AnswerMet]))),
		app.If(len(o.Unmet) > 0, func() app.UI {
			return app.Div().Body(app.H3().Text("What your answer did not say"),
				app.Ul().DataSet("testid", "play-unmet").Body(app.Range(o.Unmet).Slice(func(i int) app.UI { return app.Li().Text(o.Unmet[i]) })))
		}),
		app.If(len(o.Missed) > 0, func() app.UI {
			return app.Div().Body(app.H3().Text("Gold calls you did not make"),
				app.Ul().DataSet("testid", "play-missed").Body(app.Range(o.Missed).Slice(func(i int) app.UI { return app.Li().Body(app.Code().Text(o.Missed[i])) })))
		}),
		app.If(len(o.Diff) > 0, func() app.UI {
			return app.Div().Body(app.H3().Text("Where your final world differs from the gold one"),
				app.Div().Class("table-box").Body(app.Table().Class("diff").DataSet("testid", "play-diff").Body(
					app.THead().Body(app.Tr().Body(app.Th().Scope("col").Text("where"), app.Th().Scope("col").Text("gold"), app.Th().Scope("col").Text("yours"))),
					app.TBody().Body(app.Range(o.Diff).Slice(func(i int) app.UI {
						d := o.Diff[i]
						return app.Tr().Class("diff-changed").Body(app.Td().Body(app.Code().Text(d.Path)), app.Td().Body(app.Pre().Text(Pretty(d.Gold))), app.Td().Body(app.Pre().Text(Pretty(d.Got))))
					})),
				)))
		}),
		app.If(!p.showPlan, func() app.UI {
			return app.Button().DataSet("testid", "play-show-plan").Text("Show the gold plan").OnClick(func(ctx app.Context, e app.Event) { p.showPlan = true })
		}).Else(func() app.UI {
			return app.Div().Body(app.H3().Text("The gold plan"),
				app.Ol().DataSet("testid", "play-plan").Body(app.Range(p.gold).Slice(func(i int) app.UI {
					t := p.gold[i]
					return app.Li().Body(app.Code().Text(t.APIName + " " + string(t.Params)))
				})))
		}),
	)
}
