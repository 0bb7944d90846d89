package variant

import (
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
