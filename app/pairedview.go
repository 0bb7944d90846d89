package app

import (
	"fmt"
	"sort"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/stats"
)

// trialsOf is a run as run.Compare takes one side: the run itself first, then the other trials of
// its settings that ran to their end (none for a single run), for the flip rate between trials. A
// pass of a robustness run has for trials the passes of its group on the same data (the original
// and its rerun).
func trialsOf(r *SavedRun, runs []*SavedRun) []*run.Result {
	out := []*run.Result{{Batch: r.Batch, Episodes: r.Episodes}}
	if r.Group == "" {
		return out
	}
	var others []*SavedRun
	for _, o := range runs {
		if o != r && o.Group == r.Group && o.Status == runDone && o.Seed == r.Seed {
			others = append(others, o)
		}
	}
	sort.Slice(others, func(i, j int) bool { return others[i].Trial < others[j].Trial })
	for _, o := range others {
		out = append(out, &run.Result{Batch: o.Batch, Episodes: o.Episodes})
	}
	return out
}

// pairedView is the comparison's paired test (run.Compare): per level and overall, the tasks right
// in one run and wrong in the other, the exact McNemar test's p, each run's accuracy on the shared
// tasks with the smallest difference the comparison could detect beside it, the flip rate between
// each run's trials, and the sentence that says it.
func pairedView(c run.Comparison) app.UI {
	rows := append(append([]run.Compared{}, c.Levels...), c.Overall)
	name := func(l run.Compared) string {
		switch {
		case l.Level == "":
			return "All levels"
		case l.Unit == "episode":
			return LevelLabel(l.Level) + " (episodes)"
		}
		return LevelLabel(l.Level)
	}
	detectable := func(l run.Compared) string {
		if l.MinDetectable >= 1 {
			return "no difference detectable at this size"
		}
		return fmt.Sprintf("±%.1f pts detectable", 100*l.MinDetectable)
	}
	flip := func(f *run.Flip) string {
		if f == nil {
			return "—"
		}
		return fmt.Sprintf("%s (%d trials)", Percent(f.Rate), f.Trials)
	}
	return app.Div().DataSet("testid", "paired").Body(
		app.H3().Text("Is the difference real? Paired on the tasks both runs judged"),
		app.Ul().Class("findings").Body(app.Range(rows).Slice(func(i int) app.UI {
			l := rows[i]
			return app.Li().DataSet("testid", "compare-sentence").DataSet("level", l.Level).DataSet("unit", l.Unit).DataSet("finding", l.Finding).
				Body(app.Strong().Text(l.Sentence + "."))
		})),
		app.Div().Class("table-box").Body(app.Table().Class("tally").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text("level"), app.Th().Text("judged in both"), app.Th().Text("right in A, wrong in B"), app.Th().Text("wrong in A, right in B"),
				app.Th().Text("p (exact McNemar)"), app.Th().Text("A on these"), app.Th().Text("B on these"), app.Th().Text("flip rate between trials: A · B"),
			)),
			app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI {
				l := rows[i]
				acc := func(a float64) app.UI {
					if l.Paired == 0 {
						return app.Td().Text("—")
					}
					return app.Td().Body(app.Strong().Text(Percent(a)), app.Br(), app.Span().Class("small").Text(detectable(l)))
				}
				return app.Tr().DataSet("testid", "paired-row").DataSet("level", l.Level).DataSet("unit", l.Unit).
					DataSet("paired", l.Paired).DataSet("broken", l.Broken).DataSet("fixed", l.Fixed).DataSet("p", floatsAttr([]float64{l.P})).
					DataSet("detectable", floatsAttr([]float64{l.MinDetectable})).Body(
					app.Td().Text(name(l)),
					app.Td().Text(l.Paired),
					app.Td().Text(l.Broken),
					app.Td().Text(l.Fixed),
					app.Td().Text(stats.FormatP(l.P)),
					acc(l.AccuracyA),
					acc(l.AccuracyB),
					app.Td().Text(flip(l.FlipA)+" · "+flip(l.FlipB)),
				)
			})),
		)),
		app.P().Class("small").Text("A task is a call sample or a level-3 episode, judged right or wrong; tasks only one run judged are left out. "+
			"p is the exact McNemar test's: the chance, were A and B equally good, of a split of the tasks they judge differently at least this uneven. "+
			"Not distinguishable is not equal: the ± figure is the smallest difference in accuracy this comparison would detect (80% power, 5% level), "+
			"and the flip rate is how often two trials of the same settings judge a task differently."),
	)
}
