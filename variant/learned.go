package variant

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/internal/lz"
)

//go:generate go run ./internal/learn ../dataset/builtin builtin.learned

// builtinLearned is what Learn finds in the builtin data, written by `go generate`: a variant of the
// builtin data starts from it instead of reading the whole data (which was most of a first
// variant's time under wazero, and code the engine module no longer carries). A test fails when it
// is stale.
//
//go:embed builtin.learned
var builtinLearned []byte

// learnedFound is found as Learn writes it: sets as sorted lists, each written as one text (see
// joined), and the files it was learned from named by their count, their bytes and a digest of
// their paths and sizes (see filesKey).
type learnedFound struct {
	Key string `json:"key"`
	// Left are the dialogue and scene files that parse left out (they do not parse): the others,
	// and the databases, are found again from the paths alone (fileRole).
	Left         string            `json:"left"`
	Today        string            `json:"today"`
	TodayPath    string            `json:"todayPath"`
	DayLo        int               `json:"dayLo"`
	DayHi        int               `json:"dayHi"`
	Hours        []int             `json:"hours"`
	FixedTimes   string            `json:"fixedTimes"`
	DatesStay    string            `json:"datesStay"`
	DatesUnread  string            `json:"datesUnread"`
	DatesAlone   string            `json:"datesAlone"`
	Values       map[Kind]string   `json:"values"`
	TokenArgs    string            `json:"tokenArgs"`
	Accounts     map[string]string `json:"accounts"`
	Appointments map[string]string `json:"appointments"`
	Balances     map[string]string `json:"balances"`
	Protected    string            `json:"protected"`
	Lowered      string            `json:"lowered"`
	Words        string            `json:"words"`
	Known        string            `json:"known"`
	NearMisses   string            `json:"nearMisses"`
}

// joined writes a list of texts as one, its members one a line: encoding/json reads a few long
// texts fast, where reading thousands of short ones ran its decoder long enough for a browser to
// compile it again in its optimising tier, on the cores a tab's first variant needs. A member that
// holds a line break, or is empty, cannot be so written (Learn's values are words, names and paths):
// joined names it in bad, quoted.
func joined(list []string, bad *string) string {
	for _, s := range list {
		if s == "" || strings.Contains(s, "\n") {
			*bad = strconv.Quote(s)
		}
	}
	return strings.Join(list, "\n")
}

// setOf returns the members of a list that joined wrote as a set. It is not inlined: a call at
// each of learned's uses is smaller in the engine module than a copy.
//
//go:noinline
func setOf(s string) map[string]bool {
	if s == "" {
		return map[string]bool{}
	}
	return set(strings.Split(s, "\n"))
}

// Learn returns what Make needs to know of files before it draws (the values that may move, the
// words that must not, the dates' span, the hours the times may move by, the files whose dates or
// times stay), as the bytes a build keeps (JSON, compressed with internal/lz): `go generate` writes
// the builtin data's, which Make then uses for files of the same paths and sizes. Of the fixed
// vocabulary it keeps only the words a moving value holds, the only ones Make asks about.
func Learn(files dataset.Files) ([]byte, error) {
	f := learn(parse(files))
	var bad string // a member joined cannot write, quoted
	var left, protected, lowered []string
	kept := set(f.texts)
	for _, p := range sortedKeys(files) {
		if r, _, _ := fileRole(p); (r == roleDialogue || r == roleScene) && !kept[p] {
			left = append(left, p)
		}
	}
	values := map[Kind]string{}
	asked := map[string]bool{} // the words safePart may be asked about
	for k, set := range f.values {
		values[k] = joined(sorted(set), &bad)
		for v := range set {
			for _, w := range strings.Fields(strings.ReplaceAll(v, ",", " ")) {
				asked[lowerASCII(w)] = true
			}
			for _, w := range camelHumps(v) {
				asked[lowerASCII(w)] = true
			}
		}
	}
	for w := range f.protected {
		if asked[w] {
			protected = append(protected, w)
		}
	}
	for w := range f.lowered {
		if asked[w] {
			lowered = append(lowered, w)
		}
	}
	sort.Strings(protected)
	sort.Strings(lowered)
	accounts := map[string]string{}
	for u, a := range f.accounts {
		accounts[u] = a.password + "\n" + a.token + "\n" + a.email
		if strings.Count(accounts[u], "\n") != 2 {
			bad = strconv.Quote(accounts[u]) // a member of its own holds a line break
		}
	}
	stay := staying(files, f)
	for p := range f.datesUnread {
		delete(stay, p) // tried with its dates kept first anyway, and moved where the world needs it
	}
	for p := range f.datesAlone {
		delete(stay, p)
	}
	l := learnedFound{Key: filesKey(files), Left: joined(left, &bad), Today: f.today, TodayPath: f.todayPath, DayLo: f.dayLo, DayHi: f.dayHi,
		Hours: f.hours, FixedTimes: joined(sortedKeys(f.fixedTimes), &bad), DatesStay: joined(sortedKeys(stay), &bad),
		DatesUnread: joined(sortedKeys(f.datesUnread), &bad), DatesAlone: joined(sortedKeys(f.datesAlone), &bad),
		NearMisses: joined(sortedKeys(f.nearMisses), &bad), Values: values,
		TokenArgs: joined(sorted(f.tokenArgs), &bad), Accounts: accounts, Appointments: f.appointments, Balances: f.balances,
		Protected: joined(protected, &bad), Lowered: joined(lowered, &bad), Words: joined(sorted(f.words), &bad), Known: joined(sorted(f.known), &bad)}
	if bad != "" {
		return nil, fmt.Errorf("variant: %s cannot be learned: a learned text is not empty and holds no line break", bad)
	}
	b, err := json.Marshal(l)
	return lz.Compress(b), err // JSON is half the size compressed: every byte is in the engine module
}

// maxLearned bounds what learned decompresses.
const maxLearned = 1 << 20

// learned returns what Learn wrote in b as found, or nil when b does not parse or was learned from
// files other than these (by filesKey).
func learned(b []byte, files dataset.Files) *found {
	var l learnedFound
	if raw, err := lz.Decompress(b, maxLearned); err != nil || json.Unmarshal(raw, &l) != nil || l.Key != filesKey(files) {
		return nil
	}
	f := &found{dbs: map[string]string{}, scenes: map[string]bool{}, today: l.Today, todayPath: l.TodayPath, dayLo: l.DayLo, dayHi: l.DayHi,
		hours: l.Hours, fixedTimes: setOf(l.FixedTimes), datesStay: setOf(l.DatesStay), datesUnread: setOf(l.DatesUnread), datesAlone: setOf(l.DatesAlone), nearMisses: setOf(l.NearMisses),
		values: map[Kind]map[string]bool{}, tokenArgs: setOf(l.TokenArgs), accounts: map[string]account{}, appointments: l.Appointments, balances: l.Balances,
		protected: setOf(l.Protected), lowered: setOf(l.Lowered), words: setOf(l.Words), known: setOf(l.Known)}
	left := setOf(l.Left)
	for _, p := range sortedKeys(files) {
		switch r, _, name := fileRole(p); {
		case r == roleDatabase:
			f.dbs[name] = p
			f.dbNames = append(f.dbNames, name)
		case (r == roleDialogue || r == roleScene) && !left[p]:
			f.texts = append(f.texts, p)
			if r == roleScene {
				f.scenes[p] = true
			}
		}
	}
	sort.Strings(f.dbNames)
	for k, vs := range l.Values {
		f.values[k] = setOf(vs)
	}
	for u, text := range l.Accounts {
		a := strings.Split(text, "\n")
		if len(a) != 3 {
			return nil
		}
		f.accounts[u] = account{password: a[0], token: a[1], email: a[2]}
	}
	if f.appointments == nil {
		f.appointments = map[string]string{}
	}
	if f.balances == nil {
		f.balances = map[string]string{}
	}
	f.open = f.openPools()
	return f
}

// stayingSeeds are the variants Learn tries to find the files whose dates stay.
var stayingSeeds = []uint64{1, 2, 3, 4, 5}

// staying returns the files whose dates and times stay in every variant of stayingSeeds that moves
// them: their version with dates and times moved fails a check (a question about a fact of the world
// on a date, a record of a fact at a time), so a variant starts them at the next (see build). The
// guard still checks every version served: a file that would prove with its dates moved is served
// with them kept, never wrong.
func staying(files dataset.Files, f *found) map[string]bool {
	var stay map[string]bool
	for _, seed := range stayingSeeds {
		shift, hours := pickShift(seed, f.dayLo, f.dayHi), pickHours(seed, f.hours)
		_, rep, err := build(files, seed, f, shift, hours)
		if err != nil || shift == 0 && hours == 0 {
			continue
		}
		failed := map[string]bool{}
		for _, u := range append(rep.DatesKept, rep.Unchanged...) {
			if u.Check != checkNearMiss && u.Check != checkPinned && u.Check != checkPartOfDay { // kept for other than its dates
				failed[u.Path] = true
			}
		}
		if stay == nil {
			stay = failed
			continue
		}
		for p := range stay {
			if !failed[p] {
				delete(stay, p)
			}
		}
	}
	return stay
}

// set returns the members of list as a set.
func set(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// filesKey names a dataset's files by their number, their bytes and a digest (FNV-1a) of their paths
// and sizes: cheap enough to compute for every first variant, and a build's data edited without
// `go generate` fails the test that holds builtin.learned fresh.
func filesKey(files dataset.Files) string {
	paths, total := files.Paths()
	h := fnv.New64a()
	for _, p := range paths {
		h.Write([]byte(p + "\x00" + strconv.Itoa(len(files[p])) + "\x00"))
	}
	return strconv.Itoa(len(files)) + " files, " + strconv.Itoa(total) + " bytes, " + strconv.FormatUint(h.Sum64(), 16)
}
