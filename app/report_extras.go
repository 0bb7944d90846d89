package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/protocol"
)

// rougeOrDash is a tally's mean ROUGE-L, or a dash when it has no replies (0.0000 would read as a
// score of nothing).
func rougeOrDash(t protocol.Tally) string {
	if t.Replies == 0 {
		return "—"
	}
	return Round4(t.RougeL)
}

// accuracyOrDash is a tally's call accuracy, or a dash when it has no calls.
func accuracyOrDash(t protocol.Tally) string {
	if t.Calls == 0 {
		return "—"
	}
	return Percent(t.Accuracy)
}

// callTools leaves out the tallies without call predictions: the special cases' "(no call)" row,
// all zeros there, is reported in its own section.
func callTools(ts []protocol.Tally) []protocol.Tally {
	out := make([]protocol.Tally, 0, len(ts))
	for _, t := range ts {
		if t.Calls > 0 {
			out = append(out, t)
		}
	}
	return out
}

// categoryClass colours a category's bar: right, wrong, or a reply where a reply was due.
func categoryClass(c string) string {
	switch c {
	case "CORRECT":
		return "good"
	case "NO_API_CALL", "FAILED_PARSE_API_CALL":
		return "none"
	}
	return "bad"
}

// specialView reports the special cases apart: how many were answered right (a reply that does what
// the case needs), with a call (PREMATURE_CALL) or with a reply that misses a need (MISSED_NEED).
func specialView(r *protocol.Report) app.UI {
	if r.Overall.Special == 0 {
		return nil
	}
	return app.Section().DataSet("testid", "special-section").Aria("labelledby", "special-h").Body(
		app.H2().ID("special-h").Text("Special cases"),
		app.P().Text(fmt.Sprintf("%d of %d special cases answered right (a reply that does what the case needs, not a call). They are not in the call accuracy.",
			r.Overall.SpecialCorrect, r.Overall.Special)),
		judgingNote("special"),
		app.Div().Class("table-box").Body(app.Table().Class("tally").Body(
			app.THead().Body(app.Tr().Body(app.Th().Scope("col").Text("verdict"), app.Th().Scope("col").Text("samples"))),
			app.TBody().Body(app.Range(r.SpecialCategories).Slice(func(i int) app.UI {
				c := r.SpecialCategories[i]
				return app.Tr().DataSet("testid", "special-row").DataSet("category", c.Category).Body(app.Td().Text(c.Category), app.Td().Text(c.Count))
			})),
		)),
	)
}

// Duplicates maps each verdict line that predicts a sample an earlier line already predicted to that
// earlier line. Both are scored, as the original scores them; the page says so.
func Duplicates(vs []protocol.Verdict) map[int]int {
	first := map[string]int{}
	out := map[int]int{}
	for _, v := range vs {
		k := fmt.Sprintf("%s\x00%s\x00%d", v.Level, v.File, v.ID)
		if l, ok := first[k]; ok {
			out[v.Line] = l
			continue
		}
		first[k] = v.Line
	}
	return out
}

// duplicatesNote warns of lines that predict the same sample twice.
func duplicatesNote(sb *SavedBatch) app.UI {
	d := Duplicates(sb.Batch.Results)
	if len(d) == 0 {
		return nil
	}
	return app.P().Class("note").DataSet("testid", "duplicates").Text(fmt.Sprintf(
		"%d line(s) predict a sample an earlier line already predicts; each is scored, so that sample counts more than once. They are marked \"duplicate\" below.", len(d)))
}

// duplicateTag marks a verdict row whose sample an earlier line already predicted.
func duplicateTag(dups map[int]int, line int) app.UI {
	first, ok := dups[line]
	if !ok {
		return nil
	}
	return app.Span().Class("tag").DataSet("testid", "duplicate").Text(fmt.Sprintf("duplicate of line %d", first))
}
