package engine

import (
	"bytes"
	"context"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// TestLoadVariant loads variants of the builtin data by seed: each is named for its seed, says what
// moved, replays to the ceiling, and has a data hash of its own; seed 0 is the builtin data.
func TestLoadVariant(t *testing.T) {
	s := New()
	do := func(_ context.Context, b []byte) ([]byte, error) { return s.Handle(b), nil }
	hash := func() string {
		h, err := run.DataHash(context.Background(), do, []string{"level-1-given-desc", "level-2-toolsearcher", "level-3"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	original := hash()
	seen := map[string]int64{original: 0}
	for _, seed := range []int64{1, 2, protocol.MaxSeed} {
		loaded := ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed})
		if loaded.Variant == nil || loaded.Variant.Seed != seed || len(loaded.Errors) != 0 {
			t.Fatalf("seed %d: loaded %+v", seed, loaded)
		}
		if !strings.HasPrefix(loaded.Name, dataset.BuiltinName+"~") {
			t.Errorf("seed %d: the variant's data is named %q", seed, loaded.Name)
		}
		moved := 0
		for _, n := range loaded.Variant.Moved {
			moved += n
		}
		if moved == 0 || loaded.Variant.Varied == 0 {
			t.Errorf("seed %d: nothing moved: %+v", seed, loaded.Variant)
		}
		if hello := ask[protocol.Hello](t, s, protocol.Request{Op: protocol.OpHello}); hello.Variant == nil || hello.Variant.Digest != loaded.Variant.Digest {
			t.Errorf("seed %d: hello does not name the variant: %+v", seed, hello.Variant)
		}
		for _, form := range []string{protocol.FormText, protocol.FormNative} {
			rep := ask[protocol.Replay](t, s, protocol.Request{Op: protocol.OpReplay, Form: form})
			for _, l := range rep.Levels {
				if l.Accepted != l.Total || l.Total == 0 {
					t.Errorf("seed %d, %s form: %s replays %d of %d gold calls", seed, form, l.Level, l.Accepted, l.Total)
				}
			}
		}
		h := hash()
		if other, dup := seen[h]; dup {
			t.Errorf("seed %d has the data hash of seed %d (%s)", seed, other, h)
		}
		seen[h] = seed
	}
	ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Builtin: true})
	if hello := ask[protocol.Hello](t, s, protocol.Request{Op: protocol.OpHello}); hello.Variant != nil || hello.Data != dataset.BuiltinName {
		t.Errorf("after loading the builtin data again: %+v", hello)
	}
	if h := hash(); h != original {
		t.Errorf("the builtin data's hash changed after its variants: %s, was %s", h, original)
	}
}

// TestLoadVariantSameBytes makes one seed's variant in two sessions: the same dialogues, byte for
// byte (a variant is the seed's, not the session's).
func TestLoadVariantSameBytes(t *testing.T) {
	var got [2][]byte
	for i := range got {
		s := New()
		ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: 7})
		for _, d := range ask[[]protocol.DialogueSummary](t, s, protocol.Request{Op: protocol.OpDialogues}) {
			dl := s.Handle(mustEncode(t, protocol.Request{Op: protocol.OpDialogue, Level: d.Level, File: d.File}))
			got[i] = append(got[i], dl...)
		}
		got[i] = append(got[i], s.Handle(mustEncode(t, protocol.Request{Op: protocol.OpWorldFiles}))...)
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Error("two sessions made different bytes of variant 7")
	}
}

func TestLoadVariantRefused(t *testing.T) {
	for _, body := range []string{
		`{"v":1,"op":"load","seed":3,"files":{"a":"b"}}`,
		`{"v":1,"op":"load","builtin":true,"seed":-1}`,
		`{"v":1,"op":"load","builtin":true,"seed":9007199254740992}`,
		`{"v":1,"op":"load","builtin":true,"seed":"3"}`,
	} {
		resp := New().Handle([]byte(body))
		if _, err := protocol.Result(resp); err == nil || !strings.Contains(err.Error(), "seed") {
			t.Errorf("%s: answered %s, want an error about the seed", body, resp)
		}
	}
}

func mustEncode(t *testing.T, r protocol.Request) []byte {
	t.Helper()
	b, err := protocol.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVariantCountsWithoutParsing: a variant's load counts its dialogues and scenes from its report,
// unparsed; once every file is parsed, the data counts the same, and no dialogue has an index error
// (a variant keeps its original's turns).
func TestVariantCountsWithoutParsing(t *testing.T) {
	for _, seed := range []int64{1001, 1003, 1042, 1<<40 + 1} { // seeds no other test of the package loads (a process keeps its variants)
		s := New()
		loaded := ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed})
		m, err := variantOf(seed)
		if err != nil {
			t.Fatal(err)
		}
		if n := m.data.ParsedOnUse(); n != 0 {
			t.Errorf("seed %d: the load parsed %d files", seed, n)
		}
		if got, want := loaded.Dialogues, m.data.Counts(); !maps.Equal(got, want) {
			t.Errorf("seed %d: the load counts %v dialogues, the data %v", seed, got, want)
		}
		if got, want := loaded.Scenes, len(m.data.Scenes()); got != want || got == 0 {
			t.Errorf("seed %d: the load counts %d scenes, the data %d", seed, got, want)
		}
		if errs := m.index.Errors(); len(errs) != 0 {
			t.Errorf("seed %d: index errors %v", seed, errs)
		}
	}
}

// TestVariantOp: the variant op makes a variant and says what it moves, the loaded data staying the
// one loaded before; a load of that seed then answers the same report; seed 0 is refused.
func TestVariantOp(t *testing.T) {
	s := New()
	before := ask[protocol.Hello](t, s, protocol.Request{Op: protocol.OpHello})
	v := ask[protocol.Variant](t, s, protocol.Request{Op: protocol.OpVariant, Seed: 77})
	if v.Seed != 77 || v.Digest == "" || v.Moved["time"] == 0 || v.Moved["amount"] == 0 {
		t.Fatalf("variant 77: %+v", v)
	}
	if after := ask[protocol.Hello](t, s, protocol.Request{Op: protocol.OpHello}); after.Variant != nil || after.Data != before.Data {
		t.Errorf("the variant op changed the loaded data: %+v, before %+v", after, before)
	}
	loaded := ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: 77})
	if loaded.Variant == nil || loaded.Variant.Digest != v.Digest {
		t.Errorf("a load of seed 77 answers %+v, the variant op %+v", loaded.Variant, v)
	}
	out := s.Handle([]byte(`{"v":1,"op":"variant"}`))
	if !bytes.Contains(out, []byte(`"ok":false`)) || !bytes.Contains(out, []byte("needs a seed")) {
		t.Errorf("a variant without a seed: %s", out)
	}
}

// TestBareScore: a bare score judges as a full one, line for line, and leaves the ceilings out; a
// full score of the same variant then still has them.
func TestBareScore(t *testing.T) {
	s := New()
	ask[protocol.Loaded](t, s, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: 77})
	preds := `{"level":"level-1-given-desc","file":"info-word-meaning-01.jsonl","id":0,"pred":"[Dictionary(keyword='serendipity')]"}` + "\n" +
		`{"level":"level-1-given-desc","file":"info-word-meaning-01.jsonl","id":0,"pred":"[Dictionary(keyword='sonder')]"}` + "\n" +
		`{"level":"level-1-given-desc","file":"no-such-file.jsonl","id":0,"pred":"x"}`
	bare := ask[protocol.Batch](t, s, protocol.Request{Op: protocol.OpScore, Preds: preds, Bare: true})
	full := ask[protocol.Batch](t, s, protocol.Request{Op: protocol.OpScore, Preds: preds})
	if len(bare.Report.Ceiling) != 0 {
		t.Errorf("a bare score's report has %d ceilings, want none", len(bare.Report.Ceiling))
	}
	if len(full.Report.Ceiling) != 1 || full.Report.Ceiling[0].Total == 0 {
		t.Errorf("a full score's report has ceilings %+v, want level 1's", full.Report.Ceiling)
	}
	if len(bare.Results) != 2 || len(bare.Errors) != 1 {
		t.Fatalf("bare: %d results and %d errors, want 2 and 1", len(bare.Results), len(bare.Errors))
	}
	for i, r := range bare.Results {
		if got, want := r.Call().Category, full.Results[i].Call().Category; got != want {
			t.Errorf("line %d: bare %s, full %s", i+1, got, want)
		}
	}
	if !bare.Results[0].Call().Correct || bare.Results[1].Call().Correct {
		t.Errorf("the variant's dictionary lookup: %s and %s, want right then wrong", bare.Results[0].Call().Category, bare.Results[1].Call().Category)
	}
	bare.Report.Ceiling, full.Report.Ceiling = nil, nil
	if !reflect.DeepEqual(bare.Report, full.Report) {
		t.Errorf("the reports differ beyond the ceilings:\nbare %+v\nfull %+v", bare.Report, full.Report)
	}
}
