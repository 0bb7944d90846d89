package app

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// BoardPage is the public leaderboard: every entry judged again by the site's engine, ranked with
// statistical ties in the tab (board.Rank over the entries the site sends, so a static export ranks
// as the server does), filtered by form and level; an entry opens its per-task verdicts and its
// predictions files, and one whose owner key this browser holds (or the user pastes) is retracted.
type BoardPage struct {
	app.Compo
	view     *board.View
	loaded   bool
	err, msg string
	// form and level filter the ranking ("" any form, every level).
	form, level string
	// open is the entry shown in full, entry its verdicts as loaded.
	open    string
	entry   *board.EntryView
	openErr string
	// vlevel, vstatus and vtrial filter the open entry's verdicts.
	vlevel, vstatus string
	vtrial          int
	// keys are the owner keys this browser holds; pasted the key typed for the open entry.
	keys    map[string]string
	pasted  string
	busy    bool
	confirm bool
	// onHash opens the entry a changed fragment names (see OnMount).
	onHash app.Func
	// page is the mount's context (answers are dispatched through it: see TeachPage.page).
	page app.Context
}

// OnPreRender renders the empty page where go-app renders without a browser.
func (p *BoardPage) OnPreRender(ctx app.Context) { p.page = ctx }

// OnMount loads the board and opens the entry the address names (?entry=ID or #ID), and the one a
// later change of the fragment names (a /board#ID link followed from this page).
func (p *BoardPage) OnMount(ctx app.Context) {
	p.page = ctx
	p.keys = boardKeys()
	p.open = entryInAddress(app.Window().URL())
	if p.open == "" {
		p.open = entryInAddress(ctx.Page().URL())
	}
	p.onHash = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(app.Context) {
			if id := entryInAddress(app.Window().URL()); id != "" && id != p.open {
				p.openEntry(id)
			}
		})
		return nil
	})
	app.Window().Call("addEventListener", "hashchange", p.onHash)
	p.load()
}

// OnDismount stops following the address's fragment.
func (p *BoardPage) OnDismount() {
	if p.onHash != nil {
		app.Window().Call("removeEventListener", "hashchange", p.onHash)
		p.onHash.Release()
		p.onHash = nil
	}
}

// entryInAddress is the board entry an address names: ?entry=ID (the board's own links) or #ID (the
// link apibank submit prints); "" when it names none or the ID is not one an entry can have.
func entryInAddress(u *url.URL) string {
	if u == nil {
		return ""
	}
	if id := u.Query().Get("entry"); board.ValidID(id) {
		return id
	}
	if id := strings.TrimPrefix(u.Fragment, "entry="); board.ValidID(id) {
		return id
	}
	return ""
}

// load reads the live board, or the static export where the site has none (a site exported for a
// static host says so: then the live board is not asked for, which would only answer 404).
func (p *BoardPage) load() {
	ctx := p.page
	static := app.Getenv(SiteEnv) == StaticSite
	ctx.Async(func() {
		var v board.View
		err := errNoBoardServer
		if !static {
			err = classCall(context.Background(), model.DefaultTransport(), "GET", BoardAPI, "", nil, &v)
		}
		if err != nil && !boardServerFailed(err) {
			var x board.View
			xerr := classCall(context.Background(), model.DefaultTransport(), "GET", BoardExport, "", nil, &x)
			switch {
			case xerr == nil && x.Exported != "":
				v, err = x, nil
			case xerr == nil:
				err = errors.New("this site has no board server, and its board.json is not an export of one (it has no \"exported\")")
			case (err == errNoBoardServer || isStatus(err, 404)) && isStatus(xerr, 404):
				err = errors.New("this site has no board: no board server (cmd/server runs one with --db; the Worker always does) and no exported board.json")
			default:
				err = fmt.Errorf("this site has no board server (%v), and no export of one (%v)", err, xerr)
			}
		}
		ctx.Dispatch(func(app.Context) {
			p.loaded = true
			if err != nil {
				p.err = "The board could not be loaded: " + err.Error()
				return
			}
			p.view, p.err = &v, ""
			if p.open != "" && (p.entry == nil || p.entry.Entry.ID != p.open) {
				p.openEntry(p.open)
			}
		})
	})
}

// SiteEnv is the go-app environment variable (app.Getenv) that says what serves the pages: StaticSite
// for a plain static host (cmd/server --static without --static-api), which has no API beside them.
const (
	SiteEnv    = "APIBANK_SITE"
	StaticSite = "static"
)

// errNoBoardServer stands for the live board's answer on a static host, which is not asked.
var errNoBoardServer = errors.New("a static host has no board server")

// boardServerFailed says whether a failed read of the live board is the server's trouble (busy,
// failing), not the absence of a board: then the export is not read in its place.
func boardServerFailed(err error) bool {
	var ce *classError
	return errors.As(err, &ce) && (ce.Status == 429 || ce.Status >= 500)
}

// isStatus says whether err is an answer of the site's API with the HTTP status.
func isStatus(err error, status int) bool {
	var ce *classError
	return errors.As(err, &ce) && ce.Status == status
}

// exported says whether the page shows a static export (read only).
func (p *BoardPage) exported() bool { return p.view != nil && p.view.Exported != "" }

// rows ranks the entries under the page's filter.
func (p *BoardPage) rows() []board.Row {
	if p.view == nil {
		return nil
	}
	return board.Rank(p.view.Entries, p.view.Current, board.Filter{Form: p.form, Level: p.level})
}

// Render draws the page.
func (p *BoardPage) Render() app.UI {
	rows := p.rows()
	return shell("/board", "Board",
		app.P().Class("lead").Text("The public leaderboard. Every entry is a run's predictions, judged again by this site's engine: nothing a submission claims is believed. Re-scored, not reproduced: an entry's model and settings are what its run recorded, and the board judges its answers again but never runs the model again. Entries are ranked by call accuracy; two neighbours whose difference the paired McNemar test does not find (p ≥ 0.05) share a rank. Submit a run of yours from the Runs page."),
		errorBox(p.err),
		note(p.msg),
		app.If(!p.loaded, func() app.UI { return app.P().Aria("live", "polite").Text("Loading the board…") }),
		app.If(p.exported(), func() app.UI {
			return app.P().Class("note").DataSet("testid", "board-exported").Text("This is a read-only export of the board, written " + p.view.Exported + ": no submission or retraction here, and the verdicts and predictions files are on the live board.")
		}),
		app.If(p.view != nil && p.view.Current.Season != 0, func() app.UI { return p.seasonView() }),
		app.If(p.view != nil, func() app.UI { return p.filters() }),
		app.If(p.view != nil, func() app.UI {
			return app.P().Class("small").DataSet("testid", "board-current").Text("Judged now on " + board.DataWords(p.view.Current.Season) + " (data " + p.view.Current.Data + ") with engine " + p.view.Current.Engine + ".")
		}),
		app.If(p.view != nil && len(rows) == 0, func() app.UI {
			return app.P().DataSet("testid", "board-empty").Body(app.Text("No entries under this filter. "), app.A().Href("/runs").Text("Submit a run from the Runs page."))
		}),
		app.If(len(rows) > 0, func() app.UI { return p.sections(rows) }),
		app.If(p.open != "", func() app.UI { return p.entryView() }),
	)
}

// SeasonWords says which season a board ranks and since when: "Season 7 — ranked since
// 2026-12-06" ("" for a board of the original data; without "ranked since" when it is not known).
func SeasonWords(cur board.Current) string {
	if cur.Season == 0 {
		return ""
	}
	words := "Season " + strconv.FormatInt(cur.Season, 10)
	if cur.Since != nil {
		words += " — ranked since " + cur.Since.UTC().Format("2006-01-02")
	}
	return words
}

// SeasonRun is how to make a run of the board's season and submit it (the commands of the CLI):
// site is the board's address.
func SeasonRun(season int64, site string) string {
	return fmt.Sprintf("apibank run --seed %d --base-url URL --model NAME --out m.jsonl && apibank submit m.jsonl --board %s", season, site)
}

// seasonView says which season the board ranks, since when, and how to run on it.
func (p *BoardPage) seasonView() app.UI {
	cur := p.view.Current
	site := "SITE"
	if u := app.Window().URL(); u != nil && u.Host != "" {
		site = u.Scheme + "://" + u.Host
	}
	return app.Section().Class("card").Aria("labelledby", "board-season-h").DataSet("testid", "board-season").DataSet("season", cur.Season).Body(
		app.H2().ID("board-season-h").DataSet("testid", "board-season-title").Text(SeasonWords(cur)),
		app.P().Text(fmt.Sprintf("This board ranks runs made on season %d's variant of the data: the builtin dialogues with their people, places, names and values moved, so that answers learned from the public data do not score here. Runs made on the original data or on another season's variant are judged on their own data and listed apart, with the data they were made on.", cur.Season)),
		app.If(!p.exported(), func() app.UI {
			return app.P().Body(app.Text("Run on this season and submit the run: "), app.Code().DataSet("testid", "board-season-run").Text(SeasonRun(cur.Season, site)),
				app.Text(fmt.Sprintf(". In this tab, run it on Run a model with Data set to a variant of the builtin data and Seed to %d, then press Submit to the board on the Runs page.", cur.Season)))
		}),
	)
}

// filters are the form and level selects.
func (p *BoardPage) filters() app.UI {
	return app.Div().Class("row").DataSet("testid", "board-filters").Body(
		choiceSelect("Form ", "board-form", []string{"", run.Text, run.Native}, "any form", p.form, func(v string) { p.form = v }),
		levelSelect(p.level, true, func(ctx app.Context, v string) { p.level = v }),
	)
}

// boardSections names and explains the board's sections, in order.
var boardSections = []struct{ Name, Title, About string }{
	{board.SectionRanked, "Ranked", "Complete runs judged with the data and engine the board uses now, covering the level asked (every level for the overall ranking)."},
	{board.SectionUnranked, "Unranked", "Partial runs, and runs of other levels than the ranking asks: shown with their numbers, not ranked."},
	{board.SectionLegacy, "Legacy", "Runs made on other data than the board ranks (the original data or another season's variant: each says which), or judged with other data or another engine build than the board's now: not comparable with the ranked ones."},
	{board.SectionRetracted, "Retracted", "Entries their owners retracted: listed, never ranked."},
}

// sections draws each non-empty section's table.
func (p *BoardPage) sections(rows []board.Row) app.UI {
	var out []app.UI
	for _, s := range boardSections {
		var in []int
		for i, r := range rows {
			if r.Section == s.Name {
				in = append(in, i)
			}
		}
		if len(in) == 0 {
			continue
		}
		id := "board-" + s.Name
		out = append(out, app.Section().Aria("labelledby", id).DataSet("testid", "board-section").DataSet("section", s.Name).Body(
			app.H2().ID(id).Text(fmt.Sprintf("%s (%d)", s.Title, len(in))),
			app.P().Class("small").Text(s.About),
			p.table(rows, in, s.Name == board.SectionRanked),
		))
	}
	return app.Div().Body(out...)
}

// table draws rows[in...]: ranked rows with their rank, the others with why they are apart.
func (p *BoardPage) table(rows []board.Row, in []int, ranked bool) app.UI {
	head := "why apart"
	if ranked {
		head = "rank"
	}
	return app.Div().Class("table-box").Body(app.Table().Class("tally").Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text(head), app.Th().Scope("col").Text("model"), app.Th().Scope("col").Text("form"),
			app.Th().Scope("col").Text("accuracy (95% Wilson)"), app.Th().Scope("col").Text("ROUGE-L"),
			app.Th().Scope("col").Text("special cases right"), app.Th().Scope("col").Text("level 3 successes · milestones"),
			app.Th().Scope("col").Text("trials"), app.Th().Scope("col").Text("date"), app.Th().Scope("col").Text(""),
		)),
		app.TBody().Body(app.Range(in).Slice(func(k int) app.UI {
			i := in[k]
			r := rows[i]
			e := r.Entry
			first := app.Td().Text(r.Why)
			if ranked {
				rank, words := RankWords(rows, i)
				first = app.Td().Body(app.Strong().DataSet("testid", "board-rank").Text(rank), app.If(words != "", func() app.UI {
					return app.Span().Class("small").Body(app.Br(), app.Text(words))
				}))
			}
			cells := []app.UI{
				first,
				app.Td().Body(app.Strong().Text(e.Run.Model), app.Br(), app.Span().Class("small").Text(e.Run.Host)),
				app.Td().Text(e.Run.Form),
			}
			cells = append(cells, scoreCells(r.Score)...)
			cells = append(cells,
				app.Td().Text(max(1, e.Run.Trials)),
				app.Td().Class("date").Text(e.Created.UTC().Format("2006-01-02")),
				app.Td().Body(app.Button().Class("small-button").DataSet("testid", "board-open").Text("verdicts").
					Aria("label", "verdicts of entry "+e.ID).OnClick(func(ctx app.Context, ev app.Event) { p.openEntry(e.ID) })),
			)
			return app.Tr().DataSet("testid", "board-row").DataSet("id", e.ID).DataSet("section", r.Section).DataSet("rank", r.Rank).Body(cells...)
		})),
	))
}

// scoreCells are a level score's cells: accuracy with its interval, ROUGE-L, special cases and
// level-3 successes with the episodes' mean milestone credit ("—" where the score has none).
func scoreCells(s board.LevelScore) []app.UI {
	acc := app.Td().Text("—")
	if s.Judged > 0 {
		acc = app.Td().DataSet("testid", "board-accuracy").DataSet("right", s.Right).DataSet("judged", s.Judged).Body(
			app.Strong().Text(Percent(s.Accuracy)), app.Br(),
			app.Span().Class("small").Text(fmt.Sprintf("%s–%s · %d/%d", Percent(s.Low), Percent(s.High), s.Right, s.Judged)),
		)
	}
	rouge, special, l3 := "—", "—", "—"
	if s.Replies > 0 {
		rouge = Round4(s.RougeL)
	}
	if s.Special > 0 {
		special = fmt.Sprintf("%d/%d", s.SpecialRight, s.Special)
	}
	l3cell := app.Td().Text(l3)
	if s.Episodes > 0 {
		l3 = fmt.Sprintf("%d/%d", s.Successes, s.Episodes)
		l3cell = app.Td().DataSet("testid", "board-l3").DataSet("milestone", Round4(s.Milestone)).Body(
			app.Text(l3), app.Br(), app.Span().Class("small").Text("milestones "+Percent(s.Milestone)))
	}
	return []app.UI{acc, app.Td().DataSet("testid", "board-rouge").Text(rouge), app.Td().DataSet("testid", "board-special").Text(special), l3cell}
}

// RankWords is how the board shows the rank of rows[i] (a ranked row): "1", or "=1" for every entry
// of a statistical tie, with, for an entry tied with the one above, the words and the p of the test.
func RankWords(rows []board.Row, i int) (rank, words string) {
	r := rows[i]
	rank = strconv.Itoa(r.Rank)
	below := i+1 < len(rows) && rows[i+1].Section == board.SectionRanked && rows[i+1].Tied
	if r.Tied || below {
		rank = "=" + rank
	}
	if r.Tied {
		words = fmt.Sprintf("tied with the entry above (paired McNemar p = %.2f)", r.P)
	}
	return rank, words
}

// openEntry shows an entry and loads its verdicts (from the live board only: an export has none).
func (p *BoardPage) openEntry(id string) {
	p.open, p.entry, p.openErr, p.confirm, p.pasted = id, nil, "", false, ""
	p.vlevel, p.vstatus, p.vtrial = "", "", 0
	if p.exported() {
		return
	}
	ctx := p.page
	ctx.Async(func() {
		var v board.EntryView
		err := classCall(context.Background(), model.DefaultTransport(), "GET", boardPath(id, ""), "", nil, &v)
		ctx.Dispatch(func(app.Context) {
			if p.open != id {
				return
			}
			if err != nil {
				p.openErr = "Entry " + id + ": " + err.Error()
				return
			}
			p.entry = &v
		})
	})
}

// openedEntry is the open entry: as loaded with its verdicts, or from the board's list.
func (p *BoardPage) openedEntry() (board.Entry, bool) {
	if p.entry != nil {
		return p.entry.Entry, true
	}
	if p.view != nil {
		for _, e := range p.view.Entries {
			if e.ID == p.open {
				return e, true
			}
		}
	}
	return board.Entry{}, false
}

// entryView shows the open entry: its run, its score per level, its predictions files, the
// retraction, and its verdicts.
func (p *BoardPage) entryView() app.UI {
	e, ok := p.openedEntry()
	if !ok {
		return app.Section().Class("card").DataSet("testid", "board-entry").Body(
			app.H2().Text("Entry "+p.open), errorBox(p.openErr),
			app.If(p.openErr == "", func() app.UI { return app.P().Text("Loading the entry…") }),
		)
	}
	ri := e.Run
	state := "standing"
	if e.Retracted != nil {
		state = "retracted " + e.Retracted.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	facts := fmt.Sprintf("%s at %s · %s form%s · temperature %g · %s · %d trial(s) · ran %s to %s from the %s · %d tokens in, %d out · prompts v%d",
		ri.Model, ri.Host, ri.Form, map[bool]string{true: ", streamed"}[ri.Stream], ri.Temperature, strings.Join(ri.Levels, ", "),
		max(1, ri.Trials), ri.Started, ri.Ended, ri.Source, ri.TokensIn, ri.TokensOut, ri.Encoder)
	if ri.Limit > 0 {
		facts += fmt.Sprintf(" · first %d samples a level", ri.Limit)
	}
	season := int64(0)
	if p.view != nil {
		season = p.view.Current.Season
	}
	judged := fmt.Sprintf("Made on %s and judged on it %s, with data %s and engine %s", board.DataWordsFor(e.Seed, season), e.Created.UTC().Format("2006-01-02 15:04 UTC"), e.Data, e.Engine)
	if p.view != nil && e.Seed != p.view.Current.Season {
		judged += "; listed apart: the board ranks " + board.DataWords(p.view.Current.Season)
	}
	if !e.RunData {
		judged += "; the run saw other data (" + ri.DataHash + ")"
	}
	sc := e.Score
	return app.Section().Class("card").Aria("labelledby", "board-entry-h").DataSet("testid", "board-entry").DataSet("id", e.ID).DataSet("seed", e.Seed).Body(
		app.H2().ID("board-entry-h").Text("Entry "+e.ID+": "+ri.Model),
		app.P().Class("small").Text(facts),
		app.P().Class("small").DataSet("testid", "board-entry-recorded").Text("As the run recorded them: the model and settings above were not run again here. Its answers were re-scored, not reproduced."),
		app.P().Class("small").DataSet("testid", "board-entry-state").DataSet("state", map[bool]string{true: "retracted", false: "standing"}[e.Retracted != nil]).
			Text(judged+". "+fmt.Sprintf("%d of %d tasks answered, %d failed, %d missing", sc.Answered, sc.Expected*max(1, ri.Trials), sc.Failed, sc.Missing)+" · "+state+"."),
		app.Div().Class("table-box").Body(app.Table().Class("tally").DataSet("testid", "board-levels").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("level"), app.Th().Scope("col").Text("accuracy (95% Wilson)"), app.Th().Scope("col").Text("ROUGE-L"),
				app.Th().Scope("col").Text("special cases right"), app.Th().Scope("col").Text("level 3 successes · milestones"),
			)),
			app.TBody().Body(app.Range(append(append([]board.LevelScore{}, sc.Levels...), sc.Overall)).Slice(func(i int) app.UI {
				l := sc.Overall
				name := "overall"
				if i < len(sc.Levels) {
					l, name = sc.Levels[i], LevelLabel(sc.Levels[i].Level)
				}
				return app.Tr().DataSet("testid", "board-level").DataSet("level", l.Level).Body(append([]app.UI{app.Th().Scope("row").Text(name)}, scoreCells(l)...)...)
			})),
		)),
		app.If(!p.exported(), func() app.UI {
			n := max(1, ri.Trials)
			links := make([]app.UI, n)
			for t := 1; t <= n; t++ {
				label := "Download the predictions"
				if n > 1 {
					label += fmt.Sprintf(" of trial %d", t)
				}
				links[t-1] = app.A().Href(boardPath(e.ID, "/predictions?trial="+strconv.Itoa(t))).Attr("download", board.FileName(e, t)).
					DataSet("testid", "board-predictions").DataSet("trial", t).Text(label)
			}
			links = append(links, app.A().Href(boardPath(e.ID, "/record")).Attr("download", board.RecordName(e)).
				DataSet("testid", "board-record").Text("Download the run record"))
			return app.Div().Body(
				app.Div().Class("row").Body(links...),
				app.P().Class("small").Body(app.Text("Judged again on the command line, to these numbers: "),
					app.Code().DataSet("testid", "board-score-command").Text(board.ScoreCommand(e, 1)),
					app.If(e.Seed != 0, func() app.UI {
						return app.Text(" (made on " + board.DataWordsFor(e.Seed, season) + "; with the run record saved beside the predictions, --seed can be left out)")
					})),
			)
		}),
		app.If(!p.exported() && e.Retracted == nil, func() app.UI { return p.retractView(e) }),
		errorBox(p.openErr),
		app.If(p.entry != nil, func() app.UI { return p.verdictsView(p.entry.Verdicts, max(1, ri.Trials)) }),
	)
}

// retractView offers the retraction of entry e: with the key this browser holds, or one pasted.
func (p *BoardPage) retractView(e board.Entry) app.UI {
	key, held := p.keys[e.ID]
	if held {
		return app.Div().Class("row").Body(
			app.If(!p.confirm, func() app.UI {
				return app.Button().DataSet("testid", "board-retract").Text("Retract this entry…").Disabled(p.busy).
					OnClick(func(ctx app.Context, ev app.Event) { p.confirm = true })
			}),
			app.If(p.confirm, func() app.UI {
				return app.Span().Body(
					app.Text("This browser holds the entry's owner key. Retract it? It stays listed, as retracted, never ranked. "),
					app.Button().DataSet("testid", "board-retract-confirm").Text("Yes, retract").Disabled(p.busy).
						OnClick(func(ctx app.Context, ev app.Event) { p.retract(e.ID, key) }),
					app.Button().Text("Keep it").OnClick(func(ctx app.Context, ev app.Event) { p.confirm = false }),
				)
			}),
		)
	}
	return app.Div().Body(
		app.P().Class("small").Text("The owner of this entry retracts it with the owner key shown when it was made:"),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Owner key "),
				app.Input().Type("password").DataSet("testid", "board-paste-key").Value(p.pasted).Spellcheck(false).Attr("autocomplete", "off").
					OnInput(func(ctx app.Context, ev app.Event) { p.pasted = ctx.JSSrc().Get("value").String() }),
			),
			app.Button().DataSet("testid", "board-retract-pasted").Text("Retract").Disabled(p.busy || strings.TrimSpace(p.pasted) == "").
				OnClick(func(ctx app.Context, ev app.Event) { p.retract(e.ID, strings.TrimSpace(p.pasted)) }),
		),
	)
}

// retract retracts an entry with key, and reloads the board.
func (p *BoardPage) retract(id, key string) {
	p.busy, p.err, p.msg = true, "", ""
	ctx := p.page
	ctx.Async(func() {
		var e board.Entry
		err := classCall(context.Background(), model.DefaultTransport(), "DELETE", boardPath(id, ""), key, nil, &e)
		ctx.Dispatch(func(app.Context) {
			p.busy, p.confirm = false, false
			var ce *classError
			switch {
			case errors.As(err, &ce) && ce.Status == 401:
				p.err = "The key does not retract entry " + id + ": it is not the owner key given when the entry was made."
			case err != nil:
				p.err = "Entry " + id + " could not be retracted: " + err.Error()
			default:
				p.msg, p.pasted = "Entry "+id+" is retracted: it stays listed as retracted.", ""
				if p.entry != nil && p.entry.Entry.ID == id {
					p.entry.Entry = e
				}
				p.load()
			}
		})
	})
}

// maxVerdictRows bounds the verdict rows drawn at once (a full run has over a thousand a trial).
const maxVerdictRows = 300

// verdictsView is the open entry's verdicts, filtered by level, outcome and trial.
func (p *BoardPage) verdictsView(vs []board.SampleVerdict, trials int) app.UI {
	shown := FilterVerdicts(vs, p.vlevel, p.vstatus, p.vtrial)
	statuses := []string{"", "right", "wrong", board.StatusFailed, board.StatusMissing}
	trialOpts := []string{""}
	for t := 1; t <= trials; t++ {
		trialOpts = append(trialOpts, trialValue(t))
	}
	more := len(shown) - maxVerdictRows
	if more > 0 {
		shown = shown[:maxVerdictRows]
	}
	return app.Div().DataSet("testid", "board-verdicts").Body(
		app.H3().Text(fmt.Sprintf("Verdicts (%d tasks)", len(vs))),
		app.Div().Class("row").Body(
			levelSelect(p.vlevel, true, func(ctx app.Context, v string) { p.vlevel = v }),
			choiceSelect("Outcome ", "board-verdict-status", statuses, "every outcome", p.vstatus, func(v string) { p.vstatus = v }),
			app.If(trials > 1, func() app.UI {
				return choiceSelect("Trial ", "board-verdict-trial", trialOpts, "every trial", trialValue(p.vtrial), func(v string) { p.vtrial, _ = strconv.Atoi(v) })
			}),
		),
		app.P().Class("small").DataSet("testid", "board-verdicts-shown").Text(verdictsShownWords(len(shown)+max(0, more), more)),
		app.Div().Class("table-box").Body(app.Table().Class("tally").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("trial"), app.Th().Scope("col").Text("level"), app.Th().Scope("col").Text("sample"),
				app.Th().Scope("col").Text("kind"), app.Th().Scope("col").Text("verdict"), app.Th().Scope("col").Text("right"),
			)),
			app.TBody().Body(app.Range(shown).Slice(func(i int) app.UI {
				v := shown[i]
				sample := app.UI(app.Text(v.File + " (episode)"))
				if v.ID >= 0 {
					sample = app.A().Href(sampleURL(v.Level, v.File, v.ID)).Text(fmt.Sprintf("%s #%d", v.File, v.ID))
				}
				return app.Tr().DataSet("testid", "board-verdict").DataSet("level", v.Level).DataSet("status", v.Status).DataSet("correct", v.Correct).Body(
					app.Td().Text(v.Trial), app.Td().Text(LevelLabel(v.Level)), app.Td().Body(sample), app.Td().Text(v.Kind),
					app.Td().Text(VerdictWords(v)), app.Td().Text(rightWords(v)),
				)
			})),
		)),
	)
}

// trialValue is trial t as a select's choice ("" for every trial).
func trialValue(t int) string {
	if t == 0 {
		return ""
	}
	return strconv.Itoa(t)
}

// choiceSelect is a labelled select of values (the value "" is shown as none, meaning no choice),
// value chosen; set takes a new choice.
func choiceSelect(label, testid string, values []string, none, value string, set func(string)) app.UI {
	return app.Label().Class("field").Body(
		app.Span().Text(label),
		app.Select().DataSet("testid", testid).OnChange(func(ctx app.Context, e app.Event) { set(selectValue(ctx)) }).Body(
			app.Range(values).Slice(func(i int) app.UI {
				text := values[i]
				if text == "" {
					text = none
				}
				return app.Option().Value(optionValue(values[i])).Selected(values[i] == value).Text(text)
			}),
		),
	)
}

func verdictsShownWords(matched, more int) string {
	if more > 0 {
		return fmt.Sprintf("%d tasks match; the first %d are shown: narrow the filter to see the others.", matched, maxVerdictRows)
	}
	return fmt.Sprintf("%d tasks match.", matched)
}

// FilterVerdicts keeps the verdicts of level ("" every level), outcome ("" every one; right,
// wrong — answered and judged wrong; a reply is scored, never right or wrong —, failed or missing)
// and trial (0 every trial).
func FilterVerdicts(vs []board.SampleVerdict, level, outcome string, trial int) []board.SampleVerdict {
	var out []board.SampleVerdict
	for _, v := range vs {
		if (level != "" && v.Level != level) || (trial > 0 && v.Trial != trial) {
			continue
		}
		ok := true
		switch outcome {
		case "right":
			ok = v.Status == board.StatusAnswered && v.Correct
		case "wrong":
			ok = v.Status == board.StatusAnswered && !v.Correct && v.Kind != protocol.KindReply
		case board.StatusFailed, board.StatusMissing:
			ok = v.Status == outcome
		}
		if ok {
			out = append(out, v)
		}
	}
	return out
}

// rightWords says whether a task was right: yes, no, or — for a reply (scored by ROUGE-L) and a
// task not judged.
func rightWords(v board.SampleVerdict) string {
	switch {
	case v.Kind == protocol.KindReply || v.Status == board.StatusMissing:
		return "—"
	case v.Correct:
		return "yes"
	}
	return "no"
}

// VerdictWords is a task's verdict in words: its category, a reply's ROUGE-L, an episode's success
// and milestone credit, or why it has none.
func VerdictWords(v board.SampleVerdict) string {
	switch {
	case v.Status == board.StatusMissing:
		return "not answered (missing)"
	case v.Status == board.StatusFailed:
		return "the request failed (counted wrong)"
	case v.RougeL != nil:
		return "ROUGE-L " + Round4(*v.RougeL)
	case v.Milestone != nil:
		return fmt.Sprintf("%s, milestones %.3f", map[bool]string{true: "success", false: "no success"}[v.Correct], *v.Milestone)
	case v.Recall != nil: // an entry judged before milestone credit
		return fmt.Sprintf("%s, recall %.3f", map[bool]string{true: "success", false: "no success"}[v.Correct], *v.Recall)
	}
	if v.Called != "" {
		return v.Category + " (called " + v.Called + ")"
	}
	return v.Category
}
