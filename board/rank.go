package board

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apibank-playground/apibank/stats"
)

// Current is what a host judges with now: its dataset's hash and its engine's build, and the season
// it ranks. Entries judged with other ones are legacy.
type Current struct {
	Data   string `json:"data"`
	Engine string `json:"engine"`
	// Season is the seed of the variant of the builtin data the board ranks (0: the builtin data
	// itself, no season): Data is that variant's hash. Runs made on it (apibank run --seed
	// SEASON) are ranked; runs made on other data are listed apart.
	Season int64 `json:"season,omitempty"`
	// Since is when this host first ranked the season (kept in its store; nil without a season,
	// or in an export without a store).
	Since *time.Time `json:"since,omitempty"`
}

// SeasonStart is the time a host keeps as the start of season (Store.Season) when it ranks it at
// now: now, or the time the first of entries made on the season's variant and standing (not
// retracted) was submitted, when that is earlier. Such an entry is ranked on a board of the season,
// and a board ranked "since" after one of its ranked entries came would misstate its own history
// (an entry made on the variant before the host ranked the season, on a host without one; or one
// kept before the start was kept this way).
func SeasonStart(entries []Entry, season int64, now time.Time) time.Time {
	start := now
	for _, e := range entries {
		if season != 0 && e.Seed == season && e.Retracted == nil && e.Created.Before(start) {
			start = e.Created
		}
	}
	return start
}

// DataWords names the data of a seed in words where seeds are seasons: "the original data" (0) or
// "season N's variant". DataWordsFor says it as a board of a given season does.
func DataWords(seed int64) string {
	if seed == 0 {
		return "the original data"
	}
	return "season " + strconv.FormatInt(seed, 10) + "'s variant"
}

// DataWordsFor names the data of a seed in words as a board that ranks season (0: none, the
// original data) says where an entry was made: on a board of a season, as DataWords ("season N's
// variant"); on a board without one, where no seed is a season, "variant N" (and "the original
// data" for 0).
func DataWordsFor(seed, season int64) string {
	if season == 0 && seed != 0 {
		return "variant " + strconv.FormatInt(seed, 10)
	}
	return DataWords(seed)
}

// Filter narrows a ranking: a form (text, native; "" both) and a level ("" overall).
type Filter struct {
	Form  string `json:"form,omitempty"`
	Level string `json:"level,omitempty"`
}

// Sections of the board, in the order the page shows them.
const (
	SectionRanked    = "ranked"
	SectionUnranked  = "unranked"
	SectionLegacy    = "legacy"
	SectionRetracted = "retracted"
)

// Row is an entry's place on the board under a filter.
type Row struct {
	Entry   Entry  `json:"entry"`
	Section string `json:"section"`
	// Why says why an entry is not ranked (partial, other levels, other data or engine).
	Why string `json:"why,omitempty"`
	// Rank is the place among the ranked (from 1); entries statistically tied share the rank of
	// the first of them. Tied says this entry is tied with the one above, and P is the exact
	// McNemar test's p between the two on the tasks both judged (0 when they share none).
	Rank  int        `json:"rank,omitempty"`
	Tied  bool       `json:"tied,omitempty"`
	P     float64    `json:"p,omitempty"`
	Score LevelScore `json:"score"`
}

// Rank places every entry under f: the ranked ones (standing, complete, made on the season's data
// and judged on it and the current engine, covering the level asked, or every level for the overall ranking) best first by
// accuracy, each compared with its neighbour above by the paired McNemar test on their first trials;
// then the unranked, the legacy and the retracted, newest first.
func Rank(entries []Entry, cur Current, f Filter) []Row {
	var ranked, unranked, legacy, retracted []Row
	for _, e := range entries {
		if f.Form != "" && e.Run.Form != f.Form {
			continue
		}
		r := Row{Entry: e, Score: e.Score.Overall}
		if f.Level != "" {
			i := slices.IndexFunc(e.Score.Levels, func(l LevelScore) bool { return l.Level == f.Level })
			if i < 0 {
				continue // the entry has nothing of that level to show
			}
			r.Score = e.Score.Levels[i]
		}
		switch {
		case e.Retracted != nil:
			r.Section = SectionRetracted
			retracted = append(retracted, r)
		case e.Seed != cur.Season || e.Data != cur.Data || e.Engine != cur.Engine || !e.RunData:
			r.Section, r.Why = SectionLegacy, legacyWhy(e, cur)
			legacy = append(legacy, r)
		case !e.Score.Complete:
			r.Section = SectionUnranked
			r.Why = fmt.Sprintf("partial: %d of %d tasks missing", e.Score.Missing, e.Score.Expected*max(1, e.Run.Trials))
			unranked = append(unranked, r)
		case f.Level == "" && len(e.Run.Levels) < len(Levels):
			r.Section = SectionUnranked
			r.Why = "covers " + strings.Join(e.Run.Levels, ", ") + " only: ranked in its levels"
			unranked = append(unranked, r)
		default:
			r.Section = SectionRanked
			ranked = append(ranked, r)
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		a, b := ranked[i].Score, ranked[j].Score
		if a.Accuracy != b.Accuracy {
			return a.Accuracy > b.Accuracy
		}
		return ranked[i].Entry.Created.Before(ranked[j].Entry.Created) // the earlier holds the place
	})
	for i := range ranked {
		if i == 0 {
			ranked[i].Rank = 1
			continue
		}
		p, n := pairedP(ranked[i-1].Entry, ranked[i].Entry, f.Level)
		ranked[i].P = p
		if n > 0 && p >= stats.Alpha {
			ranked[i].Tied, ranked[i].Rank = true, ranked[i-1].Rank
		} else {
			ranked[i].Rank = i + 1
		}
	}
	for _, rs := range [][]Row{unranked, legacy, retracted} {
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].Entry.Created.After(rs[j].Entry.Created) })
	}
	return slices.Concat(ranked, unranked, legacy, retracted)
}

// legacyWhy says how an entry's judging differs from the host's now: first on which data its run
// was made when that is not the season the board ranks, in words.
func legacyWhy(e Entry, cur Current) string {
	var why []string
	switch {
	case e.Seed != cur.Season:
		why = append(why, "made on "+DataWordsFor(e.Seed, cur.Season))
	case e.Data != cur.Data:
		why = append(why, "judged on data "+e.Data+", now "+cur.Data)
	}
	if !e.RunData {
		why = append(why, "the run saw other data than the board judged it on")
	}
	if e.Engine != cur.Engine {
		why = append(why, "judged by engine "+e.Engine+", now "+cur.Engine)
	}
	return strings.Join(why, "; ")
}

// pairedP is the exact McNemar test between two entries on the tasks both judged in their first
// trials (the marks of level, or of every level when level is ""), and how many those were.
func pairedP(a, b Entry, level string) (float64, int) {
	var p stats.Paired
	for _, l := range Levels {
		if level != "" && l != level {
			continue
		}
		ma, mb := a.Score.Marks[l], b.Score.Marks[l]
		if len(ma) != len(mb) { // not the same tasks: nothing is paired
			continue
		}
		for i := range len(ma) {
			x, y := ma[i], mb[i]
			if x == '-' || y == '-' {
				continue
			}
			switch {
			case x == '1' && y == '1':
				p.BothRight++
			case x == '0' && y == '0':
				p.BothWrong++
			case x == '1':
				p.Broken++
			default:
				p.Fixed++
			}
		}
	}
	if p.N() == 0 {
		return 0, 0
	}
	return p.P(), p.N()
}
