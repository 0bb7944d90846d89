package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// runCapture runs the command in-process, returning stdout, stderr and the exit status.
func runCapture(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errText bytes.Buffer
	err := cli(args, &out, &errText)
	code := 0
	if err != nil {
		code = 1
		if ee, ok := err.(*exitError); ok {
			code = ee.code
		}
	}
	return out.String(), errText.String(), code
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
	}{
		{nil, 2},
		{[]string{"frobnicate"}, 2},
		{[]string{"score"}, 2},
		{[]string{"rouge"}, 2},
		{[]string{"replay", "--state"}, 2},
		{[]string{"replay", "extra"}, 2},
		{[]string{"dataset"}, 2},
		{[]string{"dataset", "fill", "--native"}, 2},
		{[]string{"help"}, 0},
	}
	for _, tt := range tests {
		if _, _, code := runCapture(t, tt.args...); code != tt.code {
			t.Errorf("apibank %v: exit %d, want %d", tt.args, code, tt.code)
		}
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestScoreBadLines: malformed prediction lines are reported as file:line on stderr with exit 1, the
// other lines are scored, and --out has one line per input line, in order.
func TestScoreBadLines(t *testing.T) {
	dir := t.TempDir()
	stats, _, code := runCapture(t, "dataset", "stats", "--native", "--json")
	if code != 0 || !strings.Contains(stats, `"dialogues"`) {
		t.Fatalf("stats: exit %d %s", code, stats)
	}
	// Pick the first builtin level-1 dialogue through the engine's samples op.
	r, err := newRunner(true, "", false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	samples, err := call[[]protocol.SampleView](r, protocol.Request{Op: protocol.OpSamples, Level: "level-1-given-desc"})
	if err != nil {
		t.Fatal(err)
	}
	var callSample, replySample = samples[0], samples[1]
	preds := strings.Join([]string{
		`{"file": "` + callSample.File + `", "id": ` + itoa(callSample.ID) + `, "pred": "no call here"}`,
		`{this is not json`,
		`{"file": "` + replySample.File + `", "id": ` + itoa(replySample.ID) + `, "pred": "Done."}`,
		`{"file": "missing.jsonl", "id": 0, "pred": "x"}`,
	}, "\n")
	p := writeFile(t, dir, "preds.jsonl", preds)
	outPath := filepath.Join(dir, "out.jsonl")
	report, stderr, code := runCapture(t, "score", "--native", "--preds", p, "--out", outPath, "--json")
	if code != 1 {
		t.Errorf("exit %d, want 1 (bad input)", code)
	}
	for _, want := range []string{p + ":2:", p + ":4:"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(report, `"overall"`) {
		t.Errorf("no report on stdout: %s", report)
	}
	b, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 4 {
		t.Fatalf("--out has %d lines, want 4:\n%s", len(lines), b)
	}
	wantPrefix := []string{`{"level":`, `{"error":`, `{"level":`, `{"error":`}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("out line %d is not JSON: %s", i+1, l)
		}
		if !strings.HasPrefix(l, wantPrefix[i]) && !(wantPrefix[i] == `{"error":` && m["error"] != nil) {
			t.Errorf("out line %d = %s", i+1, l)
		}
	}
	if !strings.Contains(lines[0], `"category":"NO_API_CALL"`) || !strings.Contains(lines[2], `"rouge_l":`) {
		t.Errorf("verdicts: %s / %s", lines[0], lines[2])
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestRougeBadLine: a bad pair line gets an error line in place and exit 1; the others are scored.
func TestRougeBadLine(t *testing.T) {
	p := writeFile(t, t.TempDir(), "pairs.jsonl", "{\"ref\":\"a b\",\"hyp\":\"a b\"}\n{\"ref\": 1}\n{\"ref\":\"x\",\"hyp\":\"\"}\n")
	out, stderr, code := runCapture(t, "rouge", "--native", "--pairs", p)
	if code != 1 || !strings.Contains(stderr, p+":2:") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	want := `{"f":0.999999995}` + "\n" + `{"error":"line 2: want {\"ref\": text, \"hyp\": text}"}` + "\n" + `{"error":"Hypothesis is empty."}` + "\n"
	if out != want {
		t.Errorf("out = %q, want %q", out, want)
	}
}

// TestWrongFolder: --data on a folder without API-Bank data fails with a message saying so.
func TestWrongFolder(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "notes.txt", "hello")
	_, _, code := runCapture(t, "replay", "--native", "--data", dir)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
}

// TestCorruptedImport copies the original folder, breaks some files, and checks that every problem is
// reported as file:line while the rest loads and replays.
func TestCorruptedImport(t *testing.T) {
	shared := sharedDir(t)
	dir := t.TempDir()
	copyTree(t, shared, dir, func(rel string) bool { return !strings.HasPrefix(rel, "oracle") })
	l1 := filepath.Join(dir, "lv1-lv2-samples", "level-1-given-desc")
	entries, _ := os.ReadDir(l1)
	victim := filepath.Join(l1, entries[0].Name())
	b, _ := os.ReadFile(victim)
	lines := strings.Split(string(b), "\n")
	lines[1] = `{"role": "AI", "text": ` // truncated JSON on line 2
	os.WriteFile(victim, []byte(strings.Join(lines, "\n")), 0o644)
	writeFile(t, dir, "init_database/Alarm.json", "{\n  \"1\": {\n    \"time\": oops\n  }\n}\n")
	writeFile(t, dir, "lv3-samples/Broken.txt", "Scene: Broken\nFirst Utterance: hi\nAPI Call:\nGetToday(\n")
	writeFile(t, dir, "lv1-lv2-samples/level-2-toolsearcher/roles.jsonl", "{\"role\": \"Robot\", \"text\": \"beep\"}\n")

	out, stderr, code := runCapture(t, "replay", "--native", "--data", dir, "--json")
	if code != 1 {
		t.Errorf("exit %d, want 1 (bad input)", code)
	}
	for _, want := range []string{
		entries[0].Name() + ":2:",
		"Alarm.json:3:",
		"Broken.txt:4:",
		"roles.jsonl:1: unknown role",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var res struct {
		Levels []struct {
			Level string
			Total int
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Levels) < 2 || res.Levels[0].Total < 350 {
		t.Errorf("the rest did not load and replay: %v %s", err, out)
	}
}

func copyTree(t *testing.T, from, to string, keep func(rel string) bool) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if info.IsDir() || !keep(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestValidateBuiltin: the builtin data passes every check, and the JSON has the documented shape.
func TestValidateBuiltin(t *testing.T) {
	out, _, code := runCapture(t, "validate", "--native", "--json")
	var rep struct {
		OK     bool `json:"ok"`
		Checks map[string]struct {
			Passed int `json:"passed"`
			Failed int `json:"failed"`
		} `json:"checks"`
		Failures []struct{ File, Check, Why string } `json:"failures"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("validate --json: %v\n%s", err, out)
	}
	if code != 0 || !rep.OK || len(rep.Failures) > 0 {
		t.Fatalf("validate: exit %d ok=%v failures=%v", code, rep.OK, rep.Failures)
	}
	for _, c := range []string{"format", "execution", "grounding", "coverage"} {
		if rep.Checks[c].Passed == 0 || rep.Checks[c].Failed != 0 {
			t.Errorf("%s: %+v", c, rep.Checks[c])
		}
	}
	t.Logf("validate: %+v", rep.Checks)
}

// TestStatsBuiltin: the builtin data meets the paper's sizes.
func TestStatsBuiltin(t *testing.T) {
	out, _, code := runCapture(t, "dataset", "stats", "--native", "--json")
	var c struct {
		Dialogues, APICalls int
		Levels              map[string]struct{ Dialogues, APICalls int }
		ToolsTotal          int            `json:"tools_total"`
		ToolsCovered        int            `json:"tools_covered"`
		SpecialCases        int            `json:"special_cases"`
		Specials            map[string]int `json:"specials"`
		Styles              map[string]int `json:"styles"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil || code != 0 {
		t.Fatalf("stats: %v exit %d", err, code)
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal([]byte(out), &raw)
	calls := 0
	_ = json.Unmarshal(raw["api_calls"], &calls)
	if c.Dialogues < 314 || calls < 753 || c.Levels["1"].Dialogues < 214 || c.Levels["2"].Dialogues < 50 || c.Levels["3"].Dialogues < 50 ||
		c.ToolsCovered != c.ToolsTotal || c.SpecialCases < 40 {
		t.Errorf("stats below the targets: %s", out)
	}
	// APIGen's four query styles are all present, and ACEBench's wrong-value case has 15 or more.
	for _, st := range []string{"simple", "multiple", "parallel", "parallel-multiple"} {
		if c.Styles[st] == 0 {
			t.Errorf("no call turn of style %s: %s", st, out)
		}
	}
	if c.Styles["parallel"]+c.Styles["parallel-multiple"] < 40 || c.Specials["wrong_value"] < 15 {
		t.Errorf("parallel sets %d+%d, wrong_value cases %d", c.Styles["parallel"], c.Styles["parallel-multiple"], c.Specials["wrong_value"])
	}
}

// TestHelpForOneCommand: -h after a command, and a usage error of it, show that command's usage and
// the flags every command takes, not every command's; an unknown command gets them all.
func TestHelpForOneCommand(t *testing.T) {
	for _, tt := range []struct {
		args       []string
		has, lacks []string
	}{
		{[]string{"score", "-h"}, []string{"  score    [--data DIR] [--seed S] --preds FILE", "common flags:", "apibank help lists every command"}, []string{"rouge --pairs", "batch score"}},
		{[]string{"batch", "score", "--help"}, []string{"  batch score --input FILE", "give the --seed or --data"}, []string{"  batch prepare", "  score    ["}},
		{[]string{"help"}, []string{"  rouge    --pairs FILE", "  batch prepare", "  dataset fill"}, nil},
	} {
		stdout, _, code := runCapture(t, tt.args...)
		if code != 0 {
			t.Errorf("apibank %v: exit %d", tt.args, code)
		}
		for _, want := range tt.has {
			if !strings.Contains(stdout, want) {
				t.Errorf("apibank %v: no %q in\n%s", tt.args, want, stdout)
			}
		}
		for _, not := range tt.lacks {
			if strings.Contains(stdout, not) {
				t.Errorf("apibank %v: %q should not be shown", tt.args, not)
			}
		}
	}
	var out, errText strings.Builder
	err := cli([]string{"batch", "--level", "x"}, &out, &errText)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || ee.cmd != "batch" || !strings.Contains(helpFor(ee.cmd), "  batch prepare") || !strings.Contains(helpFor(ee.cmd), "  batch score") || strings.Contains(helpFor(ee.cmd), "  rouge") {
		t.Errorf("a usage error of batch: %v (command %q)", err, ee.cmd)
	}
	if helpFor("frobnicate") != usage || helpFor("") != usage {
		t.Error("an unknown command, or none, should get the whole usage")
	}
}

// seedCommands are the commands that take --seed, each with what else it needs to get past its
// flags: a bad --seed must be refused before anything else is looked at.
var seedCommands = [][]string{
	{"replay"}, {"score", "--preds", "p.jsonl"}, {"prompts"}, {"validate"}, {"dataset", "stats"}, {"dataset", "fill", "f.jsonl"},
	{"run", "--base-url", "http://127.0.0.1:1", "--model", "m", "--out", "o.jsonl"}, {"batch", "prepare", "--model", "m", "--out", "b.jsonl"},
	{"batch", "score", "--input", "i.jsonl", "--output", "o.jsonl"}, {"compare", "a.jsonl", "b.jsonl"},
	{"synth", "--base-url", "http://127.0.0.1:1", "--model", "m", "--style", "simple", "--count", "1", "--out", "d"},
}

// TestSeedIsPlainDecimal: every command reads --seed alike (protocol.ParseSeed): plain decimal digits
// from 0 to 2^53-1. Go's other spellings of a number (010 was variant 8, 0x10 16, 1_000 1000, +7
// 7) and anything else are a usage error that names the command, the flag and its text, and says
// what a seed is, before anything is read or printed.
func TestSeedIsPlainDecimal(t *testing.T) {
	for _, cmd := range seedCommands {
		for _, bad := range []string{"-1", "010", "0b111", "0x10", "1_000", "+7", "1.5", "abc", "9007199254740992", ""} {
			var stdout, stderr strings.Builder
			err := cli(append(append([]string{}, cmd...), "--native", "--seed", bad), &stdout, &stderr)
			name := commandOf(cmd)
			want := name + ": --seed " + bad + ": " + protocol.SeedRule
			if bad == "" {
				want = name + `: --seed "": ` + protocol.SeedRule
			}
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != 2 || ee.msg != want || stdout.Len()+stderr.Len() > 0 {
				t.Errorf("apibank %s --seed %q: %v, printed %q %q; want the usage error %q alone", name, bad, err, stdout.String(), stderr.String(), want)
			}
		}
	}
}

// TestSeedRefusedBeforeTheRecord: a --seed that cannot be used is refused before the record beside
// the predictions is read, and says nothing of it: out of range, or beside --data (which once
// printed "judged on --data ... as asked" and then refused).
func TestSeedRefusedBeforeTheRecord(t *testing.T) {
	dir := t.TempDir()
	preds := writeFile(t, dir, "s7.jsonl", `{"level":"level-1-given-desc","file":"x.jsonl","id":0,"pred":""}`+"\n")
	rec, _ := json.Marshal(run.Record{Format: run.RecordFormat, Run: run.Info{Seed: 7}, Trials: []run.RecordTrial{{File: "s7.jsonl", Seed: 7}}})
	writeFile(t, dir, "s7.run.json", string(rec))
	data := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"score", "--preds", preds, "--seed", "-1"}, "score: --seed -1: " + protocol.SeedRule},
		{[]string{"score", "--preds", preds, "--seed", "7", "--data", data}, "score: --seed names a variant of the builtin data: it cannot go with --data"},
		{[]string{"compare", preds, preds, "--seed", "8", "--data", data}, "compare: --seed names a variant of the builtin data: it cannot go with --data"},
		{[]string{"replay", "--data", data, "--seed", "3"}, "replay: --seed names a variant of the builtin data: it cannot go with --data"},
	} {
		var stdout, stderr strings.Builder
		err := cli(append(tt.args, "--native"), &stdout, &stderr)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 || ee.msg != tt.want || stdout.Len()+stderr.Len() > 0 {
			t.Errorf("apibank %q: %v, printed %q %q; want the usage error %q alone", tt.args, err, stdout.String(), stderr.String(), tt.want)
		}
	}
}

// flagNames are the flags (without their dashes) that text shows: --name, [--name], --name=...
var flagNames = regexp.MustCompile(`(?:^|[\s\[|])--([a-z][a-z-]*)`)

// synopses are the flags each command's synopsis shows in text: usage's (the command's first line
// and the lines after it that go on with flags, not its description) or a page's ("apibank CMD
// ..." lines of its Commands block).
func synopses(text string, page bool) map[string][]string {
	out := map[string][]string{}
	cmd := ""
	for _, line := range strings.Split(text, "\n") {
		switch {
		case page && strings.HasPrefix(line, "apibank "):
			cmd = commandOf(strings.Fields(strings.TrimPrefix(line, "apibank ")))
		case !page && strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   "):
			cmd = commandOf(strings.Fields(line))
		case !page && cmd != "" && (strings.HasPrefix(strings.TrimSpace(line), "[") || strings.HasPrefix(strings.TrimSpace(line), "--")):
		default:
			cmd = ""
		}
		if cmd == "" {
			continue
		}
		for _, m := range flagNames.FindAllStringSubmatch(line, -1) {
			if !slices.Contains(out[cmd], m[1]) {
				out[cmd] = append(out[cmd], m[1])
			}
		}
		if _, ok := out[cmd]; !ok {
			out[cmd] = []string{}
		}
	}
	for _, flags := range out {
		slices.Sort(flags)
	}
	return out
}

// accepted says which of names the command takes as flags: a flag it does not define is refused
// as such, before -h ends the parse of one it does.
func accepted(cmd string, names []string) []string {
	var out []string
	for _, n := range names {
		err := cli(append(strings.Fields(cmd), "--"+n+"=x", "-h"), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "flag provided but not defined") {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// TestUsageShowsEveryFlag: each command's usage line (apibank help, -h) shows every flag the
// command takes and no other, and CLI.md's Commands block shows the same, so that no command takes
// a flag undocumented (validate, dataset stats and synth took --seed; replay's and prompts' lines
// left it out). --native and --wasm, which every command of the engine takes, are shown once, under
// "common flags".
func TestUsageShowsEveryFlag(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "CLI.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := string(page)
	start := strings.Index(block, "## Commands\n\n```sh\n")
	if start < 0 {
		t.Fatal("CLI.md has no Commands block")
	}
	block = block[start+len("## Commands\n\n```sh\n"):]
	block = block[:strings.Index(block, "```")]
	inUsage, inPage := synopses(usage, false), synopses(block, true)
	var every []string
	for _, flags := range inUsage {
		every = append(every, flags...)
	}
	slices.Sort(every)
	every = append(every, "native", "wasm", "data", "seed", "json")
	slices.Sort(every)
	every = slices.Compact(every)
	common := []string{"native", "wasm"}
	// Commands that take --json (CLI.md lists it among the flags every command takes) and print
	// the same with it: JSON lines anyway, or one line saying what was written.
	sameInJSON := []string{"rouge", "prompts", "batch prepare", "dataset fill"}
	for cmd, shown := range inUsage {
		takes := slices.DeleteFunc(accepted(cmd, every), func(f string) bool {
			return slices.Contains(common, f) || f == "json" && slices.Contains(sameInJSON, cmd)
		})
		if !slices.Equal(shown, takes) {
			t.Errorf("%s: its usage shows %v, it takes %v", cmd, shown, takes)
		}
		if !slices.Equal(inPage[cmd], shown) {
			t.Errorf("%s: CLI.md shows %v, its usage %v", cmd, inPage[cmd], shown)
		}
	}
	for cmd := range inPage {
		if _, ok := inUsage[cmd]; !ok && cmd != "help" {
			t.Errorf("CLI.md shows apibank %s, which the usage does not", cmd)
		}
	}
}

// TestLevelFlag: every --level reads a level's folder name or its number (run.LevelNamed), and a
// level that is none of them is a usage error that lists the levels, before anything runs: once,
// "run --level 1" asked nothing of the model and reported nothing judged, without a word.
func TestLevelFlag(t *testing.T) {
	for _, cmd := range [][]string{
		{"run", "--base-url", "http://127.0.0.1:1", "--model", "m", "--out", "o.jsonl"}, {"batch", "prepare", "--model", "m", "--out", "b.jsonl"},
		{"prompts"}, {"score", "--preds", "p.jsonl"}, {"compare", "a.jsonl", "b.jsonl"},
	} {
		for _, bad := range []string{"4", "level-4", "one", "Level-1", ""} {
			var stdout, stderr strings.Builder
			err := cli(append(append([]string{}, cmd...), "--native", "--level", bad), &stdout, &stderr)
			var ee *exitError
			msg := ""
			if errors.As(err, &ee) {
				msg = ee.msg + stderr.String()
			}
			if ee == nil || ee.code != 2 || !strings.Contains(msg, `no level "`+bad+`"`) || !strings.Contains(msg, "level-2-toolsearcher (2)") || stdout.Len() > 0 {
				t.Errorf("apibank %s --level %q: %v, printed %q %q; want a usage error naming the levels", commandOf(cmd), bad, err, stdout.String(), stderr.String())
			}
		}
	}
	// A level's number, alone or after "level-", asks what its folder name asks.
	want, _, code := runCapture(t, "prompts", "--native", "--level", "level-2-toolsearcher", "--level", "level-3")
	if code != 0 || want == "" {
		t.Fatalf("prompts --level level-2-toolsearcher --level level-3: exit %d", code)
	}
	for _, levels := range [][]string{{"2", "3"}, {"level-2", "level-3"}, {"2", "level-2-toolsearcher", "3"}} {
		args := []string{"prompts", "--native"}
		for _, l := range levels {
			args = append(args, "--level", l)
		}
		if got, _, code := runCapture(t, args...); code != 0 || got != want {
			t.Errorf("prompts with levels %v: exit %d, %d bytes; want the %d bytes of the levels' folder names", levels, code, len(got), len(want))
		}
	}
}
