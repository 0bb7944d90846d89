package variant

import (
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// Kind names what a moved value is; the Report counts moves by kind.
type Kind string

// The kinds of values that move.
const (
	// KindName is a part of a person's name (a first or a family name, a doctor's name), matched as
	// a capitalised word wherever it is written: "Giulia" in "Lunch with Giulia".
	KindName Kind = "name"
	// KindPerson is a person's full name as a gold call or the world writes it.
	KindPerson Kind = "person"
	// KindUsername is a username (the world's Account keys, username arguments).
	KindUsername Kind = "username"
	// KindPassword is a password.
	KindPassword Kind = "password"
	// KindToken is an account's token (the world's Account tokens, and tokens a user mistypes).
	KindToken Kind = "token"
	// KindEmail is an e-mail address built from a person's name.
	KindEmail Kind = "email"
	// KindPlace is a location, or a part of it between commas.
	KindPlace Kind = "place"
	// KindPlaceWord is a proper word of a location's name ("Karavalli" of "Karavalli restaurant").
	KindPlaceWord Kind = "place word"
	// KindDate is a date: every date of the year dateYear moves by the variant's shift (see
	// shiftDates).
	KindDate Kind = "date"
	// KindAmount is an amount: an account's balance, a reading a user gives to record (see
	// amounts.go).
	KindAmount Kind = "amount"
	// KindItemWord is a word that says what an item is about ("dentist" in "Dentist check-up"; see
	// items.go).
	KindItemWord Kind = "item word"
	// KindTime is a time of day: every time moves by the variant's hours (see shiftTimes).
	KindTime Kind = "time"
	// KindID is the id of a patient's appointment in the world (its copy's id, see worldCopies).
	KindID Kind = "appointment id"
	// KindNumber is a number a user gives a Calculator formula, counted once per file that moves it
	// (see moveFormulas).
	KindNumber Kind = "number"
)

// Kinds lists the kinds in the order reports give them.
var Kinds = []Kind{KindPerson, KindName, KindUsername, KindPassword, KindToken, KindEmail, KindPlace, KindPlaceWord, KindItemWord, KindID, KindAmount, KindNumber, KindDate, KindTime}

// What a value is, by the tool parameter it is an argument of (levels 1-2 only: the level-3
// catalog's tools answer from tables of their own, so its people and places are facts of the world).
// A parameter is named "Tool.param" when the name alone is ambiguous. Text parameters (an agenda
// item's content, a meeting's topic, an e-mail's subject) do not move as a whole, but the names and
// places written in them do; every other parameter is fixed vocabulary, whose words never move.
var paramKinds = kindTable(`username=username OpenBankAccount.account=username
	password=password new_password=password old_password=password token=token email=email receiver=email
	attendees=person patient_name=person OpenBankAccount.name=person doctor_name=doctor
	new_appointment_doctor=doctor location=place content=text meeting_topic=text subject=text
	health_data=amount`)

// kindTable reads a table of name=kind pairs, separated by spaces ("_" in a kind is a space).
func kindTable(s string) map[string]Kind {
	m := map[string]Kind{}
	for _, f := range strings.Fields(s) {
		name, k, _ := strings.Cut(f, "=")
		m[name] = Kind(strings.ReplaceAll(k, "_", " "))
	}
	return m
}

// Kinds that classify a value found but are not moved as themselves.
const (
	kindDoctor Kind = "doctor" // "Dr. Huang": its name parts move
	kindText   Kind = "text"   // free text: the names and places in it move
)

// paramKind returns what an argument of a levels 1-2 tool is ("" for fixed vocabulary).
func paramKind(tool, param string) Kind {
	if k, ok := paramKinds[tool+"."+param]; ok {
		return k
	}
	if param == "name" || param == "account" {
		return "" // a device's, a scene's name: only OpenBankAccount's (above) is a person's
	}
	return paramKinds[param]
}

// userFields are the world's databases about the user, and what each field is: the only databases a
// variant changes (it adds moved copies of their records, see worldCopies). "key" is the record's
// key. Every other database is a fact of the world (Wiki, Stock, Dictionary, SearchEngine,
// History, QuestionAnswering, ImageCaptioning, SpeechRecognition, Translate, Symptom, HealthData,
// Hotel, TimeSwitch, Scenes, lv3.*): byte-identical in every variant, and its words never move.
var userFields = func() map[string]map[string]Kind {
	m := map[string]map[string]Kind{}
	for _, db := range strings.Split(`Account key=username password=password token=token email=email
		|Bank key=username
		|Agenda username=username location=place content=text
		|Alarm username=username
		|Meeting username=username location=place attendees=person meeting_topic=text
		|Reminder username=username content=text
		|Appointments key=appointment_id patient_name=person doctor_name=doctor`, "|") {
		name, fields, _ := strings.Cut(strings.TrimSpace(db), " ")
		m[name] = kindTable(fields)
	}
	return m
}()

// jsonKeys are the member names of the data's files: never a value to move.
var jsonKeys = strings.Fields(`role text api_name param_dict result input output exception parallel free accept
	special line needs what any audit status note derived value rule scene utterance key_info calls about
	optional catalog answer Meta User AI API`)

// genericPlaceWords are the words of a place's name that say what kind of place it is, or join its
// words: they stay ("Room" of "Room 12B", "Road" of "14 Awolowo Road"). Lower-case words stay too.
var genericPlaceWords = wordSet(`room rooms hall road street avenue lane way drive square place plaza park parque
	garden gardens centre center community school primary secondary main library seminar conference meeting
	training lecture studio office cafe café grill restaurant trattoria bistro bar pub inn hotel lodge suites
	pavilion clinic dental hospital pharmacy laundry service services auto station lower upper west east
	north south new old the da de di del la le el via calle rua sala island video call zoom co and lab gym
	market tower building church museum gallery theatre theater cinema stadium airport port harbour
	harbor beach bridge hill floor canteen plus club house home shop store bank court`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// source is the data a variant is made from, parsed: its dialogue and scene files, its databases.
type source struct {
	files     dataset.Files
	dialogues []*dataset.Dialogue
	scenes    []*dataset.Scene
	// dialoguePaths are the dialogues' paths, in the order of dialogues.
	dialoguePaths []string
	// texts are the paths of the dialogue and scene files, in order; dbs maps a database's name to
	// its file's path, and dbNames are the databases' names in order.
	texts   []string
	dbs     map[string]string
	dbNames []string
	// scenePaths are the texts that are scenes.
	scenePaths map[string]bool
}

// parse reads files as dataset.Load finds them: dialogues of levels 1-2, level-3 scenes (ours, JSON)
// and the databases. A file that does not parse is left out (it is served as it is).
func parse(files dataset.Files) *source {
	src := &source{files: files, dbs: map[string]string{}, scenePaths: map[string]bool{}}
	for _, p := range sortedKeys(files) {
		switch what, dir, name := fileRole(p); what {
		case roleDialogue:
			d, errs := dataset.ParseDialogue(dir, p, files[p])
			if len(errs) == 0 && len(d.Turns) > 0 {
				src.dialogues = append(src.dialogues, d)
				src.dialoguePaths = append(src.dialoguePaths, p)
				src.texts = append(src.texts, p)
			}
		case roleScene:
			if sc, errs := dataset.ParseSceneJSON(p, files[p], false); sc != nil && len(errs) == 0 {
				src.scenes = append(src.scenes, sc)
				src.texts = append(src.texts, p)
				src.scenePaths[p] = true
			}
		case roleDatabase:
			src.dbs[name] = p
			src.dbNames = append(src.dbNames, name)
		}
	}
	sort.Strings(src.dbNames)
	return src
}

// A file's role in a dataset, as parse reads it (fileRole).
const (
	roleOther = iota
	roleDialogue
	roleScene
	roleDatabase
)

// fileRole says what the file at p is to parse: a level 1-2 dialogue (dir its level), a level-3
// scene, a database (name its name), or another file.
func fileRole(p string) (role int, dir, name string) {
	dir, base := path.Split(p)
	dir = path.Base(strings.TrimSuffix(dir, "/"))
	switch {
	case strings.HasSuffix(base, ".jsonl") && (dir == dataset.Level1 || dir == dataset.Level2):
		return roleDialogue, dir, ""
	case strings.HasSuffix(base, ".json") && dir == dataset.Level3:
		return roleScene, dir, ""
	case strings.HasSuffix(base, ".json") && dir == "init_database":
		return roleDatabase, dir, strings.TrimSuffix(base, ".json")
	}
	return roleOther, dir, ""
}

// found is what the data says about its values: the candidates of each kind, and the words that
// must not move.
type found struct {
	// texts, dbs and dbNames are the source's (see source): the files a variant moves values in.
	texts   []string
	dbs     map[string]string
	dbNames []string
	// today is the data's today, and todayPath the path of the database that states it (where a
	// variant writes it when the data has none); dayLo and dayHi are the span of the dates that may
	// move (day numbers, see tools.DayNumber; 0 for none).
	today     string
	todayPath string
	// scenes are the texts that are level-3 scenes.
	scenes       map[string]bool
	dayLo, dayHi int
	// hours are the hours shifts that keep the user databases' times within their days (see
	// hoursFor), and fixedTimes the dialogues whose times never move (see timesFixed): found by
	// learn only, so none for files the build did not learn.
	hours      []int
	fixedTimes map[string]bool
	// datesStay are the files whose dates and times stay in every variant: learned by trying (see
	// staying), so a variant checks no version of theirs that would fail.
	datesStay map[string]bool
	// datesUnread are the dialogues that write a date a way the mover does not read (see
	// unreadDate): tried with their dates kept first; datesAlone those that write a day or a month
	// alone, and no other: settled from the dates they name (settleUnread), else as datesUnread.
	datesUnread, datesAlone map[string]bool
	// nearMisses are the files that write a near miss of a value the plan does not keep the same
	// miss (see nearMisses): served unchanged. Found by learn only.
	nearMisses map[string]bool
	// values are the candidates by kind (persons, doctors, usernames, passwords, tokens, emails,
	// places); tokenArgs are the token arguments of gold calls (moved only as a mistyped world token).
	values    map[Kind]map[string]bool
	tokenArgs map[string]bool
	// accounts are the world's Account records: username → password, token, email.
	accounts map[string]account
	// appointments maps the world's appointment ids to their patients, and balances the world's bank
	// accounts to their balances (as the database writes them).
	appointments map[string]string
	balances     map[string]string
	// protected are the words (lower case) of fixed vocabulary: the tools' catalogs, the databases
	// that are facts of the world, level-3 calls, arguments of fixed parameters, JSON member names.
	// A name or a place with such a word does not move.
	protected map[string]bool
	// lowered are the words written in lower case in a User or AI text, a scene's request or key
	// facts: a common word, not only a name ("min", "bright"). A name part that is one does not move.
	lowered map[string]bool
	// words are the pool entries (lower case) that are words of the data, and known every value
	// found (lower case): a new value is never one of them.
	words map[string]bool
	known map[string]bool
	// open are the pools' entries that are neither words nor known, by the pool's first entry (see
	// openPool).
	open map[*string]openPool
}

type account struct {
	password, token, email string
	_                      noCompare
}

// discover finds the movable values of src (see the package doc): from the world's user databases
// and the gold calls' arguments, classified by the field or parameter they come from.
func discover(src *source) *found {
	f := &found{texts: src.texts, dbs: src.dbs, dbNames: src.dbNames, scenes: src.scenePaths, values: map[Kind]map[string]bool{}, tokenArgs: map[string]bool{}, accounts: map[string]account{},
		appointments: map[string]string{}, balances: map[string]string{}, protected: map[string]bool{}, lowered: map[string]bool{}, words: map[string]bool{},
		known: map[string]bool{}}
	for _, k := range []Kind{KindPerson, kindDoctor, KindUsername, KindPassword, KindToken, KindEmail, KindPlace, KindAmount, KindItemWord} {
		f.values[k] = map[string]bool{}
	}
	for _, b := range src.files {
		poolHits(b, f.words)
	}
	protect := func(s string) { eachWord(s, func(w string) { f.protected[lowerASCII(w)] = true }) }
	for _, k := range jsonKeys {
		protect(k)
	}
	for _, cat := range []*tools.Catalog{tools.APIs, tools.LV3} {
		for _, t := range cat.Tools() {
			protect(t.Name + " " + t.Description)
			for _, p := range t.Params {
				protect(p.Name + " " + p.Description)
			}
			for _, o := range t.Outputs {
				protect(o.Name + " " + o.Description)
			}
		}
	}
	for _, name := range src.dbNames {
		text := src.files[src.dbs[name]]
		fields, user := userFields[name]
		if !user {
			protect(string(text))
			continue
		}
		v, err := value.Decode(text)
		db, ok := v.(*value.Map)
		if err != nil || !ok {
			continue
		}
		db.Each(func(key string, rv any) bool {
			if k := fields["key"]; k != "" && k != KindID {
				f.add(k, key)
			}
			rec, ok := rv.(*value.Map)
			if !ok {
				return true
			}
			rec.Each(func(field string, fv any) bool {
				k, known := fields[field]
				if !known {
					protect(value.Str(fv)) // a fact about the user that does not move: a bank's city
					return true
				}
				f.addValue(k, fv)
				return true
			})
			f.known[key] = true
			switch name {
			case "Account":
				f.accounts[key] = account{password: rec.String("password"), token: rec.String("token"), email: rec.String("email")}
			case "Appointments":
				f.appointments[key] = rec.String("patient_name")
			case "Bank":
				if b, ok := rec.Get("balance"); ok && amountText(value.Str(b)) {
					f.balances[key] = value.Str(b)
				}
			}
			return true
		})
	}
	var texts []string
	for _, d := range src.dialogues {
		for _, t := range d.Turns {
			if t.Role != dataset.API {
				texts = append(texts, t.Text)
				continue
			}
			args := append([]*value.Map{t.Params}, t.Accept...)
			for _, a := range args {
				a.Each(func(param string, v any) bool {
					k := paramKind(t.Tool, param)
					switch k {
					case "":
						protect(value.Str(v))
					case KindToken:
						if s, ok := v.(string); ok {
							f.tokenArgs[s] = true
						}
					case KindAmount:
						f.addAmounts(v)
					default:
						f.addValue(k, v)
					}
					return true
				})
			}
		}
	}
	for _, sc := range src.scenes {
		texts = append(texts, sc.Utterance)
		texts = append(texts, sc.KeyInfo...)
		for _, c := range sc.Calls {
			// Level-3 tools answer from tables of their own: the people, accounts and places in
			// their results and in the arguments that name them (a user_name, a member_name) are
			// facts of the world. Only the people and places a user gives may move.
			c.Params.Each(func(param string, v any) bool {
				if k := paramKind(c.Tool, param); k != KindPerson && k != KindPlace && k != kindText {
					protect(value.Str(v))
				}
				return true
			})
			if c.Result != nil {
				out, _ := c.Result.Get("output")
				protect(value.Str(out))
			}
		}
	}
	f.identityNames(texts)
	f.dropValueWords()
	f.lowerWords(texts)
	f.keepOwnAmounts(src)
	f.dates(src)
	f.open = f.openPools()
	return f
}

// dates finds the data's today (its tools.TodayDB, or tools.Today) and where that database is or
// goes, and the span of the dates of dateYear that the dialogues, the scenes and the user databases
// hold (see pickShift).
func (f *found) dates(src *source) {
	f.today, f.todayPath = tools.Today, src.dbs[tools.TodayDB]
	if f.todayPath != "" {
		if v, err := value.Decode(src.files[f.todayPath]); err == nil {
			if m, ok := v.(*value.Map); ok && tools.DayNumber(m.String("date")) != 0 {
				f.today = m.String("date")
			}
		}
	} else if len(src.dbNames) > 0 {
		f.todayPath = path.Join(path.Dir(src.dbs[src.dbNames[0]]), tools.TodayDB+".json")
	}
	t := tools.DayNumber(f.today)
	f.dayLo, f.dayHi = t, t
	for _, name := range src.dbNames {
		if userFields[name] != nil {
			f.dayLo, f.dayHi = dateSpan(string(src.files[src.dbs[name]]), f.dayLo, f.dayHi, 0, 1<<30)
		}
	}
	for _, p := range f.texts {
		if !f.scenes[p] {
			f.dayLo, f.dayHi = dateSpan(string(src.files[p]), f.dayLo, f.dayHi, t-nearToday, t+nearToday)
		}
	}
}

// nearToday is how many days from today a dialogue's date may be to bound the shift (see
// pickShift): farther dates are mostly facts (a stock's price, a day in history), whose dialogues
// are served unchanged; one the shift would take out of dateYear stays (see shiftDates), and its
// file is then served unchanged too if it no longer proves.
const nearToday = 70

// add records a candidate value of a kind (texts only; "" is no value), and an item's text's item
// words (see items.go).
func (f *found) add(k Kind, s string) {
	if k == kindText {
		f.addItemWords(s)
	}
	if s = strings.TrimSpace(s); s != "" && f.values[k] != nil {
		f.values[k][s] = true
		f.known[lowerASCII(s)] = true
	}
}

// addValue records a field's or an argument's value: a text, or a list of texts (attendees).
func (f *found) addValue(k Kind, v any) {
	switch x := v.(type) {
	case string:
		f.add(k, x)
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				f.add(k, s)
			}
		}
	}
}

// poolWords are the pools' entries in lower case, each with its pool's place in pools and then
// itemGroups counted from 1 (givenPool reads a given name's gender in it), the shortest and longest,
// and poolHeads their first two letters (lower case), a cheap test before the set's.
var poolWords, poolMin, poolMax = func() (map[string]int, int, int) {
	m := map[string]int{}
	lo, hi := 1<<30, 0
	for i, pool := range append(pools[:], itemGroups...) {
		for _, w := range pool {
			m[lowerASCII(w)] = i + 1
			lo, hi = min(lo, len(w)), max(hi, len(w))
			poolHeads[int(lowerByte(w[0])-'a')*26+int(lowerByte(w[1])-'a')] = true
		}
	}
	return m, lo, hi
}()

var poolHeads [26 * 26]bool

// poolHead reports whether a pool entry starts with the letters a, b (in any case).
func poolHead(a, b byte) bool {
	a, b = lowerByte(a), lowerByte(b)
	return a >= 'a' && a <= 'z' && b >= 'a' && b <= 'z' && poolHeads[int(a-'a')*26+int(b-'a')]
}

// poolHits adds to set the pool entries that are words of text (in any case): one pass, no
// allocation but for a hit.
func poolHits(text []byte, set map[string]bool) {
	var buf [64]byte
	for i := 0; i < len(text); {
		if !isLetterByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isLetterByte(text[j]) {
			j++
		}
		if n := j - i; n >= poolMin && n <= poolMax && poolHead(text[i], text[i+1]) {
			for k := 0; k < n; k++ {
				buf[k] = lowerByte(text[i+k])
			}
			if poolWords[string(buf[:n])] != 0 {
				set[string(buf[:n])] = true
			}
		}
		i = j
	}
}

// isWordByte reports whether c is part of a word: an ASCII letter or digit, '_', or a byte of a
// multi-byte UTF-8 letter.
func isWordByte(c byte) bool { return wordBytes[c] }

// wordBytes marks the bytes isWordByte reports: a table, as every byte of every text a variant moves
// is looked up.
var wordBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
	}
	return t
}()

// isLetterByte reports whether c is an ASCII letter or a byte of a multi-byte UTF-8 character.
func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 }

// eachWord calls f with every run of letters of s.
func eachWord(s string, f func(string)) {
	for i := 0; i < len(s); {
		if !isLetterByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isLetterByte(s[j]) {
			j++
		}
		f(s[i:j])
		i = j
	}
}

// identityNames finds the people that usernames and e-mail addresses name: a local part of a first
// and a family name ("sven_holm", "Jan.Kowalski") is a person, and one of a first name and an
// initial ("nadia_k") a person of that one name, each part written as a text of the data writes it
// ("Léa" for "lea_martin"), else capitalised. They move as other people do (plan.names), so the
// username, the address and the texts that greet the person move together; a part that is also
// fixed vocabulary or a common word stays (plan.safePart), and the username with it.
func (f *found) identityNames(texts []string) {
	written := map[string]string{} // folded → the first capitalised form a text writes
	for _, s := range texts {
		eachWord(s, func(w string) {
			if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) {
				if k := foldAccents(w); written[k] == "" {
					written[k] = w
				}
			}
		})
	}
	// form is how the data writes a part: a text's form when it is a name's (capitalised, the rest
	// in lower case: not "QA"), else "" when a text writes it otherwise, else capitalised.
	form := func(run string) string {
		w := written[foldAccents(run)]
		if w == "" {
			return strings.ToUpper(run[:1]) + lowerASCII(run[1:])
		}
		_, size := utf8.DecodeRuneInString(w)
		if rest := w[size:]; strings.ToLower(rest) != rest {
			return ""
		}
		return w
	}
	// glued are the people's first two name parts written as one run ("analucia" of Ana Lucía
	// Torres): a username of them and an initial ("analucia_t") names that person, not one of a name
	// of its own (plan.rebuild moves it from the two parts).
	glued := map[string]bool{}
	for full := range f.values[KindPerson] {
		if ps := strings.Fields(full); len(ps) > 2 {
			glued[lowerASCII(foldAccents(ps[0]+ps[1]))] = true
		}
	}
	locals := sorted(f.values[KindUsername])
	for _, e := range sorted(f.values[KindEmail]) {
		if local, _, ok := strings.Cut(e, "@"); ok {
			locals = append(locals, local)
		}
	}
	for _, u := range locals {
		runs := letterRuns(u)
		if len(runs) != 2 || len(runs[0]) < 2 {
			continue
		}
		first := form(runs[0])
		switch last := form(runs[1]); {
		case first == "" || glued[lowerASCII(runs[0])]:
		case len(runs[1]) == 1:
			f.values[KindPerson][first] = true // a person named by one part
		case last != "":
			f.values[KindPerson][first+" "+last] = true
		}
	}
}

// letterRuns splits a username or an address's local part into its runs of ASCII letters, each
// all lower case or capitalised, between separators and digits; nil when it holds anything else (a
// CamelCase run, a letter outside ASCII).
func letterRuns(s string) []string {
	var runs []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '.' || c == '_' || c == '-' || c >= '0' && c <= '9':
			i++
			continue
		case !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
			return nil
		}
		j := i + 1
		for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
			j++
		}
		if j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 0x80) {
			return nil
		}
		runs = append(runs, s[i:j])
		i = j
	}
	return runs
}

// lowerWords finds the words the texts write in lower case that are parts of the candidate names
// (people's, CamelCase usernames') or words of places, outside e-mail addresses and links (whose
// parts are lower case whatever they are) and outside a lower-case full name ("kwame mensah"): such
// a word is also a common word ("bill", "may", "passport" of "Osaka Passport Center"), and does not
// move.
func (f *found) lowerWords(texts []string) {
	full := map[string]bool{}
	cand := map[string]bool{}
	addName := func(parts []string) {
		for _, w := range parts {
			cand[lowerASCII(w)] = true
		}
		for i := 0; i+1 < len(parts); i++ {
			full[lowerASCII(parts[i])+" "+lowerASCII(parts[i+1])] = true
		}
	}
	for p := range f.values[KindPerson] {
		addName(strings.Fields(p))
	}
	for u := range f.values[KindUsername] {
		addName(camelHumps(u))
	}
	for d := range f.values[kindDoctor] {
		addName(strings.Fields(strings.TrimPrefix(d, "Dr. ")))
	}
	for pl := range f.values[KindPlace] {
		for _, w := range strings.Fields(strings.ReplaceAll(pl, ",", " ")) {
			cand[lowerASCII(w)] = true // even written as the whole place: a place is seldom written so
		}
	}
	var words []string // one text's words, its room used again for the next
	for _, s := range texts {
		words = words[:0]
		for _, tok := range strings.Fields(s) {
			if strings.ContainsAny(tok, "@/_") {
				words = append(words, "")
				continue
			}
			eachWord(tok, func(w string) { words = append(words, w) })
		}
		for i, w := range words {
			if w == "" || w != lowerASCII(w) || !cand[w] {
				continue
			}
			if i > 0 && full[lowerASCII(words[i-1])+" "+w] || i+1 < len(words) && full[w+" "+lowerASCII(words[i+1])] {
				continue
			}
			f.lowered[w] = true
		}
	}
}

// lowerASCII lowers the ASCII letters of s.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// foldAccents writes a name part as a username or an e-mail address writes it: ASCII lower case,
// accents dropped ("Tomás" → "tomas").
func foldAccents(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		if r < 0x80 {
			b.WriteRune(r)
			continue
		}
		if a, ok := accents[r]; ok {
			b.WriteByte(a)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// accents maps the accented Latin letters to their base letters.
var accents = func() map[rune]byte {
	m := map[rune]byte{}
	for _, list := range strings.Fields("aáàâäãåÁÀÂÄÃÅ cçÇ eéèêëÉÈÊË iíìîïÍÌÎÏ nñÑ oóòôöõøÓÒÔÖÕØ uúùûüÚÙÛÜ yýÿÝ sšŠ zžŽ") {
		for _, r := range list[1:] {
			m[r] = list[0]
		}
	}
	return m
}()
