package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// NotFoundPath is where the "page not found" page is rendered; the server answers every unknown
// address with it and status 404, and the tab shows it for an unknown route.
const NotFoundPath = "/404"

// NotFoundPage says that an address is not a page of the playground and lists those that are.
type NotFoundPage struct {
	app.Compo
	path string
}

// OnNav reads the address asked for.
func (p *NotFoundPage) OnNav(ctx app.Context) {
	if app.IsClient {
		p.path = ctx.Page().URL().Path
	}
}

// Render draws the page.
func (p *NotFoundPage) Render() app.UI {
	var links []app.UI
	for _, pg := range Pages {
		if !pg.Soon {
			links = append(links, app.Li().Body(app.A().Href(pg.Path).Text(pg.Label)))
		}
	}
	what := "This address is not a page of the playground."
	if p.path != "" && p.path != NotFoundPath {
		what = p.path + " is not a page of the playground."
	}
	return shell("", "Page not found",
		app.P().DataSet("testid", "not-found").Text(what+" The pages are:"),
		app.Ul().Body(links...),
	)
}
