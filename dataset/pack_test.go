package dataset

import (
	"bytes"
	"os"
	"testing"
)

// TestBuiltinPackFresh: the embedded pack holds exactly the files of dataset/builtin.
func TestBuiltinPackFresh(t *testing.T) {
	files, err := ReadFS(os.DirFS("builtin"), ".")
	if err != nil {
		t.Fatal(err)
	}
	packed, err := Unpack(builtinPack)
	if err != nil {
		t.Fatal(err)
	}
	if len(packed) != len(files) {
		t.Fatalf("builtin.pack has %d files, dataset/builtin %d: run `go generate ./dataset`", len(packed), len(files))
	}
	for p, b := range files {
		if !bytes.Equal(packed[p], b) {
			t.Fatalf("builtin.pack is stale for %s: run `go generate ./dataset`", p)
		}
	}
}

func TestPackRoundTrip(t *testing.T) {
	in := Files{"a/b.json": []byte(`{"x":1}`), "c.txt": nil, "d": bytes.Repeat([]byte("xyz"), 10000)}
	var b bytes.Buffer
	if err := Pack(&b, in); err != nil {
		t.Fatal(err)
	}
	out, err := Unpack(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range in {
		if !bytes.Equal(out[p], c) {
			t.Errorf("%s: round trip changed the content", p)
		}
	}
	if _, err := Unpack(b.Bytes()[:b.Len()/2]); err == nil {
		t.Error("a truncated pack must fail")
	}
}

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
