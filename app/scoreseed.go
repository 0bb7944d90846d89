package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// The Score page judges pasted predictions on the data loaded in this tab or on a variant of the
// builtin data: the predictions of `apibank run --seed S`, of a board season's entry or of a
// robustness run's variant pass are right only on the variant they were asked on, and judged on
// the builtin data they would read wrong wherever a value moved.

// Values of the Score page's data choice (data-testid score-data-select).
const (
	judgeTabData = "tab"
	judgeVariant = "variant"
)

// renderDataChoice draws the choice of the data the bulk box is judged on.
func (p *ScorePage) renderDataChoice() app.UI {
	return app.Label().Class("field").Body(
		app.Span().Text("Judged on "),
		app.Select().DataSet("testid", "score-data-select").OnChange(func(ctx app.Context, e app.Event) {
			if selectValue(ctx) == judgeVariant {
				if p.seed == 0 {
					p.setSeed(1)
				}
			} else {
				p.setSeed(0)
			}
		}).Body(
			app.Option().Value(judgeTabData).Selected(!p.onVariant()).Text("the data loaded in this tab (the builtin data)"),
			app.Option().Value(judgeVariant).Selected(p.onVariant()).Text("a variant of the builtin data: seed …"),
		),
	)
}

// renderSeedField draws the seed of the variant the bulk box is judged on.
func (p *ScorePage) renderSeedField() app.UI {
	return app.Label().Class("field").Body(
		app.Span().Text("Seed "),
		app.Input().Type("text").Attr("inputmode", "numeric").Size(8).DataSet("testid", "score-seed").
			Aria("invalid", p.seedErr != "").Value(p.seedText).
			OnChange(func(ctx app.Context, e app.Event) { p.onSeedText(ctx.JSSrc().Get("value").String()) }),
	)
}

// onVariant says whether the bulk box is judged on a variant (or its seed field holds a text that
// is no seed yet).
func (p *ScorePage) onVariant() bool { return p.seed != 0 || p.seedErr != "" }

// onSeedText reads the seed field's text: a seed as every host reads one (protocol.ParseSeed); 0
// goes back to the data loaded in this tab.
func (p *ScorePage) onSeedText(text string) {
	seed, err := protocol.ParseSeed(text)
	if err != nil {
		p.seedText, p.seedErr = text, fmt.Sprintf("%q: %s", text, protocol.SeedRule)
		return
	}
	p.setSeed(seed)
}

// setSeed sets the variant the bulk box is judged on (0: the data loaded in this tab).
func (p *ScorePage) setSeed(seed int64) {
	p.seed, p.seedText, p.seedErr = seed, "", ""
	if seed != 0 {
		p.seedText = strconv.FormatInt(seed, 10)
	}
}

// judgedSeed is the variant a batch scored now is judged on: the seed chosen, on the builtin data
// (0: the data loaded in this tab, which an imported folder always is).
func (p *ScorePage) judgedSeed() int64 {
	if p.data != builtinData {
		return 0
	}
	return p.seed
}

// judgedData names the data a batch scored now is judged on, as its saved record says it.
func (p *ScorePage) judgedData() string {
	if seed := p.judgedSeed(); seed != 0 {
		return variantName(seed)
	}
	return p.data
}

// variantName is the name the engine gives the variant of the builtin data seed names.
func variantName(seed int64) string { return protocol.VariantName(builtinData, uint64(seed)) }

// seedOfData is the seed of the variant a data name names (variantName's), 0 for any other data.
func seedOfData(name string) int64 { return protocol.VariantSeed(builtinData, name) }

// judgedOn runs score with the tab's engine holding the variant of the builtin data seed names,
// and the data loaded before back after it; with seed 0, on the data loaded now. A run that goes
// on with other data is not disturbed: the scoring is refused until it has ended.
func judgedOn(seed int64, score func() error) error {
	if seed == 0 {
		return score()
	}
	if runOnOtherData(seed) {
		return fmt.Errorf("these predictions are judged on %s, which this tab's engine would have to load while a run goes on: score them once the run has ended", dataWords(seed))
	}
	return onSeedData(seed, score)
}
