package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// runSettingsKey keeps the Run form's settings (never the key) in the tab's store.
const runSettingsKey = "run/settings"

// progressEvery is how often a running run redraws the page: at most five times a second, so a run
// of thousands of samples never floods the main thread with renders.
const progressEvery = 200 * time.Millisecond

// RunPage runs a model from the tab: endpoint settings, a connection test, Start and Cancel, the
// progress, the failed requests (retryable alone), and resuming a run a reload interrupted.
type RunPage struct {
	app.Compo
	s          RunSettings
	key        string
	remember   bool
	testing    bool
	tested     []string
	testErr    bool
	state      RunState
	unfinished []*SavedRun
	err        string
	msg        string
	// bad says, by a number field's testid, what is wrong with what was typed there: the field
	// keeps it and the settings keep their last good value, until it is put right (see numberField).
	bad      map[string]string
	watching bool
	// batching says a batch file is being written or scored; batchMsg says how it went,
	// batchBad lists the lines of the provider's files that could not be used; batchOut and
	// batchErr are the output and error files loaded.
	batching bool
	batchMsg string
	batchBad []run.LineError
	batchOut run.BatchFile
	batchErr run.BatchFile
	// mc is the page's own context (from OnMount): work that outlives the button that started it
	// (a run, a test) reports through it, since a button's context dies with the button.
	mc app.Context
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render and the component tests).
func (p *RunPage) OnPreRender(ctx app.Context) { p.OnMount(ctx) }

// OnMount reads the saved settings and key, and looks for runs a reload interrupted.
func (p *RunPage) OnMount(ctx app.Context) {
	p.mc = ctx
	p.s = DefaultRunSettings()
	var s RunSettings
	if tab.Store.Get(runSettingsKey, &s) == nil && s.BaseURL != "" {
		p.s = s
	}
	// The page sets no step limit of its own: one kept from an older, smaller default is raised.
	p.s.Steps = max(p.s.Steps, run.DefaultSteps)
	p.key, p.remember = vault.Load()
	p.state = runner.State()
	if p.state.Running {
		p.watch(ctx)
	}
	p.findUnfinished(ctx)
	if id := ctx.Page().URL().Query().Get("run"); id != "" && !p.state.Running {
		p.show(ctx, id)
	}
	warmRunPath()
	ctx.Handle(dataCleared, func(ctx app.Context, a app.Action) { p.key, p.remember, p.unfinished = "", false, nil })
}

// show makes the run kept as id the one the page shows (the Runs page links here with ?run=ID to
// retry a run's failed requests): its progress card, its robustness run, its failures.
func (p *RunPage) show(ctx app.Context, id string) {
	if tab.Engine == nil {
		return
	}
	ctx.Async(func() {
		saved, err := runStore.Whole(id)
		var runs []*SavedRun
		if err == nil {
			runs, err = runStore.Runs()
		}
		if err == nil {
			runner.Show(saved, runs)
		}
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				p.err = "The run asked for cannot be shown: " + err.Error()
			}
			p.state = runner.State()
		})
	})
}

func (p *RunPage) findUnfinished(ctx app.Context) {
	if tab.Engine == nil {
		return
	}
	ctx.Async(func() {
		rs, err := runStore.Runs()
		cur := runner.State()
		var out []*SavedRun
		for _, r := range rs {
			if r.Status == runRunning && (cur.Run == nil || cur.Run.ID != r.ID) {
				if n, err := runStore.Count(r.ID); err == nil {
					r.Total = n // what was kept, shown until the resume knows the total
				}
				out = append(out, r)
			}
		}
		sortRuns(out)
		ctx.Dispatch(func(app.Context) {
			if err != nil {
				p.err = err.Error()
			}
			p.unfinished = out
		})
	})
}

// watch redraws the progress while a run goes on, at most every progressEvery.
func (p *RunPage) watch(ctx app.Context) {
	pollWhileRunning(ctx, &p.watching, func() (RunState, bool) {
		st := runner.State()
		return st, st.Running
	}, func(st RunState) { p.state = st })
}

// started shows the outcome of starting a run (a start, a resume, a retry): its error, or the
// run's progress from now on.
func (p *RunPage) started(ctx app.Context, err error) {
	if err != nil {
		p.err = err.Error()
		return
	}
	p.state = runner.State()
	p.watch(ctx)
	// The progress is drawn below the settings: on a phone, far below the Start button pressed.
	ctx.ScrollTo("run-progress-h")
}

// pollWhileRunning reads the state of background work every progressEvery and hands each reading
// to show on the page's goroutine, until a reading says the work has ended (or the page goes).
// watching is the page's flag that one poll is going on: a second call while it is set does
// nothing.
func pollWhileRunning[T any](ctx app.Context, watching *bool, read func() (T, bool), show func(T)) {
	if *watching {
		return
	}
	*watching = true
	ctx.Async(func() {
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			v, running := read()
			ctx.Dispatch(func(app.Context) {
				show(v)
				if !running {
					*watching = false
				}
			})
			if !running {
				return
			}
		}
	})
}

func (p *RunPage) save() {
	if err := tab.Store.Set(runSettingsKey, p.s); err != nil {
		p.err = err.Error()
	}
}

// Render draws the page.
func (p *RunPage) Render() app.UI {
	st := p.state
	return shell("/run", "Run a model",
		app.P().Class("lead").Text("Evaluate a model at any OpenAI-compatible endpoint with your own API key. The requests go from this tab straight to the endpoint you choose; the engine in this tab judges every answer."),
		app.If(len(p.unfinished) > 0 && !st.Running, func() app.UI { return p.renderUnfinished() }),
		p.renderSettings(st.Running),
		errorBox(p.err),
		note(p.msg),
		p.renderTest(),
		p.renderBatch(st.Running),
		p.renderProgress(st),
	)
}

func (p *RunPage) renderUnfinished() app.UI {
	return app.Section().Class("card").DataSet("testid", "run-unfinished").Body(
		app.H2().Text("Unfinished runs"),
		app.P().Text("These runs stopped before their end (the page was reloaded or closed). Resume asks only the samples they do not have yet, and plays only the level-3 scenes that had not ended."),
		app.Ul().Body(app.Range(p.unfinished).Slice(func(i int) app.UI {
			r := p.unfinished[i]
			return app.Li().Body(
				app.Text(fmt.Sprintf("%s at %s: %d samples kept. ", r.Label(), r.Host, r.Total)),
				app.Button().Class("small-button").DataSet("testid", "run-resume").Text("Resume").OnClick(func(ctx app.Context, e app.Event) { p.resume(ctx, r) }),
				app.Text(" "),
				app.Button().Class("small-button").Text("Discard").OnClick(func(ctx app.Context, e app.Event) { p.discard(ctx, r) }),
			)
		})),
	)
}

func (p *RunPage) renderSettings(running bool) app.UI {
	presets := model.Presets()
	var presetNote string
	for _, pr := range presets {
		if pr.ID == p.s.Preset {
			presetNote = pr.Note
		}
	}
	num := func(label, testid, value string, lo, hi int64, blank bool, set func(int64)) app.UI {
		return p.numberField(label, testid, value, numberRange{lo, hi, blank}, set)
	}
	return app.Section().Class("card").Aria("labelledby", "run-settings-h").Body(
		app.H2().ID("run-settings-h").Text("Endpoint"),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Preset "),
				app.Select().DataSet("testid", "run-preset").OnChange(p.onPreset).Body(
					app.Range(presets).Slice(func(i int) app.UI {
						return app.Option().Value(presets[i].ID).Selected(presets[i].ID == p.s.Preset).Text(presets[i].Name)
					}),
					app.Option().Value("custom").Selected(p.s.Preset == "custom").Text("Other (any OpenAI-compatible endpoint)"),
				),
			),
			app.Label().Class("field grow").Body(
				app.Span().Text("Base URL "),
				app.Input().Type("url").DataSet("testid", "run-base-url").Value(p.s.BaseURL).Placeholder("https://…/v1").
					OnChange(func(ctx app.Context, e app.Event) {
						p.s.BaseURL = strings.TrimSpace(ctx.JSSrc().Get("value").String())
						p.save()
					}),
			),
		),
		app.If(presetNote != "", func() app.UI { return app.P().Class("small").DataSet("testid", "run-preset-note").Text(presetNote) }),
		app.If(LANEndpointNote(p.s.BaseURL) != "", func() app.UI {
			return app.P().Class("note").DataSet("testid", "run-lan-note").Text(LANEndpointNote(p.s.BaseURL))
		}),
		app.Div().Class("row").Body(
			app.Label().Class("field grow").Body(
				app.Span().Text("API key "),
				app.Input().Type("password").DataSet("testid", "run-api-key").Value(p.key).Attr("autocomplete", "off").Placeholder("not needed for local servers").
					OnChange(func(ctx app.Context, e app.Event) {
						p.key = strings.TrimSpace(ctx.JSSrc().Get("value").String())
						vault.Save(p.key, p.remember)
					}),
			),
			app.Label().Class("field").Body(
				app.Input().Type("checkbox").DataSet("testid", "run-remember").Checked(p.remember).
					OnChange(func(ctx app.Context, e app.Event) {
						p.remember = ctx.JSSrc().Get("checked").Bool()
						vault.Save(p.key, p.remember)
					}),
				app.Span().Text("remember on this device"),
			),
		),
		app.P().Class("small").Text(keyNote(p.remember)),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Model "),
				app.Input().Type("text").DataSet("testid", "run-model").Value(p.s.Model).Placeholder("e.g. gpt-4o-mini").
					OnChange(func(ctx app.Context, e app.Event) {
						p.s.Model = strings.TrimSpace(ctx.JSSrc().Get("value").String())
						p.save()
					}),
			),
			app.Label().Class("field").Body(
				app.Span().Text("Form "),
				app.Select().DataSet("testid", "run-form").OnChange(func(ctx app.Context, e app.Event) { p.s.Form = ctx.JSSrc().Get("value").String(); p.save() }).Body(
					app.Option().Value(run.Text).Selected(p.s.Form == run.Text).Text("text (the original's prompt and [Call(...)] answer)"),
					app.Option().Value(run.Native).Selected(p.s.Form == run.Native).Text("native (tools and tool_calls)"),
				),
			),
			app.Label().Class("field").Body(
				app.Input().Type("checkbox").DataSet("testid", "run-stream").Checked(p.s.Stream).
					OnChange(func(ctx app.Context, e app.Event) { p.s.Stream = ctx.JSSrc().Get("checked").Bool(); p.save() }),
				app.Span().Text("stream (server-sent events)"),
			),
		),
		app.FieldSet().Class("row").Body(
			app.Legend().Text("Levels"),
			app.Range(Levels).Slice(func(i int) app.UI {
				l := Levels[i]
				return app.Label().Class("field").Body(
					app.Input().Type("checkbox").DataSet("testid", "run-level").Value(l).Checked(slices.Contains(p.s.Levels, l)).
						OnChange(func(ctx app.Context, e app.Event) {
							on := ctx.JSSrc().Get("checked").Bool()
							p.s.Levels = slices.DeleteFunc(p.s.Levels, func(x string) bool { return x == l })
							if on {
								p.s.Levels = orderedLevels(append(p.s.Levels, l))
							}
							p.save()
						}),
					app.Span().Text(LevelLabel(l)),
				)
			}),
		),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Temperature "),
				app.Input().Type("number").Step(0.1).Min("0").Max("2").DataSet("testid", "run-temperature").Value(strconv.FormatFloat(p.s.Temperature, 'f', -1, 64)).
					OnChange(func(ctx app.Context, e app.Event) {
						f, _ := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64)
						p.s.Temperature = max(f, 0)
						p.save()
					}),
			),
			num("Max tokens ", "run-max-tokens", zeroBlank(p.s.MaxTokens), 0, math.MaxInt32, true, func(n int64) { p.s.MaxTokens = int(n) }),
			num("Timeout (s) ", "run-timeout", zeroBlank(p.s.TimeoutSec), 0, math.MaxInt32, true, func(n int64) { p.s.TimeoutSec = int(n) }),
			num("Concurrency ", "run-concurrency", strconv.Itoa(p.s.Concurrency), 1, math.MaxInt32, false, func(n int64) { p.s.Concurrency = int(n) }),
			num("Retries ", "run-retries", strconv.Itoa(p.s.Retries), 0, math.MaxInt32, false, func(n int64) { p.s.Retries = int(n) }),
			num("Samples per level ", "run-limit", zeroBlank(p.s.Limit), 0, math.MaxInt32, true, func(n int64) { p.s.Limit = int(n) }),
			num("Trials ", "run-trials", strconv.Itoa(max(p.s.Trials, 1)), 1, run.MaxTrials, false, func(n int64) { p.s.Trials = int(n) }),
		),
		p.badFields(numberFields[:6]...),
		p.renderData(),
		app.P().Class("small").Text("Temperature 0 makes answers as repeatable as the endpoint allows. Retries: on 408, 409, 429, 5xx and network errors, with exponential backoff and jitter, honouring Retry-After. Samples per level empty: all of them. "+
			"Trials above 1 run the same settings that many times, one after another, each kept as its own run; the Runs page then shows pass^k (the chance that k trials of a task all succeed) and the spread of the accuracy."),
		app.Div().Class("row").Body(
			app.Button().DataSet("testid", "run-test").Disabled(p.testing || running).Text("Test connection").OnClick(p.onTest),
			app.Button().Class("primary").DataSet("testid", "run-start").Disabled(running).Text("Start").OnClick(p.onStart),
			app.Button().DataSet("testid", "run-cancel").Disabled(!running).Text("Cancel").OnClick(func(ctx app.Context, e app.Event) { runner.Cancel() }),
		),
	)
}

// renderData is the form's data settings: the data the run asks (that loaded in the tab, or a
// variant of the builtin data by its seed) and the variants of a robustness run.
func (p *RunPage) renderData() app.UI {
	return app.Div().Class("row").Body(
		app.Label().Class("field").Body(
			app.Span().Text("Data "),
			app.Select().DataSet("testid", "run-data").OnChange(func(ctx app.Context, e app.Event) {
				p.s.Seed = 0
				if ctx.JSSrc().Get("value").String() == "variant" {
					p.s.Seed = 1
				}
				delete(p.bad, "run-seed") // the field is drawn again from the seed chosen
				p.save()
			}).Body(
				app.Option().Value("loaded").Selected(p.s.Seed == 0).Text("the data loaded in this tab (the builtin data, or the folder imported)"),
				app.Option().Value("variant").Selected(p.s.Seed != 0).Text("a variant of the builtin data: seed …"),
			),
		),
		// Always drawn (disabled for the loaded data), so that choosing the data moves no field.
		p.numberField("Seed ", "run-seed", zeroBlank64(p.s.Seed), numberRange{1, protocol.MaxSeed, false}, func(n int64) { p.s.Seed = n }, p.s.Seed == 0),
		p.numberField("Variants ", "run-variants", strconv.Itoa(p.s.Variants), numberRange{0, run.MaxVariants, false}, func(n int64) { p.s.Variants = int(n) }),
		p.badFields(numberFields[6:]...),
		app.P().Class("small").Text("A variant asks the same requests of the builtin data with other names, numbers and texts; the same seed gives the same variant everywhere (apibank run --seed S). "+
			"Variants above 0 makes a robustness run, as apibank run --variants N: the builtin data, its variants of seeds 1 to N, and the builtin data asked again, each pass kept as its own run; the report then says how much of the accuracy holds in the variants, beside how much verdicts change by asking again."),
	)
}

// zeroBlank64 is n as text, "" for 0.
func zeroBlank64(n int64) string {
	if n == 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

// numberFields are the testids of the form's number fields, in the order the form shows them.
var numberFields = []string{"run-max-tokens", "run-timeout", "run-concurrency", "run-retries", "run-limit", "run-trials", "run-seed", "run-variants"}

// numberRange is what a number field of the form takes: a whole number from lo to hi, or nothing
// when blank says it may be empty (then 0: the provider's default, no limit, all samples).
type numberRange struct {
	lo, hi int64
	blank  bool
}

// read reads what was typed in a number field (badInput: the browser could not read it as a
// number): the number, or what is wrong with it, in words that follow the field's label.
func (nr numberRange) read(typed string, badInput bool) (int64, error) {
	typed = strings.TrimSpace(typed)
	within := fmt.Sprintf("a whole number from %d to %d", nr.lo, nr.hi)
	switch {
	case badInput:
		return 0, fmt.Errorf("is not a number: type %s", within)
	case typed == "" && nr.blank:
		return 0, nil
	case typed == "":
		return 0, fmt.Errorf("is empty: type %s", within)
	}
	n, err := strconv.ParseInt(typed, 10, 64)
	if err != nil {
		// What a number field also takes (1e3, 12.0): a whole number written otherwise.
		f, ferr := strconv.ParseFloat(typed, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return 0, fmt.Errorf("must be %s, not %s", within, typed)
		}
		n = int64(f)
	}
	if n < nr.lo || n > nr.hi {
		return 0, fmt.Errorf("must be %s, not %s", within, typed)
	}
	return n, nil
}

// numberField is a number field of the form. What is typed there is read when it changes: a number
// in range is set and saved; anything else is named under the field (badFields) and keeps the
// run from starting, the settings keeping their last good value, so that nothing typed is ever
// quietly taken as another number.
func (p *RunPage) numberField(label, testid, value string, nr numberRange, set func(int64), disabled ...bool) app.UI {
	in := app.Input().Type("number").Step(1).Min(strconv.FormatInt(nr.lo, 10)).Max(strconv.FormatInt(nr.hi, 10)).DataSet("testid", testid).
		Disabled(len(disabled) > 0 && disabled[0]).Aria("invalid", p.bad[testid] != "").
		OnChange(func(ctx app.Context, e app.Event) {
			n, err := nr.read(ctx.JSSrc().Get("value").String(), ctx.JSSrc().Get("validity").Get("badInput").Bool())
			if err != nil {
				if p.bad == nil {
					p.bad = map[string]string{}
				}
				p.bad[testid] = strings.TrimSpace(label) + " " + err.Error() + "."
				return
			}
			delete(p.bad, testid)
			set(n)
			p.save()
		})
	if p.bad[testid] == "" {
		in = in.Value(value) // a field in error keeps what was typed
	}
	return app.Label().Class("field").Body(app.Span().Text(label), in)
}

// badFields names what is wrong in the number fields of testids, under them.
func (p *RunPage) badFields(testids ...string) app.UI {
	var msgs []string
	for _, id := range testids {
		if m := p.bad[id]; m != "" {
			msgs = append(msgs, m)
		}
	}
	return app.If(len(msgs) > 0, func() app.UI {
		return app.P().Class("error").DataSet("testid", "run-field-error").Role("alert").Text(strings.Join(msgs, " "))
	})
}

// runDataWords says, after a run's heading, the data it asks when that is not simply the data
// loaded: a variant, or a pass of a robustness run.
func runDataWords(r *SavedRun) string {
	switch {
	case r.Settings.Variants > 0:
		return " · robustness: " + passName(r)
	case r.Seed != 0:
		return fmt.Sprintf(" · variant seed %d", r.Seed)
	}
	return ""
}

// keyNote says where the key is kept, plainly.
func keyNote(remember bool) string {
	if remember {
		return "Your key is kept in this browser's localStorage until you untick “remember on this device” or use “Clear my data”: anyone using this browser profile can read it. It is sent only to the endpoint above, never to this site, and never goes into a saved run, an export or a share link."
	}
	return "Your key is kept in this tab only (memory and sessionStorage): closing the tab forgets it. It is sent only to the endpoint above, never to this site, and never goes into a saved run, an export or a share link."
}

func zeroBlank(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// orderedLevels puts levels in the UI's order.
func orderedLevels(ls []string) []string {
	var out []string
	for _, l := range Levels {
		if slices.Contains(ls, l) {
			out = append(out, l)
		}
	}
	return out
}

func (p *RunPage) onPreset(ctx app.Context, e app.Event) {
	id := ctx.JSSrc().Get("value").String()
	p.s.Preset = id
	if pr, ok := model.FindPreset(id); ok {
		p.s.BaseURL = pr.BaseURL
	}
	p.save()
}

func (p *RunPage) renderTest() app.UI {
	if len(p.tested) == 0 && !p.testing {
		return nil
	}
	cls := "note"
	if p.testErr {
		cls = "error"
	}
	return app.Div().Class(cls).DataSet("testid", "run-test-result").Aria("live", "polite").Body(
		app.If(p.testing, func() app.UI { return app.P().Text("Testing the connection…") }),
		app.Ul().Body(app.Range(p.tested).Slice(func(i int) app.UI { return app.Li().Text(p.tested[i]) })),
	)
}

func (p *RunPage) onTest(_ app.Context, e app.Event) {
	ctx := p.mc
	s := p.s.Endpoint(p.key)
	s.Retries, s.Timeout = -1, 30*time.Second
	if err := s.Validate(); err != nil {
		p.tested, p.testErr = []string{strings.TrimPrefix(err.Error(), "model: ")}, true
		return
	}
	p.testing, p.tested, p.testErr = true, nil, false
	ctx.Async(func() {
		lines, bad := TestConnection(context.Background(), model.New(s), s.Model)
		ctx.Dispatch(func(app.Context) { p.testing, p.tested, p.testErr = false, lines, bad })
	})
}

// TestConnection checks an endpoint and says, in words, what works: whether it answers this page
// (CORS), whether it lists the model (GET /models, where offered), and whether a one-tool request
// comes back as tool_calls (which the native form needs). bad is set when a run cannot work.
func TestConnection(ctx context.Context, c *model.Client, name string) (lines []string, bad bool) {
	ids, err := c.Models(ctx)
	var me *model.Error
	switch {
	case err == nil:
		lines = append(lines, "The endpoint answers requests from this page (CORS allows it).")
		if slices.Contains(ids, name) {
			lines = append(lines, fmt.Sprintf("The model %q is listed (GET /models lists %d).", name, len(ids)))
		} else {
			lines = append(lines, fmt.Sprintf("The model %q is not among the %d models GET /models lists: check its name.", name, len(ids)))
		}
	case errors.As(err, &me) && me.Status == 0 && LANEndpointNote(c.BaseURL()) != "":
		return append(lines, "No answer from "+me.Host+". "+LANEndpointNote(c.BaseURL())), true
	case errors.As(err, &me) && me.Status == 0:
		return append(lines, "No answer from "+me.Host+": the server is down, the URL is wrong, or it does not allow requests from this page (CORS; the browser does not say which). "+
			"Check the preset's note; the command line (apibank run) needs no CORS."), true
	case errors.As(err, &me) && (me.Status == 401 || me.Status == 403):
		return append(lines, fmt.Sprintf("The endpoint answers this page but refuses the key (HTTP %d): %s", me.Status, me.Message)), true
	case errors.As(err, &me):
		lines = append(lines, fmt.Sprintf("The endpoint answers this page (CORS allows it); it does not list models (GET /models: HTTP %d), so the model's name is checked by the next request.", me.Status))
	default:
		return append(lines, err.Error()), true
	}
	req := model.Request{
		Messages: []model.Message{{Role: model.RoleUser, Content: "What time is it? Use the get_time tool."}},
		Tools:    []model.Tool{{Name: "get_time", Description: "Returns the current time.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}},
	}
	resp, err := c.Chat(ctx, req)
	switch {
	case err != nil:
		return append(lines, "A one-tool request failed: "+err.Error()+" (the text form may still work: it sends no tools)."), true
	case len(resp.ToolCalls) > 0:
		lines = append(lines, fmt.Sprintf("A one-tool request came back as tool_calls (%s): the native form works.", resp.ToolCalls[0].Name))
	default:
		lines = append(lines, "A one-tool request came back as text, not tool_calls: the native form will not work with this model or server; the text form will.")
	}
	return lines, false
}

func (p *RunPage) onStart(_ app.Context, e app.Event) {
	ctx := p.mc
	p.err, p.msg = "", ""
	if len(p.s.Levels) == 0 {
		p.err = "Choose at least one level."
		return
	}
	for _, id := range numberFields {
		if m := p.bad[id]; m != "" {
			p.err = m
			return
		}
	}
	if err := CheckRunSettings(p.s); err != nil {
		p.err = err.Error() + "."
		return
	}
	s := p.s
	key := p.key
	ctx.Async(func() {
		warmBeforeRun()
		var data, hash string
		var err error
		if s.Variants > 0 {
			// Variants are made of the builtin data: a robustness run asks it, not the data loaded.
			if name, nerr := tab.DataName(); nerr == nil && name != builtinData {
				err = fmt.Errorf("a robustness run asks the builtin data and its variants, and this tab has %q loaded: choose “builtin” in the Data menu at the top of the page, or set Variants to 0", name)
			}
		}
		// A run on a variant, or a robustness run, names its data once it is loaded (loadPassData).
		if err == nil && s.Seed == 0 && s.Variants == 0 {
			data, err = tab.DataName()
			if err == nil {
				hash, err = DataHash(s.Levels)
			}
		}
		if err == nil {
			err = runner.Start(NewSavedRun(s, data, hash), key)
		}
		ctx.Dispatch(func(ctx app.Context) { p.started(ctx, err) })
	})
}

func (p *RunPage) resume(_ app.Context, r *SavedRun) {
	ctx := p.mc
	p.err = ""
	key := p.key
	ctx.Async(func() {
		err := runner.Resume(r, key)
		ctx.Dispatch(func(ctx app.Context) {
			if err == nil {
				p.unfinished = slices.DeleteFunc(p.unfinished, func(x *SavedRun) bool { return x.ID == r.ID })
			}
			p.started(ctx, err)
		})
	})
}

func (p *RunPage) discard(_ app.Context, r *SavedRun) {
	ctx := p.mc
	ctx.Async(func() {
		err := runStore.Delete(r.ID)
		ctx.Dispatch(func(app.Context) {
			if err != nil {
				p.err = err.Error()
			}
			p.unfinished = slices.DeleteFunc(p.unfinished, func(x *SavedRun) bool { return x.ID == r.ID })
		})
	})
}

func (p *RunPage) retry(_ app.Context, r *SavedRun, f *run.Failure) {
	ctx := p.mc
	p.err = ""
	key := p.key
	ctx.Async(func() {
		var err error
		if f == nil {
			err = runner.RetryFailed(r, key)
		} else {
			err = runner.RetryOne(r, key, *f)
		}
		ctx.Dispatch(func(ctx app.Context) { p.started(ctx, err) })
	})
}

// renderProgress shows the run going on, or the one that ended last.
func (p *RunPage) renderProgress(st RunState) app.UI {
	r := st.Run
	if r == nil {
		r = st.Last
	}
	if r == nil {
		return nil
	}
	pr := st.Progress
	status := "running"
	if !st.Running {
		status = r.Status
		if r.Total > 0 {
			pr.Total = r.Total
		}
		if status == runDone {
			pr.Done = pr.Total // every task ended (answered or failed), retries included
		}
	}
	rate, eta := RunRate(pr)
	acc, accNote := "—", "no call judged yet"
	if pr.Judged > 0 {
		acc, accNote = Percent(float64(pr.Correct)/float64(pr.Judged)), fmt.Sprintf("live: %d of %d calls right so far", pr.Correct, pr.Judged)
	}
	if st.Running && pr.Total > 0 && pr.Done >= pr.Total && !pr.Scored {
		accNote += " (the run's predictions are being judged together)"
	}
	failed := pr.Failed
	if !st.Running {
		failed = len(r.Failures)
		if r.Batch != nil && r.Batch.Report != nil && r.Batch.Report.Overall.Calls > 0 {
			o := r.Batch.Report.Overall
			acc, accNote = Percent(o.Accuracy), fmt.Sprintf("call accuracy of the run (%d of %d calls)", o.Correct, o.Calls)
			if r.Settings.Variants > 0 {
				accNote = fmt.Sprintf("call accuracy of this pass, the %s (%d of %d calls): the robustness below sums up every pass", passName(r), o.Correct, o.Calls)
			}
		}
	}
	return app.Section().Class("card").Aria("labelledby", "run-progress-h").Body(
		app.H2().ID("run-progress-h").Text(fmt.Sprintf("%s at %s (%s form%s)%s", r.Settings.Model, r.Host, r.Settings.Form, map[bool]string{true: ", batch"}[r.Source == runSourceBatch], runDataWords(r))),
		app.Div().Class("numbers").DataSet("testid", "run-progress").DataSet("done", pr.Done).DataSet("total", pr.Total).
			DataSet("failed", failed).DataSet("state", status).DataSet("id", r.ID).DataSet("source", r.Source).
			DataSet("seed", r.Seed).DataSet("pass", r.Trial).DataSet("group", r.Group).Aria("live", "polite").Body(
			app.Div().Class("number").Body(app.Span().Class("big").Text(fmt.Sprintf("%d/%d", pr.Done, pr.Total)), app.Span().Text(" done · "+status)),
			app.Div().Class("number").Body(app.Span().Class("big").DataSet("testid", "run-accuracy").Text(acc), app.Span().Text(" "+accNote)),
			app.Div().Class("number").Body(app.Span().Text(fmt.Sprintf("rate %s · time left %s · tokens %d in, %d out · %d requests failed", rate, eta, pr.TokensIn, pr.TokensOut, failed))),
		),
		app.If(st.Err != "", func() app.UI { return errorBox(st.Err) }),
		app.If(!st.Running && r.Cut.Size+r.Cut.Timeout > 0, func() app.UI {
			return app.P().Class("note").DataSet("testid", "run-cut").DataSet("size", r.Cut.Size).DataSet("timeout", r.Cut.Timeout).Text(CutNote(r.Cut))
		}),
		app.If(st.Running && wantsData(r), func() app.UI {
			return app.P().Class("small").DataSet("testid", "run-data-note").Text("While this run goes on, this tab's engine holds " + dataWords(r.Seed) + ": the other pages of this tab show it too, and the data loaded before comes back when the run ends.")
		}),
		app.If(!st.Running, func() app.UI {
			return app.P().Body(app.Text("The run is saved in this browser: "), app.A().Href("/runs").Text("see it with the other runs"), app.Text("."))
		}),
		app.If(!st.Running && st.Robust != nil && st.Robust.First.Group == r.Group, func() app.UI { return robustView([]RobustGroup{*st.Robust}) }),
		app.If(!st.Running, func() app.UI { return p.renderAllFailures(r, st.Robust) }),
	)
}

// renderAllFailures shows the failed requests of r, or of every pass of the robustness run g that r
// is a pass of (each retried on its own data), so that none is out of reach.
func (p *RunPage) renderAllFailures(r *SavedRun, g *RobustGroup) app.UI {
	all := []*SavedRun{r}
	if g != nil && g.First.Group == r.Group && len(g.Passes) > 0 {
		all = g.Passes
	}
	var failed []*SavedRun
	for _, pass := range all {
		if len(pass.Failures) > 0 {
			failed = append(failed, pass)
		}
	}
	return app.Range(failed).Slice(func(i int) app.UI {
		title := ""
		if len(all) > 1 {
			title = passName(failed[i]) + ": "
		}
		return p.renderFailures(failed[i], title)
	})
}

// CutNote says how many answers went over a limit of the run, and the limits: each is judged wrong.
func CutNote(c run.CutCount) string {
	var parts []string
	if c.Size > 0 {
		parts = append(parts, fmt.Sprintf("%d over the size limit (%s)", c.Size, c.SizeLimit))
	}
	if c.Timeout > 0 {
		parts = append(parts, fmt.Sprintf("%d still coming at the time limit (%s)", c.Timeout, c.TimeLimit))
	}
	return "Answers over a limit, cut and judged wrong: " + strings.Join(parts, ", ") + ". Only the first " + strconv.Itoa(run.KeptHead) + " bytes of each are kept."
}

// noAnswer says whether some failed request got no answer at all (status 0): what a refused
// endpoint gives.
func noAnswer(fs []run.Failure) bool {
	return slices.ContainsFunc(fs, func(f run.Failure) bool { return f.Status == 0 })
}

// stoppedNote says why a run stopped asking, when its first requests found the endpoint unusable
// (see run.NotAsked), and how many samples it did not ask; "" when it asked every one.
func stoppedNote(fs []run.Failure) string {
	notAsked, why := 0, ""
	for _, f := range fs {
		if f.NotAsked {
			notAsked++
			if why == "" {
				why = strings.TrimPrefix(f.Message, run.NotAskedPrefix)
			}
		}
	}
	if notAsked == 0 {
		return ""
	}
	return fmt.Sprintf("The run stopped asking: %s. The other %d samples were not asked, rather than each waiting through its retries for nothing. Check the base URL, and that its server runs and allows this page; then retry them.", why, notAsked)
}

func (p *RunPage) renderFailures(r *SavedRun, title string) app.UI {
	batch := r.Source == runSourceBatch
	note := stoppedNote(r.Failures)
	return app.Div().DataSet("testid", "run-failures").DataSet("pass", r.Trial).Body(
		app.H3().Text(fmt.Sprintf("%s%d requests failed", title, len(r.Failures))),
		app.If(note != "", func() app.UI {
			return app.P().Class("error").DataSet("testid", "run-stopped-note").Text(note)
		}),
		app.If(!batch && noAnswer(r.Failures) && LANEndpointNote(r.Settings.BaseURL) != "", func() app.UI {
			return app.P().Class("error").DataSet("testid", "run-failed-lan-note").Text(LANEndpointNote(r.Settings.BaseURL))
		}),
		app.P().Class("small").Text("A failed request is not a model error: it is left out of the predictions and of the accuracy until it is retried."),
		app.If(batch, func() app.UI {
			return app.P().Class("small").Text("These requests failed at the provider or have no line in its output file: run them in a new batch to have them answered.")
		}),
		app.If(!batch, func() app.UI {
			return app.Button().DataSet("testid", "run-retry-all").Text("Retry all failed").OnClick(func(ctx app.Context, e app.Event) { p.retry(ctx, r, nil) })
		}),
		// A message can hold a token no line breaks (a URL, an id): the table then scrolls in its box.
		app.Div().Class("table-box").Body(app.Table().Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("sample"), app.Th().Text("status"), app.Th().Text("message"), app.Th().Text(""))),
			app.TBody().Body(app.Range(r.Failures).Slice(func(i int) app.UI {
				f := r.Failures[i]
				status := "no answer"
				switch {
				case f.NotAsked:
					status = "not asked"
				case f.Status != 0:
					status = "HTTP " + strconv.Itoa(f.Status)
				}
				return app.Tr().DataSet("testid", "run-failure").DataSet("status", f.Status).Body(
					app.Td().Text(fmt.Sprintf("%s %s #%d", LevelLabel(f.Level), f.File, f.ID)),
					app.Td().Text(status),
					app.Td().Text(truncate(f.Message, 300)),
					app.Td().Body(app.If(!batch, func() app.UI {
						return app.Button().Class("small-button").DataSet("testid", "run-retry").Text("Retry").
							OnClick(func(ctx app.Context, e app.Event) { p.retry(ctx, r, &f) })
					})),
				)
			})),
		)),
	)
}
