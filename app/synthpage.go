package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/synth"
)

// synthStyles are the Synthesize page's style choices, with their labels.
var synthStyles = [][2]string{
	{protocol.StyleSimple, "simple (one call of one tool)"},
	{protocol.StyleMultiple, "multiple (one call, chosen among several tools)"},
	{protocol.StyleParallel, "parallel (several calls of one tool at once)"},
	{protocol.StyleParallelMultiple, "parallel-multiple (calls of several tools at once)"},
	{"missing_value", "special case: a required value is missing"},
	{"no_tool", "special case: no tool fits"},
	{"ambiguous", "special case: the request is ambiguous"},
	{"wrong_value", "special case: a value in a wrong form"},
}

// synthesizer runs one synthesis at a time for the tab, in the background (the run goes on while the
// user visits other pages; the page reads its state when it renders).
type synthesizer struct {
	mu      sync.Mutex
	running bool
	cancel  context.CancelFunc
	cands   []synth.Candidate
	prog    synth.Progress
	out     *synth.Outcome
	err     string
}

// synthesis is the tab's synthesizer.
var synthesis = &synthesizer{}

// synthView is what the page shows of the synthesizer.
type synthView struct {
	Running bool
	Cands   []synth.Candidate
	Prog    synth.Progress
	Out     *synth.Outcome
	Err     string
}

func (s *synthesizer) view() synthView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return synthView{Running: s.running, Cands: append([]synth.Candidate(nil), s.cands...), Prog: s.prog, Out: s.out, Err: s.err}
}

// start runs cfg against the endpoint in the background; the key stays in the model client.
func (s *synthesizer) start(cfg synth.Config, settings model.Settings) error {
	if tab.Engine == nil {
		return errors.New("the engine is not running")
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := settings.Validate(); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "model: ") + " (set the endpoint on the Run a model page)")
	}
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return errors.New("a synthesis is going on: cancel it or wait for it to end")
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.running, s.cancel, s.cands, s.prog, s.out, s.err = true, cancel, nil, synth.Progress{Total: cfg.Count}, nil, ""
	s.mu.Unlock()
	go func() {
		defer cancel()
		opt := synth.Options{
			Candidate: func(c synth.Candidate) { s.mu.Lock(); s.cands = append(s.cands, c); s.mu.Unlock() },
			Progress:  func(p synth.Progress) { s.mu.Lock(); s.prog = p; s.mu.Unlock() },
		}
		out, err := synth.Run(ctx, tab.Engine.Do, model.New(settings), cfg, opt)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.running, s.out = false, out
		if err != nil {
			s.err = err.Error()
		}
	}()
	return nil
}

func (s *synthesizer) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// SynthPage generates verified dialogues with the model of the Run page's endpoint: the choice of
// tools, style, count and seeds; our prompt; the funnel and every rejection's reason; the accepted
// dialogues as this tab's data, a zip in the original layout and training JSONL.
type SynthPage struct {
	app.Compo
	cfg       synth.Config
	toolsText string
	tools     []string
	prompt    string
	settings  RunSettings
	key       string
	view      synthView
	watching  bool
	err, msg  string
	busy      bool
	// mc is the page's own context (from OnMount): work that outlives the button that started it
	// reports through it, since a button's context dies with the button.
	mc app.Context
}

// OnPreRender does the mount's work where go-app renders without a browser.
func (p *SynthPage) OnPreRender(ctx app.Context) { p.OnMount(ctx) }

// OnMount reads the Run page's endpoint settings and key, the catalog's tools and the prompt.
func (p *SynthPage) OnMount(ctx app.Context) {
	p.mc = ctx
	if p.cfg.Style == "" {
		p.cfg = synth.Config{Style: protocol.StyleSimple, Count: 10, Seeds: synth.DefaultSeeds}
	}
	p.settings = DefaultRunSettings()
	var s RunSettings
	if tab.Store.Get(runSettingsKey, &s) == nil && s.BaseURL != "" {
		p.settings = s
	}
	p.key, _ = vault.Load()
	p.view = synthesis.view()
	if p.view.Running {
		p.watch(ctx)
	}
	refresh(ctx, func() (protocol.Catalog, error) {
		return call[protocol.Catalog](tab.Engine, protocol.Request{Op: protocol.OpCatalog, Form: protocol.FormNative})
	}, func(c protocol.Catalog, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		p.tools = toolNames(c)
	})
	p.buildPrompt(ctx)
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) { p.buildPrompt(ctx) })
}

// toolNames reads the tools' names from a catalog's schemas.
func toolNames(c protocol.Catalog) []string {
	entries, _ := c.Entries()
	var names []string
	for _, t := range entries {
		if t.Name != "" {
			names = append(names, t.Name)
		}
	}
	return names
}

// buildPrompt asks for the prompt of the current choice, in the background.
func (p *SynthPage) buildPrompt(ctx app.Context) {
	cfg := p.config()
	refresh(ctx, func() (string, error) {
		pr, err := synth.BuildPrompt(context.Background(), tab.Engine.Do, cfg)
		return pr.Text(max(cfg.Count, 1)), err
	}, func(text string, err error) {
		if err != nil {
			p.prompt = "No prompt: " + err.Error()
			return
		}
		p.prompt = text
	})
}

// config is the form's choice as a synthesis config.
func (p *SynthPage) config() synth.Config {
	cfg := p.cfg
	cfg.Tools = nil
	for _, t := range strings.Split(p.toolsText, ",") {
		if t = strings.TrimSpace(t); t != "" {
			cfg.Tools = append(cfg.Tools, t)
		}
	}
	if cfg.Seeds == 0 {
		cfg.Seeds = -1 // the form's 0 means none; the config's 0 means the default
	}
	return cfg
}

// watch redraws the progress while a synthesis goes on.
func (p *SynthPage) watch(ctx app.Context) {
	pollWhileRunning(ctx, &p.watching, func() (synthView, bool) {
		v := synthesis.view()
		return v, v.Running
	}, func(v synthView) { p.view = v })
}

// Render draws the page.
func (p *SynthPage) Render() app.UI {
	v := p.view
	return shell("/synth", "Synthesize data",
		app.P().Class("lead").Text("Generate new, verified function-calling dialogues with your model, as APIGen does: the model proposes each candidate as JSON; the engine in this tab checks its format, runs its calls in a fresh world, checks every argument is grounded and that it is new; then the same model judges it with a fixed rubric. Only candidates that pass every stage are kept."),
		p.renderForm(v.Running),
		errorBox(p.err),
		errorBox(v.Err),
		note(p.msg),
		p.renderPrompt(),
		p.renderProgress(v),
	)
}

func (p *SynthPage) renderForm(running bool) app.UI {
	host := endpointHost(p.settings.BaseURL)
	if host == "" {
		host = "no endpoint yet"
	}
	set := func(f func(ctx app.Context, v string)) app.EventHandler {
		return func(ctx app.Context, e app.Event) {
			f(ctx, ctx.JSSrc().Get("value").String())
			p.buildPrompt(p.mc)
		}
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(strings.TrimSpace(s)); return n }
	return app.Section().Class("card").Aria("labelledby", "synth-form-h").Body(
		app.H2().ID("synth-form-h").Text("What to make"),
		app.P().Class("small").DataSet("testid", "synth-endpoint").Body(
			app.Text(fmt.Sprintf("Model: %s at %s, with the endpoint settings and key of ", orDash(p.settings.Model), host)),
			app.A().Href("/run").Text("Run a model"),
			app.Text(". The key is sent only to that endpoint and is never saved with the data."),
		),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Catalog "),
				app.Select().DataSet("testid", "synth-catalog").Body(
					app.Option().Value("apis").Selected(true).Text("apis (levels 1 and 2)"),
				),
			),
			app.Label().Class("field grow").Body(
				app.Span().Text("Tools "),
				app.Input().Type("text").DataSet("testid", "synth-tools").Value(p.toolsText).Attr("list", "synth-tool-names").
					Placeholder("any (or names, comma-separated)").OnChange(set(func(ctx app.Context, v string) { p.toolsText = v })),
				app.DataList().ID("synth-tool-names").Body(app.Range(p.tools).Slice(func(i int) app.UI { return app.Option().Value(p.tools[i]) })),
			),
		),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Style "),
				app.Select().DataSet("testid", "synth-style").OnChange(set(func(ctx app.Context, v string) { p.cfg.Style = v })).Body(
					app.Range(synthStyles).Slice(func(i int) app.UI {
						return app.Option().Value(synthStyles[i][0]).Selected(synthStyles[i][0] == p.cfg.Style).Text(synthStyles[i][1])
					}),
				),
			),
			app.Label().Class("field").Body(
				app.Span().Text("How many "),
				app.Input().Type("number").Min("1").Max(strconv.Itoa(synth.MaxCount)).DataSet("testid", "synth-count").Value(strconv.Itoa(p.cfg.Count)).
					OnChange(set(func(ctx app.Context, v string) { p.cfg.Count = atoi(v) })),
			),
			app.Label().Class("field").Body(
				app.Span().Text("Seed examples "),
				app.Input().Type("number").Min("0").Max(strconv.Itoa(synth.MaxSeeds)).DataSet("testid", "synth-seeds").Value(strconv.Itoa(p.cfg.Seeds)).
					OnChange(set(func(ctx app.Context, v string) { p.cfg.Seeds = max(atoi(v), 0) })),
			),
		),
		app.Div().Class("row").Body(
			app.Button().Class("primary").DataSet("testid", "synth-start").Disabled(running).Text("Start").OnClick(p.onStart),
			app.Button().DataSet("testid", "synth-cancel").Disabled(!running).Text("Cancel").OnClick(func(ctx app.Context, e app.Event) { synthesis.stop() }),
		),
	)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func (p *SynthPage) renderPrompt() app.UI {
	return app.Details().Class("card").Body(
		app.Summary().Text("Our prompt (what the model is asked for each candidate)"),
		app.Pre().Class("prompt").DataSet("testid", "synth-prompt").Text(p.prompt),
	)
}

func (p *SynthPage) onStart(ctx app.Context, e app.Event) {
	p.err, p.msg = "", ""
	p.key, _ = vault.Load()
	if err := synthesis.start(p.config(), p.settings.Endpoint(p.key)); err != nil {
		p.err = err.Error()
		return
	}
	p.view = synthesis.view()
	p.watch(p.mc)
}

func (p *SynthPage) renderProgress(v synthView) app.UI {
	if !v.Running && v.Out == nil && len(v.Cands) == 0 {
		return nil
	}
	f := synth.Tally(v.Prog.Total, v.Cands)
	if v.Out != nil {
		f = v.Out.Funnel
	}
	state := "running"
	if !v.Running {
		state = "done"
		if v.Out != nil && v.Out.Cancelled {
			state = "cancelled"
		}
	}
	return app.Section().Class("card").DataSet("testid", "synth-result").DataSet("state", state).Body(
		app.H2().Text("Funnel"),
		app.P().DataSet("testid", "synth-progress").Aria("live", "polite").
			Text(fmt.Sprintf("%d of %d candidates, %d accepted (%s).", v.Prog.Done, v.Prog.Total, f.Accepted, state)),
		app.Table().DataSet("testid", "synth-funnel").Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("Stage"), app.Th().Text("Entered"), app.Th().Text("Passed"), app.Th().Text("Failed"))),
			app.TBody().Body(
				app.Range(f.Stages).Slice(func(i int) app.UI {
					s := f.Stages[i]
					return app.Tr().DataSet("testid", "synth-stage").DataSet("stage", s.Stage).
						DataSet("entered", s.Entered).DataSet("passed", s.Passed).DataSet("failed", s.Failed).Body(
						app.Td().Text(s.Stage), app.Td().Text(s.Entered), app.Td().Text(s.Passed), app.Td().Text(s.Failed))
				}),
			),
		),
		app.P().DataSet("testid", "synth-accepted").DataSet("count", f.Accepted).
			Text(fmt.Sprintf("Accepted %d; model requests that failed: %d.", f.Accepted, f.RequestsFailed)),
		app.If(!v.Running && f.Accepted > 0, func() app.UI {
			return app.Div().Class("row").Body(
				app.Button().Class("primary").DataSet("testid", "synth-load").Disabled(p.busy).Text("Use as this tab's data").OnClick(p.onLoad),
				app.Button().DataSet("testid", "synth-download-zip").Disabled(p.busy).Text("Download zip (original layout)").OnClick(p.onZip),
				app.Button().DataSet("testid", "synth-download-jsonl").Disabled(p.busy).Text("Download training JSONL").OnClick(p.onTraining),
			)
		}),
		app.H3().Text("Candidates"),
		app.Ol().Class("synth-candidates").Body(
			app.Range(v.Cands).Slice(func(i int) app.UI { return renderCandidate(v.Cands[i]) }),
		),
	)
}

// renderCandidate shows one candidate: its verdict, why it was rejected, and the model's text (as
// text, never as markup).
func renderCandidate(c synth.Candidate) app.UI {
	verdict, why := "accepted", ""
	switch {
	case c.Error != "":
		verdict, why = "request failed", c.Error
	case !c.Accepted:
		verdict, why = "rejected at "+c.Stage, c.Reason
	}
	testid := "synth-accepted-candidate"
	if !c.Accepted {
		testid = "synth-rejection"
	}
	return app.Li().DataSet("testid", testid).DataSet("index", c.Index).DataSet("stage", c.Stage).Body(
		app.Strong().Text(fmt.Sprintf("Candidate %d: %s", c.Index, verdict)),
		app.If(why != "", func() app.UI { return app.Span().DataSet("testid", "synth-reason").Text(" — " + why) }),
		app.If(c.Request() != "", func() app.UI { return app.P().Class("small").Text("Request: " + c.Request()) }),
		app.If(c.Judge != nil, func() app.UI {
			return app.P().Class("small").DataSet("testid", "synth-judge").Text(fmt.Sprintf("Judge: %s — %s", yesNo(c.Judge.OK), c.Judge.Reason))
		}),
		app.If(c.Raw != "", func() app.UI {
			return app.Details().Body(app.Summary().Text("The model's answer"), app.Pre().Class("prompt").Text(c.Raw))
		}),
	)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

// synthName names the dataset of a synthesis: its style and the time it ended.
func synthName(o *synth.Outcome) string {
	return "synth-" + strings.ReplaceAll(o.Config.Style, "_", "-") + "-" + time.Now().UTC().Format("20060102-150405")
}

// export runs f on the finished outcome in the background, with the page busy meanwhile.
func (p *SynthPage) export(ctx app.Context, f func(o *synth.Outcome) (string, error)) {
	o := synthesis.view().Out
	if o == nil {
		return
	}
	p.busy, p.err, p.msg = true, "", ""
	refresh(p.mc, func() (string, error) { return f(o) }, func(msg string, err error) {
		p.busy = false
		if err != nil {
			p.err = err.Error()
			return
		}
		p.msg = msg
	})
}

func (p *SynthPage) onLoad(ctx app.Context, e app.Event) {
	p.export(ctx, func(o *synth.Outcome) (string, error) {
		if held := runHolding(); held != "" {
			return "", errors.New("not loaded: " + held + "; the dialogues are kept here, load them then")
		}
		files, err := synth.Dataset(context.Background(), tab.Engine.Do, o)
		if err != nil {
			return "", err
		}
		res, err := tab.Load(synthName(o), files)
		if err != nil {
			return "", err
		}
		p.mc.Dispatch(func(ctx app.Context) { ctx.NewAction(dataChanged) })
		return fmt.Sprintf("“%s” is now this tab's data (%d dialogues): browse, score, run or practise on it like any imported folder.", res.Name, res.Dialogues["level-1-given-desc"]), nil
	})
}

func (p *SynthPage) onZip(ctx app.Context, e app.Event) {
	p.export(ctx, func(o *synth.Outcome) (string, error) {
		files, err := synth.Dataset(context.Background(), tab.Engine.Do, o)
		if err != nil {
			return "", err
		}
		name := synthName(o)
		z, err := synth.Zip(name, files, deflateRaw)
		if err != nil {
			return "", err
		}
		if !downloadBytes(name+".zip", "application/zip", z) {
			return Size(len(z)) + " of zip written.", nil
		}
		return "Saved " + name + ".zip (" + Size(len(z)) + ").", nil
	})
}

func (p *SynthPage) onTraining(ctx app.Context, e app.Event) {
	p.export(ctx, func(o *synth.Outcome) (string, error) {
		text, err := synth.Training(context.Background(), tab.Engine.Do, o)
		if err != nil {
			return "", err
		}
		name := synthName(o) + "-training.jsonl"
		if !download(name, "application/x-ndjson", text) {
			return Size(len(text)) + " of training JSONL written.", nil
		}
		return "Saved " + name + " (" + Size(len(text)) + ").", nil
	})
}
