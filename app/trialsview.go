package app

import (
	"fmt"
	"sort"
	"strconv"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/run"
)

// TrialGroup is a set of repeated trials of one run's settings, as the Runs page sums them up.
type TrialGroup struct {
	// First is the group's first trial (its label names the group).
	First *SavedRun
	// Done is how many trials are done; Planned how many were asked for.
	Done, Planned int
	// Stats are pass^k and the spread per level, over the trials done (run.Trials).
	Stats []run.TrialStats
}

// TrialGroups sums up the runs that are repeated trials, one group per first trial, newest group
// first (the order runs are listed in). Only trials that ran to their end count: a cancelled or
// still running trial would count tasks it never asked as failures. The passes of a robustness
// run are no trials (RobustGroups sums them up).
func TrialGroups(runs []*SavedRun) []TrialGroup {
	byGroup := map[string][]*SavedRun{}
	var order []string
	for _, r := range runs {
		if r.Group == "" || r.Settings.Variants > 0 {
			continue
		}
		if _, ok := byGroup[r.Group]; !ok {
			order = append(order, r.Group)
		}
		byGroup[r.Group] = append(byGroup[r.Group], r)
	}
	var out []TrialGroup
	for _, g := range order {
		rs := byGroup[g]
		sort.Slice(rs, func(i, j int) bool { return rs[i].Trial < rs[j].Trial })
		tg := TrialGroup{First: rs[0], Planned: rs[0].Settings.Trials}
		var results []*run.Result
		for _, r := range rs {
			if r.Status != runDone {
				continue
			}
			tg.Done++
			results = append(results, &run.Result{Batch: r.Batch, Episodes: r.Episodes})
		}
		tg.Stats = run.Trials(results)
		out = append(out, tg)
	}
	return out
}

// trialsView is the Runs page's table of repeated trials: per group and level, pass^k for every k
// and the accuracy's mean, spread and range.
func trialsView(groups []TrialGroup) goapp.UI {
	return goapp.Section().Body(
		goapp.H2().Text("Repeated trials"),
		goapp.P().Class("small").Text("pass^k is the chance that k trials of a task all succeed, averaged over the tasks (as tau-bench reports it): pass^1 is the mean accuracy, and the last pass^k the share of tasks solved every time. Tasks are call samples of levels 1–2 and level-3 episodes; a task a failed request left unjudged in some trial is left out. The flip rate is the chance that two of the trials judge a task differently: the noise a comparison of two settings must rise above."),
		goapp.Div().Class("table-box").Body(goapp.Table().Class("tally").DataSet("testid", "trials-table").Body(
			goapp.THead().Body(goapp.Tr().Body(
				goapp.Th().Text("trials of"), goapp.Th().Text("level"), goapp.Th().Text("tasks"),
				goapp.Th().Text("pass^k, k = 1…"), goapp.Th().Text("accuracy: mean ± sd (min–max)"), goapp.Th().Text("flip rate"),
			)),
			goapp.TBody().Body(goapp.Range(groups).Slice(func(i int) goapp.UI {
				g := groups[i]
				label := fmt.Sprintf("%s — %d of %d done", g.First.Label(), g.Done, g.Planned)
				if len(g.Stats) == 0 {
					return goapp.Tr().DataSet("testid", "trials-row").DataSet("group", g.First.Group).Body(
						goapp.Td().Text(label), goapp.Td().ColSpan(5).Text("no trial has ended yet"),
					)
				}
				return goapp.Range(g.Stats).Slice(func(j int) goapp.UI {
					st := g.Stats[j]
					pass := ""
					for k, p := range st.PassK {
						if k > 0 {
							pass += " · "
						}
						pass += fmt.Sprintf("pass^%d %s", k+1, Percent(p))
					}
					first := ""
					if j == 0 {
						first = label
					}
					tasks := strconv.Itoa(st.Tasks)
					if st.LeftOut > 0 {
						tasks += fmt.Sprintf(" (%d left out)", st.LeftOut)
					}
					return goapp.Tr().DataSet("testid", "trials-row").DataSet("group", g.First.Group).DataSet("level", st.Level).
						DataSet("trials", strconv.Itoa(st.Trials)).DataSet("pass-k", floatsAttr(st.PassK)).Body(
						goapp.Td().Text(first),
						goapp.Td().Text(st.Level),
						goapp.Td().Text(tasks),
						goapp.Td().Text(pass),
						goapp.Td().Text(fmt.Sprintf("%s ± %s (%s–%s)", Percent(st.Mean), Percent(st.StdDev), Percent(st.Min), Percent(st.Max))),
						goapp.Td().Text(Percent(st.FlipRate)),
					)
				})
			})),
		)),
	)
}

// floatsAttr writes numbers for a data attribute, exactly (the shortest text that reads back as
// the same float), comma-separated: tests compare them with the CLI's JSON.
func floatsAttr(xs []float64) string {
	b := make([]byte, 0, 20*len(xs))
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	return string(b)
}
