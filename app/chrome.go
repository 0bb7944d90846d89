package app

import (
	"fmt"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// DataSwitch chooses the dataset the tab uses: the builtin data or a folder imported in this tab
// (data-testid dataset-select).
type DataSwitch struct {
	app.Compo
	current  string
	imported string
	busy     bool
	err      string
	held     string // why the data cannot change now (runHolding), "" when it can
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render, which has no engine and so shows the page empty, and the component tests).
func (c *DataSwitch) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

// OnMount reads which data the engine holds.
func (c *DataSwitch) OnMount(ctx app.Context) {
	c.held = runHolding()
	c.sync(ctx)
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) { c.sync(ctx) })
	if app.IsClient {
		c.watchRuns(ctx)
	}
}

// watchRuns follows the tab's runner while the menu is on the page: a run that loads its own data
// holds the menu (see runHolding) from its start to its end, whichever page started it, and the
// menu shows the data the engine holds then.
func (c *DataSwitch) watchRuns(ctx app.Context) {
	last := c.held
	ctx.Async(func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if held := runHolding(); held != last {
				last = held
				ctx.Dispatch(func(ctx app.Context) {
					c.held = held
					c.sync(ctx)
				})
			}
		}
	})
}

func (c *DataSwitch) sync(ctx app.Context) {
	refresh(ctx, tab.DataName, func(name string, err error) {
		if err != nil {
			c.err = err.Error()
			return
		}
		c.current = name
		if st := runner.State(); st.Running && st.Run != nil && st.Run.Seed > 0 {
			// A run on a variant holds the menu on its data, whether or not its load has answered
			// yet (the engine's first answer to a page that opens meanwhile names the builtin data).
			c.current = protocol.VariantName(builtinData, uint64(st.Run.Seed))
		}
		if n, ok := tab.Engine.(interface{ ImportedName() string }); ok && tab.Imported() == "" {
			tab.SetImported(n.ImportedName())
		}
		c.imported = tab.Imported()
	})
}

// Render draws the select.
func (c *DataSwitch) Render() app.UI {
	opts := []string{"builtin"}
	if c.imported != "" && c.imported != "builtin" {
		opts = append(opts, c.imported)
	}
	if c.current != "" && c.current != "builtin" && c.current != c.imported {
		opts = append(opts, c.current)
	}
	held := c.held
	return app.Div().Class("data-switch").Body(
		app.Label().Body(
			app.Span().Text("Data "),
			app.Select().DataSet("testid", "dataset-select").Disabled(c.busy || held != "").
				OnChange(c.onChange).Body(
				app.Range(opts).Slice(func(i int) app.UI {
					return app.Option().Value(opts[i]).Selected(opts[i] == c.current).Text(dataLabel(opts[i]))
				}),
			),
		),
		app.If(held != "", func() app.UI {
			return app.Span().Class("small").DataSet("testid", "dataset-held").Text(" (" + held + ")")
		}),
		app.If(c.err != "", func() app.UI { return app.Span().Class("error small").Text(c.err) }),
	)
}

// dataLabel is how the Data menu names data the engine may hold: the builtin data, one of its
// variants (which a run on one loads), or a folder imported in this tab.
func dataLabel(name string) string {
	if name == builtinData {
		return name
	}
	if seed := protocol.VariantSeed(builtinData, name); seed != 0 {
		return "builtin, variant " + strconv.FormatInt(seed, 10)
	}
	return "imported: " + name
}

// runHolding says, in words, why the tab's data cannot change now: a run goes on with the data it
// loaded (a variant, or the builtin data under a robustness run), whose remaining samples would
// otherwise be asked and judged on other data than the run records. "" when nothing holds it.
func runHolding() string {
	st := runner.State()
	if !st.Running || !wantsData(st.Run) {
		return ""
	}
	return "a run on " + dataWords(st.Run.Seed) + " goes on: the data can change once it has ended"
}

func (c *DataSwitch) onChange(ctx app.Context, e app.Event) {
	name := ctx.JSSrc().Get("value").String()
	if held := runHolding(); held != "" {
		ctx.JSSrc().Set("value", c.current) // the menu shows the data the engine still holds
		c.err = "Not changed: " + held + "."
		return
	}
	c.busy, c.err = true, ""
	refresh(ctx, func() (protocol.Loaded, error) { return tab.SwitchTo(name) }, func(r protocol.Loaded, err error) {
		c.busy = false
		if err != nil {
			c.err = err.Error()
			return
		}
		c.current = r.Name
		ctx.NewAction(dataChanged)
	})
}

// EngineBadge shows the state of this tab's engine worker.
type EngineBadge struct {
	app.Compo
	state    string
	restarts int
	lastErr  string
	failed   bool // the engine's start failed since the last "ready"
}

type statusSource interface {
	Status() EngineStatus
	Watch(func(EngineStatus))
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render, which has no engine and so shows the page empty, and the component tests).
func (c *EngineBadge) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

// OnMount follows the worker's state.
func (c *EngineBadge) OnMount(ctx app.Context) {
	src, ok := tab.Engine.(statusSource)
	if !ok {
		if tab.Engine != nil {
			c.state = "ready"
		} else if app.IsClient {
			// In a browser the tab has no engine only when web/bridge.js is not on the page.
			c.state, c.lastErr = "failed", "web/bridge.js is not loaded: the engine cannot start (reload the page)"
		}
		return
	}
	c.set(src.Status())
	src.Watch(func(s EngineStatus) {
		ctx.Dispatch(func(ctx app.Context) {
			if c.set(s) {
				// The requests made while the engine could not start were refused: pages fetch again.
				ctx.NewAction(dataChanged)
			}
		})
	})
}

// set takes the worker's state; it says whether the engine is ready again after its start failed.
func (c *EngineBadge) set(s EngineStatus) (recovered bool) {
	if s.State == "failed" {
		c.failed = true
	} else if s.State == "ready" && c.failed {
		c.failed, recovered = false, true
	}
	c.state, c.restarts, c.lastErr = s.State, s.Restarts, s.LastError
	return recovered
}

// retrier is an engine that can be started again after its start failed (BrowserEngine).
type retrier interface{ Retry() }

// Render draws the badge; an engine that could not start also gets its error and a Retry button.
func (c *EngineBadge) Render() app.UI {
	state := c.state
	if state == "" {
		state = "starting"
	}
	label := "Engine " + state
	if c.restarts > 0 {
		label += fmt.Sprintf(" · restarted %d×", c.restarts)
	}
	badge := app.Span().Class("badge badge-"+state).DataSet("testid", "engine-status").
		DataSet("state", state).Title(c.lastErr).Aria("live", "polite").Text(label)
	if state != "failed" {
		return badge
	}
	r, canRetry := tab.Engine.(retrier)
	return app.Span().Class("engine-failed").Attr("role", "alert").Body(
		badge,
		app.Span().Class("error small").DataSet("testid", "engine-error").Text(c.lastErr),
		app.If(canRetry, func() app.UI {
			return app.Button().DataSet("testid", "engine-retry").Text("Retry").
				OnClick(func(app.Context, app.Event) { r.Retry() })
		}),
	)
}

// Footer holds "Clear my data" and what the site keeps.
type Footer struct {
	app.Compo
	// Page is the path of the page it closes: its sentence on what leaves the tab (privacyNote).
	Page string
	msg  string
	// confirming is true between "Clear my data" and the answer to "are you sure?".
	confirming bool
	// used is the bytes the store keeps, kept current by the store's OnChange.
	used int
	stop func()
}

// OnMount shows what the store keeps, and follows every change of it.
func (c *Footer) OnMount(ctx app.Context) {
	c.used = tab.Store.Used()
	c.stop = tab.Store.OnChange(func() {
		ctx.Dispatch(func(app.Context) { c.used = tab.Store.Used() })
	})
}

// OnDismount stops following the store.
func (c *Footer) OnDismount() {
	if c.stop != nil {
		c.stop()
	}
}

// privacyNotes say, for the pages that send something on purpose (to this site's server, or to the
// model endpoint the user chose), what leaves the tab and where, and what the server keeps; every
// other page sends nothing (privacyNote).
var privacyNotes = map[string]string{
	"/runs": "Everything runs in this tab. Only a run you submit to the board leaves it: its predictions, settings and " +
		"verdicts go to this site's server, which keeps them and shows them on the public board until you retract the entry.",
	"/board": "Reading the board sends nothing of yours. A run submitted from Runs sends its predictions, settings and " +
		"verdicts to this site's server, which keeps them and shows them here; a retraction sends the entry's key.",
	"/classroom": "Practice runs in this tab. Once you join a class, the name you type and each answer you check go to " +
		"this site's server, which keeps them for the class's teacher; your other predictions and results stay here.",
	"/teach": "A class you make is kept on this site's server with what its students send: the names they type and " +
		"their answers. Your own predictions and results stay in this tab.",
	"/run": "A run sends each prompt, with your key, to the endpoint you chose and nowhere else; it is judged in this " +
		"tab, and your predictions and results never leave your browser.",
	"/synth": "Generating sends its prompts, with your key, to the endpoint you chose on the Run page and nowhere else; " +
		"the checks run in this tab, and the dialogues it makes never leave your browser.",
}

// privacyNote is the footer's sentence on what leaves the tab on page (a path, as shell gets it).
func privacyNote(page string) string {
	if n, ok := privacyNotes[page]; ok {
		return n
	}
	return "Everything runs in this tab: your predictions and results never leave your browser."
}

// Render draws the footer.
func (c *Footer) Render() app.UI {
	return app.Footer().Class("foot").Body(
		app.P().Body(
			app.Span().DataSet("testid", "privacy-note").Text(privacyNote(c.Page)+" "),
			app.Span().DataSet("testid", "saved-size").Text("Saved here: "+Size(c.used)+". "),
			app.Button().Class("link-button").DataSet("testid", "clear-data").Text("Clear my data").
				OnClick(func(ctx app.Context, e app.Event) { c.confirming, c.msg = true, "" }),
		),
		app.If(c.confirming, func() app.UI {
			return app.Div().Class("note").DataSet("testid", "clear-confirm").Attr("role", "alertdialog").Aria("label", "Clear my data?").Body(
				app.P().Text("Forget your saved predictions, results, classroom progress, sandbox history and imported folder in this browser? This cannot be undone."),
				app.Div().Class("row").Body(
					app.Button().Class("primary").DataSet("testid", "clear-yes").Text("Yes, clear my data").OnClick(c.clear),
					app.Button().DataSet("testid", "clear-no").Text("Cancel").OnClick(func(ctx app.Context, e app.Event) { c.confirming = false }),
				),
			)
		}),
		note(c.msg),
		app.P().Class("small").Body(
			app.Text("After API-Bank (Li et al., EMNLP 2023). "),
			app.A().Href(JudgingPath).DataSet("testid", "footer-judging").Text("How we judge"),
			app.Text(". Works offline after the first visit."),
		),
	)
}

func (c *Footer) clear(ctx app.Context, e app.Event) {
	c.confirming = false
	tab.Store.Clear()
	c.msg = "Your saved predictions, results, classroom progress and sandbox history are cleared."
	ctx.NewAction(dataCleared)
}

// dataCleared is the action sent after "Clear my data".
const dataCleared = "apibank/data-cleared"

// keyHint writes a button's keyboard shortcut after its label (" (Ctrl+Enter)"): a style hides it
// on a touch screen, which has no such key (.key-hint).
func keyHint(keys string) app.UI {
	return app.Span().Class("key-hint").Text(" (" + keys + ")")
}
