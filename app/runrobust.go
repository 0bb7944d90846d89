package app

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// builtinData is the name the engine gives the builtin data (dataset.BuiltinName).
const builtinData = "builtin"

// plannedRuns is how many runs a run's settings make, one after another: its trials, or the passes
// of a robustness run (the original, each variant, the rerun).
func plannedRuns(s RunSettings) int {
	if s.Variants > 0 {
		return s.Variants + 2
	}
	return max(s.Trials, 1)
}

// passSeed is the seed of pass i (from 1) of a robustness run of s, in the order `apibank run
// --variants N` asks them: the original (0), the variants of run.VariantSeeds(N), the rerun (0).
func passSeed(s RunSettings, i int) int64 {
	if i >= 2 && i <= s.Variants+1 {
		return run.VariantSeeds(s.Variants)[i-2]
	}
	return 0
}

// passName says which pass of its robustness run r is.
func passName(r *SavedRun) string {
	n := r.Settings.Variants + 2
	what := fmt.Sprintf("variant seed %d", r.Seed)
	switch {
	case r.Trial <= 1:
		what = "original"
	case r.Trial >= n:
		what = "rerun"
	}
	return fmt.Sprintf("%s (pass %d of %d)", what, max(r.Trial, 1), n)
}

// wantsData says whether r asks data of its own (a variant, or a pass of a robustness run), which
// the tab's engine loads before the run asks anything.
func wantsData(r *SavedRun) bool { return r.Settings.Variants > 0 || r.Seed != 0 }

// CheckRunSettings says what is wrong with a run's data settings, as `apibank run` refuses them.
func CheckRunSettings(s RunSettings) error {
	switch {
	case s.Seed < 0 || s.Seed > protocol.MaxSeed:
		return fmt.Errorf("the seed of a variant must be between 1 and %d, not %d", int64(protocol.MaxSeed), s.Seed)
	case s.Variants < 0 || s.Variants > run.MaxVariants:
		return fmt.Errorf("variants must be between 0 and %d, not %d", run.MaxVariants, s.Variants)
	case s.Variants > 0 && (s.Trials > 1 || s.Seed != 0):
		return fmt.Errorf("a robustness run (variants) asks the builtin data and its variants once each: it cannot go with trials above 1 or a variant as its data")
	}
	return nil
}

// loadedData is what the tab's engine has loaded: a variant of the builtin data (seed), or data
// by name (the builtin data, an imported folder).
type loadedData struct {
	seed int64
	name string
}

// currentData asks the engine what it has loaded (nil when it does not answer).
func currentData() *loadedData {
	h, err := call[protocol.Hello](tab.Engine, protocol.Request{Op: protocol.OpHello})
	if err != nil {
		return nil
	}
	d := &loadedData{name: h.Data}
	if h.Variant != nil {
		d.seed = h.Variant.Seed
	}
	return d
}

// dataBefore is the data a run (or a re-scoring) puts back when it ends: what the engine holds, but
// the builtin data for a variant, which only a run or a class's exercise loads for a while. After a
// reload in the middle of a run on a variant, the engine comes back on that variant; the run that
// resumes must still end on the tab's own data.
func dataBefore() *loadedData {
	d := currentData()
	if d != nil && d.seed != 0 {
		d = &loadedData{name: builtinData}
	}
	return d
}

// runOnOtherData says whether a run goes on in this tab on other data than the variant seed names:
// loading that variant for a moment (onSeedData) would then pull the run's data from under it.
func runOnOtherData(seed int64) bool {
	st := runner.State()
	return st.Running && (!wantsData(st.Run) || st.Run.Seed != seed)
}

// onSeedData runs f with the tab's engine holding the data seed names (0: the builtin data), and
// puts the data loaded before back after it, as a run on a variant does: a batch of a variant, a
// re-score or a retry of a run made on one.
func onSeedData(seed int64, f func() error) error {
	before := dataBefore()
	if err := loadData(seed); err != nil {
		return err
	}
	err := f()
	if before != nil {
		if rerr := before.restore(); rerr != nil && err == nil {
			err = fmt.Errorf("the data loaded before could not be loaded again: %w", rerr)
		}
	}
	return err
}

// is says whether d is the variant of the builtin data seed names (0: the builtin data itself).
func (d *loadedData) is(seed int64) bool {
	if seed != 0 {
		return d.seed == seed
	}
	return d.seed == 0 && d.name == builtinData
}

// restore loads d again when the engine holds other data now.
func (d *loadedData) restore() error {
	now := currentData()
	if now == nil || *now == *d {
		return nil
	}
	var err error
	if d.seed != 0 || d.name == builtinData {
		_, err = tab.LoadVariant(d.seed)
	} else {
		_, err = tab.SwitchTo(d.name)
	}
	return err
}

// dataWords names the data of a seed.
func dataWords(seed int64) string {
	if seed == 0 {
		return "the builtin data"
	}
	return "variant " + strconv.FormatInt(seed, 10) + " of the builtin data"
}

// loadData has the tab's engine load the variant of the builtin data seed names (0: the builtin data
// itself), unless it holds it already.
func loadData(seed int64) error {
	if now := currentData(); now != nil && now.is(seed) {
		return nil
	}
	if _, err := tab.LoadVariant(seed); err != nil {
		return fmt.Errorf("%s could not be loaded: %w", dataWords(seed), err)
	}
	return nil
}

// loadPassData has the tab's engine load the data r asks (wantsData; nothing for another run),
// and notes the data's name and hash in r when it has none yet (a new pass).
func loadPassData(r *SavedRun) error {
	if !wantsData(r) {
		return nil
	}
	if err := loadData(r.Seed); err != nil {
		return err
	}
	if r.DataHash != "" {
		return nil
	}
	name, err := tab.DataName()
	if err != nil {
		return err
	}
	hash, err := DataHash(r.Settings.Levels)
	if err != nil {
		return err
	}
	r.Data, r.DataHash = name, hash
	return nil
}

// RobustGroup is a robustness run as the pages sum it up: its passes kept in this browser, and the
// robustness per level over those that ended (run.Robust), as `apibank run --variants N` sums up
// the passes it ran.
type RobustGroup struct {
	// First is the group's first pass (its label names the group).
	First *SavedRun
	// Ran is how many passes ended (done or cancelled); Planned how many the run asks.
	Ran, Planned int
	// Cut says a pass was cancelled or has not ended: only the passes that ended are counted.
	Cut   bool
	Stats []run.Robustness
	// Passes are the passes counted, in pass order.
	Passes []*SavedRun
}

// RobustGroups sums up the robustness runs among runs, one group per run, in the order the runs
// are listed. A pass counts when it ended, done or cancelled (with the tasks it judged), as the
// CLI counts a cancelled pass; a pass still running, or never started, counts as not run.
func RobustGroups(runs []*SavedRun) []RobustGroup {
	byGroup := map[string][]*SavedRun{}
	var order []string
	for _, r := range runs {
		if r.Group == "" || r.Settings.Variants <= 0 {
			continue
		}
		if _, ok := byGroup[r.Group]; !ok {
			order = append(order, r.Group)
		}
		byGroup[r.Group] = append(byGroup[r.Group], r)
	}
	out := make([]RobustGroup, 0, len(order))
	for _, g := range order {
		passes := byGroup[g]
		sort.SliceStable(passes, func(i, j int) bool { return passes[i].Trial < passes[j].Trial })
		n := passes[0].Settings.Variants
		rg := RobustGroup{First: passes[0], Planned: n + 2}
		seeds := run.VariantSeeds(n)
		var original, rerun *run.Result
		variants := make([]*run.Result, n)
		counted := map[int]bool{} // a pass opened from a file beside the same pass kept counts once
		for _, r := range passes {
			if (r.Status != runDone && r.Status != runCancelled) || counted[r.Trial] {
				continue
			}
			counted[r.Trial] = true
			res := &run.Result{Batch: r.Batch, Episodes: r.Episodes, Failures: r.Failures}
			switch {
			case r.Trial == 1:
				original = res
			case r.Trial == n+2:
				rerun = res
			case r.Trial >= 2 && r.Trial <= n+1:
				variants[r.Trial-2] = res
			default:
				continue
			}
			rg.Ran++
			rg.Passes = append(rg.Passes, r)
			rg.Cut = rg.Cut || r.Status == runCancelled
		}
		rg.Cut = rg.Cut || rg.Ran < rg.Planned
		rg.Stats = run.Robust(original, seeds, variants, rerun)
		out = append(out, rg)
	}
	return out
}

// Label names a robustness run: its model, form and start, and its variants (not its first pass,
// which names one of its data).
func (g *RobustGroup) Label() string {
	n := g.First.Settings.Variants
	return fmt.Sprintf("%s · robustness run: the original, %d variant%s, the rerun", g.First.settingsLabel(), n, map[bool]string{true: "s"}[n != 1])
}

// rerunRan says whether g's rerun (its last pass) ended and is counted. A level none of whose tasks
// was judged in every pass has no rerun figure (run.Robustness.Rerun is null), whether the rerun ran
// or not: this says which.
func (g *RobustGroup) rerunRan() bool {
	for _, p := range g.Passes {
		if p.Trial == g.Planned {
			return true
		}
	}
	return false
}

// robustOf is the robustness run r is a pass of, summed up from runs (nil when it is none).
func robustOf(r *SavedRun, runs []*SavedRun) *RobustGroup {
	if r == nil || r.Group == "" || r.Settings.Variants <= 0 {
		return nil
	}
	return findRobust(RobustGroups(runs), r)
}

// findRobust is the robustness run among groups that r is a pass of (nil when it is none).
func findRobust(groups []RobustGroup, r *SavedRun) *RobustGroup {
	if r == nil || r.Group == "" || r.Settings.Variants <= 0 {
		return nil
	}
	for i := range groups {
		if groups[i].First.Group == r.Group {
			return &groups[i]
		}
	}
	return nil
}

// sumUpRobustness sums up saved's robustness run for the Run page, from its passes this runner
// ran (ended, in order) when they are a chain from the original, else from the passes kept in the
// store (a run resumed after a reload, a retry of one pass).
func (r *Runner) sumUpRobustness(saved *SavedRun, ended []*SavedRun) {
	runs := ended
	if len(ended) < 2 || ended[0].Trial != 1 {
		var err error
		if runs, err = runStore.Runs(); err != nil {
			r.setErr("the robustness could not be summed up: " + err.Error())
			return
		}
	}
	g := robustOf(saved, runs)
	r.mu.Lock()
	r.robust = g
	r.mu.Unlock()
}

// robustnessJSON is a level's robustness as a data attribute: the JSON `apibank run --variants N
// --json` prints for it, which tests compare with the CLI's.
func robustnessJSON(rb run.Robustness) string {
	b, err := json.Marshal(rb)
	if err != nil {
		return ""
	}
	return string(b)
}

// robustNote says what a robustness table shows.
const robustNote = "Each task (a call sample of levels 1–2, a level-3 episode) is asked in its original form, in variants of the builtin data (the same request with other names, numbers and texts) and in its original form again. " +
	"A model that understood a request gets its variants right as well. Asking the unchanged original again is the baseline: how often a verdict changes when nothing does, which the changes by a variant must rise above before they mean anything."

// level3RobustNote says why level 3's robustness rows measure little: shown under a table with one.
const level3RobustNote = "Level 3 hardly varies: a scene's people, accounts, dates and places are the level-3 tools' own facts, so a variant keeps them, and its level-3 rows are mostly the original scenes asked again. Levels 1 and 2 measure robustness."

// hasLevel3 says whether a robustness table shows a level-3 row.
func hasLevel3(groups ...*RobustGroup) bool {
	for _, g := range groups {
		for _, rb := range g.Stats {
			if rb.Level == run.Level3 {
				return true
			}
		}
	}
	return false
}

// robustView is the table of robustness runs: per run and level, the accuracy on the originals,
// its mean ± sd (min–max) over the variants, the share right in every variant, the rerun's accuracy,
// and how often asking again and a variant change a verdict.
func robustView(groups []RobustGroup) goapp.UI {
	level3 := false
	for i := range groups {
		level3 = level3 || hasLevel3(&groups[i])
	}
	return goapp.Section().DataSet("testid", "robustness").Body(
		goapp.H2().Text("Robustness"),
		goapp.P().Class("small").Text(robustNote),
		goapp.Div().Class("table-box").Body(goapp.Table().Class("tally robust").DataSet("testid", "robust-table").Body(
			goapp.THead().Body(goapp.Tr().Body(
				goapp.Th().Text("robustness run"), goapp.Th().Text("level"), goapp.Th().Text("tasks"), goapp.Th().Text("original"),
				goapp.Th().Text("variants: mean ± sd (min–max)"), goapp.Th().Text("right in every variant"), goapp.Th().Text("rerun"),
				goapp.Th().Text("verdicts changed: by asking again · by a variant"),
			)),
			goapp.TBody().Body(goapp.Range(groups).Slice(func(i int) goapp.UI {
				g := groups[i]
				label := fmt.Sprintf("%s — %d of %d passes", g.Label(), g.Ran, g.Planned)
				if g.Cut {
					label += " (only the passes that ended are counted)"
				}
				if len(g.Stats) == 0 {
					return goapp.Tr().DataSet("testid", "robust-row").DataSet("group", g.First.Group).Body(
						goapp.Td().Text(label), goapp.Td().ColSpan(7).Text("nothing judged yet"),
					)
				}
				rerun := g.rerunRan()
				return goapp.Range(g.Stats).Slice(func(j int) goapp.UI {
					rb := g.Stats[j]
					first := ""
					if j == 0 {
						first = label
					}
					w := robustWords(rb, rerun)
					return goapp.Tr().DataSet("testid", "robust-row").DataSet("group", g.First.Group).DataSet("level", rb.Level).
						DataSet("robustness", robustnessJSON(rb)).Body(
						goapp.Td().Text(first),
						goapp.Td().Text(LevelLabel(rb.Level)),
						goapp.Td().Text(w.tasks),
						goapp.Td().Text(w.original),
						goapp.Td().Text(w.variants),
						goapp.Td().Text(w.every),
						goapp.Td().Text(w.rerun),
						goapp.Td().Text(w.again+" · "+w.variant),
					)
				})
			})),
		)),
		goapp.If(level3, func() goapp.UI {
			return goapp.P().Class("small").DataSet("testid", "robust-level3").Text(level3RobustNote)
		}),
	)
}

// noVariant stands where a figure over the variants would be when none ran (a run cancelled in its
// original pass), notAsked where the rerun's would be when it never ran, and noFigure where a pass
// ran but no task of the level was judged in every pass: no number stands for a pass that was not
// asked, nor for a share of nothing (which would read as 0%).
const (
	noVariant = "no variant ran"
	notAsked  = "not asked"
	noFigure  = "—"
)

// robustFigures is a level's robustness in words, as a robustness table shows it.
type robustFigures struct {
	// tasks is how many tasks were judged in every pass, and how many were left out.
	tasks string
	// original, variants, every and rerun are the accuracy on the originals, over the variants, the
	// share right in every variant and the accuracy of the rerun.
	original, variants, every, rerun string
	// again and variant are how often asking again, and a variant, changed a verdict.
	again, variant string
}

// robustWords says a level's robustness in words, as `apibank run --variants N` prints it: a pass
// that never ran is said so (rerunRan says whether the rerun ended; rb.Seeds names the variants
// that did), and when no task was judged in every pass (each failed in some pass) the table says
// that, with no figure where there is nothing to measure, rather than accuracies of nothing.
func robustWords(rb run.Robustness, rerunRan bool) robustFigures {
	f := robustFigures{
		tasks:    strconv.Itoa(rb.Tasks),
		original: Percent(rb.Original),
		variants: variantsWords(rb),
		every:    noVariant,
		rerun:    notAsked,
		again:    notAsked,
		variant:  noVariant,
	}
	if len(rb.Seeds) > 0 {
		f.every, f.variant = Percent(rb.EveryVariant), Percent(rb.VariantFlips)
	}
	if rb.Rerun != nil {
		f.rerun = Percent(*rb.Rerun)
	}
	if rb.RerunFlips != nil {
		f.again = Percent(*rb.RerunFlips)
	}
	if rb.Tasks == 0 {
		f.tasks = "0: none was judged in every pass"
		f.original = noFigure
		if len(rb.Seeds) > 0 {
			f.variants, f.every, f.variant = noFigure, noFigure, noFigure
		}
		if rerunRan {
			f.rerun, f.again = noFigure, noFigure
		}
	}
	if rb.LeftOut > 0 {
		f.tasks += fmt.Sprintf(" (%d left out: a request failed in some pass)", rb.LeftOut)
	}
	return f
}

// variantsWords is a level's accuracy over the variants: mean ± sd (min–max) over n variants; one
// variant's accuracy has no spread, so it is given alone.
func variantsWords(rb run.Robustness) string {
	switch len(rb.Seeds) {
	case 0:
		return noVariant
	case 1:
		return fmt.Sprintf("%s on 1 variant (no spread from one)", Percent(rb.Mean))
	}
	return fmt.Sprintf("%s ± %s (%s–%s) over %d variants", Percent(rb.Mean), Percent(rb.StdDev), Percent(rb.Min), Percent(rb.Max), len(rb.Seeds))
}

// compareRobust is the comparison of two robustness runs, level by level side by side: the
// accuracy on the originals, the variants' mean ± sd, the share right in every variant, and the
// changes of verdict by asking again and by a variant.
func compareRobust(a, b *RobustGroup) goapp.UI {
	var levels []string
	seen := map[string]bool{}
	at := func(g *RobustGroup, level string) *run.Robustness {
		for i := range g.Stats {
			if g.Stats[i].Level == level {
				return &g.Stats[i]
			}
		}
		return nil
	}
	for _, g := range []*RobustGroup{a, b} {
		for _, rb := range g.Stats {
			if !seen[rb.Level] {
				seen[rb.Level] = true
				levels = append(levels, rb.Level)
			}
		}
	}
	attr := func(rb *run.Robustness) string {
		if rb == nil {
			return ""
		}
		return robustnessJSON(*rb)
	}
	cell := func(g *RobustGroup, rb *run.Robustness) goapp.UI {
		if rb == nil {
			return goapp.Td().Text(noFigure)
		}
		w := robustWords(*rb, g.rerunRan())
		return goapp.Td().Body(
			goapp.Strong().Text("original "+w.original),
			goapp.Br(),
			goapp.Span().Text("variants "+w.variants),
			goapp.Br(),
			goapp.Span().Text("right in every variant "+w.every),
			goapp.Br(),
			goapp.Span().Text(fmt.Sprintf("tasks %s, rerun %s", w.tasks, w.rerun)),
			goapp.Br(),
			goapp.Span().Class("small").Text(fmt.Sprintf("verdicts changed: by asking again %s, by a variant %s", w.again, w.variant)),
		)
	}
	if a.First.Group == b.First.Group {
		return goapp.P().Class("small").DataSet("testid", "compare-robust-same").Text("A and B are passes of one robustness run (" + a.Label() + "): its robustness is in the Robustness table, once.")
	}
	differ := ""
	if a.First.Settings.Variants != b.First.Settings.Variants {
		differ = fmt.Sprintf("A asked %d variants and B %d: their spreads are over different variants, compare with care. ", a.First.Settings.Variants, b.First.Settings.Variants)
	}
	return goapp.Div().DataSet("testid", "compare-robust").Body(
		goapp.H3().Text("Robustness side by side"),
		goapp.P().Class("small").Text(fmt.Sprintf("A asked %d of %d passes, B %d of %d. ", a.Ran, a.Planned, b.Ran, b.Planned)+differ+robustNote),
		goapp.Div().Class("table-box").Body(goapp.Table().Class("tally robust").Body(
			goapp.THead().Body(goapp.Tr().Body(goapp.Th().Text("level"), goapp.Th().Text("A: "+a.Label()), goapp.Th().Text("B: "+b.Label()))),
			goapp.TBody().Body(goapp.Range(levels).Slice(func(i int) goapp.UI {
				ra, rb := at(a, levels[i]), at(b, levels[i])
				return goapp.Tr().DataSet("testid", "compare-robust-row").DataSet("level", levels[i]).DataSet("a", attr(ra)).DataSet("b", attr(rb)).Body(
					goapp.Td().Text(LevelLabel(levels[i])), cell(a, ra), cell(b, rb),
				)
			})),
		)),
		goapp.If(hasLevel3(a, b), func() goapp.UI { return goapp.P().Class("small").Text(level3RobustNote) }),
	)
}
