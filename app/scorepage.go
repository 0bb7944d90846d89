package app

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// SavedBatch is a scored batch as the tab keeps it (and exports it): where the predictions came
// from, the engine's answer, and the prediction text of each line for side-by-side views.
type SavedBatch struct {
	// Format tags our export files.
	Format string `json:"format"`
	// Data is the dataset the batch was scored against.
	Data string `json:"data"`
	// Source says where the predictions came from: "paste", "file", "sample", or later "model".
	Source Source         `json:"source"`
	Batch  protocol.Batch `json:"batch"`
	// Preds are the prediction texts by input line.
	Preds map[int]string `json:"preds,omitempty"`
	// Rows counts the verdicts of a large batch (virtualFrom or more) whose rows are not kept here:
	// they stay in the bridge, in this page's memory, until the tab reloads. Zero for a whole batch.
	Rows int `json:"rows,omitempty"`
	// ErrorCount counts the line errors of a large batch (Batch.Errors holds the first ones).
	ErrorCount int `json:"error_count,omitempty"`
	// Episodes are the level-3 episode lines of a run's predictions file, replayed in this tab
	// (nil when the text had none).
	Episodes *EpisodeReplay `json:"episodes,omitempty"`
}

// virtualRows is the window of a large batch's verdicts the table renders: rows [start,
// start+len(rows)) of total, fetched from the bridge as the box scrolls.
type virtualRows struct {
	total int
	start int
	rows  []protocol.Verdict
	preds []string // the prediction text of each row
	live  bool     // the bridge holds this batch's rows (false after a reload)
	err   string
	// loading: a fetch is on its way; want is the start asked for meanwhile (-1: none).
	loading bool
	want    int
}

// Source describes where predictions came from. Model and Provider are for the later runs of a model
// from the tab (never an API key: keys stay in the tab and out of every saved or exported file).
type Source struct {
	Kind     string `json:"kind"`
	Name     string `json:"name,omitempty"`
	Model    string `json:"model,omitempty"`
	Provider string `json:"provider,omitempty"`
}

// batchFormat tags exported result files.
const batchFormat = "apibank-playground/results@1"

func batchKey(data string) string { return "results/" + data }

// predsByLine reads the "pred" of each JSONL line for display, numbered by the one line rule (package
// lines) as the engine numbers its verdicts; lines that are not JSON are skipped (the engine reports
// them).
func predsByLine(text string) map[int]string {
	out := map[int]string{}
	for n, line := range lines.All([]byte(text)) {
		var p struct {
			Pred json.RawMessage `json:"pred"`
		}
		if json.Unmarshal(line, &p) != nil || len(p.Pred) == 0 {
			continue
		}
		var s string
		if json.Unmarshal(p.Pred, &s) == nil {
			out[n] = s
		} else {
			out[n] = string(p.Pred)
		}
	}
	return out
}

// ScorePage is "Paste and score": one box per sample, a bulk box and a file drop for prediction
// JSONL, a verdict per line, and the overall numbers.
type ScorePage struct {
	app.Compo
	data  string
	bulk  string
	level string
	state string
	// seed names the variant of the builtin data the bulk box's predictions are judged on (0: the
	// data loaded in this tab); seedText is the field's text, seedErr why it is no seed.
	seed      int64
	seedText  string
	seedErr   string
	busy      bool
	err       string
	saveNote  string
	saved     *SavedBatch
	dialogues []protocol.DialogueSummary
	oneFile   string
	oneSample string
	samples   []protocol.SampleView
	oneText   string
	one       *SavedBatch
	oneErr    string
	runs      int
	cmp       Compares
	oneCmp    Compares
	// large: the box holds more text than the page copies into Go (largeText); it is read from the
	// DOM by the bridge when scored.
	large   bool
	virtual *virtualRows
	// held, heldName: the bridge holds this many characters of text for the box (a paste too large
	// to keep in it, see BulkScorer.Held), and where they came from.
	held     int
	heldName string
	// replayed, replays: level-3 episodes replayed so far of those the scored text holds.
	replayed, replays int
	// acted counts what the user did to the bulk box (a change, a file, a score): a load that
	// began before one leaves the box and the results alone (see load).
	acted int
}

// largeText is the size from which the bulk box's text stays in the DOM: copying it into Go at every
// change, saving it in localStorage (whose quota it exceeds) or re-rendering it would cost the page
// long tasks.
const largeText = 1 << 20

// shownErrors is how many line errors a batch lists (each is a few DOM nodes; the count is exact).
const shownErrors = 100

type pageState struct {
	Bulk  string `json:"bulk"`
	Level string `json:"level"`
	State string `json:"state"`
	// Seed is the variant the predictions are judged on (0: the tab's data).
	Seed int64 `json:"seed,omitempty"`
}

// OnPreRender does the mount's work where go-app renders without a browser (the server's
// pre-render, which has no engine and so shows the page empty, and the component tests).
func (p *ScorePage) OnPreRender(ctx app.Context) { p.OnMount(ctx) }

// OnMount restores the page's saved input and the last results.
func (p *ScorePage) OnMount(ctx app.Context) {
	p.load(ctx)
	if bs, ok := tab.Engine.(BulkScorer); ok {
		warmBulkPath(ctx, bs)
	}
	ctx.Handle(dataChanged, func(ctx app.Context, a app.Action) { p.load(ctx) })
	ctx.Handle(dataCleared, func(ctx app.Context, a app.Action) { p.saved, p.bulk, p.one = nil, "", nil })
}

func (p *ScorePage) load(ctx app.Context) {
	type loaded struct {
		name string
		ds   []protocol.DialogueSummary
	}
	acted := p.acted
	refresh(ctx, func() (loaded, error) {
		name, err := tab.DataName()
		if err != nil {
			return loaded{}, err
		}
		ds, err := tab.Dialogues()
		return loaded{name, ds}, err
	}, func(l loaded, err error) {
		if err != nil {
			p.err = err.Error()
			return
		}
		name := l.name
		p.data, p.dialogues = name, l.ds
		if p.acted != acted {
			// The user pasted or scored while the data was asked for (the engine was still
			// starting): what they did stays; the saved input and results are not brought back
			// over it.
			return
		}
		var st pageState
		_ = tab.Store.Get("score/input/"+name, &st)
		p.bulk, p.level, p.state = st.Bulk, st.Level, st.State
		p.setSeed(st.Seed)
		var sb SavedBatch
		p.saved = nil
		if tab.Store.Get(batchKey(name), &sb) == nil && sb.Format == batchFormat {
			p.saved = &sb
		}
	})
}

// Render draws the page.
func (p *ScorePage) Render() app.UI {
	return shell("/score", "Paste and score",
		app.P().Text("Predictions are JSONL, one line a sample: {\"file\": ..., \"id\": ..., \"pred\": ...} (\"level\" optional), "+
			"the format of the original's evaluator. "+idRule+" "+
			"A prediction is a call in the original text form [ToolName(key='value')] or a native call {\"name\", \"arguments\"}."),
		p.renderOne(),
		app.Section().Class("card").Aria("labelledby", "bulk-h").Body(
			app.H2().ID("bulk-h").Text("Many samples"),
			app.Div().Class("row").Body(
				levelSelect(p.level, true, func(_ app.Context, v string) { p.level = v }),
				app.Label().Class("field").Body(
					app.Span().Text("World "),
					app.Select().DataSet("testid", "state-select").OnChange(func(ctx app.Context, e app.Event) {
						p.state = selectValue(ctx)
					}).Body(
						app.Option().Value(anyOption).Selected(p.state == "").Text("default (replay for builtin data, fresh for imported)"),
						app.Option().Value(protocol.StateFresh).Selected(p.state == protocol.StateFresh).Text("fresh: every call against the initial world"),
						app.Option().Value(protocol.StateReplay).Selected(p.state == protocol.StateReplay).Text("replay: after the dialogue's earlier gold calls"),
					),
				),
				app.If(p.data == builtinData, p.renderDataChoice),
				app.If(p.data == builtinData && p.onVariant(), p.renderSeedField),
			),
			app.If(p.seedErr != "", func() app.UI {
				return app.P().Class("error small").DataSet("testid", "score-seed-error").Text(p.seedErr)
			}),
			app.Label().For("bulk").Class("block").Text("Prediction JSONL (paste, or drop a file on the box)"),
			app.Textarea().ID("bulk").DataSet("testid", "bulk-predictions").Rows(10).Spellcheck(false).
				Placeholder(`{"file": "AddAlarm-level-1-1.jsonl", "id": 0, "pred": "[AddAlarm(token='…', time='…')]"}`).
				Text(p.bulk).DataSet("hold-large", largeText).
				OnChange(p.onBulkChange).
				On("apibank-held", p.onHeld).
				On("dragover", func(ctx app.Context, e app.Event) { e.PreventDefault() }).
				OnDrop(p.onDrop),
			app.If(p.held > 0, func() app.UI {
				return app.P().Class("note").DataSet("testid", "bulk-held").DataSet("size", p.held).Body(
					app.Text(fmt.Sprintf("Holding %s of %s outside the box (too large to show in it): Score scores it. ", Size(p.held), p.heldName)),
					app.Button().Class("link-button").DataSet("testid", "bulk-held-clear").Text("Clear").OnClick(p.onClearHeld),
				)
			}),
			app.Div().Class("row").Body(
				app.Button().DataSet("testid", "score-button").Class("primary").Disabled(p.busy).
					Text(map[bool]string{true: "Scoring…", false: "Score"}[p.busy]).OnClick(p.onScore),
				app.Label().Class("file-button").Body(
					app.Span().Text("Open a file…"),
					app.Input().Type("file").Accept(".jsonl,.json,.txt").DataSet("testid", "predictions-file").OnChange(p.onFile),
				),
			),
			app.If(p.busy, func() app.UI {
				return app.Progress().ID("score-progress").DataSet("testid", "score-progress").Aria("label", "scoring progress").Max(1).Value(0)
			}),
			app.If(p.busy && p.replays > 0, func() app.UI {
				return app.P().Class("note").DataSet("testid", "replay-progress").Text(fmt.Sprintf("Replaying level-3 episodes: %d of %d.", p.replayed, p.replays))
			}),
			errorBox(p.err),
			note(p.saveNote),
		),
		app.If(p.saved != nil, func() app.UI { return batchView(p.saved, p.runs, &p.cmp, p.virtual, p.onScroll) }),
	)
}

func (p *ScorePage) renderOne() app.UI {
	files := p.dialogues
	return app.Section().Class("card").Aria("labelledby", "one-h").Body(
		app.H2().ID("one-h").Text("One sample"),
		app.Div().Class("row").Body(
			app.Label().Class("field").Body(
				app.Span().Text("Dialogue "),
				app.Select().DataSet("testid", "one-dialogue").OnChange(p.onOneFile).Body(
					app.Option().Value(anyOption).Text("choose…"),
					app.Range(files).Slice(func(i int) app.UI {
						d := files[i]
						v := d.Level + "/" + d.File
						return app.Option().Value(v).Selected(v == p.oneFile).Text(d.File + " (" + LevelLabel(d.Level) + ")")
					}),
				),
			),
			app.Label().Class("field").Body(
				app.Span().Text("Sample "),
				app.Select().DataSet("testid", "one-sample").OnChange(func(ctx app.Context, e app.Event) {
					p.oneSample = ctx.JSSrc().Get("value").String()
				}).Body(
					app.Range(p.samples).Slice(func(i int) app.UI {
						s := p.samples[i]
						v := strconv.Itoa(s.ID)
						label := sampleLabel(s)
						return app.Option().Value(v).Selected(v == p.oneSample).Text(label)
					}),
				),
			),
		),
		app.Label().For("one-pred").Class("block").Text("Your prediction"),
		app.Textarea().ID("one-pred").DataSet("testid", "one-prediction").Rows(2).Spellcheck(false).Text(p.oneText).
			OnChange(func(ctx app.Context, e app.Event) { p.oneText = ctx.JSSrc().Get("value").String() }),
		app.Button().DataSet("testid", "one-score").Text("Score this sample").Disabled(p.oneFile == "" || p.oneSample == "").OnClick(p.onScoreOne),
		errorBox(p.oneErr),
		app.If(p.one != nil, func() app.UI { return verdictTable(p.one, &p.oneCmp) }),
	)
}

func (p *ScorePage) onOneFile(ctx app.Context, e app.Event) {
	p.oneFile = selectValue(ctx)
	p.samples, p.oneSample = nil, ""
	level, file, _ := strings.Cut(p.oneFile, "/")
	if file == "" {
		return
	}
	refresh(ctx, func() ([]protocol.SampleView, error) {
		return call[[]protocol.SampleView](tab.Engine, protocol.Request{Op: protocol.OpSamples, Level: level, File: file})
	},
		func(ss []protocol.SampleView, err error) {
			if err != nil {
				p.oneErr = err.Error()
				return
			}
			for _, s := range ss {
				if scorable(s.Kind) {
					p.samples = append(p.samples, s)
				}
			}
			if len(p.samples) > 0 {
				p.oneSample = strconv.Itoa(p.samples[0].ID)
			}
		})
}

func (p *ScorePage) onScoreOne(ctx app.Context, e app.Event) {
	level, file, _ := strings.Cut(p.oneFile, "/")
	id, _ := strconv.Atoi(p.oneSample)
	text := app.Window().GetElementByID("one-pred").Get("value").String()
	line, _ := json.Marshal(map[string]any{"level": level, "file": file, "id": id, "pred": text})
	p.oneErr = ""
	refresh(ctx, func() (protocol.Batch, error) { return tab.Score(string(line), "", p.state) }, func(b protocol.Batch, err error) {
		if err != nil {
			p.oneErr = err.Error()
			return
		}
		p.one = &SavedBatch{Format: batchFormat, Data: p.data, Source: Source{Kind: "sample"}, Batch: b, Preds: map[int]string{1: text}}
		p.oneCmp = Compares{}
	})
}

func (p *ScorePage) onDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	readFirstFile(ctx, e.Get("dataTransfer").Get("files"), p.readFile)
}

func (p *ScorePage) onFile(ctx app.Context, e app.Event) {
	readFirstFile(ctx, ctx.JSSrc().Get("files"), p.readFile)
}

// readFile puts a prediction file's text in the bulk box, or, when it is large, has the bridge hold
// it as a large paste is held (see BulkScorer.Held).
func (p *ScorePage) readFile(_ app.Context, name, text string) {
	p.acted++
	p.saveNote = "Read " + name + " (" + Size(len(text)) + "). Press Score."
	if seed, ok := protocol.SeedInName(name); ok && p.data == builtinData {
		p.setSeed(seed)
		p.saveNote = "Read " + name + " (" + Size(len(text)) + "): its name says it was asked on " + dataWords(seed) + ", which it is judged on. Press Score."
	}
	if bs, ok := tab.Engine.(BulkScorer); ok && len(text) >= largeText {
		p.bulk = ""
		bs.Hold("bulk", text, name)
		p.syncHeld(bs)
		return
	}
	p.bulk = text
	app.Window().GetElementByID("bulk").Set("value", p.bulk)
}

// onHeld follows the bridge's "apibank-held" event: it took a large text out of the box, or dropped
// it when the box got new text.
func (p *ScorePage) onHeld(ctx app.Context, e app.Event) {
	p.acted++
	if bs, ok := tab.Engine.(BulkScorer); ok {
		p.syncHeld(bs)
	}
}

func (p *ScorePage) syncHeld(bs BulkScorer) {
	size, name, ok := bs.Held("bulk")
	if !ok {
		p.held, p.heldName, p.large = 0, "", false
		return
	}
	p.held, p.heldName, p.large, p.bulk = size, name, true, ""
}

// onClearHeld forgets the held text.
func (p *ScorePage) onClearHeld(ctx app.Context, e app.Event) {
	if bs, ok := tab.Engine.(BulkScorer); ok {
		bs.DropHeld("bulk")
	}
	p.held, p.heldName, p.large = 0, "", false
}

// onBulkChange keeps the box's text, unless it is large (see largeText): then it stays in the DOM and
// p.bulk keeps its old value, so the next render does not write the box over.
func (p *ScorePage) onBulkChange(ctx app.Context, e app.Event) {
	p.acted++
	src := ctx.JSSrc()
	if p.held > 0 || src.Get("textLength").Int() >= largeText {
		p.large = true
		return
	}
	p.large = false
	p.bulk = src.Get("value").String()
}

func (p *ScorePage) onScore(ctx app.Context, e app.Event) {
	p.acted++
	if p.seedErr != "" {
		p.err = "The variant to judge on is not a seed: " + p.seedErr
		return
	}
	el := app.Window().GetElementByID("bulk")
	if bs, ok := tab.Engine.(BulkScorer); ok && el.Truthy() {
		p.onBulkScore(ctx, bs, el)
		return
	}
	if el.Truthy() {
		p.bulk = el.Get("value").String()
	}
	if strings.TrimSpace(p.bulk) == "" {
		p.err = "Paste prediction JSONL first (one {\"file\", \"id\", \"pred\"} object a line)."
		return
	}
	p.busy, p.err, p.saveNote, p.replays = true, "", "", 0
	bulk, level, state, data, seed := p.bulk, p.level, p.state, p.judgedData(), p.judgedSeed()
	type done struct {
		b   protocol.Batch
		eps *EpisodeReplay
	}
	progress := p.replayProgress(ctx)
	refresh(ctx, func() (d done, err error) {
		err = judgedOn(seed, func() error {
			// The episode lines of a run's predictions file are taken aside and replayed, the rest
			// judged, as the bulk path's stream and apibank score do.
			out, err := run.ReadOut([]byte(bulk), lines.Max)
			if err != nil {
				return err
			}
			b, err := tab.Score(string(out.Preds), level, state)
			if err != nil {
				return err
			}
			var errs []protocol.LineError
			for _, le := range out.Errors {
				errs = append(errs, protocol.LineError{File: "predictions", Line: le.Line, Message: le.Message})
			}
			b.Errors = mergeErrors(b.Errors, errs)
			d = done{b, replayAll(out.Episodes, progress)}
			return nil
		})
		return d, err
	}, func(d done, err error) {
		p.busy = false
		if err != nil {
			p.err = err.Error()
			return
		}
		p.saved = &SavedBatch{Format: batchFormat, Data: data, Source: Source{Kind: "paste"}, Batch: d.b, Preds: predsByLine(bulk), Episodes: d.eps}
		p.cmp = Compares{}
		p.runs++
		p.saveNote = p.persist()
	})
}

// onBulkScore scores the box's text in chunks in the worker (BulkScorer): the text is read by the
// bridge, never copied into Go when large; the page keeps only the report, the first line errors,
// and for a large batch the window of rows in view.
func (p *ScorePage) onBulkScore(ctx app.Context, bs BulkScorer, el app.Value) {
	size := el.Get("textLength").Int() // the text itself is not copied to know its size
	if h, _, ok := bs.Held("bulk"); ok {
		size = h
	}
	if size < largeText {
		p.bulk, p.large = el.Get("value").String(), false
		if strings.TrimSpace(p.bulk) == "" {
			p.err = "Paste prediction JSONL first (one {\"file\", \"id\", \"pred\"} object a line)."
			return
		}
	} else {
		p.large = true
	}
	p.busy, p.err, p.saveNote, p.replays = true, "", "", 0
	level, state, data, bulk, seed := p.level, p.state, p.judgedData(), p.bulk, p.judgedSeed()
	small := !p.large
	type done struct {
		res   BulkResult
		rows  []protocol.Verdict
		preds []string
		eps   *EpisodeReplay
	}
	progress := p.replayProgress(ctx)
	refresh(ctx, func() (d done, err error) {
		err = judgedOn(seed, func() error {
			res, err := bs.BulkScore(BulkOptions{Element: "bulk", Progress: "score-progress", Level: level, State: state, Episodes: true})
			if err != nil {
				return err
			}
			eps, errs := decodeEpisodes(res.Episodes, "predictions")
			res.Errors, res.ErrorCount = mergeErrors(res.Errors, errs), res.ErrorCount+len(errs)
			d = done{res: res, eps: replayAll(eps, progress)}
			return nil
		})
		if err == nil && d.res.Verdicts < virtualFrom {
			d.rows, d.preds, err = bs.Rows(0, d.res.Verdicts) // the worker keeps the rows: no data needed
		}
		return d, err
	}, func(d done, err error) {
		p.busy = false
		if err != nil {
			p.err = err.Error()
			return
		}
		res := d.res
		rep := res.Report
		sb := &SavedBatch{Format: batchFormat, Data: data, Source: Source{Kind: "paste"},
			Batch: protocol.Batch{Results: d.rows, Errors: res.Errors, Report: &rep}, ErrorCount: res.ErrorCount, Episodes: d.eps}
		if sb.Batch.Results == nil {
			sb.Batch.Results = []protocol.Verdict{}
		}
		p.virtual = nil
		if res.Verdicts >= virtualFrom {
			// The numbers are shown by this render, the rows in view by the next one (two short
			// tasks on the page's thread rather than one long one).
			sb.Rows = res.Verdicts
			p.virtual = &virtualRows{total: res.Verdicts, live: true, want: -1}
			// The box of an earlier batch keeps its scroll position: back to the top, where the
			// rows fetched first are.
			if box := app.Window().GetElementByID("verdict-scroll"); box.Truthy() {
				box.Set("scrollTop", 0)
			}
			p.loadRows(ctx, bs, p.virtual, 0)
		} else if small {
			sb.Preds = predsByLine(bulk)
		} else {
			sb.Preds = map[int]string{}
			for i, v := range d.rows {
				sb.Preds[v.Line] = d.preds[i]
			}
		}
		p.saved = sb
		p.cmp = Compares{}
		p.runs++
		// Saved in a task after this render's, so the two stay short.
		ctx.Async(func() {
			nextTask()
			ctx.Dispatch(func(ctx app.Context) {
				if p.saved == sb {
					p.saveNote = p.persist()
				}
			})
		})
	})
}

// replayProgress is how a scoring run off the UI goroutine tells the page how many level-3
// episodes it has replayed: at most a render every few episodes.
func (p *ScorePage) replayProgress(ctx app.Context) func(done, total int) {
	return func(done, total int) {
		if done == 0 || done == total || done%4 == 0 {
			ctx.Dispatch(func(app.Context) { p.replayed, p.replays = done, total })
		}
	}
}

// replayAll replays the episodes (none: nil, the batch has no level-3 part).
func replayAll(eps []run.LineEpisode, progress func(done, total int)) *EpisodeReplay {
	if len(eps) == 0 {
		return nil
	}
	progress(0, len(eps))
	return replayEpisodes(eps, progress)
}

// loadRows fetches from the worker the rows of a large batch from start, off the UI goroutine, and
// renders them when they come; a scroll meanwhile asks again once they have come.
func (p *ScorePage) loadRows(ctx app.Context, bs BulkScorer, v *virtualRows, start int) {
	start = max(0, min(start, v.total-1))
	if v.loading {
		v.want = start
		return
	}
	v.loading = true
	ctx.Async(func() {
		rows, preds, err := bs.Rows(start, viewRows+2*overscan)
		ctx.Dispatch(func(ctx app.Context) {
			v.loading = false
			if err != nil {
				v.err = err.Error()
			} else {
				v.start, v.rows, v.preds, v.err = start, rows, preds, ""
			}
			if w := v.want; w >= 0 && p.virtual == v {
				v.want = -1
				if w != v.start {
					p.loadRows(ctx, bs, v, w)
				}
			}
		})
	})
}

// onScroll renders the rows in view of a large batch's table when the box has scrolled far enough
// from the window rendered.
func (p *ScorePage) onScroll(ctx app.Context, e app.Event) {
	v := p.virtual
	bs, ok := tab.Engine.(BulkScorer)
	if v == nil || !v.live || !ok {
		return
	}
	first := ctx.JSSrc().Get("scrollTop").Int() / rowHeight
	start := max(0, first-overscan)
	ctx.PreventUpdate() // the rows render when they come (loadRows)
	if abs(start-v.start) < overscan/2 && !(first+viewRows > v.start+len(v.rows) && v.start+len(v.rows) < v.total) {
		return
	}
	p.loadRows(ctx, bs, v, start)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// persist saves the input and results; it returns a message when they could not be saved.
func (p *ScorePage) persist() string {
	if err := tab.Store.Set(batchKey(p.data), p.saved); err != nil {
		return err.Error()
	}
	if p.large {
		return "The pasted text (" + Size(largeText) + " or more) is not kept across reloads; the report is."
	}
	if err := tab.Store.Set("score/input/"+p.data, pageState{Bulk: p.bulk, Level: p.level, State: p.state, Seed: p.seed}); err != nil {
		return "Results saved; the pasted text is not: " + err.Error()
	}
	return ""
}

// batchView shows a batch's numbers, its line errors and its verdicts.
func batchView(sb *SavedBatch, run int, cs *Compares, vr *virtualRows, onScroll app.EventHandler) app.UI {
	cs.seed = seedOfData(sb.Data) // a row's gold is that of the data the batch was judged on
	r := sb.Batch.Report
	acc := "—"
	if r.Overall.Calls > 0 {
		acc = Percent(r.Overall.Accuracy)
	}
	rouge := "—"
	if r.Overall.Replies > 0 {
		rouge = Round4(r.Overall.RougeL)
	}
	shown := sb.Batch.Errors[:min(len(sb.Batch.Errors), shownErrors)]
	errorCount := max(len(sb.Batch.Errors), sb.ErrorCount)
	return app.Section().Class("card").Aria("labelledby", "res-h").DataSet("testid", "verdicts").DataSet("run", run).Body(
		app.H2().ID("res-h").Text("Verdicts"),
		app.Div().Class("numbers").Body(
			app.Div().Class("number").Body(
				app.Span().Class("big").DataSet("testid", "accuracy").Text(acc),
				app.Span().Text(fmt.Sprintf(" call accuracy (%d of %d calls)", r.Overall.Correct, r.Overall.Calls)),
			),
			app.Div().Class("number").Body(
				app.Span().Class("big").DataSet("testid", "rouge-l").Text(rouge),
				app.Span().Text(fmt.Sprintf(" mean ROUGE-L (%d replies)", r.Overall.Replies)),
			),
			app.If(r.Overall.Special > 0, func() app.UI {
				return app.Div().Class("number").Body(app.Span().Class("big").Text(fmt.Sprintf("%d/%d", r.Overall.SpecialCorrect, r.Overall.Special)),
					app.Span().Text(" special cases right (not in the accuracy)"))
			}),
		),
		app.P().Class("small").DataSet("testid", "batch-counts").Text(fmt.Sprintf("Data: %s · world: %s · %d lines scored, %d not.", sb.Data, r.State, max(len(sb.Batch.Results), sb.Rows), max(len(sb.Batch.Errors), sb.ErrorCount))),
		app.If(len(sb.Batch.Errors) > 0, func() app.UI {
			return app.Div().Class("line-errors").Body(
				app.H3().Text("Lines not scored"),
				app.Ul().Body(app.Range(shown).Slice(func(i int) app.UI {
					le := shown[i]
					return app.Li().DataSet("testid", "line-error").DataSet("line", le.Line).Body(
						app.Strong().Text(fmt.Sprintf("line %d: ", le.Line)), app.Text(le.Message))
				})),
				app.If(errorCount > len(shown), func() app.UI {
					return app.P().Class("small").Text(fmt.Sprintf("… and %d more (the first %d are listed).", errorCount-len(shown), len(shown)))
				}),
			)
		}),
		app.If(sb.Episodes != nil, func() app.UI { return replayView(sb.Episodes) }),
		duplicatesNote(sb),
		app.If(sb.Rows == 0, func() app.UI { return verdictTable(sb, cs) }),
		app.If(sb.Rows > 0, func() app.UI { return virtualTable(sb, vr, cs, onScroll) }),
	)
}

// virtualTable shows a large batch's verdicts in a scrolling box with only the rows in view (and a
// margin) in the DOM, placed on a canvas as tall as every row, so the scrollbar is the whole table's.
func virtualTable(sb *SavedBatch, vr *virtualRows, cs *Compares, onScroll app.EventHandler) app.UI {
	if vr == nil || !vr.live {
		return app.P().DataSet("testid", "rows-gone").Text(fmt.Sprintf("The %d verdict rows of this batch were kept in the page until it reloaded; the report above is saved. Score again to see the rows.", sb.Rows))
	}
	pred := func(line int) string {
		for i, v := range vr.rows {
			if v.Line == line && i < len(vr.preds) {
				return vr.preds[i]
			}
		}
		return ""
	}
	// A canvas as tall as every row makes the scrollbar the whole table's; the rows in view are a
	// table placed where they are on it. Sizes are data-px-height and data-px-top, applied by
	// web/bridge.js: the page's CSP refuses inline styles.
	return app.Div().ID("verdict-scroll").Class("verdict-scroll").DataSet("testid", "verdict-scroll").DataSet("total", vr.total).
		DataSet("px-height", rowHeight*viewRows+40).On("scroll", onScroll).Body(
		errorBox(vr.err),
		app.Div().Class("verdict-canvas").DataSet("px-height", vr.total*rowHeight+rowHeight).Body(
			app.Table().Class("verdicts verdicts-virtual").DataSet("px-top", vr.start*rowHeight).Body(
				verdictHead(),
				app.TBody().Body(
					app.Range(vr.rows).Slice(func(i int) app.UI { return verdictRow(vr.rows[i], pred, cs, nil) }),
				),
			),
		),
	)
}

// Compares keeps which rows of a verdict table show their side-by-side view, and the gold turns
// fetched for them. Rows are plain elements (not one component each), so a batch of thousands of
// lines renders quickly.
type Compares struct {
	// seed is the variant the batch was judged on (0: none): its rows compare with that variant's
	// gold turns (see batchView).
	seed int64
	open map[int]bool
	gold map[int]*protocol.Turn
	// more holds, for a gold call set, the calls made in the same turn as the gold turn.
	more map[int][]protocol.Turn
	err  map[int]string
}

// toggle opens or closes a row's comparison, fetching its gold turn the first time.
func (cs *Compares) toggle(ctx app.Context, v protocol.Verdict) {
	if cs.open == nil {
		cs.open, cs.gold, cs.more, cs.err = map[int]bool{}, map[int]*protocol.Turn{}, map[int][]protocol.Turn{}, map[int]string{}
	}
	cs.open[v.Line] = !cs.open[v.Line]
	if !cs.open[v.Line] || cs.gold[v.Line] != nil {
		return
	}
	seed := cs.seed
	refresh(ctx, func() (ts []protocol.Turn, err error) {
		err = judgedOn(seed, func() error { ts, err = verdictGold(v); return err })
		return ts, err
	}, func(ts []protocol.Turn, err error) {
		if err != nil {
			cs.err[v.Line] = err.Error()
			return
		}
		cs.gold[v.Line], cs.more[v.Line] = &ts[0], ts[1:]
	})
}

// verdictGold is the gold turn of a verdict's sample in the data the tab's engine holds, and the
// parallel calls of its set.
func verdictGold(v protocol.Verdict) ([]protocol.Turn, error) {
	d, err := tab.Dialogue(v.Level, v.File)
	if err != nil {
		return nil, err
	}
	samples, err := tab.Samples(v.Level)
	if err != nil {
		return nil, err
	}
	for _, s := range samples {
		if s.File == v.File && s.ID == v.ID {
			if ts := goldTurns(d, s.GoldLine); len(ts) > 0 {
				return ts, nil
			}
		}
	}
	return nil, fmt.Errorf("no turn for sample %d of %s", v.ID, v.File)
}

// verdictTable lists the verdicts, each with a side-by-side of expected and got on demand.
func verdictTable(sb *SavedBatch, cs *Compares) app.UI {
	rows := sb.Batch.Results
	pred := func(line int) string { return sb.Preds[line] }
	dups := Duplicates(rows)
	return app.Table().Class("verdicts").Body(
		verdictHead(),
		app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI { return verdictRow(rows[i], pred, cs, dups) })),
	)
}

func verdictHead() app.UI {
	return app.THead().Body(app.Tr().Body(
		app.Th().Scope("col").Text("line"), app.Th().Scope("col").Text("sample"), app.Th().Scope("col").Text("verdict"),
		app.Th().Scope("col").Text("expected and got"),
	))
}

// verdictRow is one verdict's row; pred gives the prediction text of a line for the comparison, dups
// the lines that repeat an earlier one (see Duplicates; nil when not known).
func verdictRow(v protocol.Verdict, pred func(int) string, cs *Compares, dups map[int]int) app.UI {
	c := v.Call()
	r, isReply := v.Reply()
	cat, label := c.Category, setLabel(c)
	if isReply {
		cat = "REPLY"
		label = "ROUGE-L " + Round4(r.RougeL)
	}
	cls := "bad"
	if c.Correct || (isReply && r.RougeL > 0) {
		cls = "good"
	}
	open := cs.open[v.Line]
	return app.Tr().DataSet("testid", "verdict-row").DataSet("category", cat).DataSet("line", v.Line).
		DataSet("file", v.File).DataSet("id", v.ID).Body(
		app.Td().Text(v.Line),
		app.Td().Body(app.A().Href(sampleURL(v.Level, v.File, v.ID)).Text(fmt.Sprintf("%s #%d", v.File, v.ID))),
		app.Td().Body(app.Span().Class("verdict "+cls).Text(label), duplicateTag(dups, v.Line)),
		app.Td().Body(
			app.Button().Class("link-button").Aria("expanded", open).Text(map[bool]string{true: "hide", false: "compare"}[open]).
				OnClick(func(ctx app.Context, e app.Event) { cs.toggle(ctx, v) }, app.EventScope(v.Line, v.File, v.ID)),
			app.If(open, func() app.UI { return compareView(v, pred(v.Line), cs.gold[v.Line], cs.more[v.Line], cs.err[v.Line]) }),
		),
	)
}

func sampleURL(level, file string, id int) string {
	return "/sample?" + url.Values{"level": {level}, "file": {file}, "id": {strconv.Itoa(id)}}.Encode()
}

// compareView shows what the gold turn expected next to what the prediction produced.
func compareView(v protocol.Verdict, pred string, gold *protocol.Turn, more []protocol.Turn, err string) app.UI {
	if err != "" {
		return errorBox(err)
	}
	if gold == nil {
		return app.P().Text("…")
	}
	return app.Div().Class("compare").Body(
		app.Div().Body(app.H4().Text("expected"), expectedView(v, *gold),
			app.Range(more).Slice(func(i int) app.UI { return expectedView(v, more[i]) })),
		app.Div().Body(app.H4().Text("got"), gotView(v, pred)),
	)
}

func expectedView(v protocol.Verdict, t protocol.Turn) app.UI {
	if v.Kind == protocol.KindReply {
		return app.Pre().Text(t.Text)
	}
	env, _ := protocol.ReadEnvelope(t.Result)
	return app.Dl().Body(
		app.Dt().Text("call"), app.Dd().Body(app.Code().Text(t.APIName+" "+string(t.Params))),
		app.Dt().Text("input"), app.Dd().Body(app.Pre().Text(Pretty(env.Input))),
		app.Dt().Text("output"), app.Dd().Body(app.Pre().Text(Pretty(env.Output))),
		app.Dt().Text("exception"), app.Dd().Body(app.Pre().Text(Pretty(env.Exception))),
	)
}

func gotView(v protocol.Verdict, pred string) app.UI {
	if v.Kind == protocol.KindReply {
		return app.Pre().Text(pred)
	}
	env, _ := protocol.ReadEnvelope(v.Call().Result)
	return app.Dl().Body(
		app.Dt().Text("call"), app.Dd().Body(app.Code().Text(pred)),
		app.Dt().Text("input"), app.Dd().Body(app.Pre().Text(Pretty(env.Input))),
		app.Dt().Text("output"), app.Dd().Body(app.Pre().Text(Pretty(env.Output))),
		app.Dt().Text("exception"), app.Dd().Body(app.Pre().Text(Pretty(env.Exception))),
		app.If(v.Err() != "", func() app.UI { return app.Dt().Text("error") }),
		app.If(v.Err() != "", func() app.UI { return app.Dd().Text(v.Err()) }),
		app.If(len(v.Call().Calls) > 0, func() app.UI { return app.Dt().Text("calls") }),
		app.If(len(v.Call().Calls) > 0, func() app.UI { return app.Dd().Body(setView(v.Call())) }),
	)
}
