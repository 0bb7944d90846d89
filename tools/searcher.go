package tools

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/value"
)

// This file holds ToolSearcher, the tool that finds a catalog tool by keywords, for both catalogs.
//
// The original embeds the keywords and every tool's "desc_for_search" with a sentence-embedding model
// and returns the most similar tool. A playground must stay offline and deterministic, so ours ranks
// the catalog in-process instead: a weighted keyword match with inverse document frequency over, per
// tool, the words of its name (split at capitals), its parameter names, a hand-written table of the
// words users type for it (tsKeywords) and, only as a fallback for words that match nothing
// else, our descriptions. The winner and the output shape follow the original.

// tsCatalog returns the catalog a ToolSearcher searches. It is set in init(): the catalogs are
// package variables built from the tools themselves, so reading them from a tool's behaviour
// directly would be an initialization cycle.
var tsCatalog func(lv3 bool) *Catalog

func init() {
	tsCatalog = func(lv3 bool) *Catalog {
		if lv3 {
			return LV3
		}
		return APIs
	}
}

// tsNoneMatch is the original's exception when no tool is similar at all: it then pops a key from
// None.
const tsNoneMatch = "'NoneType' object has no attribute 'pop'"

// toolSearcher is ToolSearcher of the apis catalog (lv3 false) or of the lv3_apis catalog (lv3 true).
func toolSearcher(lv3 bool) *Tool {
	var (
		once sync.Once
		ix   *tsIndex
	)
	index := func() *tsIndex {
		once.Do(func() { ix = newTSIndex(tsSearchable(lv3)) })
		return ix
	}
	return &Tool{
		Name:        "ToolSearcher",
		Description: "Find the tool of the catalog that best fits some keywords and show how to call it.",
		Params: []Param{
			{Name: "keywords", Type: "str", Required: true, Description: "Words describing what the tool should do, e.g. \"add alarm\"."},
		},
		Outputs: []Field{{Name: "best_matchs", Type: "Union[List[dict], dict]",
			Description: "The best tool's entry; for a tool that needs a token, the GetUserToken entry first, then it."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			kw, err := tsKeywordsArg(in)
			if err != nil {
				return nil, err
			}
			best := index().best(kw)
			if best == nil {
				return nil, fail(tsNoneMatch)
			}
			entry := best.Entry()
			if lv3 && best.TakesToken() {
				// The lv3 original has no remembered GetUserToken entry; unreachable, as no lv3
				// tool takes a token.
				return nil, fail("'ToolSearcher' object has no attribute 'get_user_token_api'")
			}
			if best.TakesToken() {
				if gut, ok := tsCatalog(false).Lookup("GetUserToken"); ok {
					g := gut.Entry()
					g.Set("desc_for_search", tsDescForSearch(gut))
					return []any{g, entry}, nil
				}
			}
			return entry, nil
		},
		check: all(tsSameNames, sameException),
	}
}

// tsSearchable returns the tools a ToolSearcher searches: every tool of its catalog but itself, in
// catalog order.
func tsSearchable(lv3 bool) []*Tool {
	var list []*Tool
	for _, t := range tsCatalog(lv3).Tools() {
		if t.Name != "ToolSearcher" {
			list = append(list, t)
		}
	}
	return list
}

// tsKeywordsArg reads the keywords argument. The original hands it to its embedding model, which
// takes a text; native calls may send other JSON values: numbers are read as their text, a list of
// texts as the texts joined by spaces, anything else fails with a clear message.
func tsKeywordsArg(in *value.Map) (string, error) {
	v, _ := in.Get("keywords")
	switch k := v.(type) {
	case string:
		return k, nil
	case int64, float64:
		return value.Str(k), nil
	case []any:
		parts := make([]string, 0, len(k))
		for _, e := range k {
			s, ok := e.(string)
			if !ok {
				return "", fail("The keywords must be a text.")
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " "), nil
	}
	return "", fail("The keywords must be a text.")
}

// tsSameNames is ToolSearcher's correctness check on outputs. The original compares whole outputs,
// but its results come from an embedding model and older tool descriptions that cannot be reproduced
// offline, and our entries carry our own descriptions; so a ToolSearcher call is judged by the tool
// NAMES it returns: both outputs must name the same tools in the same order (a single entry or a list
// of entries, each compared by its "name"). Outputs of another shape (null, on an exception) are
// compared as they are.
func tsSameNames(r, g *value.Map) (bool, error) {
	a, err := get(r, "output")
	if err != nil {
		return false, err
	}
	b, err := get(g, "output")
	if err != nil {
		return false, err
	}
	na, okA, err := tsEntryNames(a)
	if err != nil {
		return false, err
	}
	nb, okB, err := tsEntryNames(b)
	if err != nil {
		return false, err
	}
	if !okA || !okB {
		return value.Equal(a, b), nil
	}
	return value.Equal(na, nb), nil
}

// tsEntryNames returns the tool names a ToolSearcher output holds: one for an entry object, one per
// element for a list of entry objects. ok is false for another shape; an entry without a name is a
// missing-key error.
func tsEntryNames(out any) ([]any, bool, error) {
	switch o := out.(type) {
	case *value.Map:
		n, err := get(o, "name")
		if err != nil {
			return nil, false, err
		}
		return []any{n}, true, nil
	case []any:
		names := make([]any, 0, len(o))
		for _, e := range o {
			m, ok := e.(*value.Map)
			if !ok {
				return nil, false, nil
			}
			n, err := get(m, "name")
			if err != nil {
				return nil, false, err
			}
			names = append(names, n)
		}
		return names, true, nil
	}
	return nil, false, nil
}

// Entry returns the catalog entry object of a tool, as ToolSearcher outputs it and prompts show it:
// {name, description, input_parameters, output_parameters}, where input_parameters maps each
// parameter name to {"type", "description"} and output_parameters each output field likewise, in
// declaration order. Each call returns a new object the caller may change.
func (t *Tool) Entry() *value.Map {
	texts := t.entryTexts
	if texts == nil { // a tool outside a catalog (tests)
		texts = t.entryValues()
	}
	typed := func(typ, desc any) *value.Map {
		m := value.NewMap(2)
		m.Set("type", typ)
		m.Set("description", desc)
		return m
	}
	in := value.NewMap(len(t.Params))
	for i, p := range t.Params {
		in.Set(p.Name, typed(texts[2+2*i], texts[3+2*i]))
	}
	out := value.NewMap(len(t.Outputs))
	for i, f := range t.Outputs {
		k := 2 + 2*len(t.Params) + 2*i
		out.Set(f.Name, typed(texts[k], texts[k+1]))
	}
	e := value.NewMap(4)
	e.Set("name", texts[0])
	e.Set("description", texts[1])
	e.Set("input_parameters", in)
	e.Set("output_parameters", out)
	return e
}

// entryValues returns the texts of the tool's Entry as values, in order: its name and description,
// then each parameter's type and description, then each output's. A catalog keeps them, so an entry
// (ToolSearcher answers one or two a call) costs no allocation for each text put in an interface.
func (t *Tool) entryValues() []any {
	texts := []any{t.Name, t.Description}
	for _, p := range t.Params {
		texts = append(texts, p.Type, p.Description)
	}
	for _, f := range t.Outputs {
		texts = append(texts, f.Type, f.Description)
	}
	return texts
}

// tsDescForSearch is the text the original embeds for a tool: its name with a space before every
// capital, lowercased and stripped, immediately followed by its description.
func tsDescForSearch(t *Tool) string {
	var b strings.Builder
	for _, r := range t.Name {
		if unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(strings.ToLower(b.String())) + t.Description
}

// Weights of the fields of a tool's search document. A query word counts with the largest weight
// of a field it matches, times its inverse document frequency.
const (
	tsWeightName   = 2.5 // a word of the tool's name
	tsWeightTopic  = 2.0 // a topic word of our keyword table
	tsWeightMinor  = 1.9 // a topic word of a tool that should not win a topic-only query over its group's main tool
	tsWeightVerb   = 1.5 // an action word of our keyword table
	tsWeightParam  = 1.0 // a word of a parameter name
	tsWeightDesc   = 0.5 // a word of our descriptions (used only when no stronger field matches anywhere)
	tsPrefixFactor = 0.5 // share of the weight for a word that only shares a prefix with a known word
)

// tsPosting is one tool holding a stem, with the stem's weight in it.
type tsPosting struct {
	tool   int
	weight float64
}

// tsStemPostings is one stem of the strong fields with the tools that hold it, for the search by
// prefix.
type tsStemPostings struct {
	stem     string
	postings []tsPosting
}

// tsIndex ranks a fixed list of tools for keyword queries. It is built once and only read: the
// postings of a stem (the tools holding it, in tool order) make a query cost the tools that match,
// not one map lookup per tool and stem (string hashing is slow under WebAssembly).
type tsIndex struct {
	tools []*Tool
	// strong and weak are the postings of each stem of the strong fields and of the descriptions;
	// a stem's document frequency is the length of its postings.
	strong, weak map[string][]tsPosting
	// stems are the strong stems with their postings, for the prefix tier.
	stems []tsStemPostings
}

// newTSIndex builds the index of tools, which keep their order (the order of ties).
func newTSIndex(tools []*Tool) *tsIndex {
	ix := &tsIndex{tools: tools, strong: map[string][]tsPosting{}, weak: map[string][]tsPosting{}}
	var terms []string // the stems of one text, reused
	for i, t := range tools {
		add := func(m map[string][]tsPosting, text string, w float64, stop bool) {
			terms = tsTerms(terms[:0], text, stop)
			for _, s := range terms {
				tsPut(m, i, s, w)
			}
		}
		add(ix.strong, t.Name, tsWeightName, false)
		tsPut(ix.strong, i, tsStem(strings.ToLower(t.Name)), tsWeightName)
		if k, ok := tsKeywords[t.Name]; ok {
			topic := tsWeightTopic
			if tsMinor[t.Name] {
				topic = tsWeightMinor
			}
			add(ix.strong, k.topic, topic, false)
			add(ix.strong, k.verbs, tsWeightVerb, false)
		}
		for _, p := range t.Params {
			add(ix.strong, p.Name, tsWeightParam, false)
		}
		add(ix.weak, t.Description, tsWeightDesc, true)
		for _, p := range t.Params {
			add(ix.weak, p.Description, tsWeightDesc, true)
		}
		for _, f := range t.Outputs {
			add(ix.weak, f.Name+" "+f.Description, tsWeightDesc, true)
		}
	}
	ix.stems = make([]tsStemPostings, 0, len(ix.strong))
	for s, ps := range ix.strong {
		ix.stems = append(ix.stems, tsStemPostings{s, ps})
	}
	return ix
}

// tsPut gives tool i the stem s with weight w in the postings m, or keeps the larger weight the tool
// has for it: newTSIndex reads the fields of one tool after the other, so a stem's postings end with
// the tool's while its fields are read.
//
// Not inlined: a copy at each call would cost the engine module more than the call does.
//
//go:noinline
func tsPut(m map[string][]tsPosting, i int, s string, w float64) {
	ps := m[s]
	if n := len(ps); n > 0 && ps[n-1].tool == i {
		if w > ps[n-1].weight {
			ps[n-1].weight = w
		}
	} else {
		m[s] = append(ps, tsPosting{i, w})
	}
}

// tsIDF is the inverse document frequency of a stem held by df of n tools.
func tsIDF(n, df int) float64 { return math.Log(1 + float64(n)/float64(df)) }

// scores returns every tool's score for the keywords. Each distinct query stem contributes through
// the first of three tiers that matches any tool: the strong fields (exact stem); the strong fields
// by prefix (one stem, at least 4 letters, starts the other); the descriptions. A tool's score is
// the sum, in query order, of its weight times the stem's IDF (a tool without the stem adds
// nothing).
func (ix *tsIndex) scores(keywords string) []float64 {
	n := len(ix.tools)
	sc := make([]float64, n)
	var partial []float64
	terms := tsTerms(nil, keywords, true)
	for qi, q := range terms {
		if slices.Contains(terms[:qi], q) {
			continue // each distinct stem counts once
		}
		if ps := ix.strong[q]; len(ps) > 0 {
			f := tsIDF(n, len(ps))
			for _, p := range ps {
				sc[p.tool] += p.weight * f
			}
			continue
		}
		// The best weight of a related stem, per tool (a maximum: the order of stems does not matter).
		if partial == nil {
			partial = make([]float64, n)
		} else {
			clear(partial)
		}
		df := 0
		for _, sp := range ix.stems {
			if !tsPrefixRelated(q, sp.stem) {
				continue
			}
			for _, p := range sp.postings {
				if w := p.weight * tsPrefixFactor; w > partial[p.tool] {
					if partial[p.tool] == 0 {
						df++
					}
					partial[p.tool] = w
				}
			}
		}
		if df > 0 {
			f := tsIDF(n, df)
			for i := range sc {
				sc[i] += partial[i] * f
			}
			continue
		}
		if ps := ix.weak[q]; len(ps) > 0 {
			f := tsIDF(n, len(ps))
			for _, p := range ps {
				sc[p.tool] += p.weight * f
			}
		}
	}
	return sc
}

// best returns the tool with the highest score, as the original picks it: walking the tools in
// order and replacing the best only on a strictly greater score, starting from 0 (so earlier tools
// win ties, and nil means nothing matched).
func (ix *tsIndex) best(keywords string) *Tool {
	var (
		top  *Tool
		high float64
	)
	for i, s := range ix.scores(keywords) {
		if s > high {
			top, high = ix.tools[i], s
		}
	}
	return top
}

// tsPrefixRelated reports whether one stem starts the other, the shorter having at least 4 letters.
func tsPrefixRelated(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 4 && strings.HasPrefix(b, a)
}

// tsTerms splits a text into search stems: words are runs of letters and digits, also split
// where a lower-case letter meets a capital (QueryHealthData -> query health data); they are
// lowercased, and one-letter words, words with digits and, when stop is set, stop words are dropped
// (stop words are matched before stemming, so "like" is dropped but "likes" is kept).
// The stems are appended to terms.
func tsTerms(terms []string, text string, stop bool) []string {
	start := -1 // where the current word starts in text, or -1 between words
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := strings.ToLower(text[start:end])
		start = -1
		if utf8.RuneCountInString(w) < 2 || stop && tsStop[w] || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			return
		}
		terms = append(terms, tsStem(w))
	}
	var prev rune
	for i, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
				flush(i)
			}
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
		prev = r
	}
	flush(len(text))
	return terms
}

// tsStem is a light English stemmer, enough to join the forms users type: plurals (alarms,
// switches, entries), -ing and -ed (setting -> set, with a doubled final consonant undone), then -er
// (reminder -> remind, scheduler -> schedul), a final y becoming i (modify, modified, modifies ->
// modifi) and a final e dropped (schedule, scheduled -> schedul).
func tsStem(w string) string {
	if w == "news" {
		return w
	}
	switch {
	case len(w) > 4 && (strings.HasSuffix(w, "ies") || strings.HasSuffix(w, "ied")):
		w = w[:len(w)-3] + "i"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") ||
		strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		w = w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	for _, suf := range []string{"ing", "ed"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			w = w[:len(w)-len(suf)]
			if n := len(w); n >= 4 && w[n-1] == w[n-2] && !tsVowel(w[n-1]) && !strings.ContainsRune("lsz", rune(w[n-1])) {
				w = w[:n-1]
			}
			break
		}
	}
	if strings.HasSuffix(w, "er") && len(w) >= 6 {
		w = w[:len(w)-2]
	}
	if len(w) > 2 && strings.HasSuffix(w, "y") {
		w = w[:len(w)-1] + "i"
	}
	if len(w) > 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

func tsVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// tsStop are words that say nothing about which tool is meant.
var tsStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for with from into as
		is are was were be been am do does did doing done has have had having can could would should will shall may might must
		i me my mine we us our you your he him his she her it its they them their this that these those there here
		what whats which who whom whose how why where when please want wanted need needed like would let lets
		some any all about just also too very so than then now not no yes ok okay thank thanks hi hello help
		tool tools api apis use using one give tell know`) {
		m[w] = true
	}
	return m
}()

// tsWords is one tool's entry in our keyword table: topic words (what it is about) and action
// words (what it does), each a space-separated list that goes through the same stemming as queries.
type tsWords struct{ topic, verbs string }

// tsMinor are the tools whose topic words weigh a little less (tsWeightMinor), so that a query
// naming only the topic goes to the group's main tool even when this one comes first in the catalog.
var tsMinor = map[string]bool{"CancelTimedSwitch": true}

// Action words shared by the tools of one kind.
const (
	tsAddVerbs    = "add create new make set put insert enter save arrange"
	tsDeleteVerbs = "delete remove cancel erase clear drop discard"
	tsModifyVerbs = "modify change update edit alter adjust move reschedule rename correct postpone"
	tsQueryVerbs  = "query check view show see find look list get retrieve fetch display lookup"
)

// Topic words shared by the tools of one database.
const (
	tsAgenda       = "agenda schedule event plan calendar item activity itinerary todo task"
	tsAlarm        = "alarm wake"
	tsMeeting      = "meeting meet conference reservation reserve attendee participant"
	tsReminder     = "reminder remind notify notification memo note alert remember"
	tsScene        = "scene smart home house device mode light lighting automation routine appliance"
	tsRegistration = "appointment registration hospital doctor clinic patient medical visit"
	tsHealth       = "health data heart rate blood pressure oxygen sugar glucose weight step sleep vital fitness body"
	tsSwitch       = "switch timer timed device appliance turn power plug socket"
	tsAccount      = "account user"
)

// tsKeywords is our table of the words users type for each tool of both catalogs (the three
// names both catalogs share mean the same tool). It carries most of the ranking's signal, so the
// ranking does not depend on how the descriptions are worded.
var tsKeywords = func() map[string]tsWords {
	m := make(map[string]tsWords, len(tsTable)/3)
	for i := 0; i+2 < len(tsTable); i += 3 {
		m[tsTable[i]] = tsWords{tsTable[i+1], tsTable[i+2]}
	}
	return m
}()

// tsTable is tsKeywords written flat, three texts an entry (a tool's name, its topic words, its
// action words): a table of constants is data in the engine module, where a map literal would be
// code.
var tsTable = []string{
	// apis
	"AddAgenda", tsAgenda, tsAddVerbs,
	"DeleteAgenda", tsAgenda, tsDeleteVerbs,
	"ModifyAgenda", tsAgenda, tsModifyVerbs,
	"QueryAgenda", tsAgenda, tsQueryVerbs,
	"AddAlarm", tsAlarm + " up morning ring", tsAddVerbs,
	"DeleteAlarm", tsAlarm, tsDeleteVerbs,
	"ModifyAlarm", tsAlarm, tsModifyVerbs,
	"QueryAlarm", tsAlarm + " clock", tsQueryVerbs,
	"AddMeeting", tsMeeting + " organize host", tsAddVerbs + " schedule plan",
	"DeleteMeeting", tsMeeting, tsDeleteVerbs,
	"ModifyMeeting", tsMeeting, tsModifyVerbs,
	"QueryMeeting", "meeting meet conference attendee participant", tsQueryVerbs,
	"AddReminder", tsReminder, tsAddVerbs,
	"DeleteReminder", tsReminder, tsDeleteVerbs,
	"ModifyReminder", tsReminder, tsModifyVerbs,
	"QueryReminder", tsReminder, tsQueryVerbs,
	"AddScene", tsScene, tsAddVerbs,
	"DeleteScene", tsScene, tsDeleteVerbs,
	"ModifyScene", tsScene, tsModifyVerbs,
	"QueryScene", tsScene, tsQueryVerbs,
	"AppointmentRegistration", tsRegistration + " register", tsAddVerbs,
	"CancelRegistration", tsRegistration, tsDeleteVerbs,
	"ModifyRegistration", tsRegistration, tsModifyVerbs,
	"QueryRegistration", tsRegistration, tsQueryVerbs,
	"BookHotel", "hotel room book booking reservation reserve stay lodging accommodation inn motel night", tsAddVerbs,
	"Calculator", "calculator calculate calculation compute computation math arithmetic sum plus minus multiply multiplication divide division equation formula expression square total", "solve evaluate",
	"CancelTimedSwitch", tsSwitch, tsDeleteVerbs,
	"TimedSwitch", tsSwitch + " on off light lamp", tsAddVerbs + " schedule",
	"CheckToken", "token verify validate valid identity whose session", "check",
	"DeleteAccount", tsAccount + " profile close unregister deregister deactivate", tsDeleteVerbs,
	"Dictionary", "dictionary define definition meaning mean word vocabulary synonym spell spelling", "explain",
	"DocumentQA", "document doc qa question answer file pdf url paper report text", "ask read",
	"EmergencyKnowledge", "emergency first aid urgent injury injured accident knowledge burn bleeding choking poison wound cpr faint", "handle treat",
	"ForgotPassword", "password forgot forget reset recover recovery lost verification code", "retrieve",
	"GetToday", "today date current day time year month calendar", "get",
	"GetUserToken", "token login log sign signin logon credential authenticate authentication access", "get",
	"ImageCaption", "image caption picture photo photograph pic visual describe description", "see",
	"ModifyPassword", "password reset passcode", tsModifyVerbs,
	"OpenBankAccount", "bank account banking deposit saving", "open new",
	"PlayMusic", "music song play listen tune track album artist playlist singer", "play",
	"QueryBalance", "balance bank money fund funds cash saving account", tsQueryVerbs,
	"QueryHealthData", tsHealth, tsQueryVerbs,
	"RecordHealthData", tsHealth + " record log track measurement upload", tsAddVerbs,
	"QueryHistoryToday", "history historical today past happened anniversary", tsQueryVerbs,
	"QueryStock", "stock share price market ticker quote equity invest investment nasdaq", tsQueryVerbs,
	"RegisterUser", tsAccount + " register registration sign up signup join enroll", tsAddVerbs,
	"SearchEngine", "search engine web internet google online browse information news headline weather", "find",
	"SendEmail", "email mail send message letter inbox receiver recipient subject", "write",
	"SpeechRecognition", "speech recognition recognize audio voice transcribe transcription transcript recording sound", "convert",
	"SymptomSearch", "symptom illness disease sick sickness diagnose diagnosis condition pain ache fever cough headache rash skin nausea vomit dizzy dizziness sore throat cold flu itch itchy", "search",
	"Translate", "translate translation language english chinese french spanish german japanese interpret", "convert",
	"Wiki", "wiki wikipedia encyclopedia article knowledge information biography fact", "search",
	// lv3_apis
	"AccountInfo", "account info information profile user detail email phone", tsQueryVerbs,
	"ClothingRecommendation", "clothing clothes wear outfit dress recommendation recommend suggest suggestion weather jacket", "suggest",
	"EmailReminder", "email reminder remind mail notification meeting", "send",
	"FlightSearch", "flight fly plane airline airport ticket travel trip destination depart departure", "search find",
	"Geocoding", "geocoding geocode address location place coordinates latitude longitude map", "convert find",
	"GetOccupationSalary", "occupation salary job pay income wage earn profession career", tsQueryVerbs,
	"GetWeatherForCoordinates", "weather temperature forecast rain sunny climate humidity wind coordinates", tsQueryVerbs,
	"HotelAvailability", "hotel availability available room vacancy stay booking accommodation lodging", "check find",
	"LikeCount", "like likes count number post popularity", tsQueryVerbs,
	"MovieRecommendations", "movie film recommendation recommend suggest suggestion cinema genre", "suggest",
	"NearbyRestaurants", "restaurant food eat dining dinner lunch nearby near around cuisine", "find",
	"OrganizationMembers", "organization member team staff employee company group colleague", tsQueryVerbs,
	"PersonalInfoUpdate", "personal info information address profile phone", tsModifyVerbs,
	"TaxCalculator", "tax calculator calculate after deduction net", "compute",
	"TravelStatus", "travel status traveling trip away member working office", tsQueryVerbs,
	"UserMoviePreferences", "user movie preference genre taste favorite", tsQueryVerbs,
	"UserPosts", "user post social", tsQueryVerbs,
	"UserWatchedMovies", "user watched movie watch seen", tsQueryVerbs,
}
