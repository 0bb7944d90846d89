package score

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
)

// TestCeilingPreset: Ceiling takes a preset replay where the preset has one and computes the others;
// GoldReplay always computes, whatever the preset says; Ceilings lists what Ceiling gave.
func TestCeilingPreset(t *testing.T) {
	d, err := dataset.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	computed := NewIndex(d).GoldReplay(Replay, dataset.Level2, false)
	if computed.Total == 0 {
		t.Fatal("the builtin data's level 2 replays no gold call")
	}
	marker := Replayed{Level: dataset.Level1, Form: "text", Total: -1}
	ix := NewIndex(d)
	asked := 0
	ix.Preset(func(mode Mode, level string, native bool) (Replayed, bool) {
		asked++
		return marker, mode == Replay && level == dataset.Level1 && !native
	})
	for _, tc := range []struct {
		name  string
		got   func() Replayed
		total int
	}{
		{"preset", func() Replayed { return ix.Ceiling(Replay, dataset.Level1, false) }, -1},
		{"preset again (kept)", func() Replayed { return ix.Ceiling(Replay, dataset.Level1, false) }, -1},
		{"not preset: computed", func() Replayed { return ix.Ceiling(Replay, dataset.Level2, false) }, computed.Total},
		{"explicit replay ignores the preset", func() Replayed { return ix.GoldReplay(Replay, dataset.Level1, false) }, NewIndex(d).GoldReplay(Replay, dataset.Level1, false).Total},
	} {
		if got := tc.got(); got.Total != tc.total {
			t.Errorf("%s: total %d, want %d", tc.name, got.Total, tc.total)
		}
	}
	if asked != 2 {
		t.Errorf("the preset was asked %d times, want 2 (once per replay Ceiling did not have)", asked)
	}

	// Ceilings lists what Ceiling gave, preset or computed, and not what only GoldReplay computed.
	given := map[string]int{}
	ix.Ceilings(func(mode Mode, level string, native bool, r Replayed) {
		given[fmt.Sprint(mode, " ", level, " ", native)] = r.Total
	})
	want := map[string]int{fmt.Sprint(Replay, " ", dataset.Level1, " false"): -1, fmt.Sprint(Replay, " ", dataset.Level2, " false"): computed.Total}
	if !reflect.DeepEqual(given, want) {
		t.Errorf("Ceilings gave %v, want %v", given, want)
	}
}

// TestIndexBuildsFilesOnUse: an index builds a file's samples when a prediction first names it, and
// only then (a run judging a few files of the builtin data parses only theirs); names no dialogue
// has are not kept; every file's samples, built this way, are All's; and Errors finds the problems
// of every file, asked or not.
func TestIndexBuildsFilesOnUse(t *testing.T) {
	good := dialogue(t, dataset.Level1, "good.jsonl", strings.Join([]string{user, api, ai}, "\n"))
	both := dialogue(t, dataset.Level2, "good.jsonl", strings.Join([]string{user, api, ai}, "\n"))
	endsInCall := dialogue(t, dataset.Level1, "ends-in-call.jsonl", strings.Join([]string{user, api}, "\n"))
	data := dataset.NewData("test", []*dataset.Dialogue{endsInCall, good, both})
	data.Base = tools.NewBase(nil)
	ix := NewIndex(data)
	if len(ix.files) != 0 {
		t.Fatalf("a new index holds %d files", len(ix.files))
	}
	for _, level := range []string{dataset.Level1, dataset.Level2} {
		if sm, err := ix.Find(level, "good.jsonl", 0); err != nil || sm.Dialogue.Level != level {
			t.Errorf("Find(%s, good.jsonl, 0) = %v, %v", level, sm.Dialogue, err)
		}
	}
	if len(ix.files) != 1 {
		t.Errorf("after one file's predictions the index holds %d files", len(ix.files))
	}
	for i := range 100 {
		if _, err := ix.Find(dataset.Level1, fmt.Sprintf("none-%d.jsonl", i), 0); err == nil || !strings.Contains(err.Error(), "no dialogue file") {
			t.Fatalf("a file the data lacks: %v", err)
		}
	}
	if len(ix.files) != 1 {
		t.Errorf("names no dialogue has grew the index to %d files", len(ix.files))
	}
	errs := ix.Errors()
	if len(errs) != 1 || errs[0].File != "ends-in-call.jsonl" {
		t.Errorf("Errors() = %v, want the dialogue that ends in a call", errs)
	}
	all := ix.All()
	if len(all) == 0 {
		t.Fatal("All() is empty")
	}
	for _, s := range all {
		got, err := ix.Find(s.Dialogue.Level, s.Dialogue.File, s.ID)
		if err != nil || !reflect.DeepEqual(got, s) {
			t.Errorf("%s %s %d: Find gives %+v, %v; All %+v", s.Dialogue.Level, s.Dialogue.File, s.ID, got, err, s)
		}
	}
}

// TestIndexConcurrentFirstUses: the builtin data's index is shared by the sessions of a process, in
// several goroutines natively, so first uses of its files and scenes may race: every goroutine finds
// the same samples, and Scenes, Errors, All and Ceiling agree (run with -race).
func TestIndexConcurrentFirstUses(t *testing.T) {
	data, err := dataset.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	want := NewIndex(data).All()
	ix := NewIndex(data)
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range want {
				s := want[(i+g*len(want)/6)%len(want)]
				got, err := ix.Find(s.Dialogue.Level, s.Dialogue.File, s.ID)
				if err != nil || got.ID != s.ID || got.Dialogue.File != s.Dialogue.File || got.Kind != s.Kind {
					t.Errorf("goroutine %d: %s %s %d: %+v, %v", g, s.Dialogue.Level, s.Dialogue.File, s.ID, got, err)
					return
				}
			}
			switch g % 3 {
			case 0:
				if len(ix.Scenes()) != len(data.Scenes()) {
					t.Errorf("goroutine %d: %d scenes", g, len(ix.Scenes()))
				}
			case 1:
				if e := ix.Errors(); len(e) != 0 {
					t.Errorf("goroutine %d: errors %v", g, e)
				}
			case 2:
				if c := ix.Ceiling(Fresh, dataset.Level3, false); c.Total == 0 {
					t.Errorf("goroutine %d: an empty level-3 ceiling", g)
				}
			}
		}()
	}
	wg.Wait()
	if got := ix.All(); len(got) != len(want) {
		t.Errorf("All: %d samples, want %d", len(got), len(want))
	}
}

func TestParsePredictions(t *testing.T) {
	in := "{\"file\":\"a.jsonl\",\"id\":0,\"pred\":\"x\"}\n\nnot json\n{\"file\":\"a.jsonl\",\"id\":1.5,\"pred\":\"x\"}\n{\"level\":\"level-2-toolsearcher\",\"file\":\"b.jsonl\",\"id\":2,\"pred\":{\"name\":\"GetToday\",\"arguments\":{}}}\n"
	preds, errs := ParsePredictions("p.jsonl", []byte(in), dataset.Level1)
	if len(preds) != 2 || len(errs) != 2 {
		t.Fatalf("preds %v errs %v", preds, errs)
	}
	if errs[0].Line != 3 || errs[1].Line != 4 {
		t.Errorf("error lines %d, %d; want 3, 4", errs[0].Line, errs[1].Line)
	}
	if preds[0].Level != dataset.Level1 || preds[1].Level != dataset.Level2 || preds[1].Pred != `{"name":"GetToday","arguments":{}}` {
		t.Errorf("preds = %+v", preds)
	}
}
