package verify

import (
	"fmt"
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/value"
)

// Fairness checks of our own data (dataset.Data.Repaired), the rules a careful grader holds a
// sample to that a program can check by itself:
//   - writable: every gold call (set) is judged right in the text form the prompt teaches, written
//     as score.GoldSetPrediction writes it, and in the native form, each on its own (no fallback
//     from one form to the other);
//   - special: every special case records its needs, and its gold reply meets them;
//   - shown: every level-3 step sample's prompt describes the tool its gold calls, or a ToolSearcher
//     call that finds the tool (its description as the keywords) is judged right;
//   - audit: every dialogue and scene records a careful reader's verdict.
// Knowable values are the grounding check's (with the world's date, which our prompts state).

// fairness runs the checks above on d, through count and fail as Run's checks do.
func fairness(d *dataset.Data, count func(check string, ok bool), fail func(check, file string, line int, format string, a ...any)) {
	ix := score.NewIndex(d)
	scorer := score.New(d, score.Replay)
	for _, sm := range ix.All() {
		dl := sm.Dialogue
		switch sm.Kind {
		case score.KindCall:
			writable(scorer, sm, count, fail)
			if dl.Level == dataset.Level3 {
				shown(scorer, sm, count, fail)
			}
		case score.KindSpecial:
			special(scorer, sm, count, fail)
		}
	}
	for _, dl := range d.Dialogues() {
		audited(dl.File, dl.Meta != nil && dl.Meta.Audit != nil, count, fail)
	}
	for _, sc := range d.Scenes() {
		audited(sc.File, sc.Audit != nil, count, fail)
	}
}

// goldLine is the file line of a sample's first gold call.
func goldLine(sm score.Sample) int { return sm.GoldTurn().Line }

func writable(scorer *score.Scorer, sm score.Sample, count func(string, bool), fail func(string, string, int, string, ...any)) {
	text := score.GoldSetPrediction(sm)
	native := score.GoldSetNative(sm)
	ok := true
	if strings.HasPrefix(strings.TrimSpace(text), "{") || strings.HasPrefix(strings.TrimSpace(text), "[{") {
		ok = false
		fail(Writable, sm.Dialogue.File, goldLine(sm), "sample %d: the gold cannot be written in the text form", sm.ID)
	} else if v := scorer.Call(sm, text); !v.Correct {
		ok = false
		fail(Writable, sm.Dialogue.File, goldLine(sm), "sample %d: the gold in the text form %s is %s %s", sm.ID, text, v.Category, v.Error)
	}
	if v := scorer.Call(sm, native); !v.Correct {
		ok = false
		fail(Writable, sm.Dialogue.File, goldLine(sm), "sample %d: the gold in the native form is %s %s", sm.ID, v.Category, v.Error)
	}
	count(Writable, ok)
}

func special(scorer *score.Scorer, sm score.Sample, count func(string, bool), fail func(string, string, int, string, ...any)) {
	meta := sm.Dialogue.Meta
	line := sm.GoldTurn().Line
	switch {
	case meta == nil || len(meta.Needs) == 0:
		fail(Special, sm.Dialogue.File, line, "sample %d: the special case records no needs (what a right reply must do)", sm.ID)
		count(Special, false)
	default:
		v := scorer.Call(sm, sm.GoldTurn().Text)
		if !v.Correct {
			fail(Special, sm.Dialogue.File, line, "sample %d: the gold reply is %s: %s", sm.ID, v.Category, v.Error)
		}
		count(Special, v.Correct)
	}
}

func shown(scorer *score.Scorer, sm score.Sample, count func(string, bool), fail func(string, string, int, string, ...any)) {
	gt := sm.GoldTurn()
	p := score.BuildPrompt(sm)
	if strings.Contains(string(p.Tools), fmt.Sprintf(`"name":%q`, gt.Tool)) {
		count(Shown, true)
		return
	}
	t, ok := sm.Dialogue.ToolCatalog().Lookup(gt.Tool)
	if ok {
		search := value.MapOf("name", "ToolSearcher", "arguments", value.MapOf("keywords", t.Description))
		if v := scorer.Call(sm, string(value.Marshal(search))); v.Correct {
			count(Shown, true)
			return
		}
	}
	fail(Shown, sm.Dialogue.File, gt.Line, "sample %d: the prompt does not show %s, and a ToolSearcher call for it is not judged right", sm.ID, gt.Tool)
	count(Shown, false)
}

func audited(file string, ok bool, count func(string, bool), fail func(string, string, int, string, ...any)) {
	if !ok {
		fail(Audit, file, 1, "no audit status (a Meta line's or the scene's \"audit\")")
	}
	count(Audit, ok)
}

// Check names of the fairness checks.
const (
	Writable = protocol.CheckWritable
	Special  = protocol.CheckSpecial
	Shown    = protocol.CheckShown
	Audit    = protocol.CheckAudit
)
