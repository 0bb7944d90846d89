package tools

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// homeShared is the reference data folder (../shared/apibank from the repository root).
var homeShared = filepath.Join("..", "..", "shared", "apibank")

var (
	homeBaseOnce sync.Once
	homeBaseVal  *Base
	homeBaseErr  error
)

// homeBase loads the original init databases once; tests skip when the reference data is absent.
func homeBase(t *testing.T) *Base {
	t.Helper()
	homeBaseOnce.Do(func() {
		dbs, err := readInitDatabases(homeShared)
		if err != nil {
			homeBaseErr = err
			return
		}
		homeBaseVal = NewBase(dbs)
	})
	if homeBaseErr != nil {
		t.Skipf("../shared/apibank not found: %v", homeBaseErr)
	}
	return homeBaseVal
}

// homeJSON decodes a JSON literal of a test table ("" means null).
func homeJSON(t *testing.T, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := value.DecodeString(s)
	if err != nil {
		t.Fatalf("bad JSON in test table: %v: %s", err, s)
	}
	return v
}

// homeStep is one call of a scenario: tool, arguments (JSON object), and the expected output (JSON,
// "" for null) and exception ("" for none). Text marks a call with the original's text semantics
// (Call); otherwise CallNative is used. Escape, when set, is the text of an error that escapes the
// call (no envelope).
type homeStep struct {
	tool, args string
	out, exc   string
	text       bool
	escape     string
}

// homeDo runs one step and checks its result.
func homeDo(t *testing.T, w *World, s homeStep) *value.Map {
	t.Helper()
	args, _ := homeJSON(t, s.args).(*value.Map)
	if args == nil {
		args = value.NewMap(0)
	}
	call := APIs.CallNative
	if s.text {
		call = APIs.Call
	}
	env, err := call(w, s.tool, args)
	if s.escape != "" {
		if err == nil || err.Error() != s.escape {
			t.Errorf("%s %s: escaping error %v, want %q", s.tool, s.args, err, s.escape)
		}
		return nil
	}
	if err != nil {
		t.Fatalf("%s %s: unexpected escaping error %v", s.tool, s.args, err)
	}
	wantExc := any(nil)
	if s.exc != "" {
		wantExc = s.exc
	}
	exc, _ := env.Get("exception")
	if !value.Equal(exc, wantExc) {
		t.Errorf("%s %s: exception %s, want %s", s.tool, s.args, value.Repr(exc), value.Repr(wantExc))
	}
	out, _ := env.Get("output")
	if want := homeJSON(t, s.out); !value.Equal(out, want) {
		t.Errorf("%s %s: output %s, want %s", s.tool, s.args, value.Repr(out), value.Repr(want))
	}
	return env
}

// homeRun runs the steps in order in one fresh world and returns the world.
func homeRun(t *testing.T, steps ...homeStep) *World {
	t.Helper()
	w := homeBase(t).NewWorld()
	for _, s := range steps {
		homeDo(t, w, s)
	}
	return w
}

// homeWantDB compares one entry of a world database with a JSON literal ("" = absent).
func homeWantDB(t *testing.T, w *World, db, key, want string) {
	t.Helper()
	m, _ := w.Database(db).(*value.Map)
	v, ok := m.Get(key)
	if want == "" {
		if ok {
			t.Errorf("%s[%q] = %s, want absent", db, key, value.Repr(v))
		}
		return
	}
	if !ok || !value.Equal(v, homeJSON(t, want)) {
		t.Errorf("%s[%q] = %s, want %s", db, key, value.Repr(v), want)
	}
}

// homeCheckCase is one correctness-check case: response and gold envelopes as JSON, the expected
// verdict, or the kind and text of the error the check raises.
type homeCheckCase struct {
	name       string
	tool       string
	resp, gold string
	want       bool
	errKind    Kind
	errText    string
}

func homeChecks(t *testing.T, cases []homeCheckCase) {
	t.Helper()
	for _, c := range cases {
		tool, ok := APIs.Lookup(c.tool)
		if !ok {
			t.Fatalf("no tool %s", c.tool)
		}
		r, _ := homeJSON(t, c.resp).(*value.Map)
		g, _ := homeJSON(t, c.gold).(*value.Map)
		got, err := tool.Check(r, g)
		if c.errText != "" {
			e, ok := err.(*Error)
			if !ok || e.Kind != c.errKind || e.Text != c.errText {
				t.Errorf("%s/%s: error %#v, want %s %q", c.tool, c.name, err, c.errKind, c.errText)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s/%s: got %v, %v; want %v", c.tool, c.name, got, err, c.want)
		}
	}
}

// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// Gold replay and oracle verdicts, for the home and health tools.

// homeMine lists the home tools (homeTools: scene.go, switch.go, everyday.go, email.go, hotel.go,
// calc.go) and those of health.go.
var homeMine = map[string]bool{
	"AddScene": true, "ModifyScene": true, "DeleteScene": true, "QueryScene": true, "TimedSwitch": true,
	"CancelTimedSwitch": true, "PlayMusic": true, "SendEmail": true, "GetToday": true, "BookHotel": true,
	"Calculator": true, "AppointmentRegistration": true, "QueryRegistration": true, "ModifyRegistration": true,
	"CancelRegistration": true, "QueryHealthData": true, "RecordHealthData": true, "EmergencyKnowledge": true,
	"SymptomSearch": true,
}

// homeTurn is one turn of a dialogue file.
type homeTurn struct {
	Role      string          `json:"role"`
	APIName   string          `json:"api_name"`
	ParamDict json.RawMessage `json:"param_dict"`
	Result    json.RawMessage `json:"result"`
}

// homeDialogues reads every dialogue of lv1-lv2-samples, keyed by "level/file".
func homeDialogues(t *testing.T) map[string][]homeTurn {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(homeShared, "lv1-lv2-samples", "*", "*.jsonl"))
	if len(files) == 0 {
		t.Skip("../shared/apibank not found: no lv1-lv2-samples")
	}
	out := map[string][]homeTurn{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		key := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		for sc.Scan() {
			var turn homeTurn
			if err := json.Unmarshal(sc.Bytes(), &turn); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out[key] = append(out[key], turn)
		}
		fh.Close()
	}
	return out
}

// homeEnvOf decodes a raw JSON object.
func homeEnvOf(t *testing.T, raw json.RawMessage) *value.Map {
	t.Helper()
	v, err := value.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := v.(*value.Map)
	if m == nil {
		m = value.NewMap(0)
	}
	return m
}

// homeLowerNames lowercases the name fields of a device list (QueryScene's gold capitalisation).
func homeLowerNames(v any) any {
	c := value.Clone(v)
	if list, ok := c.([]any); ok {
		for _, d := range list {
			if m, ok := d.(*value.Map); ok {
				m.Set("name", strings.ToLower(m.String("name")))
			}
		}
	}
	return c
}

func TestHomeHealthGoldReplay(t *testing.T) {
	base := homeBase(t)
	dialogues := homeDialogues(t)
	keys := make([]string, 0, len(dialogues))
	for k := range dialogues {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := 0
	for _, k := range keys {
		turns := dialogues[k]
		for i, turn := range turns {
			if turn.Role != "API" || !homeMine[turn.APIName] {
				continue
			}
			n++
			what := k + "#" + turn.APIName
			args := homeEnvOf(t, turn.ParamDict)
			gold := homeEnvOf(t, turn.Result)
			tool, _ := APIs.Lookup(turn.APIName)
			env, err := APIs.CallNative(base.NewWorld(), turn.APIName, args)
			switch turn.APIName {
			case "TimedSwitch", "CancelTimedSwitch":
				// Documented: the gold calls use device_id, which the tools do not declare.
				if e, ok := err.(*Error); !ok || e.Kind != Assertion || e.Text != "invalid parameter name. parameter: device_id" {
					t.Errorf("%s: got %v, want the invalid-parameter assertion", what, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: escaping error %v", what, err)
				continue
			}
			out, _ := env.Get("output")
			exc, _ := env.Get("exception")
			gout, _ := gold.Get("output")
			gexc, _ := gold.Get("exception")
			switch turn.APIName {
			case "QueryScene":
				// Documented: the gold outputs are capitalised, the database is lowercase.
				if exc != nil || value.Equal(out, gout) || !value.Equal(out, homeLowerNames(gout)) {
					t.Errorf("%s: output %s, want the lowercase form of %s", what, value.Repr(out), value.Repr(gout))
				}
				if ok, err := tool.Check(env, value.Clone(gold).(*value.Map)); ok || err != nil {
					t.Errorf("%s: check %v %v, want false", what, ok, err)
				}
				continue
			case "RecordHealthData":
				// Documented: param_dict holds the list as text; the gold input holds the real list.
				if exc != "The health data has invalid format." {
					t.Errorf("%s: text list gave %s", what, value.Repr(exc))
				}
				gin, _ := gold.Get("input")
				env, err = APIs.CallNative(base.NewWorld(), turn.APIName, gin.(*value.Map))
				if err != nil {
					t.Errorf("%s: %v", what, err)
					continue
				}
				out, _ = env.Get("output")
				exc, _ = env.Get("exception")
			case "AppointmentRegistration":
				// The id is random: the check does not compare it.
				if s, ok := out.(string); exc != nil || !ok || len(s) != 8 || s < "10000000" {
					t.Errorf("%s: output %s exception %s", what, value.Repr(out), value.Repr(exc))
				}
				if ok, err := tool.Check(env, value.Clone(gold).(*value.Map)); !ok || err != nil {
					t.Errorf("%s: check %v %v", what, ok, err)
				}
				continue
			case "QueryRegistration":
				if !value.Equal(out, gout) || !value.Equal(exc, gexc) {
					// Documented: the appointment was made earlier in the dialogue (fresh state
					// per evaluated call cannot see it).
					earlier := false
					for _, p := range turns[:i] {
						if p.APIName == "AppointmentRegistration" {
							earlier = true
						}
					}
					if !earlier || exc != "No appointments found." {
						t.Errorf("%s: output %s exception %s, gold %s %s", what, value.Repr(out), value.Repr(exc), value.Repr(gout), value.Repr(gexc))
					} else {
						t.Logf("%s: documented divergence (appointment made earlier in the dialogue)", what)
					}
					continue
				}
			}
			if !value.Equal(out, gout) || !value.Equal(exc, gexc) {
				t.Errorf("%s: output %s exception %s, gold %s %s", what, value.Repr(out), value.Repr(exc), value.Repr(gout), value.Repr(gexc))
				continue
			}
			if ok, err := tool.Check(env, value.Clone(gold).(*value.Map)); !ok || err != nil {
				t.Errorf("%s: check %v %v", what, ok, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no gold turns of these tools")
	}
}

// TestHomeHealthOracle replays the original evaluator's recorded tool results for these tools: the
// envelope each prediction produced (detail) must come out the same from our tool, and our check
// against the gold turn must give the recorded verdict.
func TestHomeHealthOracle(t *testing.T) {
	base := homeBase(t)
	dialogues := homeDialogues(t)
	f, err := os.Open(filepath.Join(homeShared, "oracle", "verdicts.jsonl"))
	if err != nil {
		t.Skipf("../shared/apibank not found: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	checked := 0
	for sc.Scan() {
		var v struct {
			Level    string          `json:"level"`
			File     string          `json:"file"`
			ID       int             `json:"id"`
			APIName  string          `json:"api_name"`
			Variant  string          `json:"variant"`
			Category string          `json:"category"`
			Correct  bool            `json:"correct"`
			Detail   json.RawMessage `json:"detail"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if !homeMine[v.APIName] {
			continue
		}
		switch v.Category {
		case "CORRECT", "HAS_EXCEPTION", "OUTPUT_MISMATCH", "INPUT_MISMATCH", "KEY_ERROR":
		default:
			continue
		}
		detail, ok := homeJSON(t, string(v.Detail)).(*value.Map)
		if !ok {
			continue
		}
		what := v.File + "#" + v.Variant
		in, _ := detail.Get("input")
		args, _ := in.(*value.Map)
		if args == nil {
			args = value.NewMap(0)
		}
		env, err := APIs.CallNative(base.NewWorld(), v.APIName, args)
		if err != nil {
			t.Errorf("%s: escaping error %v", what, err)
			continue
		}
		out, _ := env.Get("output")
		exc, _ := env.Get("exception")
		dout, _ := detail.Get("output")
		dexc, _ := detail.Get("exception")
		sameOut := value.Equal(out, dout)
		if v.APIName == "AppointmentRegistration" {
			sameOut = (out == nil) == (dout == nil)
		}
		if !sameOut || !value.Equal(exc, dexc) {
			t.Errorf("%s: output %s exception %s, original %s %s", what, value.Repr(out), value.Repr(exc), value.Repr(dout), value.Repr(dexc))
			continue
		}
		// The gold turn of sample id: the k-th API turn (id 2k) or the turn after it (id 2k+1).
		turns := dialogues[v.Level+"/"+v.File]
		k, pos := v.ID/2, -1
		for i, turn := range turns {
			if turn.Role == "API" {
				if k == 0 {
					pos = i
					break
				}
				k--
			}
		}
		if pos < 0 {
			t.Fatalf("%s: no API turn for id %d", what, v.ID)
		}
		if v.ID%2 == 1 {
			pos++
		}
		gold := homeEnvOf(t, turns[pos].Result)
		tool, _ := APIs.Lookup(v.APIName)
		ok, cerr := tool.Check(env, gold)
		if v.Category == "KEY_ERROR" {
			if e, isErr := cerr.(*Error); !isErr || e.Kind != Key {
				t.Errorf("%s: check %v %v, want a KeyError", what, ok, cerr)
			}
		} else if cerr != nil || ok != v.Correct {
			t.Errorf("%s: check %v %v, original %v (%s)", what, ok, cerr, v.Correct, v.Category)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no oracle verdicts checked")
	}
	t.Logf("%d oracle verdicts checked", checked)
}
