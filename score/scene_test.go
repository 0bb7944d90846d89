package score

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
)

// TestSceneStepsAndEpisodes: every builtin scene's gold steps are right, and an episode driven with the
// gold calls — in each form, as the engine shows them (GoldPrediction: the text form wherever it can carry
// the call) and as native calls — ends in the gold final state with every gold call matched; a wrong
// episode shows a diff and missed calls.
func TestSceneStepsAndEpisodes(t *testing.T) {
	data, ix := builtin(t)
	if len(ix.Scenes()) < 50 {
		t.Fatalf("%d builtin scenes", len(ix.Scenes()))
	}
	s := New(data, Replay)
	forms := []struct {
		name string
		gold func(d *dataset.Dialogue, t *dataset.Turn) string
	}{
		{"shown", GoldPrediction},
		{"native", func(_ *dataset.Dialogue, t *dataset.Turn) string { return GoldNative(t) }},
	}
	texts := 0
	for _, d := range ix.Scenes() {
		for _, sm := range SceneSamples(d) {
			for _, f := range forms {
				if v := s.Call(sm, f.gold(d, sm.GoldTurn())); !v.Correct {
					t.Errorf("%s step %d, %s form: gold call judged %s %s", d.File, sm.ID, f.name, v.Category, v.Error)
				}
			}
		}
		for _, f := range forms {
			e := NewEpisode(data.Base, d)
			for _, turn := range d.Turns {
				if turn.Role == dataset.API {
					c, ok := call.ReadingFor(d.Repaired).Find(f.gold(d, &turn))
					if !ok {
						t.Fatalf("%s: the gold of %s does not read as a call", d.File, turn.Tool)
					}
					if c.Form == call.Text {
						texts++
					}
					e.Step(c)
				}
			}
			if out := e.Finish(data.Base, GoldReply(d)); !out.Success || out.Recall != 1 {
				t.Errorf("%s, %s form: gold episode outcome %+v", d.File, f.name, out)
			}
		}
	}
	if texts == 0 {
		t.Error("no gold step was shown in the text form: the text reading went untested")
	}
	d := ix.Scenes()[0]
	e := NewEpisode(data.Base, d)
	c, _ := call.Find(`[Calculator(formula='1+1')]`)
	e.Step(c)
	out := e.Finish(data.Base, GoldReply(d))
	if out.Success || out.Matched != 0 || len(out.Missed) != out.Gold {
		t.Errorf("a wrong episode judged %+v", out)
	}
}

// TestOriginalScenes: the original's eight sample scenes import and their gold steps score right
// against the results their own calls produce.
func TestOriginalScenes(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "apibank")
	if _, err := os.Stat(filepath.Join(dir, "lv3-samples")); err != nil {
		t.Skip("../shared/apibank not found: the original's scenes are reference data beside the repository")
	}
	files, err := dataset.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := dataset.Load("apibank", files)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(data)
	if len(ix.Scenes()) != 8 {
		t.Fatalf("%d original scenes imported, want 8", len(ix.Scenes()))
	}
	s := New(data, Replay)
	steps := 0
	for _, d := range ix.Scenes() {
		if d.ToolCatalog().Name != "apis" {
			t.Errorf("%s: catalog %s, want apis (the sample scenes call the levels 1-2 tools)", d.File, d.ToolCatalog().Name)
		}
		for _, sm := range SceneSamples(d) {
			steps++
			if v := s.Call(sm, GoldText(sm.GoldTurn())); v.Category == NoAPICall || v.Category == APINameMismatch {
				t.Errorf("%s step %d: %s", d.File, sm.ID, v.Category)
			}
		}
		e := NewEpisode(data.Base, d)
		for _, turn := range d.Turns {
			if turn.Role == dataset.API {
				c, _ := call.Find(GoldNative(&turn))
				e.Step(c)
			}
		}
		if out := e.Finish(data.Base, GoldReply(d)); !out.StateMatch {
			t.Errorf("%s: a gold episode must end in the gold state: %+v", d.File, out.Diff)
		}
	}
	t.Logf("%d steps in the original's 8 scenes", steps)
}
