package dataset

import "testing"

// TestBuiltinLoads: the embedded data loads without problems, with every database of the world.
func TestBuiltinLoads(t *testing.T) {
	d, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if errs := BuiltinErrors(); len(errs) > 0 {
		t.Fatalf("builtin data has problems, first: %v", errs[0])
	}
	names := map[string]bool{}
	for _, n := range d.Base.Names() {
		names[n] = true
	}
	for _, want := range []string{"Account", "Agenda", "Alarm", "Appointments", "Bank", "Dictionary", "HealthData", "History",
		"Hotel", "ImageCaptioning", "Meeting", "QuestionAnswering", "Reminder", "Scenes", "SearchEngine",
		"SpeechRecognition", "Stock", "Symptom", "TimeSwitch", "Translate", "Wiki"} {
		if !names[want] {
			t.Errorf("the builtin world lacks the %s database", want)
		}
	}
	if d.Tables != "world" {
		t.Errorf("builtin Dictionary/Translate tables come from %q, want the world's own", d.Tables)
	}
	if len(d.Dialogues()) < 264 || len(d.Scenes()) < 50 {
		t.Errorf("builtin data has %d dialogues and %d scenes", len(d.Dialogues()), len(d.Scenes()))
	}
}
