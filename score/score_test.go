package score

import (
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

func dialogue(t *testing.T, level, name, jsonl string) *dataset.Dialogue {
	t.Helper()
	d, errs := dataset.ParseDialogue(level, name, []byte(jsonl))
	if len(errs) > 0 {
		t.Fatalf("%s: %v", name, errs)
	}
	return d
}

const (
	user = `{"role":"User","text":"hi"}`
	ai   = `{"role":"AI","text":"ok"}`
	api  = `{"role":"API","api_name":"GetToday","param_dict":{},"result":{"api_name":"GetToday","input":null,"output":"2023-03-31","exception":null}}`
)

func builtin(t testing.TB) (*dataset.Data, *Index) {
	t.Helper()
	d, err := dataset.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return d, NewIndex(d)
}

// TestGoldScoresFull: the gold answer of every sample of the builtin data scores 100% in replay state,
// at every level, in both forms; special cases answered with the gold reply are right, and a call
// there is PREMATURE_CALL.
func TestGoldScoresFull(t *testing.T) {
	data, ix := builtin(t)
	for _, form := range []string{"text", "native"} {
		var preds []Prediction
		for _, s := range ix.All() {
			var pred string
			switch {
			case s.Kind == KindCall && form == "text":
				pred = GoldSetPrediction(s)
			case s.Kind == KindCall:
				pred = GoldSetNative(s)
			case s.Kind == KindReply || s.Kind == KindSpecial:
				pred = s.GoldTurn().Text
			default:
				continue
			}
			preds = append(preds, Prediction{Level: s.Dialogue.Level, File: s.Dialogue.File, ID: s.ID, Pred: pred})
		}
		b := Score(data, ix, preds, Replay, "gold")
		if len(b.Errors) > 0 {
			t.Fatalf("%s: line errors: %v", form, b.Errors[0])
		}
		for _, l := range b.Report.Levels {
			if l.Calls == 0 || l.Correct != l.Calls {
				t.Errorf("%s %s: %d of %d gold calls correct", form, l.Name, l.Correct, l.Calls)
			}
			if l.Replies > 0 && l.RougeL < 0.999 {
				t.Errorf("%s %s: gold replies score ROUGE-L %.4f", form, l.Name, l.RougeL)
			}
			t.Logf("%s %s: %d/%d calls, %d replies (ROUGE-L %.4f), special %d/%d, scenes %d/%d", form, l.Name, l.Correct, l.Calls, l.Replies, l.RougeL, l.SpecialCorrect, l.Special, l.ScenesCorrect, l.Scenes)
		}
		if o := b.Report.Overall; o.Special < 40 || o.SpecialCorrect != o.Special {
			t.Errorf("%s: special cases %d of %d right", form, o.SpecialCorrect, o.Special)
		}
		for _, c := range b.Report.Ceiling {
			if c.Accepted != c.Total {
				t.Errorf("%s gold ceiling of %s: %d of %d", form, c.Level, c.Accepted, c.Total)
			}
		}
	}
}
