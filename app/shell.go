package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// page is one entry of the navigation.
type page struct {
	Path, Label string
	// Group is the navigation group the page is listed under ("" for Home, listed first, and for
	// pages reached from others, not listed).
	Group string
	// Soon marks a page announced but not built yet (shown disabled).
	Soon bool
}

// Navigation groups, in the order they are shown: what a visitor comes to do first.
const (
	// GroupEvaluate holds the pages that judge a model.
	GroupEvaluate = "Evaluate"
	// GroupLearn holds the pages for learning tool use by hand.
	GroupLearn = "Learn"
	// GroupData holds the pages about the data itself.
	GroupData = "Data"
)

// groups lists the navigation groups in order.
var groups = []string{GroupEvaluate, GroupLearn, GroupData}

// Pages lists every page: the navigation shows Home, then each group's pages in this order.
var Pages = []page{
	{Path: "/", Label: "Home"},
	{Path: "/run", Label: "Run a model", Group: GroupEvaluate},
	{Path: "/score", Label: "Paste & score", Group: GroupEvaluate},
	{Path: "/runs", Label: "Runs", Group: GroupEvaluate},
	{Path: "/results", Label: "Results", Group: GroupEvaluate},
	{Path: "/board", Label: "Board", Group: GroupEvaluate},
	{Path: "/classroom", Label: "Classroom", Group: GroupLearn},
	{Path: "/teach", Label: "Teach", Group: GroupLearn},
	{Path: "/play", Label: "Play a scene", Group: GroupLearn},
	{Path: "/sandbox", Label: "Sandbox", Group: GroupLearn},
	{Path: "/tools", Label: "Tools", Group: GroupLearn},
	{Path: "/dataset", Label: "Dataset", Group: GroupData},
	{Path: "/import", Label: "Import", Group: GroupData},
	{Path: "/synth", Label: "Synthesize", Group: GroupData},
	// Reached from the dataset's rows, not from the navigation.
	{Path: "/sample", Label: "Sample", Group: "-"},
	// Reached from the footer of every page (the navigation fills its line at 1280 px), the Sample
	// page and the Results page.
	{Path: JudgingPath, Label: "How we judge", Group: "-"},
}

// navLink is a page's entry in the navigation.
func navLink(p page, current string) app.UI {
	if p.Soon {
		return app.Li().Body(
			app.Span().Class("nav-soon").Aria("disabled", "true").Title("Comes in a later version").Text(p.Label),
		)
	}
	a := app.A().Href(p.Path).Text(p.Label)
	if p.Path == current {
		a = a.Aria("current", "page").Class("active")
	}
	return app.Li().Body(a)
}

// navigation is the grouped navigation: Home, then each group under its name.
func navigation(current string) app.UI {
	var items []app.UI
	for _, p := range Pages {
		if p.Group == "" {
			items = append(items, navLink(p, current))
		}
	}
	for _, g := range groups {
		var links []app.UI
		for _, p := range Pages {
			if p.Group == g {
				links = append(links, navLink(p, current))
			}
		}
		items = append(items, app.Li().Class("nav-group").Body(
			app.Span().Class("nav-label").ID("nav-"+strings.ToLower(g)).Text(g),
			app.Ul().Aria("labelledby", "nav-"+strings.ToLower(g)).Body(links...),
		))
	}
	return app.Nav().Class("nav").Aria("label", "Pages").Body(app.Ul().Body(items...))
}

// Routes registers every page with go-app. The wasm main and the server both call it, so both know
// the same pages.
func Routes() {
	app.Route("/", func() app.Composer { return &HomePage{} })
	app.Route("/dataset", func() app.Composer { return &DatasetPage{} })
	app.Route("/sample", func() app.Composer { return &SamplePage{} })
	app.Route("/score", func() app.Composer { return &ScorePage{} })
	app.Route("/results", func() app.Composer { return &ResultsPage{} })
	app.Route("/sandbox", func() app.Composer { return &SandboxPage{} })
	app.Route("/classroom", func() app.Composer { return &ClassroomPage{} })
	app.Route("/teach", func() app.Composer { return &TeachPage{} })
	app.Route("/import", func() app.Composer { return &ImportPage{} })
	app.Route("/run", func() app.Composer { return &RunPage{} })
	app.Route("/runs", func() app.Composer { return &RunsPage{} })
	app.Route("/board", func() app.Composer { return &BoardPage{} })
	app.Route("/synth", func() app.Composer { return &SynthPage{} })
	app.Route("/tools", func() app.Composer { return &ToolsPage{} })
	app.Route("/play", func() app.Composer { return &PlayPage{} })
	app.Route(JudgingPath, func() app.Composer { return &JudgingPage{} })
	app.Route(NotFoundPath, func() app.Composer { return &NotFoundPage{} })
	// Any other address: the "page not found" page (exact routes are matched first). go-app's own
	// NotFound variable is not used by its router, so a catch-all route stands in for it: every path
	// go-app routes starts with "/". A function, not RouteWithRegexp("^/.*"), so that app.wasm does
	// not link package regexp (third_party/go-app/PATCH.md).
	app.RouteMatching(func(path string) bool { return strings.HasPrefix(path, "/") }, func() app.Composer { return &NotFoundPage{} })
}

// shell wraps a page's content with the header, navigation and footer every page shares.
func shell(current, title string, content ...app.UI) app.UI {
	return app.Div().Class("shell").Body(
		app.A().Class("skip").Href("#main").Text("Skip to content").OnClick(skipToMain),
		app.Header().Class("top").Body(
			app.Div().Class("brand").Body(
				app.A().Href("/").Body(app.Strong().Text("API-Bank")),
				app.Span().Class("brand-sub").Text(" Playground"),
			),
			&DataSwitch{},
			&EngineBadge{},
		),
		navigation(current),
		app.Main().ID("main").Class("main").TabIndex(-1).Body(
			app.H1().Text(title),
			app.Div().Body(content...),
		),
		&Footer{Page: current},
	)
}

// skipToMain moves the keyboard focus to the page's content: the skip link's target must take the
// focus, or the next Tab starts again at the navigation (go-app's own handling of the link only
// scrolls).
func skipToMain(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if m := app.Window().GetElementByID("main"); m.Truthy() {
		m.Call("focus")
	}
}

// errorBox shows an error, or nothing.
func errorBox(err string) app.UI {
	if err == "" {
		return nil
	}
	return app.P().Class("error").Aria("live", "polite").Attr("role", "alert").Text(err)
}

// note shows a neutral message, or nothing.
func note(msg string) app.UI {
	if msg == "" {
		return nil
	}
	return app.P().Class("note").Aria("live", "polite").Text(msg)
}

// levelSelect is the level filter every page uses (data-testid level-select).
func levelSelect(value string, withAll bool, onChange func(app.Context, string)) app.UI {
	opts := []string{}
	if withAll {
		opts = append(opts, "")
	}
	opts = append(opts, Levels...)
	return app.Label().Class("field").Body(
		app.Span().Text("Level "),
		app.Select().DataSet("testid", "level-select").OnChange(func(ctx app.Context, e app.Event) {
			onChange(ctx, selectValue(ctx))
		}).Body(
			app.Range(opts).Slice(func(i int) app.UI {
				return app.Option().Value(optionValue(opts[i])).Selected(opts[i] == value).Text(LevelLabel(opts[i]))
			}),
		),
	)
}

// anyOption is the value of an option that means "no choice" (all levels, any tool, the default
// world). go-app drops an empty value attribute, and an option without one submits its label, so
// the empty choice needs a value of its own.
const anyOption = "*"

// optionValue is the value attribute of the choice v ("" is anyOption).
func optionValue(v string) string {
	if v == "" {
		return anyOption
	}
	return v
}

// selectValue reads the chosen value of the select that sent the event ("" for anyOption).
func selectValue(ctx app.Context) string {
	v := ctx.JSSrc().Get("value").String()
	if v == anyOption {
		return ""
	}
	return v
}
