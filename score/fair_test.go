package score

import (
	"math"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
	"github.com/apibank-playground/apibank/value"
)

// callSample returns the first single-call sample of the builtin data whose gold calls tool and
// satisfies ok (nil: any).
func callSample(t *testing.T, ix *Index, tool string, ok func(p *value.Map) bool) Sample {
	t.Helper()
	for _, sm := range ix.All() {
		if sm.Kind == KindCall && len(sm.Set) <= 1 && sm.GoldTurn().Tool == tool && (ok == nil || ok(sm.GoldTurn().Params)) {
			return sm
		}
	}
	t.Skipf("the builtin data has no %s call sample of that kind", tool)
	return Sample{}
}

// nativeWith is the sample's gold call as a native call, with the arguments kv changed.
func nativeWith(sm Sample, kv ...any) string {
	args := value.Clone(sm.GoldTurn().Params).(*value.Map)
	for i := 0; i+1 < len(kv); i += 2 {
		args.Set(kv[i].(string), kv[i+1])
	}
	return string(value.Marshal(value.MapOf("name", sm.GoldTurn().Tool, "arguments", args)))
}

// TestFairReading: on our data a call is judged by what it means: a formula equal in value, a list
// in another order, any text where the gold's is free, an accepted argument set; a call with the
// wrong effect is wrong even where the tool's check would pass it.
func TestFairReading(t *testing.T) {
	data, ix := builtin(t)
	calc := callSample(t, ix, "Calculator", nil)
	gotFormula := calc.GoldTurn().Params.String("formula")
	lists := callSample(t, ix, "AddMeeting", func(p *value.Map) bool {
		a, _ := p.Get("attendees")
		l, _ := a.([]any)
		return len(l) > 1
	})
	att, _ := lists.GoldTurn().Params.Get("attendees")
	reversed := append([]any(nil), att.([]any)...)
	for i, j := 0, len(reversed)-1; i < j; i, j = i+1, j-1 {
		reversed[i], reversed[j] = reversed[j], reversed[i]
	}
	tests := []struct {
		name string
		sm   Sample
		pred string
		want bool
	}{
		{"the gold formula", calc, nativeWith(calc), true},
		{"a formula equal in value", calc, nativeWith(calc, "formula", "("+gotFormula+")*1"), true},
		{"a formula of another value", calc, nativeWith(calc, "formula", "("+gotFormula+")+1"), false},
		{"a formula too large to compute", calc, nativeWith(calc, "formula", strings.Repeat("9", 400)+"+1"), false},
		{"attendees in another order", lists, nativeWith(lists, "attendees", reversed), true},
		{"one attendee missing", lists, nativeWith(lists, "attendees", reversed[1:]), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := New(data, Replay).Call(tt.sm, tt.pred)
			if v.Correct != tt.want {
				t.Errorf("%s #%d %s: %s %s; want correct=%v", tt.sm.Dialogue.File, tt.sm.ID, tt.pred, v.Category, v.Error, tt.want)
			}
		})
	}
}

// TestFreeAndAccepted: an argument marked free takes any non-empty text, never an empty one; an
// accepted argument set is right; the wrong record deleted is wrong (checked on a dialogue of our
// own, so the rule does not depend on the builtin data's wording).
func TestFreeAndAccepted(t *testing.T) {
	files := dataset.Files{
		"lv1-lv2-samples/level-1-given-desc/free.jsonl": []byte(
			`{"role":"User","text":"Email ana@example.com that I am late."}` + "\n" +
				`{"role":"API","api_name":"SendEmail","free":["subject"],"param_dict":{"receiver":"ana@example.com","subject":"Running late","content":"I am late."},"result":{"api_name":"SendEmail","input":{"receiver":"ana@example.com","subject":"Running late","content":"I am late."},"output":"success","exception":null}}` + "\n" +
				`{"role":"AI","text":"Sent."}` + "\n"),
	}
	data, errs, err := dataset.Load("test", files)
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	data.Repaired = true
	for _, d := range data.Dialogues() {
		d.Repaired = true
	}
	ix := NewIndex(data)
	sm, err := ix.Find(dataset.Level1, "free.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		pred string
		want bool
	}{
		{"the gold", `[SendEmail(receiver='ana@example.com', subject='Running late', content='I am late.')]`, true},
		{"another subject", `[SendEmail(receiver='ana@example.com', subject="I'll be late", content='I am late.')]`, true},
		{"another content (dictated)", `[SendEmail(receiver='ana@example.com', subject='Late', content='Late.')]`, false},
		{"another receiver", `{"name":"SendEmail","arguments":{"receiver":"bo@example.com","subject":"Late","content":"I am late."}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := New(data, Replay).Call(sm, tt.pred)
			if v.Correct != tt.want {
				t.Errorf("%s: %s %s; want correct=%v", tt.pred, v.Category, v.Error, tt.want)
			}
		})
	}
}

// TestEmptyArgumentsLeftOut: an argument the gold leaves empty (an empty text or list) may be left out on our
// data; one the gold fills may not.
func TestEmptyArgumentsLeftOut(t *testing.T) {
	data, ix := builtin(t)
	sm := callSample(t, ix, "QueryAgenda", func(p *value.Map) bool { return p.String("content") == "" && p.String("location") == "" })
	without := value.Clone(sm.GoldTurn().Params).(*value.Map)
	without.Delete("content")
	without.Delete("location")
	noTime := value.Clone(without).(*value.Map)
	noTime.Delete("time")
	for _, tt := range []struct {
		args *value.Map
		want bool
	}{{without, true}, {noTime, false}} {
		pred := string(value.Marshal(value.MapOf("name", "QueryAgenda", "arguments", tt.args)))
		if v := New(data, Replay).Call(sm, pred); v.Correct != tt.want {
			t.Errorf("%s #%d %s: %s %s, want correct=%v", sm.Dialogue.File, sm.ID, pred, v.Category, v.Error, tt.want)
		}
	}
}

// TestWrongEffect: a deletion the tool's check passes (it compares the start time) but that deletes
// the meeting the user asked to keep is wrong: the world it leaves is not the gold's.
func TestWrongEffect(t *testing.T) {
	data, ix := builtin(t)
	var sm Sample
	found := false
	for _, s := range ix.All() {
		if s.Dialogue.File == "plan-meet-ambig-14.jsonl" && s.Kind == KindCall && s.GoldTurn().Tool == "DeleteMeeting" {
			sm, found = s, true
		}
	}
	if !found {
		t.Skip("plan-meet-ambig-14.jsonl has no DeleteMeeting sample")
	}
	right := New(data, Replay).Call(sm, nativeWith(sm))
	wrong := New(data, Replay).Call(sm, nativeWith(sm, "meeting_topic", "Band rehearsal"))
	if !right.Correct {
		t.Errorf("the gold deletion is %s %s", right.Category, right.Error)
	}
	if wrong.Correct || wrong.Category != Incorrect {
		t.Errorf("deleting the Band rehearsal is %s %s, want %s", wrong.Category, wrong.Error, Incorrect)
	}
}

// TestSetsInAnyOrder: every gold call set of the builtin data is right in the reverse order too, in
// both forms: its calls are independent, so records a tool numbers as it adds them may come in
// either order.
func TestSetsInAnyOrder(t *testing.T) {
	data, ix := builtin(t)
	n := 0
	for _, sm := range ix.All() {
		if sm.Kind != KindCall || len(sm.Set) < 2 {
			continue
		}
		n++
		golds := sm.GoldTurns()
		list := make([]any, len(golds))
		for i, gt := range golds {
			list[len(golds)-1-i] = value.MapOf("name", gt.Tool, "arguments", gt.Params)
		}
		if v := New(data, Replay).Call(sm, string(value.Marshal(list))); !v.Correct {
			t.Errorf("%s #%d in reverse order: %s %s", sm.Dialogue.File, sm.ID, v.Category, v.Error)
		}
	}
	if n == 0 {
		t.Fatal("no gold call set in the builtin data")
	}
}

// TestStatedDate: the prompt states today's date, so a GetToday sample is right answered with a
// reply that gives it, and a set may leave its GetToday call out; a reply without the date is not.
func TestStatedDate(t *testing.T) {
	data, ix := builtin(t)
	tests := 0
	for _, sm := range ix.All() {
		if sm.Kind != KindCall || sm.GoldTurn().Tool != getToday {
			continue
		}
		golds := sm.GoldTurns()
		var rest []any
		for _, gt := range golds {
			if gt.Tool != getToday {
				rest = append(rest, value.MapOf("name", gt.Tool, "arguments", gt.Params))
			}
		}
		s := New(data, Replay)
		if len(rest) == 0 {
			tests++
			if v := s.Call(sm, "Today is Friday, 31 March 2023."); !v.Correct {
				t.Errorf("%s #%d: the date stated is %s", sm.Dialogue.File, sm.ID, v.Category)
			}
			if v := s.Call(sm, "I am not sure."); v.Correct {
				t.Errorf("%s #%d: a reply without the date is right", sm.Dialogue.File, sm.ID)
			}
			continue
		}
		tests++
		if v := s.Call(sm, string(value.Marshal(rest))); !v.Correct {
			t.Errorf("%s #%d: the set without GetToday is %s %s", sm.Dialogue.File, sm.ID, v.Category, v.Error)
		}
	}
	if tests == 0 {
		t.Skip("the builtin data has no GetToday sample")
	}
}

// TestArgsBareNumbers: on our data a bare number written for a text parameter means its digits; for
// a number parameter it stays a number; the original's reading is untouched.
func TestArgsBareNumbers(t *testing.T) {
	tests := []struct {
		pred     string
		repaired bool
		key      string
		want     any
	}{
		{"[GetUserToken(username='amy', password=123456)]", true, "password", "123456"},
		{"[GetUserToken(username='amy', password=1.5)]", true, "password", "1.5"},
		{"[GetUserToken(username='amy', password='123456')]", true, "password", "123456"},
		{"[QueryHealthData(user_id='A1', start_time='x', end_time='y')]", true, "user_id", "A1"},
		{"[GetUserToken(username='amy', password=123456)]", false, "password", "123456"},
	}
	for _, tt := range tests {
		c, ok := call.ReadingFor(tt.repaired).Find(tt.pred)
		if !ok {
			t.Fatalf("%s: no call", tt.pred)
		}
		got, _ := Args(tools.APIs, c, tt.repaired).Get(tt.key)
		if !value.Equal(got, tt.want) {
			t.Errorf("%s (repaired %v): %s = %#v, want %#v", tt.pred, tt.repaired, tt.key, got, tt.want)
		}
	}
}

// TestOtherNextStep: a level-3 step answered with another gold call still to come (independent calls
// in another order), or with a list of them, is right; a call the plan never makes is not.
func TestOtherNextStep(t *testing.T) {
	data, ix := builtin(t)
	d, ok := ix.Scene("scene-peter-meeting-attendees-01.json")
	if !ok {
		t.Skip("the builtin data has no scene-peter-meeting-attendees-01.json")
	}
	steps := SceneSamples(d)
	if len(steps) < 3 {
		t.Fatalf("%d steps", len(steps))
	}
	status := func(name string) string {
		return `{"name":"TravelStatus","arguments":{"member_name":"` + name + `"}}`
	}
	tests := []struct {
		name string
		sm   Sample
		pred string
		want bool
	}{
		{"the step's gold", steps[1], status("John"), true},
		{"the next independent call first", steps[1], status("Mary"), true},
		{"both at once, in any order", steps[1], "[" + status("Mary") + "," + status("John") + "]", true},
		{"a call the plan never makes", steps[1], status("Peter"), false},
		{"a call already made", steps[2], status("John"), false},
	}
	for _, tt := range tests {
		if v := New(data, Replay).Call(tt.sm, tt.pred); v.Correct != tt.want {
			t.Errorf("%s: %s %s, want correct=%v", tt.name, v.Category, v.Error, tt.want)
		}
	}
}

// TestSearchForLaterTool: a level-3 step may look up a tool the plan needs later; a search that
// finds no tool of the plan is still wrong.
func TestSearchForLaterTool(t *testing.T) {
	data, ix := builtin(t)
	d, ok := ix.Scene("scene-birthday-movie-jerry-01.json")
	if !ok {
		t.Skip("the builtin data has no scene-birthday-movie-jerry-01.json")
	}
	first := SceneSamples(d)[0]
	for _, tt := range []struct {
		keywords string
		want     bool
	}{
		{"user movie preferences", true},
		{"movies a user has watched", true},
		{"send an email reminder", false},
	} {
		pred := `{"name":"ToolSearcher","arguments":{"keywords":"` + tt.keywords + `"}}`
		if v := New(data, Replay).Call(first, pred); v.Correct != tt.want {
			t.Errorf("search %q: %s %s, want correct=%v", tt.keywords, v.Category, v.Error, tt.want)
		}
	}
}

// TestSameNumber: outputs within floating-point rounding are the same; an infinity (a formula too
// large to compute) is near no finite number.
func TestSameNumber(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		a, b any
		want bool
	}{
		{2916.6666666666665, 2916.666666666667, true},
		{int64(3), 3.0, true},
		{2.0, 2.1, false},
		{inf, 2.0, false},
		{2.0, inf, false},
		{math.NaN(), 2.0, false},
		{"x", 2.0, false},
	}
	for _, tt := range tests {
		if got := sameNumber(tt.a, tt.b); got != tt.want {
			t.Errorf("sameNumber(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestEffectTextsAsChecksCompare: the world a call leaves holds the texts it wrote as the user worded
// them: an agenda item in the user's own casing is the item the gold adds, another item is not.
func TestEffectTextsAsChecksCompare(t *testing.T) {
	data, ix := builtin(t)
	sm, err := ix.Find(dataset.Level1, "acct-agenda-add-28.jsonl", 2)
	if err != nil || sm.GoldTurn().Tool != "AddAgenda" {
		t.Skipf("acct-agenda-add-28.jsonl #2 is not an AddAgenda sample (%v)", err)
	}
	content := sm.GoldTurn().Params.String("content")
	tests := []struct {
		content string
		want    bool
	}{
		{content, true},
		{strings.ToLower(content[:1]) + content[1:], true}, // as the user wrote it: "dinner with Arjun's parents"
		{"Lunch with the team", false},
	}
	for _, tt := range tests {
		if v := New(data, Replay).Call(sm, nativeWith(sm, "content", tt.content)); v.Correct != tt.want {
			t.Errorf("content %q: %s %s, want correct=%v", tt.content, v.Category, v.Error, tt.want)
		}
	}
}

func TestSameEffect(t *testing.T) {
	rec := func(content string) *value.Map { return value.MapOf("content", content, "time", "2023-04-09 19:30:00") }
	tests := []struct {
		name     string
		a, b     any
		anyOrder bool
		want     bool
	}{
		{"the same record", value.MapOf("1", rec("Dinner with Ana")), value.MapOf("1", rec("Dinner with Ana")), false, true},
		{"another casing", value.MapOf("1", rec("Dinner with Ana")), value.MapOf("1", rec("dinner with ana")), false, true},
		{"another text", value.MapOf("1", rec("Dinner with Ana")), value.MapOf("1", rec("Lunch")), false, false},
		{"another time", value.MapOf("1", value.MapOf("time", "2023-04-09 19:30:00")), value.MapOf("1", value.MapOf("time", "2023-04-10 19:30:00")), false, false},
		{"a record missing", value.MapOf("1", rec("a"), "2", rec("b")), value.MapOf("1", rec("a")), false, false},
		{"records renumbered, in order", value.MapOf("1", rec("a"), "2", rec("b")), value.MapOf("1", rec("b"), "2", rec("a")), false, false},
		{"records renumbered, any order", value.MapOf("1", rec("a"), "2", rec("b")), value.MapOf("1", rec("b"), "2", rec("a")), true, true},
		{"a list in another order", []any{"x", "y"}, []any{"y", "x"}, false, false},
		{"a list in any order", []any{"x", "y"}, []any{"y", "x"}, true, true},
		{"numbers exactly", int64(3), int64(4), false, false},
	}
	for _, tt := range tests {
		if got := sameEffect(tt.a, tt.b, tt.anyOrder); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestTodayNeed: the spellings of today a reply may give, for the builtin data's today and others.
func TestTodayNeed(t *testing.T) {
	for _, c := range []struct {
		today string
		want  []string
	}{
		{tools.Today, []string{tools.Today, "31 march", "march 31", "31st of march", "march 31st", "31st march", "31/03", "3/31", "03/31"}},
		{"2023-05-02", []string{"2023-05-02", "2 may", "may 2", "2nd of may", "may 2nd", "2nd may", "02/05", "5/2", "05/02"}},
		{"2023-11-12", []string{"2023-11-12", "12 november", "november 12", "12th of november", "november 12th", "12th november", "12/11", "11/12", "11/12"}},
		{"2023-06-23", []string{"2023-06-23", "23 june", "june 23", "23rd of june", "june 23rd", "23rd june", "23/06", "6/23", "06/23"}},
	} {
		got := todayNeed(c.today).Any
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("todayNeed(%s) = %q, want %q", c.today, got, c.want)
		}
	}
	if !statesToday("It is May 2nd.", "2023-05-02") || statesToday("It is March 31st.", "2023-05-02") {
		t.Error("statesToday does not read the stated today")
	}
}
