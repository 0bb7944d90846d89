package variant

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"sort"
	"strconv"
	"sync"
	"unsafe"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// Make returns the variant of the builtin data's files named by seed, and its report. Seed 0 is
// the original: files are returned as they are.
//
// The same files and seed give the same bytes, always. A dialogue or scene file whose variant fails
// a check (see guard) is served as it is, and the report says which check and why; so is every file
// that is not a dialogue, a scene or a user database. The error is not nil when a file served
// unchanged fails in the variant's world, which its copies are made never to do (then no variant is
// served), and when files are not the data the build learned (builtin.learned; see MakeUnlearned).
//
// What a variant needs to know of files before it draws (see Learn) does not depend on the seed:
// the build learned it, so a variant costs its moves, its replacements and its guard. Make never
// reads files whole itself, so the engine module carries no code to (see MakeUnlearned).
func Make(files dataset.Files, seed uint64) (dataset.Files, *Report, error) {
	if seed == 0 {
		return files, original(files), nil
	}
	f := learnedOnce(files, nil)
	if f == nil {
		return nil, nil, failed(seed, "the files are not the data the build learned (run go generate ./variant)")
	}
	return makeFrom(files, seed, f)
}

// MakeUnlearned is Make for any files in the builtin layout (as dataset.Load takes them): files the
// build did not learn are read whole first, as Learn reads them (most of a first variant's time),
// once per process for the same files.
func MakeUnlearned(files dataset.Files, seed uint64) (dataset.Files, *Report, error) {
	if seed == 0 {
		return files, original(files), nil
	}
	return makeFrom(files, seed, learnedOnce(files, func(fs dataset.Files) *found { return learn(parse(fs)) }))
}

// original is the report of seed 0: the files as they are.
func original(files dataset.Files) *Report {
	rep := &Report{Name: Name(dataset.BuiltinName, 0), Moved: map[Kind]int{}}
	rep.Digest = digest(0, 0, 0, nil, nil, files)
	return rep
}

// makeFrom is Make from what is known of files (f, see Learn).
func makeFrom(files dataset.Files, seed uint64, f *found) (dataset.Files, *Report, error) {
	shift, hours := pickShift(seed, f.dayLo, f.dayHi), pickHours(seed, f.hours)
	out, rep, err := build(files, seed, f, shift, hours)
	if err == errRevertedFails && hours != 0 {
		// A file served unchanged does not hold in a world whose times moved (it asks for a
		// record by its time): this variant keeps the times.
		out, rep, err = build(files, seed, f, shift, 0)
	}
	if err == errRevertedFails && shift != 0 {
		// Nor in a world whose dates moved (it asks the world's today, or a record by its date):
		// this variant keeps the dates too.
		out, rep, err = build(files, seed, f, 0, 0)
	}
	if err == errRevertedFails {
		err = failed(seed, rep.Unchanged[0].Path+", served unchanged, fails in the variant's world: "+rep.Unchanged[0].Check+": "+rep.Unchanged[0].Why)
	}
	return out, rep, err
}

// errRevertedFails is build's error when a file served unchanged fails in the variant's world;
// build's report then holds that failure first in Unchanged.
var errRevertedFails = errors.New("a file served unchanged fails in the variant's world")

// build makes the variant of seed with its dates moved by shift days and its times by hours (see
// Make).
func build(files dataset.Files, seed uint64, f *found, shift, hours int) (dataset.Files, *Report, error) {
	rep := &Report{Seed: seed, Name: Name(dataset.BuiltinName, seed), Moved: map[Kind]int{}, Shift: shift, Hours: hours}
	p := newPlan(f, seed)
	r := newReplacer(append(slices.Clip(p.moves), p.pins...))
	rep.Moves = p.moves

	// Each dialogue and scene file has up to three versions, tried in turn until one proves: its
	// values, dates and times moved (its times kept where they cannot move, see timesFixed), its
	// values only (its dates and times kept, written from the data's today), and the file as it is.
	// A file whose dates the build learned stay (see staying) starts at its values only.
	out := maps.Clone(files)
	tries := map[string][]version{}
	timeMoves := shift != 0 || hours != 0
	why := map[string]Unchanged{} // the check each file's variant failed first, or why it is kept
	vs := &versions{files, out, tries, map[string]bool{}, map[string]bool{}, why, f, r, seed, shift, hours, timeMoves, tools.DayNumber(f.today)}
	for _, pth := range f.texts {
		vs.add(pth, false)
	}
	world := []string{}
	for _, name := range f.dbNames {
		if userFields[name] != nil {
			var n int
			out[f.dbs[name]], n = worldCopies(name, files[f.dbs[name]], p, r)
			rep.Copies += n
		}
		world = append(world, f.dbs[name])
	}
	// A record a file names with its time as written keeps its time, and so does every file that
	// names it (see pinTimes); a record a file names with its dates as written keeps its date and
	// time, and every file that names it keeps its dates (see pinDates).
	var dated, timed map[string]bool
	if timeMoves {
		byUser := recordsByUser(f, files)
		timed = pinTimes(f, files, byUser, r, vs.held, vs.moving, rep, func(pth string) { vs.add(pth, true) })
		dated = vs.pinDates(byUser, rep)
	}
	for _, name := range f.dbNames {
		if userFields[name] != nil {
			pth := f.dbs[name]
			out[pth] = bytesOf(shiftRecords(text(out[pth]), shift, hours, dated, timed))
		}
	}
	check := sortedKeys(tries) // the files the guard checks first: every file with a version
	var written []string       // the files written from the data's today
	for _, pth := range check {
		if tries[pth][0].kept {
			written = append(written, pth) // its dates stay (see staying)
		}
	}
	today := tools.DateOf(tools.DayNumber(f.today) + shift)
	if shift != 0 && f.todayPath != "" {
		out[f.todayPath] = todayFile(today, f.today, written)
		if _, ok := f.dbs[tools.TodayDB]; !ok {
			world = append(world, f.todayPath)
		}
	}

	// The guard: a file whose version fails is served as its next version, checked in turn, until
	// its last (the file as it is, or the last resort after it: its times moved against a part of
	// the day) fails in the variant's world, which the variant's world is made never to do. Files
	// that nothing moved in are their originals, with no date of dateYear, in a world that only
	// gained records under keys no original names and moved its dates: Prove checks them too.
	for len(check) > 0 {
		fails, err := guard(withWorld(out, world, check))
		if err != nil {
			return nil, nil, failed(seed, err.Error())
		}
		check = check[:0]
		for _, pth := range sortedKeys(fails) {
			vs := tries[pth]
			if vs == nil {
				continue // a file of the same name at another level: checked as it is
			}
			if len(vs) == 1 {
				rep.Unchanged = append([]Unchanged{fails[pth]}, rep.Unchanged...)
				return nil, rep, errRevertedFails
			}
			if _, ok := why[pth]; !ok {
				why[pth] = fails[pth] // the check its variant failed first
			}
			tries[pth] = vs[1:]
			out[pth] = bytesOf(vs[1].text)
			if vs[1].kept && !slices.Contains(written, pth) {
				written = append(written, pth)
			} else if i := slices.Index(written, pth); i >= 0 && !vs[1].kept {
				written = append(written[:i], written[i+1:]...)
			}
			check = append(check, pth)
		}
		if len(check) > 0 && shift != 0 && f.todayPath != "" {
			sort.Strings(written)
			out[f.todayPath] = todayFile(today, f.today, written)
		}
	}

	used, days, mins := make([]bool, len(r.moves)), map[int]bool{}, map[int]bool{}
	for _, pth := range f.texts { // in path order
		fr := FileReport{Path: pth}
		if vs := tries[pth]; len(vs) > 0 {
			v := vs[0]
			fr.Unchanged = v.hits == nil
			fr.DatesKept = v.kept && v.hits != nil && timeMoves && !f.scenes[pth]
			fr.Moved = len(v.days) + len(v.times) + v.numbers
			if v.numbers > 0 {
				rep.Moved[KindNumber] += v.numbers
			}
			for i, hit := range v.hits {
				if hit && i < len(p.moves) {
					fr.Moved++
					used[i] = true
				}
			}
			for n := range v.days {
				days[n] = true
			}
			for n := range v.times {
				mins[n] = true
			}
			u, ok := why[pth]
			if !ok && (fr.DatesKept || fr.Unchanged) {
				u, ok = Unchanged{pth, "learned", "its dates or times are facts of the world: it fails a check with them moved in every variant the build tried"}, true
				if f.datesUnread[pth] || f.datesAlone[pth] {
					u.Why = "it writes a date a way not read (a day or a month alone, a range, a day and a month in digits, history asked of its today): moved, the text would no longer agree with itself"
				}
				if f.nearMisses[pth] {
					u.Check, u.Why = checkNearMiss, "it writes a near miss of a value (a typo its texts remark on) that the variants move otherwise"
				}
			}
			switch {
			case ok && fr.Unchanged:
				rep.Unchanged = append(rep.Unchanged, u)
			case ok && fr.DatesKept:
				rep.DatesKept = append(rep.DatesKept, u)
			}
		}
		rep.Files = append(rep.Files, fr)
	}
	for i, m := range p.moves {
		if used[i] && !m.alias {
			rep.Moved[m.Kind]++
		}
	}
	if len(days) > 0 {
		rep.Moved[KindDate] = len(days)
	}
	if len(mins) > 0 {
		rep.Moved[KindTime] = len(mins)
	}
	rep.Digest = digest(seed, shift, hours, p.moves, rep.Unchanged, out)
	return out, rep, nil
}

// versions is what build's files are served as: each file's versions (see version), tried in turn,
// and which files' first version with its dates moved keeps its times (held) and which have a
// version that moves them (moving, see pinTimes).
type versions struct {
	files, out   dataset.Files
	tries        map[string][]version
	held, moving map[string]bool
	why          map[string]Unchanged // why a file is served with its dates kept or as it is
	f            *found
	r            *replacer
	seed         uint64
	shift, hours int
	timeMoves    bool
	today        int // the data's today (a day number)
}

// add sets the versions of the file at pth, its times kept when keepTimes.
func (v *versions) add(pth string, keepTimes bool) {
	delete(v.tries, pth)
	delete(v.why, pth)
	v.out[pth] = v.files[pth]
	v.held[pth], v.moving[pth] = false, false
	s := text(v.files[pth])
	h, days, mins := make([]bool, len(v.r.moves)), map[int]bool{}, map[int]bool{}
	moved, numbers := v.r.replace(s, h), 0
	if !v.f.scenes[pth] {
		moved, numbers = moveFormulas(moved, v.seed, pth)
	}
	stay := v.timeMoves && v.f.datesStay[pth]
	near := v.f.nearMisses[pth] // a near miss the plan does not keep (see nearMisses): it stays as it is
	// head has its dates and times moved; loose its times moved too, though a part of the day
	// it names elsewhere may then not hold (see partsHold).
	var head, loose []version
	// A scene's dates and times are the level-3 tools' facts.
	if dated := moved; !v.f.scenes[pth] && !stay && !near {
		dated = shiftDates(moved, v.shift, days, v.today)
		v.held[pth] = v.hours != 0
		if !v.f.fixedTimes[pth] && !keepTimes {
			timed, ok := shiftTimes(dated, v.hours, mins)
			v.moving[pth] = ok && len(mins) > 0
			v.held[pth] = v.held[pth] && !(ok && len(mins) == 0) // read, but no time to move
			switch {
			case ok && partsHold(dated, partsNamed(dated), v.hours):
				dated, v.held[pth] = timed, false
			case ok:
				loose = []version{{timed, h, days, mins, numbers, false}}
				mins = map[int]bool{}
			default:
				clear(mins)
			}
		}
		if dated != moved {
			head = []version{{dated, h, days, mins, numbers, false}}
		}
	}
	var vs []version
	if moved != s && !near {
		vs = append(vs, version{moved, h, nil, nil, numbers, len(head)+len(loose) > 0 || stay})
	}
	if len(head)+len(loose)+len(vs) > 0 || stay || near {
		vs = append(vs, version{s, nil, nil, nil, 0, true})
		settled := !v.f.datesUnread[pth]
		if v.f.datesUnread[pth] || v.f.datesAlone[pth] {
			for _, w := range [2][]version{head, loose} {
				for i := range w {
					var ok bool
					w[i].text, ok = settleUnread(moved, w[i].text, v.shift, v.today)
					settled = settled && ok
				}
			}
		}
		if settled {
			// Its dates and times moved first; with its times moved against a part of the day
			// only once its times kept failed, which with no other value moved is the file as it
			// is (then not its last version: the guard's last resort is that one).
			n := len(vs) - 1 // the versions before the file as it is
			if moved == s {
				n++
				if len(loose) > 0 && len(head) == 0 {
					v.why[pth] = Unchanged{pth, checkPartOfDay, "its one value to move is a time, which moved would leave the part of the day a turn names"}
				}
			}
			vs = append(append(head, vs[:n]...), append(loose, vs[n:]...)...)
		} else {
			// It writes a date a way the mover does not read, or a day or a month alone that
			// names no one date: served with its dates kept, or as it is, before with them
			// moved and that one left stale (the last resort of a file the moved world needs).
			vs = append(append(vs, head...), loose...)
		}
		v.tries[pth] = vs
		v.out[pth] = bytesOf(vs[0].text)
	}
}

// checkNearMiss is the check a Report names for a file served unchanged for its near misses (see
// nearMisses).
const checkNearMiss = "near miss"

// checkPartOfDay is the check a Report names for a file served unchanged because its one value to
// move is a time that moved would leave the part of the day a turn names.
const checkPartOfDay = "part of the day"

// checkPinned is the check a Report names for a file served with its dates kept because it names a
// record whose date stays (see pinDates).
const checkPinned = "record kept"

// version is a version of a file a variant may serve: its text, the moves, the dates (day numbers)
// and the times (minutes of the day) moved in it, the numbers of its formulas moved (moveFormulas),
// and whether it is written from the data's today (its dates kept).
type version struct {
	text    string
	hits    []bool
	days    map[int]bool
	times   map[int]bool
	numbers int
	kept    bool
}

// failed is Make's error for seed.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func failed(seed uint64, why string) error {
	return errors.New("variant " + strconv.FormatUint(seed, 10) + ": " + why)
}

// todayFile is the text of a variant's tools.TodayDB: its today, and the files written from the
// data's today (from), served unchanged.
func todayFile(today, from string, written []string) []byte {
	b := []byte(`{"date": "` + today + `"`)
	if len(written) > 0 {
		b = append(b, `, "written": {`...)
		for i, pth := range written {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = value.AppendText(b, pth)
			b = append(b, `: "`+from+`"`...)
		}
		b = append(b, '}')
	}
	return append(b, "}\n"...)
}

// withWorld returns the files a guard checks: the variant's databases (at world) and the files at
// paths.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func withWorld(out dataset.Files, world, paths []string) dataset.Files {
	fs := dataset.Files{}
	for _, pth := range append(world, paths...) {
		fs[pth] = out[pth]
	}
	return fs
}

// discoveries keeps what was known of the last files a variant was made of: a process makes its
// variants of one dataset (the builtin data), so every seed after the first reads nothing again.
var discoveries struct {
	sync.Mutex
	files dataset.Files
	found *found
}

// learnedOnce returns what is known of files before a variant draws, once for files of the same
// bytes: what the build learned (builtinLearned) for the builtin data's files, else what read finds
// (nil when read is nil: Make's case, which the engine module carries without the reader).
func learnedOnce(files dataset.Files, read func(dataset.Files) *found) *found {
	discoveries.Lock()
	defer discoveries.Unlock()
	if discoveries.found == nil || !sameFiles(discoveries.files, files) {
		f := learned(builtinLearned, files)
		if f == nil && read != nil {
			f = read(files)
		}
		if f == nil {
			return nil
		}
		discoveries.files, discoveries.found = files, f
	}
	return discoveries.found
}

// sameFiles reports whether a and b hold the same paths with the same bytes.
func sameFiles(a, b dataset.Files) bool {
	if len(a) != len(b) {
		return false
	}
	for p, x := range a {
		y, ok := b[p]
		if !ok || len(x) != len(y) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			continue // the same bytes: a process's builtin files, asked about again
		}
		if !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}

// sortedKeys returns a map's keys in order.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// text is a file's bytes as a string, and bytesOf a string as a file's bytes, both without a copy:
// a dataset's bytes are never written once read (dataset.BuiltinFiles shares its own), nor are the
// texts made from them, and a variant handles most of a megabyte of them.
func text(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// bytesOf is text's converse (see text).
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
