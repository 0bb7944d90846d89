package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/score"
)

// setPredictions writes, for every gold call set and every wrong_value special case of the builtin
// data, predictions of known outcome in both forms, and returns the file and the category each line
// must get.
func setPredictions(t *testing.T) (string, []string) {
	t.Helper()
	data, err := dataset.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ix := score.NewIndex(data)
	var lines []string
	var want []string
	add := func(sm score.Sample, pred, category string) {
		b, _ := json.Marshal(map[string]any{"level": sm.Dialogue.Level, "file": sm.Dialogue.File, "id": sm.ID, "pred": pred})
		lines = append(lines, string(b))
		want = append(want, category)
	}
	sets, wrongValues := 0, 0
	for _, sm := range ix.All() {
		switch {
		case sm.Kind == score.KindCall && len(sm.Set) > 1:
			sets++
			golds := sm.GoldTurns()
			natives := make([]string, len(golds))
			for i, g := range golds {
				natives[i] = score.GoldNative(g)
			}
			reversed := make([]string, len(natives))
			for i := range natives {
				reversed[i] = natives[len(natives)-1-i]
			}
			add(sm, score.GoldSetPrediction(sm), score.Correct)
			add(sm, score.GoldSetNative(sm), score.Correct)
			add(sm, "["+strings.Join(reversed, ",")+"]", score.Correct)
			// Without its first call the set is short, unless that call is a GetToday: our prompts
			// state the date, so a set may leave it out.
			short := score.MissingCall
			if golds[0].Tool == "GetToday" {
				short = score.Correct
			}
			add(sm, "["+strings.Join(natives[1:], ",")+"]", short)
			add(sm, "["+strings.Join(append(natives, `{"name":"GetToday","arguments":{}}`), ",")+"]", score.ExtraCall)
			// The first call alone, as the original's parser would read the text list.
			add(sm, natives[0], score.MissingCall)
		case sm.Kind == score.KindSpecial && sm.Dialogue.Meta.Special == protocol.SpecialWrongValue:
			wrongValues++
			add(sm, sm.GoldTurn().Text, score.Correct)
			// Calling with the malformed value is the mistake the case is about.
			next := sm.Dialogue.Turns[sm.Gold:]
			for _, tt := range next {
				if tt.Role == dataset.API {
					add(sm, score.GoldNative(&tt), score.PrematureCall)
					break
				}
			}
		}
	}
	if sets < 50 || wrongValues < 15 {
		t.Fatalf("%d call-set samples and %d wrong_value cases in the builtin data", sets, wrongValues)
	}
	path := filepath.Join(t.TempDir(), "sets.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, want
}

// TestSetParity scores the call-set and wrong_value predictions under wazero and natively: every line
// gets its known category, and the two runs write byte-identical output.
func TestSetParity(t *testing.T) {
	wasm := wasmPath(t)
	preds, want := setPredictions(t)
	tmp := t.TempDir()
	outs := map[string]string{}
	for _, mode := range []string{"wazero", "native"} {
		out := filepath.Join(tmp, mode+".jsonl")
		args := []string{"score", "--preds", preds, "--out", out, "--json", "--wasm", wasm}
		if mode == "native" {
			args = append(args, "--native")
		}
		if _, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%s: exit status %d", mode, code)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outs[mode] = string(b)
	}
	if outs["wazero"] != outs["native"] {
		t.Errorf("wazero and native outputs differ (%d vs %d bytes)", len(outs["wazero"]), len(outs["native"]))
	}
	got := strings.Split(strings.TrimSpace(outs["native"]), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d verdicts for %d predictions", len(got), len(want))
	}
	for i, l := range got {
		var v protocol.Verdict
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if c := v.Call(); c.Category != want[i] {
			t.Errorf("line %d (%s #%d): %s %s, want %s", i+1, v.File, v.ID, c.Category, c.Error, want[i])
		}
	}
	t.Logf("%d set and wrong_value predictions: same verdicts under wazero and natively", len(got))
}
