package app

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/model"
)

// boardSubmit is the Runs page's submission of the open run to the board: under way, refused, or
// taken (with the owner key, shown this once).
type boardSubmit struct {
	run  string // the run submitted
	busy bool
	err  string
	done *board.Submitted
}

// view draws the submit button of run r (disabled, with the reason, when r cannot be submitted)
// and the submission's outcome.
func (b *boardSubmit) view(r *SavedRun, all []*SavedRun, submit func()) app.UI {
	why := ""
	if _, err := BoardTrials(r, all); err != nil {
		why = err.Error()
	}
	label := "Submit to the board"
	if r.Group != "" && r.Settings.Variants == 0 {
		label = "Submit the group's trials to the board"
	}
	mine := b.run == r.ID
	return app.Div().Class("board-submit").Body(
		app.Div().Class("row").Body(
			app.Button().DataSet("testid", "run-submit").Text(label).Disabled(why != "" || (mine && (b.busy || b.done != nil))).
				OnClick(func(ctx app.Context, e app.Event) { submit() }),
			app.If(why != "", func() app.UI {
				return app.Span().Class("small").DataSet("testid", "run-submit-why").Text("Cannot be submitted: " + why)
			}),
			app.If(mine && b.busy, func() app.UI {
				return app.Span().Class("small").Aria("live", "polite").Text("The board is judging the run again…")
			}),
		),
		app.If(mine && b.err != "", func() app.UI {
			return app.P().Class("error").Attr("role", "alert").DataSet("testid", "run-submit-error").Text(b.err)
		}),
		app.If(mine && b.done != nil, func() app.UI { return b.taken() }),
	)
}

// taken shows an entry just made and its owner key, once.
func (b *boardSubmit) taken() app.UI {
	e := b.done.Entry
	return app.Div().Class("note").DataSet("testid", "run-submitted").DataSet("entry", e.ID).Body(
		app.P().Body(
			app.Text("The board judged the run again and listed it as entry "+e.ID+" ("+Percent(e.Score.Overall.Accuracy)+" overall). "),
			app.A().Href(boardEntryURL(e.ID)).DataSet("testid", "run-submitted-link").Text("See it on the board"),
		),
		app.If(e.Seed != b.done.Season, func() app.UI {
			return app.P().DataSet("testid", "run-submitted-apart").Text("The run was made on " + board.DataWordsFor(e.Seed, b.done.Season) + " and judged on it; the board ranks " +
				board.DataWords(b.done.Season) + ", so the entry is listed apart, not ranked.")
		}),
		app.Label().Class("field").Body(
			app.Span().Text("Owner key "),
			app.Input().Type("text").ReadOnly(true).Value(b.done.OwnerKey).DataSet("testid", "owner-key").Spellcheck(false).
				OnFocus(func(ctx app.Context, e app.Event) { ctx.JSSrc().Call("select") }),
		),
		app.P().Class("small").Text("Copy the owner key now: it retracts the entry, and it is shown this once (the board keeps only its hash). This browser keeps it too, in its local storage until you clear your data, so the Board page here can retract the entry."),
	)
}

// submitBoard sends the run r (or its group of trials) to the board.
func (p *RunsPage) submitBoard(r *SavedRun) {
	p.board = boardSubmit{run: r.ID, busy: true}
	ctx, all := p.mc, p.allRuns()
	ctx.Async(func() {
		var got board.Submitted
		sub, err := BoardSubmission(r, all)
		refused := err != nil
		if err == nil {
			err = classCall(context.Background(), model.DefaultTransport(), "POST", BoardAPI, "", sub, &got)
		}
		ctx.Dispatch(func(app.Context) {
			if p.board.run != r.ID {
				return
			}
			p.board.busy = false
			switch {
			case refused:
				p.board.err = err.Error()
				return
			case err != nil:
				p.board.err = boardErrorWords(err)
				return
			}
			p.board.done = &got
			if err := keepBoardKey(got.Entry.ID, got.OwnerKey); err != nil {
				p.board.err = "This browser could not keep the owner key (" + err.Error() + "): copy it below, it is the only way to retract the entry."
			}
		})
	})
}
