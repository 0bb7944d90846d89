package variant

import (
	"path"
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/verify"
)

// Prove runs every check of package verify on a variant's files, as on the builtin data: format,
// execution, grounding, and the fairness checks (writable in the text and the native form, special
// cases' needs, level-3 tools shown, audit), loaded as the builtin data is (dataset.LoadRepaired). The report is OK when every dialogue and scene, moved or
// served unchanged, passes. Make guards its variant with the cheaper checks (see guard); Prove is the
// whole proof, for tests and for whoever wants it (it costs a few times Make's time).
func Prove(variant dataset.Files) (verify.Report, error) {
	d, errs, err := dataset.LoadRepaired("variant", variant)
	if err != nil {
		return verify.Report{}, err
	}
	return verify.Run(d, append(errs, d.ParseAll()...), nil), nil
}

// guard runs the checks Make holds a variant to before serving it: verify's format, execution and
// grounding checks of every dialogue and scene in the variant's world, and every special case's
// needs met by its gold reply (what verify's special check asks, without a scorer). It returns the
// first failure of each failing file, by path. Fairness's writable and shown checks are Prove's.
func guard(files dataset.Files) (map[string]Unchanged, error) {
	d, errs, err := dataset.Load("variant", files)
	if err != nil {
		return nil, err
	}
	d.Base.Repair() // the world as the builtin data's; d.Repaired stays false: no fairness checks here
	byBase := map[string][]string{}
	for p := range files {
		byBase[path.Base(p)] = append(byBase[path.Base(p)], p)
	}
	out := map[string]Unchanged{}
	fail := func(file, check, why string) {
		paths := byBase[path.Base(file)]
		if strings.Contains(file, "/") {
			paths = []string{file}
		}
		for _, p := range paths {
			if _, ok := out[p]; !ok {
				out[p] = Unchanged{Path: p, Check: check, Why: why}
			}
		}
	}
	rep := verify.Run(d, errs, nil)
	for _, f := range rep.Failures {
		fail(f.File, f.Check, f.Why)
	}
	for _, dl := range d.Dialogues() {
		i := dl.SpecialTurn()
		if i < 0 {
			continue
		}
		if n := score.Unmet(dl.Turns[i].Text, dl.Meta.Needs); n != nil || len(dl.Meta.Needs) == 0 {
			why := "the special case records no needs"
			if n != nil {
				why = "the gold reply does not meet the need: " + n.What
			}
			fail(dl.File, protocol.CheckSpecial, why)
		} else if p := staleNeed(dl); p != "" {
			fail(dl.File, protocol.CheckSpecial, "a need names "+strconv.Quote(p)+", a day or a month no date of the dialogue has")
		}
	}
	return out, nil
}
