package tools

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// tsShared is the shared API-Bank material, seen from this package's folder.
const tsShared = "../../shared/apibank"

// tsNeedShared skips a test when the shared material is absent.
func tsNeedShared(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(tsShared); err != nil {
		t.Skipf("../shared/apibank not found: %v", err)
	}
}

// tsWorld is a world for ToolSearcher calls, which read no database.
func tsWorld() *World { return NewBase(nil).NewWorld() }

// tsCall runs ToolSearcher natively in a catalog and fails the test on an escaping error.
func tsCall(t *testing.T, c *Catalog, keywords any) *value.Map {
	t.Helper()
	env, err := c.CallNative(tsWorld(), "ToolSearcher", value.MapOf("keywords", keywords))
	if err != nil {
		t.Fatalf("ToolSearcher(%v): %v", keywords, err)
	}
	return env
}

// tsOutNames returns the tool names an envelope's output holds ("" for a null output).
func tsOutNames(env *value.Map) []string {
	out, _ := env.Get("output")
	names, ok, _ := tsEntryNames(out)
	if !ok {
		return []string{""}
	}
	s := make([]string, len(names))
	for i, n := range names {
		s[i], _ = n.(string)
	}
	return s
}

// tsChosen is the tool a ToolSearcher output chooses: the entry, or the second of a list.
func tsChosen(env *value.Map) string {
	n := tsOutNames(env)
	return n[len(n)-1]
}

// tsGoldTurn is one recorded ToolSearcher call of the level-2 samples.
type tsGoldTurn struct {
	file, keywords, want string
	result               *value.Map
}

// tsGoldTurns reads every gold ToolSearcher turn of the level-2 ToolSearcher samples.
func tsGoldTurns(t *testing.T) []tsGoldTurn {
	t.Helper()
	tsNeedShared(t)
	files, err := filepath.Glob(filepath.Join(tsShared, "lv1-lv2-samples", "level-2-toolsearcher", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no level-2-toolsearcher samples: %v", err)
	}
	var turns []tsGoldTurn
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			v, err := value.DecodeString(line)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			m, _ := v.(*value.Map)
			if m.String("role") != "API" || m.String("api_name") != "ToolSearcher" {
				continue
			}
			pd, _ := m.Get("param_dict")
			res, _ := m.Get("result")
			result, _ := res.(*value.Map)
			turn := tsGoldTurn{file: filepath.Base(f), keywords: pd.(*value.Map).String("keywords"), result: result}
			turn.want = tsChosen(result)
			turns = append(turns, turn)
		}
	}
	return turns
}

// TestToolSearcherGoldParity replays the 45 gold ToolSearcher turns through our ToolSearcher and the
// tool's own check: the original's embedding model is replaced by our ranker, so the measure is how
// often both pick the same tool (the check compares tool names). Whole outputs never equal the gold
// ones (documented divergence: the entries carry our own descriptions, and the gold ones partly older
// descriptions than the original's code, TOOLS.md §1.11), so the replay asserts that instead, and
// equal exceptions (none).
func TestToolSearcherGoldParity(t *testing.T) {
	turns := tsGoldTurns(t)
	if len(turns) != 45 {
		t.Errorf("gold ToolSearcher turns: %d, want 45", len(turns))
	}
	ts, _ := APIs.Lookup("ToolSearcher")
	agree := 0
	for _, g := range turns {
		env := tsCall(t, APIs, g.keywords)
		gout, _ := g.result.Get("output")
		out, _ := env.Get("output")
		if value.Equal(out, gout) {
			t.Errorf("%s: output equals the gold output, but our descriptions are our own", g.file)
		}
		gex, _ := g.result.Get("exception")
		if ex, _ := env.Get("exception"); !value.Equal(ex, gex) {
			t.Errorf("%s: exception %v, gold %v", g.file, ex, gex)
		}
		ok, err := ts.Check(env, value.Clone(g.result).(*value.Map))
		if err != nil {
			t.Errorf("%s: check raised %v", g.file, err)
		}
		if ok != (tsChosen(env) == g.want) {
			t.Errorf("%s: check says %v but chosen %s vs gold %s", g.file, ok, tsChosen(env), g.want)
		}
		if ok {
			agree++
			continue
		}
		t.Logf("miss: %s keywords %q: ours %s, original %s", g.file, g.keywords, tsChosen(env), g.want)
	}
	rate := float64(agree) / float64(len(turns))
	t.Logf("ToolSearcher agreement with the gold turns: %d/%d = %.1f%%", agree, len(turns), 100*rate)
	if rate < 0.9 {
		t.Errorf("agreement %.1f%% below 90%%", 100*rate)
	}
}

// tsStubCatalog builds a catalog of tools named as in tools.json, with their parameter names and
// no descriptions at all: the ranker must do well from its keyword table alone.
func tsStubCatalog(t *testing.T, origin string) []*Tool {
	t.Helper()
	tsNeedShared(t)
	data, err := os.ReadFile(filepath.Join(tsShared, "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := value.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	list, _ := v.(*value.Map).Get("tools")
	var tools []*Tool
	for _, e := range list.([]any) {
		m := e.(*value.Map)
		if m.String("origin") != origin || m.String("name") == "ToolSearcher" {
			continue
		}
		tl := &Tool{Name: m.String("name")}
		ip, _ := m.Get("input_parameters")
		if ipm, ok := ip.(*value.Map); ok {
			for _, k := range ipm.Keys() {
				tl.Params = append(tl.Params, Param{Name: k, Type: "str"})
			}
		}
		tools = append(tools, tl)
	}
	sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
	return tools
}

// TestToolSearcherKeywordTableAlone checks that the ranking does not hinge on the descriptions: with
// every description empty it still meets the parity goal and answers the usual queries.
func TestToolSearcherKeywordTableAlone(t *testing.T) {
	turns := tsGoldTurns(t)
	apis := tsStubCatalog(t, "apis")
	if len(apis) != 52 {
		t.Fatalf("tools.json apis tools without ToolSearcher: %d, want 52", len(apis))
	}
	ix := newTSIndex(apis)
	agree := 0
	for _, g := range turns {
		if b := ix.best(g.keywords); b != nil && b.Name == g.want {
			agree++
		}
	}
	t.Logf("agreement without descriptions: %d/%d", agree, len(turns))
	if float64(agree) < 0.9*float64(len(turns)) {
		t.Errorf("agreement without descriptions %d/%d below 90%%", agree, len(turns))
	}
	lv3 := newTSIndex(tsStubCatalog(t, "lv3_apis"))
	for cat, cases := range map[string][][2]string{"apis": tsAPIsQueries, "lv3_apis": tsLV3Queries} {
		x := ix
		if cat == "lv3_apis" {
			x = lv3
		}
		for _, c := range cases {
			got := ""
			if b := x.best(c[0]); b != nil {
				got = b.Name
			}
			if got != c[1] {
				t.Errorf("%s without descriptions: %q -> %q, want %q", cat, c[0], got, c[1])
			}
		}
	}
}

// tsAPIsQueries are queries as users type them, with the apis tool they mean.
var tsAPIsQueries = [][2]string{
	{"add schedule", "AddAgenda"}, {"check my appointment", "QueryRegistration"}, {"stock price", "QueryStock"},
	{"set alarm", "AddAlarm"}, {"what's the weather", "SearchEngine"}, {"wake me up at 7", "AddAlarm"},
	{"remind me to buy milk", "AddReminder"}, {"cancel my doctor appointment", "CancelRegistration"},
	{"book a doctor appointment", "AppointmentRegistration"}, {"make an appointment with the dentist", "AppointmentRegistration"},
	{"reschedule my appointment", "ModifyRegistration"}, {"change my password", "ModifyPassword"},
	{"I forgot my password", "ForgotPassword"}, {"reset password", "ForgotPassword"}, {"log in", "GetUserToken"}, {"login", "GetUserToken"},
	{"sign up", "RegisterUser"}, {"create an account", "RegisterUser"}, {"register", "RegisterUser"}, {"open a bank account", "OpenBankAccount"},
	{"account balance", "QueryBalance"}, {"how much money do I have", "QueryBalance"}, {"delete my account", "DeleteAccount"},
	{"book a hotel room", "BookHotel"}, {"hotel reservation", "BookHotel"}, {"share price of AAPL", "QueryStock"},
	{"heart rate", "QueryHealthData"}, {"record my blood pressure", "RecordHealthData"}, {"my health data", "QueryHealthData"},
	{"blood sugar", "QueryHealthData"}, {"I have a headache and fever", "SymptomSearch"}, {"rash", "SymptomSearch"},
	{"first aid for burns", "EmergencyKnowledge"}, {"emergency", "EmergencyKnowledge"},
	{"translate to French", "Translate"}, {"what does this word mean", "Dictionary"}, {"definition of serendipity", "Dictionary"},
	{"wikipedia", "Wiki"}, {"encyclopedia article about Einstein", "Wiki"}, {"search the web", "SearchEngine"}, {"news", "SearchEngine"},
	{"describe this picture", "ImageCaption"}, {"image caption", "ImageCaption"}, {"transcribe audio", "SpeechRecognition"},
	{"speech to text", "SpeechRecognition"}, {"what happened today in history", "QueryHistoryToday"}, {"today in history", "QueryHistoryToday"},
	{"smart home scene", "AddScene"}, {"create a scene", "AddScene"}, {"show my scenes", "QueryScene"}, {"modify scene", "ModifyScene"},
	{"turn on the light at 7pm", "TimedSwitch"}, {"timer switch", "TimedSwitch"}, {"cancel timer", "CancelTimedSwitch"},
	{"play some music", "PlayMusic"}, {"play a song", "PlayMusic"}, {"send an email", "SendEmail"}, {"email", "SendEmail"},
	{"calculate 2+2", "Calculator"}, {"math", "Calculator"}, {"calc", "Calculator"},
	{"what is the date today", "GetToday"}, {"today", "GetToday"}, {"current date", "GetToday"}, {"what day is it", "GetToday"},
	{"user token", "GetUserToken"}, {"check token", "CheckToken"}, {"verify token", "CheckToken"},
	{"add meeting", "AddMeeting"}, {"schedule a meeting", "AddMeeting"}, {"cancel the meeting", "DeleteMeeting"},
	{"reschedule meeting", "ModifyMeeting"}, {"query meeting", "QueryMeeting"}, {"my schedule", "AddAgenda"},
	{"check agenda", "QueryAgenda"}, {"delete the event", "DeleteAgenda"},
	{"list my alarms", "QueryAlarm"}, {"change alarm time", "ModifyAlarm"}, {"remove alarm", "DeleteAlarm"},
	{"show reminders", "QueryReminder"}, {"update reminder", "ModifyReminder"}, {"delete reminder", "DeleteReminder"},
	{"ask a question about a document", "DocumentQA"}, {"document question answering", "DocumentQA"},
	{"patient registration", "AppointmentRegistration"}, {"hospital", "AppointmentRegistration"},
	{"QueryStock", "QueryStock"}, {"Query Stock", "QueryStock"}, {"Add Meeting", "AddMeeting"}, {"queryhealthdata", "QueryHealthData"},
}

// tsLV3Queries are queries as users type them, with the lv3_apis tool they mean.
var tsLV3Queries = [][2]string{
	{"weather coordinates", "GetWeatherForCoordinates"}, {"salary", "GetOccupationSalary"}, {"movie", "MovieRecommendations"},
	{"what's the weather", "GetWeatherForCoordinates"}, {"weather forecast", "GetWeatherForCoordinates"},
	{"recommend a movie", "MovieRecommendations"}, {"movies I watched", "UserWatchedMovies"}, {"movie preferences", "UserMoviePreferences"},
	{"what to wear", "ClothingRecommendation"}, {"clothing recommendation", "ClothingRecommendation"},
	{"find a flight", "FlightSearch"}, {"flights to Paris", "FlightSearch"},
	{"address to coordinates", "Geocoding"}, {"geocode", "Geocoding"}, {"latitude longitude of an address", "Geocoding"},
	{"hotel availability", "HotelAvailability"}, {"book hotel", "HotelAvailability"},
	{"likes of a post", "LikeCount"}, {"like count", "LikeCount"},
	{"restaurants nearby", "NearbyRestaurants"}, {"somewhere to eat", "NearbyRestaurants"}, {"restaurants near coordinates", "NearbyRestaurants"},
	{"organization members", "OrganizationMembers"}, {"team members", "OrganizationMembers"},
	{"update my address", "PersonalInfoUpdate"}, {"personal info update", "PersonalInfoUpdate"}, {"account info", "AccountInfo"},
	{"tax", "TaxCalculator"}, {"salary after tax", "TaxCalculator"}, {"calculate tax", "TaxCalculator"},
	{"travel status", "TravelStatus"}, {"is John traveling", "TravelStatus"},
	{"user posts", "UserPosts"}, {"posts of a user", "UserPosts"},
	{"email reminder", "EmailReminder"}, {"send a meeting reminder email", "EmailReminder"},
	{"add meeting", "AddMeeting"}, {"query meeting", "QueryMeeting"}, {"Query Meeting", "QueryMeeting"},
	{"calculator", "Calculator"}, {"calculate 3*4", "Calculator"},
	{"Get Weather For Coordinates", "GetWeatherForCoordinates"}, {"occupation", "GetOccupationSalary"}, {"job pay", "GetOccupationSalary"},
}

// TestToolSearcherQueries runs the usual queries through both live catalogs.
func TestToolSearcherQueries(t *testing.T) {
	for _, tc := range []struct {
		c     *Catalog
		cases [][2]string
	}{{APIs, tsAPIsQueries}, {LV3, tsLV3Queries}} {
		for _, q := range tc.cases {
			env := tsCall(t, tc.c, q[0])
			if got := tsChosen(env); got != q[1] {
				ex, _ := env.Get("exception")
				t.Errorf("%s ToolSearcher(%q) chose %q (exception %v), want %q", tc.c.Name, q[0], got, ex, q[1])
			}
		}
	}
}

// TestToolSearcherCatalogs checks what each ToolSearcher searches: its whole catalog but itself.
func TestToolSearcherCatalogs(t *testing.T) {
	for _, tc := range []struct {
		lv3  bool
		c    *Catalog
		want int
	}{{false, APIs, 52}, {true, LV3, 21}} {
		list := tsSearchable(tc.lv3)
		names := map[string]bool{}
		for _, tl := range list {
			names[tl.Name] = true
		}
		if names["ToolSearcher"] || len(list) != len(tc.c.Tools())-1 {
			t.Errorf("%s: searchable %d tools of %d (ToolSearcher included: %v)", tc.c.Name, len(list), len(tc.c.Tools()), names["ToolSearcher"])
		}
		if len(list) != tc.want {
			t.Errorf("%s: %d searchable tools, want %d", tc.c.Name, len(list), tc.want)
		}
		if !tc.lv3 && (!names["CheckToken"] || !names["GetUserToken"]) {
			t.Errorf("apis searcher must include CheckToken and GetUserToken")
		}
	}
}

// TestToolSearcherOutput checks the output shapes: a token tool comes after the GetUserToken entry
// (which keeps desc_for_search), other tools alone, lv3 always alone; and the failures.
func TestToolSearcherOutput(t *testing.T) {
	env := tsCall(t, APIs, "add alarm")
	out, _ := env.Get("output")
	list, ok := out.([]any)
	if !ok || len(list) != 2 {
		t.Fatalf("token tool output %s, want a two-element list", value.Repr(out))
	}
	gut, _ := APIs.Lookup("GetUserToken")
	alarm, _ := APIs.Lookup("AddAlarm")
	want0 := gut.Entry()
	want0.Set("desc_for_search", "get user token"+gut.Description)
	if g := list[0].(*value.Map); !value.Equal(g, want0) || strings.Join(g.Keys(), ",") != "name,description,input_parameters,output_parameters,desc_for_search" {
		t.Errorf("GetUserToken entry %s, want %s", value.Repr(g), value.Repr(want0))
	}
	if !value.Equal(list[1], alarm.Entry()) {
		t.Errorf("winner entry %s, want %s", value.Repr(list[1]), value.Repr(alarm.Entry()))
	}
	if in, _ := env.Get("input"); !value.Equal(in, value.MapOf("keywords", "add alarm")) {
		t.Errorf("input %s", value.Repr(in))
	}
	if name, _ := env.Get("api_name"); name != "ToolSearcher" {
		t.Errorf("api_name %v", name)
	}

	// A tool without a token: the entry alone.
	env = tsCall(t, APIs, "calculator")
	calc, _ := APIs.Lookup("Calculator")
	if out, _ := env.Get("output"); !value.Equal(out, calc.Entry()) {
		t.Errorf("calculator output %s", value.Repr(out))
	}
	// lv3: always the entry alone.
	env = tsCall(t, LV3, "add meeting")
	meet, _ := LV3.Lookup("AddMeeting")
	if out, _ := env.Get("output"); !value.Equal(out, meet.Entry()) {
		t.Errorf("lv3 add meeting output %s", value.Repr(out))
	}

	// Nothing matches: the original's exception, output null.
	for _, c := range []struct {
		c  *Catalog
		kw any
	}{{APIs, "12345"}, {APIs, ""}, {APIs, "the of and"}, {LV3, "G P S"}, {APIs, int64(42)}} {
		env := tsCall(t, c.c, c.kw)
		out, _ := env.Get("output")
		ex, _ := env.Get("exception")
		if out != nil || ex != tsNoneMatch {
			t.Errorf("%s %v: output %s exception %v, want %q", c.c.Name, c.kw, value.Repr(out), ex, tsNoneMatch)
		}
	}
	if tsNoneMatch != "'NoneType' object has no attribute 'pop'" {
		t.Errorf("exception text %q", tsNoneMatch)
	}
	// Other JSON keywords.
	if got := tsChosen(tsCall(t, APIs, []any{"play", "music"})); got != "PlayMusic" {
		t.Errorf("list keywords chose %q", got)
	}
	env = tsCall(t, APIs, value.MapOf("a", "b"))
	if ex, _ := env.Get("exception"); ex != "The keywords must be a text." {
		t.Errorf("object keywords: exception %v", ex)
	}
	// Missing keywords escapes as the original's TypeError.
	_, err := APIs.CallNative(tsWorld(), "ToolSearcher", value.NewMap(0))
	if e, ok := err.(*Error); !ok || e.Kind != Type || e.Text != "ToolSearcher.call() missing 1 required positional argument: 'keywords'" {
		t.Errorf("missing keywords: %v", err)
	}
	// Text calls (the parser's semantics) behave alike; the world is left unchanged.
	w := tsWorld()
	env, err = APIs.Call(w, "ToolSearcher", value.MapOf("keywords", "QueryStock"))
	if err != nil || tsChosen(env) != "QueryStock" {
		t.Errorf("text call: %v %v", tsOutNames(env), err)
	}
	if len(w.Changed()) != 0 {
		t.Errorf("ToolSearcher changed databases %v", w.Changed())
	}
	// Deterministic, and never itself.
	a, b := tsCall(t, APIs, "tool searcher"), tsCall(t, APIs, "tool searcher")
	if !value.Equal(a, b) || tsChosen(a) == "ToolSearcher" {
		t.Errorf("tool searcher: %v then %v", tsOutNames(a), tsOutNames(b))
	}
}

// TestToolSearcherEntry checks the catalog entry shape.
func TestToolSearcherEntry(t *testing.T) {
	tl := &Tool{Name: "X", Description: "d",
		Params:  []Param{{Name: "b", Type: "int", Description: "pb"}, {Name: "a", Type: "str", Description: "pa"}},
		Outputs: []Field{{Name: "z", Type: "list", Description: "oz"}}}
	e := tl.Entry()
	want := `{"name":"X","description":"d","input_parameters":{"b":{"type":"int","description":"pb"},"a":{"type":"str","description":"pa"}},"output_parameters":{"z":{"type":"list","description":"oz"}}}`
	if got := string(value.Marshal(e)); got != want {
		t.Errorf("entry\n got %s\nwant %s", got, want)
	}
	e.Set("name", "changed")
	if tl.Entry().String("name") != "X" {
		t.Error("Entry must return a new object")
	}
	empty := (&Tool{Name: "GetToday", Description: "t"}).Entry()
	if got := string(value.Marshal(empty)); got != `{"name":"GetToday","description":"t","input_parameters":{},"output_parameters":{}}` {
		t.Errorf("empty entry %s", got)
	}
	if got := tsDescForSearch(&Tool{Name: "DocumentQA", Description: "Answers."}); got != "document q aAnswers." {
		t.Errorf("desc_for_search %q", got)
	}
}

// TestToolSearcherCheck checks the name-based correctness check.
func TestToolSearcherCheck(t *testing.T) {
	ts, _ := APIs.Lookup("ToolSearcher")
	lts, _ := LV3.Lookup("ToolSearcher")
	entry := func(name, desc string) *value.Map {
		return value.MapOf("name", name, "description", desc, "input_parameters", value.NewMap(0), "output_parameters", value.NewMap(0))
	}
	env := func(out, ex any) *value.Map {
		return value.MapOf("api_name", "ToolSearcher", "input", value.MapOf("keywords", "k"), "output", out, "exception", ex)
	}
	gut := func(desc string) *value.Map {
		e := entry("GetUserToken", desc)
		e.Set("desc_for_search", "get user token"+desc)
		return e
	}
	cases := []struct {
		name    string
		r, g    *value.Map
		want    bool
		wantErr string
	}{
		{"same name other description", env(entry("BookHotel", "ours"), nil), env(entry("BookHotel", "theirs"), nil), true, ""},
		{"other name", env(entry("BookHotel", "d"), nil), env(entry("Calculator", "d"), nil), false, ""},
		{"list same names", env([]any{gut("ours"), entry("AddAlarm", "a")}, nil), env([]any{gut("Get the user token."), entry("AddAlarm", "b")}, nil), true, ""},
		{"list other winner", env([]any{gut("x"), entry("AddAlarm", "a")}, nil), env([]any{gut("x"), entry("AddAgenda", "a")}, nil), false, ""},
		{"list order", env([]any{entry("AddAlarm", "a"), gut("x")}, nil), env([]any{gut("x"), entry("AddAlarm", "a")}, nil), false, ""},
		{"list vs single", env([]any{gut("x"), entry("AddAlarm", "a")}, nil), env(entry("AddAlarm", "a"), nil), false, ""},
		{"both failed", env(nil, tsNoneMatch), env(nil, tsNoneMatch), true, ""},
		{"exception differs", env(entry("AddAlarm", "a"), nil), env(entry("AddAlarm", "a"), "boom"), false, ""},
		{"null vs entry", env(nil, tsNoneMatch), env(entry("AddAlarm", "a"), nil), false, ""},
		{"other shapes equal", env("text", nil), env("text", nil), true, ""},
		{"other shapes differ", env("text", nil), env("other", nil), false, ""},
		{"no output", value.MapOf("api_name", "ToolSearcher", "exception", nil), env(entry("A", ""), nil), false, "'output'"},
		{"gold no output", env(entry("A", ""), nil), value.MapOf("exception", nil), false, "'output'"},
		{"entry without name", env(value.MapOf("description", "d"), nil), env(entry("A", ""), nil), false, "'name'"},
		{"list entry without name", env(entry("A", ""), nil), env([]any{gut("x"), value.MapOf("x", 1)}, nil), false, "'name'"},
		{"no exception", env(entry("A", ""), nil), value.MapOf("output", entry("A", "")), false, "'exception'"},
	}
	for _, c := range cases {
		for _, tool := range []*Tool{ts, lts} {
			ok, err := tool.Check(c.r, c.g)
			if c.wantErr != "" {
				if e, isErr := err.(*Error); !isErr || e.Kind != Key || e.Text != c.wantErr {
					t.Errorf("%s: err %v, want KeyError %s", c.name, err, c.wantErr)
				}
				continue
			}
			if err != nil || ok != c.want {
				t.Errorf("%s: %v %v, want %v", c.name, ok, err, c.want)
			}
		}
	}
}

// TestToolSearcherTerms checks the tokenizer and stemmer.
func TestToolSearcherTerms(t *testing.T) {
	for _, c := range []struct {
		in   string
		stop bool
		want string
	}{
		{"QueryHealthData", true, "queri health data"},
		{"what's the weather?", true, "weath"},
		{"book hotel Hilton July 15 2023", true, "book hotel hilton juli"},
		{"calculate 25*3+7/3", true, "calculat"},
		{"GetWeatherForCoordinates", false, "get weath for coordinat"},
		{"like likes", true, "like"},
		{"G P S", true, ""},
	} {
		if got := strings.Join(tsTerms(nil, c.in, c.stop), " "); got != c.want {
			t.Errorf("tsTerms(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, group := range [][]string{
		{"schedule", "schedules", "scheduled", "scheduling", "scheduler"},
		{"alarm", "alarms"},
		{"set", "setting", "sets"},
		{"add", "added", "adding", "adds"},
		{"modify", "modified", "modifies"},
		{"remind", "reminder", "reminders", "reminded"},
		{"switch", "switches"},
		{"entry", "entries"},
		{"movie", "movies"},
		{"book", "booking", "booked", "bookings"},
		{"register", "registered", "registering"},
		{"delete", "deleted", "deleting"},
		{"meeting", "meetings"},
	} {
		for _, w := range group[1:] {
			if tsStem(w) != tsStem(group[0]) {
				t.Errorf("stem(%q) = %q, stem(%q) = %q", w, tsStem(w), group[0], tsStem(group[0]))
			}
		}
	}
	for _, w := range []string{"news", "status", "address", "user", "timer", "time"} {
		if tsStem(w) == "" || (w == "news" && tsStem(w) != "news") || (w == "status" && tsStem(w) != "status") {
			t.Errorf("stem(%q) = %q", w, tsStem(w))
		}
	}
}

// TestToolSearcherRanking checks the ranker's rules on a small hand-made catalog: earlier tools win
// ties, nothing scores means no tool, descriptions count only for words nothing else knows, and a
// word sharing a prefix of 4 letters or more with a known word counts for half.
func TestToolSearcherRanking(t *testing.T) {
	tools := []*Tool{
		{Name: "AlphaThing", Description: "zebra crossing"},
		{Name: "BetaThing", Description: "giraffe"},
		{Name: "GammaOther", Description: "thing"},
	}
	ix := newTSIndex(tools)
	for _, c := range []struct{ q, want string }{
		{"thing", "AlphaThing"}, // tie between the two Things: the earlier wins
		{"beta thing", "BetaThing"},
		{"zebra", "AlphaThing"},      // description fallback
		{"giraffes", "BetaThing"},    // description fallback, stemmed
		{"gammas", "GammaOther"},     // plural
		{"gammathing", "GammaOther"}, // no exact match; the name word "gamma" starts it
		{"alp", ""},                  // too short for a prefix match
		{"othe", "GammaOther"},       // prefix match (4 letters)
		{"unknown", ""},
	} {
		got := ""
		if b := ix.best(c.q); b != nil {
			got = b.Name
		}
		if got != c.want {
			t.Errorf("best(%q) = %q, want %q (scores %v)", c.q, got, c.want, ix.scores(c.q))
		}
	}
	// A description word that a stronger field knows elsewhere does not count: "thing" is in
	// GammaOther's description but in the other two names.
	if s := ix.scores("thing"); s[2] != 0 {
		t.Errorf("description counted next to name matches: %v", s)
	}
}
