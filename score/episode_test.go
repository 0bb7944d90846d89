package score

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/value"
)

// sceneByFile returns a builtin scene's dialogue.
func sceneByFile(t *testing.T, ix *Index, file string) *dataset.Dialogue {
	t.Helper()
	for _, d := range ix.Scenes() {
		if d.File == file {
			return d
		}
	}
	t.Fatalf("no builtin scene %s", file)
	return nil
}

// nativeCall is a native call's JSON.
func nativeCall(name string, args ...any) string {
	return string(value.Marshal(value.MapOf("name", name, "arguments", value.MapOf(args...))))
}

// goldPlan is a scene's gold calls as native calls, in order.
func goldPlan(d *dataset.Dialogue) []string {
	var out []string
	for i := range d.Turns {
		if d.Turns[i].Role == dataset.API {
			out = append(out, GoldNative(&d.Turns[i]))
		}
	}
	return out
}

// without is plan without the calls whose JSON contains any of the texts.
func without(plan []string, texts ...string) []string {
	var out []string
	for _, c := range plan {
		keep := true
		for _, s := range texts {
			keep = keep && !strings.Contains(c, s)
		}
		if keep {
			out = append(out, c)
		}
	}
	return out
}

// replacing is plan with every call containing old replaced by new.
func replacing(plan []string, old, new string) []string {
	out := make([]string, len(plan))
	for i, c := range plan {
		out[i] = strings.ReplaceAll(c, old, new)
	}
	return out
}

// TestEpisodeJudgesWhatThePlanDid: an episode is judged by the effect of its calls on the world and
// by their values, not by their text or order; lookups are free, writes nobody asked for are not;
// ToolSearcher is never required; the final answer must say what the scene asks; the milestone
// credit is the share of the required gold calls achieved.
func TestEpisodeJudgesWhatThePlanDid(t *testing.T) {
	data, ix := builtin(t)
	gold := func(file string) []string { return goldPlan(sceneByFile(t, ix, file)) }
	household := gold("scene-household-income-01.json")
	tencent := gold("scene-tencent-wfh-call-01.json")
	alibaba := gold("scene-alibaba-travelers-sync-01.json")
	const goldReply = "\x00gold" // the scene's GoldReply
	tests := []struct {
		name, file string
		calls      []string
		reply      string
		success    bool
		milestone  float64
		stateMatch bool
	}{
		{"the gold plan", "scene-household-income-01.json", household, goldReply, true, 1, true},
		{"independent calls in another order, a formula of the same value", "scene-household-income-01.json",
			[]string{household[1], household[0], household[3], household[2], nativeCall("Calculator", "formula", "70000+140000")}, goldReply, true, 1, true},
		{"the same value by another formula", "scene-household-income-01.json",
			append(household[:4:4], nativeCall("Calculator", "formula", "2*105000")), goldReply, true, 1, true},
		{"a wrong formula", "scene-household-income-01.json",
			append(household[:4:4], nativeCall("Calculator", "formula", "140000+7000")), goldReply, false, 0.8, true},
		{"half the plan", "scene-household-income-01.json", household[:2], goldReply, false, 0.4, true},
		{"no call at all", "scene-household-income-01.json", nil, goldReply, false, 0, true},
		{"extra lookups, a repeated search", "scene-la-to-sf-dinner-01.json",
			append(gold("scene-la-to-sf-dinner-01.json"),
				nativeCall("HotelAvailability", "destination", "San Francisco", "check_in_date", "2022-01-02", "check_out_date", "2022-01-03"),
				nativeCall("FlightSearch", "source", "Los Angeles", "destination", "San Francisco", "travel_dates", "2022-01-02"),
				nativeCall("ToolSearcher", "keywords", "restaurants nearby")), goldReply, true, 1, true},
		{"no search where the gold searched", "scene-ts-engineer-net-pay-01.json",
			without(gold("scene-ts-engineer-net-pay-01.json"), "ToolSearcher"), goldReply, true, 1, true},
		{"searches only", "scene-ts-engineer-net-pay-01.json",
			[]string{nativeCall("ToolSearcher", "keywords", "occupation salary"), nativeCall("ToolSearcher", "keywords", "tax calculator")}, goldReply, false, 0, true},
		{"free texts in other words", "scene-tencent-wfh-call-01.json",
			replacing(replacing(tencent, `"meeting_topic":"Video call"`, `"meeting_topic":"WFH team call"`), `"content":"Video call with Jerry"`, `"content":"Reminder: our video call with Jerry"`),
			goldReply, true, 1, true},
		{"a free text about something else", "scene-tencent-wfh-call-01.json",
			replacing(tencent, `"content":"Video call with Jerry"`, `"content":"Dentist appointment"`), goldReply, false, 0.8, false},
		{"the reminder also mailed to someone else", "scene-tencent-wfh-call-01.json",
			append(tencent, nativeCall("EmailReminder", "content", "Video call with Jerry", "time", "2023-04-03 10:00:00", "location", "Tencent Meeting room 88421", "recipient", "jerry@example.com")),
			goldReply, false, 1, false},
		{"the optional lookup of the user's own status skipped", "scene-tencent-wfh-call-01.json",
			without(tencent, `"member_name":"Tom"`), goldReply, true, 1, true},
		{"the travelling user invited too", "scene-tencent-wfh-call-01.json",
			replacing(tencent, `"attendees":["Jerry"]`, `"attendees":["Tom","Jerry"]`), goldReply, false, 0.8, false},
		{"attendees in another order", "scene-alibaba-travelers-sync-01.json",
			replacing(alibaba, `"attendees":["Mary","Peter"]`, `"attendees":["Peter","Mary"]`), goldReply, true, 1, true},
		{"a dictated topic reworded", "scene-alibaba-travelers-sync-01.json",
			replacing(alibaba, `Covering tasks for travelling colleagues`, `Cover for John`), goldReply, false, 0.8, false},
		{"an unrequested meeting", "scene-bytedance-design-review-01.json",
			append(gold("scene-bytedance-design-review-01.json"), nativeCall("AddMeeting", "meeting_topic", "Design review", "start_time", "2023-04-07 14:00:00",
				"end_time", "2023-04-07 15:00:00", "location", "Zoom", "attendees", []any{"Alice"})), goldReply, false, 1, false},
		{"genres in another order", "scene-john-and-jerry-movie-01.json",
			replacing(gold("scene-john-and-jerry-movie-01.json"), `"preferences":["Comedy","Drama"]`, `"preferences":["Drama","Comedy"]`), goldReply, true, 1, true},
		{"other genres", "scene-john-and-jerry-movie-01.json",
			replacing(gold("scene-john-and-jerry-movie-01.json"), `"preferences":["Comedy","Drama"]`, `"preferences":["Comedy","Drama","Romance"]`), goldReply, false, 0.8, true},
		{"the tool's vocabulary in any case", "scene-tom-moved-to-paris-01.json",
			replacing(gold("scene-tom-moved-to-paris-01.json"), `"weather_conditions":"Sunny"`, `"weather_conditions":"sunny"`), goldReply, true, 1, true},
		{"one formula for an optional intermediate step", "scene-pm-raise-01.json",
			[]string{nativeCall("GetOccupationSalary", "occupation", "Product Manager"), nativeCall("Calculator", "formula", "130000*110/100"),
				nativeCall("TaxCalculator", "salary", 143000)}, goldReply, true, 1, true},
		{"the optional difference left to the answer", "scene-teacher-to-engineer-01.json",
			without(gold("scene-teacher-to-engineer-01.json"), `"name":"Calculator"`), "You would take home 84,000 a year instead of 33,600.", true, 1, true},
		{"a wrong conclusion after the right calls", "scene-data-scientist-take-home-01.json",
			gold("scene-data-scientist-take-home-01.json"), "You would take home 150,000 a year.", false, 1, true},
		{"no final answer where the user asked", "scene-data-scientist-take-home-01.json",
			gold("scene-data-scientist-take-home-01.json"), "", false, 1, true},
		{"the answer in other words", "scene-missing-post-likes-01.json",
			gold("scene-missing-post-likes-01.json"), "Post 14 has 140 likes, but I couldn't find post 16: it doesn't exist.", true, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := sceneByFile(t, ix, tt.file)
			e := NewEpisode(data.Base, d)
			for _, c := range tt.calls {
				pc, ok := call.ReadingFor(true).Find(c)
				if !ok {
					t.Fatalf("not a call: %s", c)
				}
				if got := e.Step(pc); got.Error != "" {
					t.Fatalf("%s: %s", c, got.Error)
				}
			}
			reply := tt.reply
			if reply == goldReply {
				reply = GoldReply(d)
			}
			o := e.Finish(data.Base, reply)
			if o.Success != tt.success || o.Milestone != tt.milestone || o.StateMatch != tt.stateMatch || o.Recall != o.Milestone {
				t.Errorf("success %v, milestone %v, state match %v; want %v, %v, %v\noutcome %+v", o.Success, o.Milestone, o.StateMatch, tt.success, tt.milestone, tt.stateMatch, o)
			}
			if o.Success != (o.StateMatch && o.Matched == o.Gold && o.AnswerMet) {
				t.Errorf("success is not the state, the milestones and the answer: %+v", o)
			}
		})
	}
}

// TestSearchFinds: at a step of our level-3 scenes whose gold tool the prompt does not show, a
// ToolSearcher call that finds the gold's tool is right, and so is one that finds a tool the plan
// needs later (otherNextStep); one that finds a tool the plan never uses is not, nor is a search
// where the tool is shown (the history used it). Level 2 keeps its verdicts.
func TestSearchFinds(t *testing.T) {
	data, ix := builtin(t)
	s := New(data, Replay)
	household := SceneSamples(sceneByFile(t, ix, "scene-household-income-01.json"))
	movies := SceneSamples(sceneByFile(t, ix, "scene-movies-for-mary-01.json"))
	search := func(kw string) string { return nativeCall("ToolSearcher", "keywords", kw) }
	tests := []struct {
		name     string
		sm       Sample
		pred     string
		category string
		called   string
	}{
		{"the first step: a search that finds the tool", household[0], search("occupation salary"), Correct, "ToolSearcher"},
		{"the first step, in the text form", household[0], "[ToolSearcher(keywords='salary of an occupation')]", Correct, "ToolSearcher"},
		{"the first step: a search for a tool the plan needs later", household[0], search("tax calculator"), Correct, "ToolSearcher"},
		{"the first step: a search that finds a tool the plan never uses", household[0], search("send an email reminder"), APINameMismatch, "ToolSearcher"},
		{"the first step: the gold call itself", household[0], GoldNative(household[0].GoldTurn()), Correct, "GetOccupationSalary"},
		{"a tool the history used is shown: no search needed", household[1], search("occupation salary"), APINameMismatch, "ToolSearcher"},
		{"a new tool later on", household[2], search("tax after salary"), Correct, "ToolSearcher"},
		{"a tool found by its own description", movies[1], search("Recommend movies for a list of favourite genres."), Correct, "ToolSearcher"},
		{"two searches, for this step's tool and a later one", household[0], "[ToolSearcher(keywords='occupation salary'), ToolSearcher(keywords='tax')]", Correct, ""},
		{"two searches, one for a tool the plan never uses", household[0], "[ToolSearcher(keywords='occupation salary'), ToolSearcher(keywords='send an email reminder')]", ExtraCall, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := s.Call(tt.sm, tt.pred)
			if v.Category != tt.category || (tt.called != "" && v.Called != tt.called) {
				t.Errorf("%s: %s (called %s), want %s (called %s)", tt.pred, v.Category, v.Called, tt.category, tt.called)
			}
		})
	}
	// Level 2 is judged as before: its prompts show only ToolSearcher and a search where the gold
	// calls a tool is the wrong tool.
	for _, sm := range ix.All() {
		if sm.Dialogue.Level != dataset.Level2 || sm.Kind != KindCall || sm.GoldTurn().Tool == "ToolSearcher" || len(sm.Set) > 0 {
			continue
		}
		if _, ok := s.SearchFinds(sm, search(sm.GoldTurn().Tool)); ok {
			t.Errorf("%s #%d: the rule applied to level 2", sm.Dialogue.File, sm.ID)
		}
		if ts := offered(sm); len(ts) != 1 || ts[0].Name != "ToolSearcher" {
			t.Errorf("%s #%d: level 2 offers %d tools", sm.Dialogue.File, sm.ID, len(ts))
		}
		break
	}
}

// TestOfferedKnownTools: a scene step's prompt shows ToolSearcher and the tools its history knows,
// those it called and those a search found, in the order met; every step's gold tool is shown or
// found by a search with its own description or the words of its name.
func TestOfferedKnownTools(t *testing.T) {
	data, ix := builtin(t)
	names := func(sm Sample) string {
		var out []string
		for _, tl := range offered(sm) {
			out = append(out, tl.Name)
		}
		return strings.Join(out, " ")
	}
	household := SceneSamples(sceneByFile(t, ix, "scene-household-income-01.json"))
	if got, want := names(household[0]), "ToolSearcher"; got != want {
		t.Errorf("first step offers %s, want %s", got, want)
	}
	if got, want := names(household[4]), "ToolSearcher GetOccupationSalary TaxCalculator"; got != want {
		t.Errorf("last step offers %s, want %s", got, want)
	}
	ts := SceneSamples(sceneByFile(t, ix, "scene-ts-engineer-net-pay-01.json"))
	if got, want := names(ts[1]), "ToolSearcher GetOccupationSalary"; got != want {
		t.Errorf("after a search, the step offers %s, want %s (the tool it found)", got, want)
	}
	s := New(data, Replay)
	steps, unfair := 0, 0
	for _, d := range ix.Scenes() {
		for _, sm := range SceneSamples(d) {
			steps++
			gt := sm.GoldTurn()
			if strings.Contains(" "+names(sm)+" ", " "+gt.Tool+" ") {
				continue
			}
			tool, _ := d.ToolCatalog().Lookup(gt.Tool)
			for _, kw := range []string{tool.Description, splitName(gt.Tool)} {
				if v := s.Call(sm, nativeCall("ToolSearcher", "keywords", kw)); !v.Correct {
					unfair++
					t.Errorf("%s step %d: %s is not shown, and a search for %q finds another tool", d.File, sm.ID, gt.Tool, kw)
				}
			}
		}
	}
	t.Logf("%d step samples, each gold tool shown or found (%d not)", steps, unfair)
}

// splitName is a tool name's words, lowered ("TaxCalculator" -> "tax calculator").
func splitName(name string) string {
	var b strings.Builder
	for i, r := range name {
		if 'A' <= r && r <= 'Z' && i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}
