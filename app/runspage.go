package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// RunsPage lists the runs kept in this browser as a leaderboard, compares two side by side, opens
// one (its report and level-3 transcripts), exports it as JSON or prediction JSONL, makes a share
// link, and re-scores imported and shared runs with this tab's engine.
type RunsPage struct {
	app.Compo
	runs    []*SavedRun
	loaded  bool
	a, b    string // the runs compared
	open    string // the run shown in full
	share   string // the share link made
	foreign *SavedRun
	// episodes are the opened run's episodes whole (read back from the store when it opens).
	episodes []run.Episode
	// diffs are the samples the compared runs judge differently, with both answers read back
	// from the store; diffsOf names the pair they are of ("" until they are read).
	diffs   []Disagreement
	diffsOf string
	// robust sums up the robustness runs listed (RobustGroups), summed up when the runs change.
	robust []RobustGroup
	agree  *Agreement
	err    string
	msg    string
	// board is the state of a submission to the board (submitBoard).
	board boardSubmit
	// mc is the page's own context (see RunPage.mc).
	mc app.Context
}

// OnPreRender does the mount's work where go-app renders without a browser.
func (p *RunsPage) OnPreRender(ctx app.Context) { p.OnMount(ctx) }

// OnMount loads the runs, and a shared run from the URL fragment.
func (p *RunsPage) OnMount(ctx app.Context) {
	p.mc = ctx
	p.load(ctx)
	ctx.Handle(dataCleared, func(ctx app.Context, a app.Action) {
		p.runs, p.a, p.b, p.open, p.episodes, p.diffs, p.diffsOf, p.robust = nil, "", "", "", nil, nil, "", nil
	})
	if frag := ctx.Page().URL().Fragment; strings.HasPrefix(frag, "run=") {
		r, err := ParseShareFragment(frag)
		if err != nil {
			p.err = "The shared link: " + err.Error()
			return
		}
		p.rescore(ctx, r, "the shared link")
	}
}

func (p *RunsPage) load(ctx app.Context) {
	if tab.Engine == nil {
		p.loaded = true
		return
	}
	ctx.Async(func() {
		rs, err := runStore.Runs()
		sortRuns(rs)
		ctx.Dispatch(func(app.Context) {
			p.loaded = true
			if err != nil {
				p.err = err.Error()
				return
			}
			p.runs = rs
			p.robust = RobustGroups(p.allRuns())
			if p.a == "" && len(rs) > 1 {
				p.a, p.b = rs[1].ID, rs[0].ID
				var kept [2]string // the pair picked last, while both runs are kept (see pickPair)
				if tab.Store != nil && tab.Store.Get(comparedKey, &kept) == nil && p.byID(kept[0]) != nil && p.byID(kept[1]) != nil {
					p.a, p.b = kept[0], kept[1]
				}
			}
			p.compare()
		})
	})
}

func (p *RunsPage) byID(id string) *SavedRun {
	if p.foreign != nil && p.foreign.ID == id {
		return p.foreign
	}
	for _, r := range p.runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Render draws the page.
func (p *RunsPage) Render() app.UI {
	groups := TrialGroups(p.runs)
	return shell("/runs", "Runs",
		app.P().Class("lead").Text("The model runs kept in this browser (IndexedDB), newest first. Intervals are 95% Wilson score intervals of the call accuracy."),
		app.Div().Class("row").Body(
			app.A().Href("/run").Text("Run a model"),
			app.Label().Class("file-button").Body(
				app.Span().Text("Open a run file…"),
				app.Input().Type("file").Accept(".json").DataSet("testid", "runs-file").OnChange(p.onImport),
			),
		),
		errorBox(p.err),
		note(p.msg),
		app.If(p.agree != nil, func() app.UI { return agreementView(p.agree) }),
		app.If(p.loaded && len(p.runs) == 0 && p.foreign == nil, func() app.UI {
			return app.P().Body(app.Text("No runs yet. "), app.A().Href("/run").Text("Run a model"), app.Text(" first, or open a run file or a share link."))
		}),
		app.If(len(p.runs) > 0 || p.foreign != nil, func() app.UI { return p.leaderboard() }),
		app.If(len(groups) > 0, func() app.UI { return trialsView(groups) }),
		app.If(len(p.robust) > 0, func() app.UI { return robustView(p.robust) }),
		app.If(len(p.runs)+btoi(p.foreign != nil) > 1, func() app.UI { return p.comparePicker() }),
		// The comparison shows once the samples judged differently are read (see compare).
		app.If(p.a != "" && p.b != "" && p.a != p.b && p.byID(p.a) != nil && p.byID(p.b) != nil && p.diffsOf == p.a+"\x00"+p.b, func() app.UI {
			return compareRuns(p.byID(p.a), p.byID(p.b), p.allRuns(), p.robust, p.diffs)
		}),
		app.If(p.open != "" && p.byID(p.open) != nil, func() app.UI { return p.runView(p.byID(p.open)) }),
	)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// levelTally returns a run's tally of a level (zero when absent).
func levelTally(r *SavedRun, level string) protocol.Tally {
	if r.Batch == nil || r.Batch.Report == nil {
		return protocol.Tally{}
	}
	for _, l := range r.Batch.Report.Levels {
		if l.Name == level {
			return l
		}
	}
	return protocol.Tally{}
}

// accuracyCell shows a tally's accuracy with its 95% Wilson interval.
func accuracyCell(t protocol.Tally) app.UI {
	if t.Calls == 0 {
		return app.Td().Text("—")
	}
	return app.Td().Body(
		app.Strong().Text(Percent(t.Accuracy)),
		app.Br(),
		app.Span().Class("small").Text(fmt.Sprintf("%s · %d/%d", Wilson(t.Correct, t.Calls), t.Correct, t.Calls)),
	)
}

func (p *RunsPage) allRuns() []*SavedRun {
	rs := p.runs
	if p.foreign != nil {
		rs = append([]*SavedRun{p.foreign}, rs...)
	}
	return rs
}

func (p *RunsPage) leaderboard() app.UI {
	rs := p.allRuns()
	return app.Table().Class("tally").DataSet("testid", "runs-table").Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Text("run"), app.Th().Text("level 1 accuracy (95% Wilson)"), app.Th().Text("level 2 accuracy (95% Wilson)"),
			app.Th().Text("ROUGE-L"), app.Th().Text("special cases"), app.Th().Text("level 3: success · world match · milestones"),
			app.Th().Text("tokens in/out"),
		)),
		app.TBody().Body(app.Range(rs).Slice(func(i int) app.UI {
			r := rs[i]
			var o protocol.Tally
			if r.Batch != nil && r.Batch.Report != nil {
				o = r.Batch.Report.Overall
			}
			rouge, special := "—", "—"
			if o.Replies > 0 {
				rouge = Round4(o.RougeL)
			}
			if o.Special > 0 {
				special = fmt.Sprintf("%d/%d (%s)", o.SpecialCorrect, o.Special, Percent(float64(o.SpecialCorrect)/float64(o.Special)))
			}
			ep := r.EpisodeSummary()
			l3 := "—"
			if ep.Episodes > 0 {
				l3 = fmt.Sprintf("%d/%d · %d/%d · %.3f", ep.Success, ep.Episodes, ep.WorldMatch, ep.Episodes, ep.Milestone)
			}
			label := r.Label()
			if r == p.foreign {
				label += " (opened, not kept)"
			}
			return app.Tr().DataSet("testid", "run-row").DataSet("id", r.ID).DataSet("source", r.Source).DataSet("seed", r.Seed).DataSet("group", r.Group).DataSet("accuracy", Percent(o.Accuracy)).Body(
				// The run's name opens it: in the first column, which a phone shows without scrolling.
				app.Td().Body(app.Strong().Text(label), app.Br(), app.Span().Class("small").Text(fmt.Sprintf("%s · %s · %s · %d failed", r.Host, r.Status, r.Data, len(r.Failures))), app.Br(),
					app.Button().Class("small-button").DataSet("testid", "run-open").Text("open").
						OnClick(func(ctx app.Context, e app.Event) { p.openRun(r); ctx.ScrollTo("run-view") })),
				accuracyCell(levelTally(r, Levels[0])),
				accuracyCell(levelTally(r, Levels[1])),
				app.Td().Text(rouge),
				app.Td().Text(special),
				app.Td().Text(l3),
				app.Td().Text(fmt.Sprintf("%d / %d", r.TokensIn, r.TokensOut)),
			)
		})),
	)
}

func (p *RunsPage) comparePicker() app.UI {
	rs := p.allRuns()
	pick := func(label, testid, value string, set func(string)) app.UI {
		return app.Label().Class("field").Body(
			app.Span().Text(label),
			app.Select().DataSet("testid", testid).OnChange(func(ctx app.Context, e app.Event) { set(ctx.JSSrc().Get("value").String()) }).Body(
				app.Option().Value("").Text("—"),
				app.Range(rs).Slice(func(i int) app.UI {
					return app.Option().Value(rs[i].ID).Selected(rs[i].ID == value).Text(rs[i].Label())
				}),
			),
		)
	}
	return app.Section().Class("row").Body(
		app.Strong().Text("Compare "),
		pick("A ", "compare-a", p.a, func(v string) { p.pickPair(v, p.b) }),
		pick("B ", "compare-b", p.b, func(v string) { p.pickPair(p.a, v) }),
	)
}

// comparedKey keeps the pair of runs the Runs page compares last, so that a reload shows it again.
const comparedKey = "runs/compared"

// pickPair compares runs a and b, and keeps the pair for the next visit.
func (p *RunsPage) pickPair(a, b string) {
	if a == p.a && b == p.b {
		return
	}
	p.a, p.b = a, b
	if tab.Store != nil {
		_ = tab.Store.Set(comparedKey, [2]string{a, b}) // a pair not kept is only the default again
	}
	p.compare()
}

// compareRuns draws two runs side by side: when both are passes of robustness runs (among robust),
// their robustness; per level, the paired test of the difference (with the flip rate between the
// trials among runs), per category and tool, then the samples they judge differently (diffs), each
// opening both answers.
func compareRuns(a, b *SavedRun, runs []*SavedRun, robust []RobustGroup, diffs []Disagreement) app.UI {
	ga, gb := findRobust(robust, a), findRobust(robust, b)
	ra, rb := reportOf(a), reportOf(b)
	levels := unionNames(func(r *protocol.Report) []string {
		var out []string
		for _, l := range r.Levels {
			out = append(out, l.Name)
		}
		return out
	}, ra, rb)
	cats := unionNames(func(r *protocol.Report) []string {
		var out []string
		for _, c := range r.Categories {
			out = append(out, c.Category)
		}
		return out
	}, ra, rb)
	tools := unionNames(func(r *protocol.Report) []string {
		var out []string
		for _, t := range r.Tools {
			out = append(out, t.Name)
		}
		return out
	}, ra, rb)
	tallyOf := func(ts []protocol.Tally, name string) protocol.Tally {
		for _, t := range ts {
			if t.Name == name {
				return t
			}
		}
		return protocol.Tally{}
	}
	countOf := func(cs []protocol.Count, name string) int {
		for _, c := range cs {
			if c.Category == name {
				return c.Count
			}
		}
		return 0
	}
	warn := ""
	if a.DataHash != b.DataHash || a.Data != b.Data {
		warn = "The two runs saw different data (" + a.Data + " " + a.DataHash + " and " + b.Data + " " + b.DataHash + "): compare with care."
	}
	head := func() app.UI {
		return app.THead().Body(app.Tr().Body(app.Th().Text(""), app.Th().Text("A: "+a.Label()), app.Th().Text("B: "+b.Label())))
	}
	// The section names the pair it compares, so a reader (or a test) can tell a fresh comparison
	// from the one shown before a pick.
	return app.Section().Class("card").DataSet("testid", "compare").DataSet("a", a.ID).DataSet("b", b.ID).Body(
		app.H2().Text("A and B side by side"),
		note(warn),
		app.If(ga != nil && gb != nil, func() app.UI { return compareRobust(ga, gb) }),
		app.H3().Text("Per level (call accuracy, 95% Wilson interval)"),
		app.Table().Class("tally").Body(head(), app.TBody().Body(app.Range(levels).Slice(func(i int) app.UI {
			return app.Tr().Body(app.Td().Text(LevelLabel(levels[i])), accuracyCell(tallyOf(ra.Levels, levels[i])), accuracyCell(tallyOf(rb.Levels, levels[i])))
		}))),
		pairedView(run.Compare(trialsOf(a, runs), trialsOf(b, runs))),
		app.H3().Text("Per verdict category"),
		app.Table().Class("tally").Body(head(), app.TBody().Body(app.Range(cats).Slice(func(i int) app.UI {
			return app.Tr().Body(app.Td().Text(cats[i]), app.Td().Text(countOf(ra.Categories, cats[i])), app.Td().Text(countOf(rb.Categories, cats[i])))
		}))),
		app.H3().Text("Per gold tool"),
		app.Table().Class("tally").Body(head(), app.TBody().Body(app.Range(tools).Slice(func(i int) app.UI {
			return app.Tr().Body(app.Td().Text(tools[i]), accuracyCell(tallyOf(ra.Tools, tools[i])), accuracyCell(tallyOf(rb.Tools, tools[i])))
		}))),
		app.H3().Text(fmt.Sprintf("%d samples judged differently", len(diffs))),
		app.Ul().Class("diffs").Body(app.Range(diffs).Slice(func(i int) app.UI {
			d := diffs[i]
			name := fmt.Sprintf("%s #%d", d.File, d.ID)
			link := app.UI(app.Text(""))
			if d.ID >= 0 {
				link = app.A().Href(sampleURL(d.Level, d.File, d.ID)).Text("open the sample")
			} else {
				name = d.File + " (episode)"
			}
			return app.Li().DataSet("testid", "compare-row").DataSet("file", d.File).DataSet("id", d.ID).Body(
				app.Details().Body(
					app.Summary().Text(fmt.Sprintf("%s · %s — A: %s · B: %s", LevelLabel(d.Level), name, d.A, d.B)),
					app.Div().Class("compare").Body(
						app.Div().Body(app.H4().Text("A answered"), app.Pre().Text(d.PredA)),
						app.Div().Body(app.H4().Text("B answered"), app.Pre().Text(d.PredB)),
					),
					link,
				),
			)
		})),
	)
}

func reportOf(r *SavedRun) *protocol.Report {
	if r.Batch == nil || r.Batch.Report == nil {
		return &protocol.Report{}
	}
	return r.Batch.Report
}

func unionNames(f func(*protocol.Report) []string, rs ...*protocol.Report) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		for _, n := range f(r) {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// runView shows one run: its settings, report, failures and level-3 transcripts, with exports.
func (p *RunsPage) runView(r *SavedRun) app.UI {
	settings, _ := json.MarshalIndent(r.Settings, "", "  ")
	return app.Section().Class("card").ID("run-view").DataSet("testid", "run-view").Body(
		app.H2().Text(r.Label()),
		app.P().Class("small").Text(fmt.Sprintf("%s · %s · started %s, ended %s · engine %s · data %s (%s) · %d tokens in, %d out", r.Host, r.Status, r.Started, r.Ended, r.Engine, r.Data, r.DataHash, r.TokensIn, r.TokensOut)),
		app.Div().Class("row").Body(
			app.Button().DataSet("testid", "run-export-json").Text("Export JSON").OnClick(func(ctx app.Context, e app.Event) { p.export(r, "json") }),
			app.Button().DataSet("testid", "run-export-jsonl").Text("Export predictions (JSONL)").OnClick(func(ctx app.Context, e app.Event) { p.export(r, "jsonl") }),
			app.Button().DataSet("testid", "run-share").Text("Share link").OnClick(func(ctx app.Context, e app.Event) { p.makeShare(ctx, r) }),
			app.If(r != p.foreign, func() app.UI {
				return app.Button().DataSet("testid", "run-delete").Text("Delete").OnClick(func(ctx app.Context, e app.Event) { p.delete(ctx, r) })
			}),
			app.If(r == p.foreign, func() app.UI {
				return app.Button().DataSet("testid", "run-keep").Text("Keep in this browser").OnClick(func(ctx app.Context, e app.Event) { p.keep(ctx, r) })
			}),
		),
		p.board.view(r, p.allRuns(), func() { p.submitBoard(r) }),
		app.If(p.share != "", func() app.UI {
			return app.P().Body(app.Text("Share link (the run is in the part after #, which browsers never send to a server): "),
				app.A().DataSet("testid", "share-link").Href(p.share).Text(truncate(p.share, 80)))
		}),
		app.Details().Body(app.Summary().Text("Settings"), app.Pre().Text(string(settings))),
		app.If(r.Batch != nil, func() app.UI {
			return reportView(&SavedBatch{Format: batchFormat, Data: r.Data, Source: Source{Kind: "model", Model: r.Settings.Model, Provider: r.Host}, Batch: *r.Batch}, false)
		}),
		app.If(len(r.Failures) > 0, func() app.UI {
			return app.P().Body(app.Text(fmt.Sprintf("%d requests failed (not in the accuracy): ", len(r.Failures))), app.A().DataSet("testid", "run-retry-link").Href("/run?run="+url.QueryEscape(r.ID)).Text("retry them on the Run page"), app.Text("."))
		}),
		app.If(len(p.episodes) > 0, func() app.UI { return episodesView(p.episodes) }),
	)
}

// openRun shows a run in full, its episodes read back whole from the store.
func (p *RunsPage) openRun(r *SavedRun) {
	p.open, p.share, p.board, p.episodes = r.ID, "", boardSubmit{}, nil
	if len(r.Episodes) == 0 {
		return
	}
	ctx := p.mc
	ctx.Async(func() {
		w, err := wholeRun(r)
		ctx.Dispatch(func(app.Context) {
			if p.open != r.ID {
				return
			}
			if err != nil {
				p.err = "The run's episodes could not be read: " + err.Error()
				return
			}
			p.episodes = w.Episodes
		})
	})
}

// compare reads the samples the compared runs judge differently, with both answers.
func (p *RunsPage) compare() {
	a, b := p.byID(p.a), p.byID(p.b)
	pair, ctx := p.a+"\x00"+p.b, p.mc
	// The pair shown stays on screen while it is read again (the runs were reloaded); another
	// pair's comparison goes at once, so nothing stale is shown under the new names.
	if pair != p.diffsOf {
		p.diffs, p.diffsOf = nil, ""
	}
	if a == nil || b == nil || a == b {
		p.diffs, p.diffsOf = nil, ""
		return
	}
	ctx.Async(func() {
		diffs, err := DisagreementsWithAnswers(a, b)
		ctx.Dispatch(func(app.Context) {
			if p.a+"\x00"+p.b != pair {
				return
			}
			if err != nil {
				p.err = "The compared runs' answers could not be read: " + err.Error()
			}
			p.diffs, p.diffsOf = diffs, pair
		})
	})
}

// episodesView lists level-3 episodes with their outcome and transcript (model output as text).
func episodesView(eps []run.Episode) app.UI {
	return app.Div().Body(
		app.H3().Text("Level-3 episodes"),
		app.Ul().Body(app.Range(eps).Slice(func(i int) app.UI {
			ep := eps[i]
			return app.Li().DataSet("testid", "episode-row").Body(app.Details().Body(
				app.Summary().Text(fmt.Sprintf("%s: %s, %d calls, stopped by %s", ep.File, episodeWords(ep, true), len(ep.Calls), ep.Stopped)),
				app.Ol().Body(app.Range(ep.Transcript).Slice(func(j int) app.UI {
					m := ep.Transcript[j]
					text := m.Content
					for _, c := range m.ToolCalls {
						text += "\n→ " + c.Name + " " + c.Arguments
					}
					return app.Li().Body(app.Strong().Text(m.Role+": "), app.Pre().Text(truncate(text, 20000)))
				})),
			))
		})),
	)
}

// export saves a run as a file, read back whole from the store: its JSON, or its predictions file.
func (p *RunsPage) export(r *SavedRun, kind string) {
	ctx := p.mc
	ctx.Async(func() {
		name, mime, body, err := exportRun(r, kind)
		ctx.Dispatch(func(app.Context) {
			if err != nil {
				p.err = "The run could not be read back: " + err.Error()
				return
			}
			if download(name, mime, body) {
				p.msg = "Saved " + name + " (" + Size(len(body)) + ")."
				if kind == "jsonl" && r.Seed != 0 {
					// The predictions file names no data: the CLI judges it on the builtin data
					// unless told (a run's own record, which `apibank run` writes, is not exported).
					p.msg += fmt.Sprintf(" Its answers are to variant %d: score it with apibank score --seed %d --preds %s.", r.Seed, r.Seed, name)
				}
			}
		})
	})
}

// exportRun is a run's export file, read back whole: its JSON (kind "json") or its predictions
// file (kind "jsonl", the bytes `apibank run --out` writes).
func exportRun(r *SavedRun, kind string) (name, mime string, body []byte, err error) {
	w, err := wholeRun(r)
	if err != nil {
		return "", "", nil, err
	}
	name = "apibank-run-" + r.ID
	if r.Seed != 0 {
		name += ".seed-" + strconv.FormatInt(r.Seed, 10) // the data its answers are to (protocol.SeedInName)
	}
	if kind == "jsonl" {
		return name + ".jsonl", "application/x-ndjson", w.PredictionsJSONL(), nil
	}
	body, err = json.MarshalIndent(w, "", " ")
	return name + ".json", "application/json", body, err
}

func (p *RunsPage) makeShare(ctx app.Context, r *SavedRun) {
	u := *ctx.Page().URL()
	u.RawQuery, u.Fragment = "", ""
	u.Path = "/runs"
	ctx.Async(func() {
		w, err := wholeRun(r)
		frag := ""
		if err == nil {
			frag, err = ShareFragment(w)
		}
		ctx.Dispatch(func(app.Context) {
			if err != nil {
				p.err, p.share = err.Error(), ""
				return
			}
			p.share, p.err = u.String()+"#"+frag, ""
		})
	})
}

func (p *RunsPage) delete(_ app.Context, r *SavedRun) {
	ctx := p.mc
	ctx.Async(func() {
		err := runStore.Delete(r.ID)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				p.err = err.Error()
				return
			}
			p.open = ""
			p.load(ctx)
		})
	})
}

func (p *RunsPage) keep(_ app.Context, r *SavedRun) {
	ctx := p.mc
	ctx.Async(func() {
		_, err := runStore.Put(r)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				p.err = err.Error()
				return
			}
			p.foreign, p.msg = nil, "Kept in this browser."
			p.load(ctx)
		})
	})
}

func (p *RunsPage) onImport(ctx app.Context, e app.Event) {
	readFirstFile(p.mc, ctx.JSSrc().Get("files"), func(ctx app.Context, name, text string) {
		r, err := ParseSavedRun([]byte(text))
		if err != nil {
			p.err = name + ": " + err.Error()
			return
		}
		p.rescore(ctx, r, name)
	})
}

// rescore judges an imported or shared run's predictions with this tab's engine, replays its
// episodes' calls, and says whether the verdicts agree with those it carried.
func (p *RunsPage) rescore(_ app.Context, r *SavedRun, from string) {
	ctx := p.mc
	p.err, p.msg, p.agree = "", "Re-scoring "+from+" with this tab's engine…", nil
	refresh(ctx, func() (ag Agreement, err error) {
		// A run on a variant (or a pass of a robustness run) is judged on its data, which the
		// engine loads for the re-score; the data loaded before comes back after it.
		if wantsData(r) {
			if runOnOtherData(r.Seed) {
				return ag, fmt.Errorf("it was made on %s, which this tab's engine would have to load while a run goes on: open it again once the run has ended", dataWords(r.Seed))
			}
			err = onSeedData(r.Seed, func() (err error) { ag, err = rescoreHere(r); return err })
			return ag, err
		}
		return rescoreHere(r)
	}, func(ag Agreement, err error) {
		if err != nil {
			p.err, p.msg = from+": "+err.Error(), ""
			return
		}
		p.foreign, p.agree = r, &ag
		p.robust = RobustGroups(p.allRuns())
		p.openRun(r)
		p.compare()
		p.msg = "Opened " + from + ", re-scored with this tab's engine."
	})
}

// rescoreHere judges a run's predictions with this tab's engine as it is loaded, replays its
// episodes' calls, and says whether the verdicts agree with those the run carried.
func rescoreHere(r *SavedRun) (ag Agreement, err error) {
	var carried []protocol.Verdict
	if r.Batch != nil {
		carried = r.Batch.Results
	}
	if len(r.Predictions) > 0 {
		b, err := tab.ScoreRun(run.PredictionsJSONL(r.Predictions), r.Settings.State)
		if err != nil {
			return ag, err
		}
		if carried != nil {
			ag = CompareVerdicts(carried, b.Results)
		}
		r.Batch = &b
	}
	for i, ep := range r.Episodes {
		o, err := ReplayEpisode(ep)
		if err != nil {
			return ag, fmt.Errorf("episode %s: %v", ep.File, err)
		}
		if ep.Outcome != nil {
			ag.Compared++
			if episodeWords(ep, true) == episodeWords(run.Episode{Outcome: &o}, true) {
				ag.Agree++
			} else if len(ag.Differ) < 20 {
				ag.Differ = append(ag.Differ, fmt.Sprintf("episode %s: was %s, now %s", ep.File, episodeWords(ep, true), episodeWords(run.Episode{Outcome: &o}, true)))
			}
		}
		r.Episodes[i].Outcome = &o
	}
	return ag, nil
}

// ReplayEpisode plays an episode's calls again in a fresh episode of this tab's engine and returns
// the engine's judgement (run.ReplayEpisode).
func ReplayEpisode(ep run.Episode) (protocol.Outcome, error) {
	if tab.Engine == nil {
		return protocol.Outcome{}, errors.New("the engine is not running (it runs in the browser tab)")
	}
	return run.ReplayEpisode(context.Background(), tab.Engine.Do, ep)
}

// agreementView says whether a re-score agrees with the verdicts a run carried.
func agreementView(a *Agreement) app.UI {
	if a.Compared == 0 {
		return note("The run carried no verdicts to compare with: it is scored by this tab's engine now.")
	}
	text := fmt.Sprintf("Re-scored: %d of %d verdicts agree with those the run carried.", a.Agree, a.Compared)
	if a.Agree == a.Compared {
		text += " This engine judges the run exactly as the one that ran it."
	}
	return app.Div().Class("note").DataSet("testid", "rescore-agreement").DataSet("agree", a.Agree).DataSet("compared", a.Compared).Body(
		app.P().Text(text),
		app.If(len(a.Differ) > 0, func() app.UI {
			return app.Ul().Body(app.Range(a.Differ).Slice(func(i int) app.UI { return app.Li().Text(a.Differ[i]) }))
		}),
	)
}
