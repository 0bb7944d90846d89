package variant

import (
	"bytes"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/score"
	"github.com/apibank-playground/apibank/tools"
)

func builtinFiles(t testing.TB) dataset.Files {
	t.Helper()
	files, err := dataset.BuiltinFiles()
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// seeds are the variants the tests make and prove.
var seeds = []uint64{1, 2, 42, 1 << 40, 0xdeadbeefcafe}

type made struct {
	out dataset.Files
	rep *Report
}

var (
	madeMu sync.Mutex
	madeBy = map[uint64]made{}
)

// variantOf makes (once per test binary) the variant of the builtin data of seed.
func variantOf(t *testing.T, seed uint64) (dataset.Files, dataset.Files, *Report) {
	t.Helper()
	files := builtinFiles(t)
	madeMu.Lock()
	defer madeMu.Unlock()
	m, ok := madeBy[seed]
	if !ok {
		out, rep, err := Make(files, seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		m = made{out, rep}
		madeBy[seed] = m
	}
	return files, m.out, m.rep
}

func TestMakeDeterministic(t *testing.T) {
	files := builtinFiles(t)
	for _, seed := range seeds[:3] {
		a, ra, err := Make(files, seed)
		if err != nil {
			t.Fatal(err)
		}
		b, rb, err := Make(files, seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != len(b) || ra.Digest != rb.Digest {
			t.Fatalf("seed %d: two makes differ (%d/%d files, digests %s %s)", seed, len(a), len(b), ra.Digest, rb.Digest)
		}
		for p := range a {
			if !bytes.Equal(a[p], b[p]) {
				t.Errorf("seed %d: %s differs between two makes", seed, p)
			}
		}
	}
	_, x, rx := variantOf(t, seeds[0])
	_, y, ry := variantOf(t, seeds[1])
	if rx.Digest == ry.Digest {
		t.Errorf("seeds %d and %d have one digest", seeds[0], seeds[1])
	}
	differ := 0
	for p := range x {
		if !bytes.Equal(x[p], y[p]) {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("seeds %d and %d give the same files", seeds[0], seeds[1])
	}
}

func TestMakeSeedZeroIsOriginal(t *testing.T) {
	files := builtinFiles(t)
	out, rep, err := Make(files, 0)
	if err != nil {
		t.Fatal(err)
	}
	for p := range files {
		if !bytes.Equal(files[p], out[p]) {
			t.Errorf("seed 0 changed %s", p)
		}
	}
	if rep.Name != dataset.BuiltinName || len(rep.Moves) != 0 {
		t.Errorf("seed 0's report: name %q, %d moves", rep.Name, len(rep.Moves))
	}
	_, _, r1 := variantOf(t, 1)
	if r1.Digest == rep.Digest || r1.Name != "builtin~s1" {
		t.Errorf("seed 1: name %q, digest %s (the original's %s)", r1.Name, r1.Digest, rep.Digest)
	}
}

// TestNoOriginalSurvives searches every dialogue and scene file served as the variant, and the
// copies the world gained, for every moved original value, as the replacer finds values (whole
// words, in its case rules): none may be left. The original records the world keeps (for files
// served unchanged) are not searched, nor the files served unchanged.
func TestNoOriginalSurvives(t *testing.T) {
	for _, seed := range seeds[:3] {
		files, out, rep := variantOf(t, seed)
		moves := rep.Moves
		r := newReplacer(moves)
		unchanged := map[string]bool{}
		for _, u := range rep.Unchanged {
			unchanged[u.Path] = true
		}
		for _, f := range rep.Files {
			if unchanged[f.Path] {
				continue
			}
			left := make([]bool, len(moves))
			r.replace(string(out[f.Path]), left)
			for i := range leftOf(left) {
				t.Errorf("seed %d: %s still has %s %q", seed, f.Path, moves[i].Kind, moves[i].From)
			}
		}
		for name := range userFields {
			p := "init_database/" + name + ".json"
			added := out[p][recordsEnd(t, files[p]):] // the copies, after the original records
			left := make([]bool, len(moves))
			r.replace(string(added), left)
			for i := range leftOf(left) {
				t.Errorf("seed %d: the copies of %s still have %s %q", seed, name, moves[i].Kind, moves[i].From)
			}
		}
	}
}

// TestVariantProves runs the whole proof on each variant: every verify check, as the builtin data
// passes them, on every dialogue and scene (moved or unchanged).
func TestVariantProves(t *testing.T) {
	for _, seed := range seeds {
		_, out, _ := variantOf(t, seed)
		rep, err := Prove(out)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK {
			for _, f := range rep.Failures {
				t.Errorf("seed %d: %s:%d %s: %s", seed, f.File, f.Line, f.Check, f.Why)
			}
		}
	}
}

// TestVariantReplaysToCeiling replays every gold call of each variant, as `apibank replay` does
// (score's gold replay, replay state), in the text and the native form: all are accepted.
func TestVariantReplaysToCeiling(t *testing.T) {
	for _, seed := range seeds[:3] {
		_, out, _ := variantOf(t, seed)
		d, errs, err := dataset.LoadRepaired(Name(dataset.BuiltinName, seed), out)
		if err != nil || len(errs) > 0 {
			t.Fatal(err, errs)
		}
		ix := score.NewIndex(d)
		for _, level := range dataset.Levels {
			for _, native := range []bool{false, true} {
				r := ix.GoldReplay(score.Replay, level, native)
				if r.Total == 0 || r.Accepted != r.Total {
					t.Errorf("seed %d %s native=%v: %d of %d accepted: %v", seed, level, native, r.Accepted, r.Total, r.Rejected)
				}
			}
		}
	}
}

// TestFactsUntouched: the databases that are facts of the world are byte-identical, and so is every
// file that is neither a dialogue, a scene nor a user database; the tools' catalogs are the
// package's own, which a variant cannot reach (it only returns files).
func TestFactsUntouched(t *testing.T) {
	files, out, rep := variantOf(t, 42)
	if rep.Shift == 0 {
		t.Fatal("seed 42 moves no date")
	}
	stayed := 0 // the original records whose dates and times stay
	for p, b := range files {
		dir, base := path.Base(path.Dir(p)), strings.TrimSuffix(path.Base(p), ".json")
		if _, user := userFields[base]; dir == "init_database" && user {
			// Each original record is kept as it is, its dates moved and its times too (but those
			// of a record a file whose times stay names, see pinTimes, and the dates and times of
			// one a file served with its dates as written names, see pinDates), its copies after
			// them.
			before, _, _ := members(b)
			after, _, _ := members(out[p])
			for i, m := range before {
				was := string(b[m.start:m.end])
				dated := shiftDates(was, rep.Shift, nil, 0)
				timed, ok := shiftTimes(dated, rep.Hours, nil)
				got := string(out[p][after[i].start:after[i].end])
				if got == was && timed != was {
					stayed++
				}
				if !ok || after[i].key != m.key || got != timed && got != dated && got != was {
					t.Errorf("%s: record %s is not kept as it is, its dates and times moved", p, m.key)
				}
			}
			continue
		}
		if dir == "init_database" && !bytes.Equal(out[p], b) {
			t.Errorf("%s is a fact of the world, but the variant changed it", p)
		}
	}
	if stayed > rep.DatesPinned {
		t.Errorf("%d records keep their dates and times, %d pinned", stayed, rep.DatesPinned)
	}
	if len(out) != len(files)+1 || out["init_database/"+tools.TodayDB+".json"] == nil {
		t.Errorf("the variant has %d files, the original %d: it adds the world's today, only", len(out), len(files))
	}
}

// TestFewUnchanged: the share of files served unchanged stays small, and every value kind moves.
// Values alone (no date moved) leave under 5% of the files with a value to move unchanged; the files
// that dates add to them ask a fact of the world on a date (a stock's price, a day in history, the
// health data of a week), which stays, or write a date a way the mover does not read and need the
// moved world's records: under a quarter of the files in all, each with a date that moved in its
// variant but those served unchanged for their near misses (under 4%).
func TestFewUnchanged(t *testing.T) {
	files := builtinFiles(t)
	_, rep, err := build(files, 7, learnedOnce(files, nil), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if moved, unchanged := rep.Shares(); moved == 0 || unchanged*20 >= moved+unchanged {
		t.Errorf("values only: %d of %d files served unchanged", unchanged, moved+unchanged)
	}
	for _, seed := range seeds {
		_, _, rep := variantOf(t, seed)
		moved, unchanged := rep.Shares()
		t.Logf("seed %d: shift %d days; %d files moved, %d unchanged, %d with their dates kept; moved by kind %v; %d world records copied",
			seed, rep.Shift, moved, unchanged, len(rep.DatesKept), rep.Moved, rep.Copies)
		near := 0
		for _, u := range rep.Unchanged {
			t.Logf("  unchanged %s: %s: %s", u.Path, u.Check, u.Why)
			if u.Check == checkNearMiss {
				near++ // its near misses, not its dates (see TestNearMissesKept)
				continue
			}
			if s := string(files[u.Path]); u.Check == checkPartOfDay {
				// Its one value is a time, which the variant's hours would take out of the part of
				// the day it names.
				if len(clocks(s)) == 0 || partsHold(s, partsNamed(s), rep.Hours) {
					t.Errorf("seed %d: %s is served unchanged for a part of the day its times keep", seed, u.Path)
				}
				continue
			}
			if lo, _ := dateSpan(string(files[u.Path]), 1<<30, 0, 0, 1<<30); lo == 1<<30 {
				t.Errorf("seed %d: %s has no date to move, but is served unchanged", seed, u.Path)
			}
		}
		if moved == 0 || unchanged*4 >= moved+unchanged || near*25 >= moved+unchanged {
			t.Errorf("seed %d: %d of %d files served unchanged, %d for their near misses", seed, unchanged, moved+unchanged, near)
		}
		for _, k := range Kinds {
			// A place word moves with its place: the data never writes one alone.
			if rep.Moved[k] == 0 && k != KindPlaceWord {
				t.Errorf("seed %d: no %s moved", seed, k)
			}
		}
	}
}

var (
	emailShape = regexp.MustCompile(`^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+\.[a-z]+$`)
	nameShape  = regexp.MustCompile(`^[A-Z][a-z]+$`)
)

// TestNewValuesKeepKind: every new value has its kind's shape and its original's size.
func TestNewValuesKeepKind(t *testing.T) {
	_, _, rep := variantOf(t, 42)
	for _, m := range rep.Moves {
		ok := true
		switch m.Kind {
		case KindPassword, KindToken, KindID:
			ok = sameShape(m.From, m.To)
		case KindEmail:
			_, d1, _ := strings.Cut(m.From, "@")
			_, d2, _ := strings.Cut(m.To, "@")
			ok = emailShape.MatchString(m.To) && d1 == d2
		case KindName, KindPlaceWord:
			ok = nameShape.MatchString(m.To)
		case KindUsername:
			ok = camelHumps(m.From) == nil || len(camelHumps(m.To)) == len(camelHumps(m.From))
		case KindPerson:
			ok = len(strings.Fields(m.To)) == len(strings.Fields(m.From))
		case KindPlace:
			ok = digitRuns(m.From) == digitRuns(m.To) && strings.Count(m.From, ",") == strings.Count(m.To, ",")
		case KindItemWord:
			g := itemGroup(m.From)
			ok = g != nil && slices.Contains(g, m.To)
		case KindAmount:
			// The same digits either side of the point and the same separators, within 2% (at
			// least 3 in the last digit).
			from, _ := strconv.ParseFloat(strings.ReplaceAll(m.From, ",", ""), 64)
			to, _ := strconv.ParseFloat(strings.ReplaceAll(m.To, ",", ""), 64)
			_, frac, _ := strings.Cut(m.From, ".")
			unit := math.Pow(10, -float64(len(strings.TrimRight(frac, "0"))))
			ok = digitRuns(m.From) == digitRuns(m.To) && math.Abs(to-from) <= max(from/50, 3*unit)+unit/2 && to != from
		}
		if !ok || m.To == m.From {
			t.Errorf("%s %q → %q does not keep its kind and size", m.Kind, m.From, m.To)
		}
	}
}

// digitRuns writes the lengths of s's digit runs ("Room 12B, 4" → "2,1,").
func digitRuns(s string) string {
	var b strings.Builder
	n := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			n++
			continue
		}
		if n > 0 {
			b.WriteString(strings.Repeat("9", n) + ",")
			n = 0
		}
	}
	return b.String()
}

// recordsEnd is where a database file's last record ends.
func recordsEnd(t *testing.T, text []byte) int {
	ms, _, err := members(text)
	if err != nil || len(ms) == 0 {
		t.Fatal("not a database of records:", err)
	}
	return ms[len(ms)-1].end
}

// leftOf returns the indexes set in hit.
func leftOf(hit []bool) map[int]bool {
	m := map[int]bool{}
	for i, h := range hit {
		if h {
			m[i] = true
		}
	}
	return m
}
