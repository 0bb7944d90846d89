package variant

import (
	"maps"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/value"
)

// userRecords returns the records of the user databases in files that have a username and a time,
// each as its text and its username.
func userRecords(files dataset.Files) [][2]string {
	var recs [][2]string
	for name := range userFields {
		db := files["init_database/"+name+".json"]
		ms, _, _ := members(db)
		for _, m := range ms {
			v, _ := value.Decode(db[m.start:m.end])
			if rv, ok := v.(*value.Map); ok && rv.String("username") != "" && len(clocks(string(db[m.start:m.end]))) > 0 {
				recs = append(recs, [2]string{string(db[m.start:m.end]), rv.String("username")})
			}
		}
	}
	return recs
}

// named reports whether the dialogue text s names one of recs: writes its username, one of its
// dates and one of its times.
func named(s string, recs [][2]string) bool {
	w, _ := writesOf(s)
	for _, r := range recs {
		if rw, _ := writesOf(r[0]); strings.Contains(s, r[1]) && w.names(&rw) {
			return true
		}
	}
	return false
}

// TestNamedRecordsKeepTimes: a dialogue that names a record of the world by its date and time ("my
// parents' evening on 27 June at 5:30pm", "the meeting on May 9 at 13:30", "my reminder on June 22
// at noon") names one in its variant's world too, whether its times moved with the record's or
// both stayed, and whether the dialogue's dates moved, stayed or it is served as it is (its records
// then keep their dates, see pinDates): a gold call never writes back a time the user did not ask to
// change, and a record is never where the dialogue says it is not. Seeds whose times move by
// different hours.
func TestNamedRecordsKeepTimes(t *testing.T) {
	files := builtinFiles(t)
	before := userRecords(files)
	hours := map[int]bool{}
	for _, seed := range []uint64{61, 74, 88, 1, 2} {
		_, out, rep := variantOf(t, seed)
		hours[rep.Hours] = true
		after := userRecords(out)
		checked := 0
		for _, fr := range rep.Files {
			if !strings.HasPrefix(fr.Path, "lv1-lv2-samples/") || !named(string(files[fr.Path]), before) {
				continue
			}
			checked++
			// A month written in lower case stays so: "april 11" becomes "may 16", which eachDate
			// does not read (the word "may"); the test reads it.
			if !named(strings.ReplaceAll(string(out[fr.Path]), "may ", "May "), after) {
				t.Errorf("seed %d (hours %d): %s names a record of the world, its variant none of the variant's world", seed, rep.Hours, fr.Path)
			}
		}
		if checked < 20 {
			t.Errorf("seed %d: only %d dialogues name a record by its date and time", seed, checked)
		}
	}
	if len(hours) < 2 {
		t.Errorf("the seeds moved times by %v hours only", hours)
	}
}

// TestLaterStaysLater: "Giulia can only make it later, move the lunch to 1:30 pm": with the hours
// that would take 1:30 pm out of lunchtime, the dialogue keeps its times, and so does the lunch
// (at 12:30) it names by what it is about, so the move is still later, and to the time the user
// asked.
func TestLaterStaysLater(t *testing.T) {
	const file = "lv1-lv2-samples/level-1-given-desc/acct-agenda-modify-32.jsonl"
	checked := 0
	for seed := uint64(1); seed <= 12; seed++ {
		files, out, rep := variantOf(t, seed)
		if rep.Hours != 2 {
			continue
		}
		checked++
		if !strings.Contains(string(files[file]), "13:30:00") || !strings.Contains(string(out[file]), "13:30:00") {
			t.Fatalf("seed %d: %s does not keep its 1:30 pm", seed, file)
		}
		lunches := 0
		for _, r := range userRecords(out) {
			if strings.HasPrefix(r[0], "{\n    \"content\": \"Lunch with") && strings.Contains(string(out[file]), r[1]) {
				lunches++
				if !strings.Contains(r[0], " 12:30:00") {
					t.Errorf("seed %d: the lunch %s named is at another time: %s", seed, file, r[0])
				}
			}
		}
		if lunches == 0 {
			t.Errorf("seed %d: no lunch of the user of %s in the variant's world", seed, file)
		}
	}
	if checked == 0 {
		t.Fatal("no seed from 1 to 12 moves times by 2 hours")
	}
}

func TestField(t *testing.T) {
	for _, c := range []struct{ rec, key, want string }{
		{`{"content": "Lunch with Giulia", "username": "SofiaRossi"}`, "username", "SofiaRossi"},
		{`{"content":"Lunch","username":"SofiaRossi"}`, "content", "Lunch"},
		{`{"content": "Say \"hi\"", "username": "x"}`, "content", ""},
		{`{"attendees": ["A"], "username": ""}`, "username", ""},
		{`{"time": "2023-04-07 12:30:00"}`, "username", ""},
		{`{"username": 7}`, "username", ""},
	} {
		if got := field(c.rec, c.key); got != c.want {
			t.Errorf("field(%q, %q) = %q, want %q", c.rec, c.key, got, c.want)
		}
	}
}

// TestPinDatesCascade: a record a file served as it is names keeps its date and time; a file whose
// dates would move that names it is served with them kept (its versions that move them dropped,
// the report saying why), and the records that file names stay in turn, so a third file naming one
// of those keeps its dates on the second pass. A record of a user who moved is pinned in the text a
// file finds: the original for a file served as it is, the copy for one whose values moved, so a
// file whose values moved, finding the copy, keeps its dates moving.
func TestPinDatesCascade(t *testing.T) {
	const (
		call   = `{"username": "AnaTorres", "meeting_topic": "Onboarding call", "start_time": "2023-04-12 16:00:00"}`
		sync   = `{"username": "BoLind", "meeting_topic": "Budget sync", "start_time": "2023-04-20 09:00:00"}`
		dinner = `{"username": "CoLee", "content": "Team dinner", "time": "2023-04-21 19:00:00"}`
	)
	texts := map[string]string{
		"a.jsonl": `{"role": "User", "text": "AnaTorres here: cancel my onboarding call on April 12 at 4pm"}`,
		"b.jsonl": `{"role": "User", "text": "BoLind here: my budget sync on April 20 at 9am"}`,
		"c.jsonl": `{"role": "User", "text": "BoLind: the sync of 2023-04-20 09:00. CoLee: the dinner of 2023-04-21 19:00"}`,
		"d.jsonl": `{"role": "User", "text": "CoLee: move the team dinner of April 21 at 7pm"}`,
		"e.jsonl": `{"role": "User", "text": "AnaTorres: the onboarding call on April 12 at 4pm, and BoLind's lunch on April 22 at 1pm"}`,
	}
	files, tries := dataset.Files{}, map[string][]version{}
	r := newReplacer([]Move{{Kind: KindUsername, From: "AnaTorres", To: "EvaKamau", mode: exact}})
	for pth, s := range texts {
		files[pth] = []byte(s)
		moved := r.replace(s, nil)
		tries[pth] = []version{{text: moved + " (dates moved)", hits: []bool{true}}, {text: moved, hits: []bool{true}, kept: true}, {text: s, kept: true}}
	}
	tries["a.jsonl"] = tries["a.jsonl"][2:] // served as it is
	tries["b.jsonl"] = tries["b.jsonl"][2:]
	v := &versions{files: files, out: maps.Clone(files), tries: tries, why: map[string]Unchanged{}, r: r,
		f: &found{texts: sortedKeys(texts), scenes: map[string]bool{}}}
	byUser := map[string][]*record{
		"AnaTorres": {{s: call, user: "AnaTorres", about: "onboarding call"}},
		"BoLind":    {{s: sync, user: "BoLind", about: "budget sync"}},
		"CoLee":     {{s: dinner, user: "CoLee", about: "team dinner"}},
	}
	rep := &Report{}
	pinned := v.pinDates(byUser, rep)
	if !pinned[call] || pinned[r.replace(call, nil)] || !pinned[sync] || !pinned[dinner] || rep.DatesPinned != 3 {
		t.Errorf("pinned %v (%d), want the call as it is, the sync and, on a second pass, the dinner", pinned, rep.DatesPinned)
	}
	for _, pth := range []string{"c.jsonl", "d.jsonl"} {
		vs := v.tries[pth]
		if len(vs) != 2 || !vs[0].kept || !vs[1].kept || string(v.out[pth]) != vs[0].text || v.why[pth].Check != checkPinned {
			t.Errorf("%s names a pinned record but is served %q, its versions %v, why %v", pth, v.out[pth], vs, v.why[pth])
		}
	}
	if vs := v.tries["e.jsonl"]; vs[0].kept || v.why["e.jsonl"].Check != "" {
		t.Errorf("e.jsonl names the copy of the call, which moves, but keeps its dates")
	}
	// A file with its values moved finds the copy of a moved user's record.
	v.tries = map[string][]version{"a.jsonl": {{text: r.replace(texts["a.jsonl"], nil), hits: []bool{true}, kept: true}, {text: texts["a.jsonl"], kept: true}}}
	if pinned := v.pinDates(byUser, &Report{}); !pinned[r.replace(call, nil)] || pinned[call] {
		t.Errorf("the call a file with its values moved names: pinned as %v", pinned)
	}
}
