package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/run"
)

// runBatchKey keeps the settings of the batch input file downloaded last (never the key): its
// output file is scored against the same samples, in the same order, in the same state mode.
const runBatchKey = "run/batch"

// runSourceBatch marks a saved run scored from a provider's batch output file.
const runSourceBatch = run.SourceBatch

// batchDataWords names the data of a batch of seed: a variant, or the data loaded in the tab.
func batchDataWords(seed int64) string {
	if seed == 0 {
		return "the data loaded in this tab"
	}
	return dataWords(seed)
}

// onBatchData runs f on the data a batch of s asks, as a live run of s would: the variant of
// s.Seed, loaded while f runs, with the data loaded before put back after; the tab's loaded data
// for no seed. A robustness run (variants) asks its passes live: a batch of it is refused.
func onBatchData(s RunSettings, f func() error) error {
	if s.Variants > 0 {
		return errors.New("a batch asks one data: set the variants to 0 (a robustness run asks its passes live), or choose a variant's seed")
	}
	if s.Seed == 0 {
		return f()
	}
	return onSeedData(s.Seed, f)
}

// batchSettings are the model settings of a batch's request bodies: the endpoint settings
// without the key (a body never holds it) and never streamed.
func batchSettings(s RunSettings) RunSettings {
	s.Stream, s.Trials = false, 0
	return s
}

// renderBatch is the Run page's batch choice: download the input file of the settings above, run
// it at a provider that takes OpenAI's Batch API files, and load its output (and error) file back
// to be scored as the same answers from a live run would be, kept as a run on the Runs page.
func (p *RunPage) renderBatch(running bool) app.UI {
	var prepared RunSettings
	hasPrepared := tab.Store.Get(runBatchKey, &prepared) == nil && prepared.Model != ""
	return app.Section().Class("card").Aria("labelledby", "run-batch-h").DataSet("testid", "run-batch").Body(
		app.H2().ID("run-batch-h").Text("Batch"),
		app.P().Text("Some providers run a file of requests within a day at a lower price (OpenAI's Batch API, and others that take the same file). "+
			"Download the batch input file for the model, form, levels, samples per level and data above (a variant's seed asks that variant; level 3 as its step samples: each gold call predicted from the steps before it), "+
			"run it at the provider, then load its output file here (and its error file, if it gave one). The answers are scored as a live run scores the same answers, and kept as a run on the Runs page."),
		app.Div().Class("row").Body(
			app.Button().DataSet("testid", "run-batch-prepare").Disabled(running || p.batching).Text("Download batch input").OnClick(p.onBatchPrepare),
			app.Label().Class("file-button").Body(
				app.Span().Text("Output file… "),
				app.Input().Type("file").Accept(".jsonl,.json,.txt").DataSet("testid", "run-batch-output").OnChange(func(ctx app.Context, e app.Event) {
					readFirstFile(p.mc, ctx.JSSrc().Get("files"), func(_ app.Context, name, text string) { p.batchOut = run.BatchFile{Name: name, Data: []byte(text)} })
				}),
			),
			app.Label().Class("file-button").Body(
				app.Span().Text("Error file (optional)… "),
				app.Input().Type("file").Accept(".jsonl,.json,.txt").DataSet("testid", "run-batch-errors").OnChange(func(ctx app.Context, e app.Event) {
					readFirstFile(p.mc, ctx.JSSrc().Get("files"), func(_ app.Context, name, text string) { p.batchErr = run.BatchFile{Name: name, Data: []byte(text)} })
				}),
			),
			app.Button().Class("primary").DataSet("testid", "run-batch-score").Disabled(running || p.batching || !hasPrepared).Text("Score the batch").OnClick(p.onBatchScore),
		),
		app.If(p.batchOut.Name != "", func() app.UI {
			return app.P().Class("small").DataSet("testid", "run-batch-loaded").DataSet("output", p.batchOut.Name).DataSet("errors", p.batchErr.Name).
				Text(loadedText(p.batchOut, p.batchErr))
		}),
		app.If(hasPrepared, func() app.UI {
			return app.P().Class("small").DataSet("testid", "run-batch-prepared").Text(fmt.Sprintf("The output is scored against the input file downloaded last: %s, %s form, %s%s, on %s.",
				prepared.Model, prepared.Form, levelsText(prepared.Levels), limitText(prepared.Limit), batchDataWords(prepared.Seed)))
		}),
		app.If(p.batchMsg != "", func() app.UI {
			return app.P().Class("small").DataSet("testid", "run-batch-msg").Aria("live", "polite").Text(p.batchMsg)
		}),
		app.If(len(p.batchBad) > 0, func() app.UI {
			return app.Div().Class("error").Body(
				app.P().Text(fmt.Sprintf("%d lines could not be used (the others were scored):", len(p.batchBad))),
				app.Ul().Body(app.Range(p.batchBad).Slice(func(i int) app.UI {
					return app.Li().DataSet("testid", "run-batch-line-error").Text(truncate(p.batchBad[i].Error(), 300))
				})),
			)
		}),
	)
}

// loadedText says which provider files are loaded.
func loadedText(out, errs run.BatchFile) string {
	t := fmt.Sprintf("Output file: %s (%s).", out.Name, Size(len(out.Data)))
	if errs.Name != "" {
		t += fmt.Sprintf(" Error file: %s (%s).", errs.Name, Size(len(errs.Data)))
	}
	return t
}

func levelsText(ls []string) string {
	out := ""
	for i, l := range ls {
		if i > 0 {
			out += ", "
		}
		out += LevelLabel(l)
	}
	return out
}

func limitText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", the first %d samples of each level", n)
}

// onBatchPrepare writes the batch input file of the page's settings and remembers them.
func (p *RunPage) onBatchPrepare(_ app.Context, e app.Event) {
	ctx := p.mc
	p.err, p.batchMsg, p.batchBad = "", "", nil
	if len(p.s.Levels) == 0 {
		p.err = "Choose at least one level."
		return
	}
	if p.s.Model == "" {
		p.err = "Name the model: every request of the batch names it."
		return
	}
	s := batchSettings(p.s)
	p.batching, p.batchMsg = true, "Writing the batch input file…"
	ctx.Async(func() {
		var text []byte
		name := ""
		err := onBatchData(s, func() (err error) {
			text, err = run.BatchInput(context.Background(), tab.Engine.Do, s.Config(), s.Endpoint(""))
			if err == nil {
				data, _ := tab.DataName()
				name = fmt.Sprintf("apibank-batch-%s-%s-%s.jsonl", data, s.Form, time.Now().UTC().Format("20060102T150405Z"))
			}
			return err
		})
		ctx.Dispatch(func(app.Context) {
			p.batching = false
			if err != nil {
				p.err, p.batchMsg = "Batch: "+err.Error(), ""
				return
			}
			if err := tab.Store.Set(runBatchKey, s); err != nil {
				p.err = err.Error()
			}
			n := 0
			for _, c := range text {
				if c == '\n' {
					n++
				}
			}
			p.batchMsg = fmt.Sprintf("%d requests written (%s). Load the provider's output file when the batch is done.", n, Size(len(text)))
			if !download(name, "application/x-ndjson", text) {
				p.batchMsg = fmt.Sprintf("%d requests written (%s).", n, Size(len(text)))
			}
		})
	})
}

// onBatchScore scores the output file loaded against the input file downloaded last, and keeps
// the result as a run.
func (p *RunPage) onBatchScore(_ app.Context, e app.Event) {
	ctx := p.mc
	p.err, p.batchBad = "", nil
	var s RunSettings
	if tab.Store.Get(runBatchKey, &s) != nil || s.Model == "" {
		p.err = "Download the batch input file first: the output is scored against it."
		return
	}
	if len(p.batchOut.Data) == 0 {
		p.err = "Load the provider's output file first."
		return
	}
	out, errs := p.batchOut, p.batchErr
	p.batching, p.batchMsg = true, "Scoring the batch…"
	ctx.Async(func() {
		saved, bad, err := scoreBatch(s, out, errs)
		ctx.Dispatch(func(ctx app.Context) {
			p.batching, p.batchBad = false, bad
			if err != nil {
				p.err, p.batchMsg = "Batch: "+err.Error(), ""
				return
			}
			p.batchMsg = fmt.Sprintf("Scored %d answers (%d requests failed); kept as a run.", len(saved.order), len(saved.Failures))
			runner.showEnded(saved)
			p.state = runner.State()
		})
	})
}

// scoreBatch regenerates the input file of the settings (the same engine and data give the same
// file), scores the provider's files against it, and keeps the result as a run marked as a batch.
func scoreBatch(s RunSettings, out, errs run.BatchFile) (*SavedRun, []run.LineError, error) {
	if tab.Engine == nil {
		return nil, nil, errors.New("the engine is not running")
	}
	var res *run.Result
	var bad []run.LineError
	var data, hash string
	err := onBatchData(s, func() error {
		input, err := run.BatchInput(context.Background(), tab.Engine.Do, s.Config(), s.Endpoint(""))
		if err != nil {
			return err
		}
		if res, bad, err = run.ScoreBatch(context.Background(), tab.Engine.Do, run.BatchFile{Name: "the batch input", Data: input}, out, errs, s.State, nextTask); err != nil {
			return err
		}
		data, _ = tab.DataName()
		hash, err = DataHash(s.Levels)
		return err
	})
	if err != nil {
		return nil, bad, err
	}
	saved := NewSavedRun(s, data, hash)
	saved.Source = runSourceBatch
	saved.Apply(res)
	saved.Total = len(res.Predictions) + len(res.Failures)
	saved.Ended = time.Now().UTC().Format(time.RFC3339)
	sum, err := runStore.Put(saved)
	if err != nil {
		return saved, bad, fmt.Errorf("the scored batch could not be kept: %w", err)
	}
	return sum, bad, nil
}

// showEnded makes saved the run that ended last in this tab, with the progress of its end (every
// request answered or failed, the report's count of right calls), unless a run is going on.
func (r *Runner) showEnded(saved *SavedRun) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur != nil {
		return
	}
	pr := run.Progress{Done: saved.Total, Total: saved.Total, Failed: len(saved.Failures), TokensIn: saved.TokensIn, TokensOut: saved.TokensOut, Scored: true}
	if saved.Batch != nil && saved.Batch.Report != nil {
		pr.Correct, pr.Judged = saved.Batch.Report.Overall.Correct, saved.Batch.Report.Overall.Calls
	}
	r.last, r.prog, r.err = saved, pr, ""
}
