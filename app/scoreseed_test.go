package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/goldmodel"
)

// TestJudgedOnTheVariant: predictions written for variant 7 (its gold calls, where they differ from
// the builtin data's) are all right judged on variant 7 and not all right on the builtin data, and
// the tab's engine holds the builtin data again once they are judged.
func TestJudgedOnTheVariant(t *testing.T) {
	useNative(t)
	const seed = 7
	ds, err := tab.Dialogues()
	if err != nil {
		t.Fatal(err)
	}
	var preds []string
	for _, d := range ds {
		if len(preds) == 6 {
			break
		}
		orig, err := tab.Prompt(d.Level, d.File, 0)
		if err != nil || orig.Gold == "" {
			continue
		}
		gold, err := goldmodel.GoldCall(seed, d.Level, d.File, 0)
		if err != nil || gold == orig.Gold {
			continue // a sample the variant did not move tells nothing here
		}
		b, _ := json.Marshal(map[string]any{"level": d.Level, "file": d.File, "id": 0, "pred": gold})
		preds = append(preds, string(b))
	}
	if len(preds) < 3 {
		t.Fatalf("only %d samples that variant %d moves among the first dialogues", len(preds), seed)
	}
	text := strings.Join(preds, "\n")
	var name string
	score := func(right *int) func() error {
		return func() error {
			if d := currentData(); d != nil {
				name = d.name
			}
			b, err := tab.Score(text, "", "")
			*right = b.Report.Overall.Correct
			return err
		}
	}
	var onVariant, onBuiltin int
	if err := judgedOn(seed, score(&onVariant)); err != nil {
		t.Fatal(err)
	}
	if onVariant != len(preds) {
		t.Errorf("judged on variant %d: %d of %d right; want all", seed, onVariant, len(preds))
	}
	if name != variantName(seed) {
		t.Errorf("the engine names the variant %q; the page saves it as %q", name, variantName(seed))
	}
	if d := currentData(); d == nil || d.seed != 0 || d.name != builtinData {
		t.Errorf("after the scoring the engine holds %+v; want the builtin data back", d)
	}
	// A row's comparison shows the gold of the data the batch was judged on.
	var first struct {
		Level, File string
		ID          int
	}
	_ = json.Unmarshal([]byte(preds[0]), &first)
	v := protocol.Verdict{Level: first.Level, File: first.File, ID: first.ID}
	var onVariantGold, onBuiltinGold []protocol.Turn
	if err := judgedOn(seedOfData(variantName(seed)), func() (err error) { onVariantGold, err = verdictGold(v); return err }); err != nil {
		t.Fatal(err)
	}
	if err := judgedOn(seedOfData(builtinData), func() (err error) { onBuiltinGold, err = verdictGold(v); return err }); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(onVariantGold[0].Params)
	b, _ := json.Marshal(onBuiltinGold[0].Params)
	if string(a) == string(b) {
		t.Errorf("%s #%d: the variant's gold turn has the builtin data's arguments %s", first.File, first.ID, a)
	}
	if err := judgedOn(0, score(&onBuiltin)); err != nil {
		t.Fatal(err)
	}
	if onBuiltin == len(preds) {
		t.Errorf("judged on the builtin data, all %d predictions of variant %d are right; want the moved ones wrong", len(preds), seed)
	}
}

// TestScorePageOffersTheVariants: on the builtin data the page offers a variant to judge on, and a
// file named for a variant chooses it; on an imported folder (of which there are no variants) it
// offers none.
func TestScorePageOffersTheVariants(t *testing.T) {
	useNative(t)
	p := &ScorePage{}
	html := mount(t, p)
	if !strings.Contains(html, `data-testid="score-data-select"`) {
		t.Fatalf("the Score page on the builtin data offers no variant to judge on")
	}
	p.readFile(app.Context{}, "gpt-4o-mini-3f2a.seed-7.jsonl", `{"file": "x.jsonl", "id": 0, "pred": ""}`)
	if p.seed != 7 || p.judgedData() != variantName(7) || !strings.Contains(p.saveNote, "variant 7 of the builtin data") {
		t.Errorf("a file named for variant 7: seed %d, data %q, note %q", p.seed, p.judgedData(), p.saveNote)
	}
	p.onSeedText("010")
	if p.seedErr == "" || p.seed != 7 {
		t.Errorf("the seed field's text 010: error %q, seed %d; want it refused, the seed kept", p.seedErr, p.seed)
	}
	p.onSeedText("0")
	if p.seed != 0 || p.seedErr != "" || p.judgedData() != builtinData {
		t.Errorf("seed 0: seed %d, error %q, data %q; want the data loaded in this tab", p.seed, p.seedErr, p.judgedData())
	}
	imported := &ScorePage{data: "my-folder"}
	imported.readFile(app.Context{}, "run.seed-7.jsonl", "")
	if imported.seed != 0 || imported.judgedData() != "my-folder" {
		t.Errorf("on an imported folder a file named for variant 7 chose seed %d (data %q)", imported.seed, imported.judgedData())
	}
}
