package tools

import (
	"bufio"
	"encoding/json"
	"math"
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

func TestHomeScenes(t *testing.T) {
	homeBase(t)
	devs := `[{"name": " Lamp ", "description": " a lamp "}, {"name": "Fan", "description": "fan"}]`
	sorted := `[{"name": "fan", "description": "fan"}, {"name": "lamp", "description": "a lamp"}]`

	// AddScene: success normalises and sorts the devices in the envelope and stores them.
	w := homeBase(t).NewWorld()
	env := homeDo(t, w, homeStep{tool: "AddScene", args: `{"name": " Party ", "devices": ` + devs + `}`, out: `"success"`})
	if in, _ := env.Get("input"); !value.Equal(in, homeJSON(t, `{"name": " Party ", "devices": `+sorted+`}`)) {
		t.Errorf("AddScene input %s", value.Repr(in))
	}
	homeWantDB(t, w, "Scenes", "party", sorted)
	homeDo(t, w, homeStep{tool: "QueryScene", args: `{"name": "PARTY"}`, out: sorted})
	homeDo(t, w, homeStep{tool: "AddScene", args: `{"name": "party", "devices": []}`, exc: "Scene name already exists."})
	homeDo(t, w, homeStep{tool: "ModifyScene", args: `{"name": "party", "devices": [{"name": "tv", "description": "TV"}]}`, out: `"success"`})
	homeWantDB(t, w, "Scenes", "party", `[{"name": "tv", "description": "TV"}]`)
	homeDo(t, w, homeStep{tool: "DeleteScene", args: `{"name": "Party"}`, out: `"success"`})
	homeWantDB(t, w, "Scenes", "party", "")
	homeDo(t, w, homeStep{tool: "DeleteScene", args: `{"name": "Party"}`, exc: "The scene does not exist."})
	homeDo(t, w, homeStep{tool: "ModifyScene", args: `{"name": "party", "devices": []}`, exc: "The scene does not exist."})

	// The caller's arguments are not modified.
	args := homeJSON(t, `{"name": "x", "devices": `+devs+`}`).(*value.Map)
	before := value.Repr(args)
	if _, err := APIs.CallNative(homeBase(t).NewWorld(), "AddScene", args); err != nil || value.Repr(args) != before {
		t.Errorf("AddScene changed its arguments: %s (%v)", value.Repr(args), err)
	}

	for _, s := range []homeStep{
		{tool: "AddScene", args: `{"name": "  ", "devices": []}`, exc: "Scene name cannot be empty."},
		{tool: "AddScene", args: `{"name": "a", "devices": [{"name": "x"}]}`, exc: "Invalid device format."},
		{tool: "AddScene", args: `{"name": "a", "devices": [{"name": "X ", "description": "1"}, {"name": "x", "description": "2"}]}`, exc: "Device name cannot be duplicated."},
		{tool: "AddScene", args: `{"name": "a", "devices": "[{'name': 'x', 'description': 'y'}]"}`, exc: "Invalid device format."},
		{tool: "AddScene", args: `{"name": "a", "devices": ""}`, exc: "'str' object has no attribute 'sort'"},
		{tool: "AddScene", args: `{"name": "a", "devices": {}}`, exc: "'dict' object has no attribute 'sort'"},
		{tool: "AddScene", args: `{"name": "a", "devices": ["name description"]}`, exc: "string indices must be integers, not 'str'"},
		{tool: "AddScene", args: `{"name": "a", "devices": [["name", "description"]]}`, exc: "list indices must be integers or slices, not str"},
		{tool: "AddScene", args: `{"name": "a", "devices": [5]}`, exc: "argument of type 'int' is not iterable"},
		{tool: "AddScene", args: `{"name": "a", "devices": null}`, exc: "'NoneType' object is not iterable"},
		{tool: "AddScene", args: `{"name": "a", "devices": [{"name": 1, "description": "y"}]}`, exc: "'int' object has no attribute 'strip'"},
		{tool: "AddScene", args: `{"name": 3, "devices": []}`, exc: "'int' object has no attribute 'strip'"},
		{tool: "AddScene", args: `{"name": "Cooking Time", "devices": []}`, exc: "Scene name already exists."},
		{tool: "AddScene", args: `{"name": "a", "devices": "[{'name': 'x'}]"}`, text: true, exc: "Invalid device format."},
		{tool: "AddScene", args: `{"name": "new", "devices": []}`, out: `"success"`},
		{tool: "AddScene", args: `{"name": "a"}`, escape: "AddScene.call() missing 1 required positional argument: 'devices'"},
		{tool: "ModifyScene", args: `{"name": "", "devices": []}`, exc: "Scene name cannot be empty."},
		{tool: "ModifyScene", args: `{"name": "bedtime", "devices": "x"}`, exc: "Invalid device format."},
		{tool: "ModifyScene", args: `{"name": "nope", "devices": ""}`, exc: "'str' object has no attribute 'sort'"},
		{tool: "DeleteScene", args: `{"name": " "}`, exc: "Scene name cannot be empty."},
		{tool: "QueryScene", args: `{"name": ""}`, exc: "Scene name cannot be empty."},
		{tool: "QueryScene", args: `{"name": "nope"}`, exc: "Scene not found."},
		{tool: "QueryScene", args: `{"name": " Bedtime "}`, text: true, out: `[{"name": "air conditioner", "description": "Smart air conditioner in the bedroom"}, {"name": "humidifier", "description": "Smart humidifier in the bedroom"}]`},
	} {
		homeRun(t, s)
	}

	// A failed AddScene leaves the database alone.
	w = homeRun(t, homeStep{tool: "AddScene", args: `{"name": "b", "devices": [{"name": "x", "description": "1"}, {"name": "x", "description": "2"}]}`, exc: "Device name cannot be duplicated."})
	homeWantDB(t, w, "Scenes", "b", "")
	// The stored list does not alias the envelope.
	w = homeBase(t).NewWorld()
	env = homeDo(t, w, homeStep{tool: "AddScene", args: `{"name": "c", "devices": [{"name": "x", "description": "1"}]}`, out: `"success"`})
	in, _ := env.Get("input")
	d, _ := in.(*value.Map).Get("devices")
	d.([]any)[0].(*value.Map).Set("name", "changed")
	homeWantDB(t, w, "Scenes", "c", `[{"name": "x", "description": "1"}]`)
}

func TestHomeSceneChecks(t *testing.T) {
	env := func(name, devices, out, exc string) string {
		if out == "" {
			out = "null"
		}
		if exc == "" {
			exc = "null"
		}
		return `{"api_name": "AddScene", "input": {"name": ` + name + `, "devices": ` + devices + `}, "output": ` + out + `, "exception": ` + exc + `}`
	}
	a := `[{"name": "Light ", "description": " x"}, {"name": "fan", "description": "y"}]`
	b := `[{"name": "fan", "description": "y "}, {"name": "light", "description": "x"}]`
	homeChecks(t, []homeCheckCase{
		{name: "normalised equal", tool: "AddScene", resp: env(`" Party"`, a, `"success"`, ""), gold: env(`"party"`, b, `"success"`, ""), want: true},
		{name: "output not compared", tool: "AddScene", resp: env(`"party"`, a, `"other"`, ""), gold: env(`"party"`, b, `"success"`, ""), want: true},
		{name: "gold null output", tool: "AddScene", resp: env(`"party"`, a, `"success"`, ""), gold: env(`"party"`, b, "", `"e"`), want: false},
		{name: "both null", tool: "AddScene", resp: env(`"party"`, a, "", `"e"`), gold: env(`"party"`, b, "", `"e"`), want: true},
		{name: "exception differs", tool: "AddScene", resp: env(`"party"`, a, "", `"e"`), gold: env(`"party"`, b, "", `"f"`), want: false},
		{name: "name differs", tool: "AddScene", resp: env(`"part"`, a, `"success"`, ""), gold: env(`"party"`, b, `"success"`, ""), want: false},
		{name: "devices differ", tool: "AddScene", resp: env(`"party"`, `[]`, `"success"`, ""), gold: env(`"party"`, b, `"success"`, ""), want: false},
		{name: "text devices", tool: "AddScene", resp: env(`"party"`, `"[{'name': 'x'}]"`, "", `"Invalid device format."`), gold: env(`"party"`, b, `"success"`, ""),
			errKind: Type, errText: "string indices must be integers, not 'str'"},
		{name: "empty text devices", tool: "AddScene", resp: env(`"party"`, `""`, "", `"x"`), gold: env(`"party"`, b, `"success"`, ""),
			errKind: Attribute, errText: "'str' object has no attribute 'sort'"},
		{name: "device without name", tool: "AddScene", resp: env(`"party"`, `[{"description": "d"}]`, "", ""), gold: env(`"party"`, b, `"success"`, ""),
			errKind: Key, errText: "'name'"},
		{name: "missing gold name", tool: "AddScene", resp: env(`"party"`, a, "", ""), gold: `{"api_name": "AddScene", "input": {"devices": []}, "output": null, "exception": null}`,
			errKind: Key, errText: "'name'"},
		{name: "modify compares output", tool: "ModifyScene", resp: env(`"party"`, a, `"other"`, ""), gold: env(`"party"`, b, `"success"`, ""), want: false},
		{name: "modify equal", tool: "ModifyScene", resp: env(`"party"`, a, `"success"`, ""), gold: env(`"party"`, b, `"success"`, ""), want: true},
		{name: "modify text devices", tool: "ModifyScene", resp: env(`"party"`, `"[{"`, "", `"Invalid device format."`), gold: env(`"party"`, b, `"success"`, ""),
			errKind: Type, errText: "string indices must be integers, not 'str'"},
		{name: "delete equal", tool: "DeleteScene", resp: `{"input": {"name": " Bedtime"}, "output": "success", "exception": null}`, gold: `{"input": {"name": "bedtime "}, "output": "success", "exception": null}`, want: true},
		{name: "delete output", tool: "DeleteScene", resp: `{"input": {"name": "bedtime"}, "output": null, "exception": "e"}`, gold: `{"input": {"name": "bedtime"}, "output": "success", "exception": null}`, want: false},
		{name: "delete missing gold name", tool: "DeleteScene", resp: `{"input": {"name": 5}, "output": null, "exception": null}`, gold: `{"input": {}, "output": null, "exception": null}`,
			errKind: Key, errText: "'name'"},
		{name: "query case", tool: "QueryScene", resp: `{"input": {"name": "Morning Routine"}, "output": [{"name": "light"}], "exception": null}`, gold: `{"input": {"name": "morning routine"}, "output": [{"name": "Light"}], "exception": null}`, want: false},
		{name: "query equal", tool: "QueryScene", resp: `{"input": {"name": "Morning Routine"}, "output": [{"name": "light"}], "exception": null}`, gold: `{"input": {"name": "morning routine"}, "output": [{"name": "light"}], "exception": null}`, want: true},
		{name: "query non-text name", tool: "QueryScene", resp: `{"input": {"name": 1}, "output": null, "exception": null}`, gold: `{"input": {"name": "x"}, "output": null, "exception": null}`,
			errKind: Attribute, errText: "'int' object has no attribute 'strip'"},
	})

	// The check normalises both device lists in place, as the original does.
	tool, _ := APIs.Lookup("AddScene")
	r := homeJSON(t, env(`"p"`, a, `"success"`, "")).(*value.Map)
	g := homeJSON(t, env(`"p"`, b, `"success"`, "")).(*value.Map)
	if ok, err := tool.Check(r, g); !ok || err != nil {
		t.Fatalf("check: %v %v", ok, err)
	}
	gin, _ := g.Get("input")
	gd, _ := gin.(*value.Map).Get("devices")
	if !value.Equal(gd, homeJSON(t, `[{"name": "fan", "description": "y"}, {"name": "light", "description": "x"}]`)) {
		t.Errorf("gold devices after check: %s", value.Repr(gd))
	}
}

func TestHomeTimedSwitch(t *testing.T) {
	w := homeRun(t,
		homeStep{tool: "TimedSwitch", args: `{"name": " Lamp ", "time": "2023-5-6 7:08:09", "on": true}`, out: `"success"`},
		homeStep{tool: "TimedSwitch", args: `{"name": "lamp", "time": "2023-05-06 07:08:09", "on": "False"}`, text: true, out: `"success"`},
		homeStep{tool: "TimedSwitch", args: `{"name": "lamp", "time": "2023-05-07 07:08:09", "on": "True"}`, text: true, out: `"success"`},
		homeStep{tool: "TimedSwitch", args: `{"name": "light", "time": "2023-03-15 18:30:00", "on": false}`, out: `"success"`},
		// The capital M of "coffee Maker" is unreachable: a new lowercase device is created.
		homeStep{tool: "TimedSwitch", args: `{"name": "Coffee Maker", "time": "2023-03-22 11:30:00", "on": false}`, out: `"success"`},
	)
	homeWantDB(t, w, "TimeSwitch", "lamp", `[{"time": "2023-05-06 07:08:09", "on": false}, {"time": "2023-05-07 07:08:09", "on": true}]`)
	homeWantDB(t, w, "TimeSwitch", "light", `[{"time": "2023-03-15 18:30:00", "on": false}]`)
	homeWantDB(t, w, "TimeSwitch", "coffee Maker", `[{"time": "2023-03-22 11:30:00", "on": true}]`)
	homeWantDB(t, w, "TimeSwitch", "coffee maker", `[{"time": "2023-03-22 11:30:00", "on": false}]`)

	// The envelope keeps the raw inputs; on is a real boolean.
	env := homeDo(t, homeBase(t).NewWorld(), homeStep{tool: "TimedSwitch", args: `{"name": "x", "time": "2023-05-06 07:08:09", "on": "true"}`, text: true, out: `"success"`})
	if in, _ := env.Get("input"); !value.Equal(in, homeJSON(t, `{"name": "x", "time": "2023-05-06 07:08:09", "on": false}`)) {
		t.Errorf("TimedSwitch input %s", value.Repr(in))
	}

	w = homeRun(t,
		homeStep{tool: "CancelTimedSwitch", args: `{"name": " Range Hood", "time": "2023-03-19 09:30:00"}`, out: `"success"`},
		homeStep{tool: "CancelTimedSwitch", args: `{"name": "range hood", "time": "2023-03-19 09:30:00"}`, exc: "time does not exist."},
	)
	homeWantDB(t, w, "TimeSwitch", "range hood", `[]`)

	for _, s := range []homeStep{
		{tool: "TimedSwitch", args: `{"name": " ", "time": "x", "on": true}`, exc: "Name cannot be empty."},
		{tool: "TimedSwitch", args: `{"name": "a", "time": "2023-03-16", "on": true}`, exc: "time data '2023-03-16' does not match format '%Y-%m-%d %H:%M:%S'"},
		{tool: "TimedSwitch", args: `{"name": "a", "time": "2023-03-16 07:00:00x", "on": true}`, exc: "unconverted data remains: x"},
		{tool: "TimedSwitch", args: `{"name": "a", "time": 5, "on": true}`, exc: "'int' object has no attribute 'strip'"},
		{tool: "TimedSwitch", args: `{"device_id": "a", "time": "2023-03-16 07:00:00", "on": "True"}`, text: true, escape: "invalid parameter name. parameter: device_id"},
		{tool: "TimedSwitch", args: `{"name": "a", "time": "2023-03-16 07:00:00"}`, escape: "TimedSwitch.call() missing 1 required positional argument: 'on'"},
		{tool: "CancelTimedSwitch", args: `{"name": "", "time": "x"}`, exc: "name cannot be empty."},
		{tool: "CancelTimedSwitch", args: `{"name": "tv", "time": "bad"}`, exc: "time data 'bad' does not match format '%Y-%m-%d %H:%M:%S'"},
		{tool: "CancelTimedSwitch", args: `{"name": "Coffee Maker", "time": "2023-03-22 11:30:00"}`, exc: "device name does not exist."},
		{tool: "CancelTimedSwitch", args: `{"name": "tv", "time": "2023-03-20 13:00:01"}`, exc: "time does not exist."},
		{tool: "CancelTimedSwitch", args: `{"name": "TV", "time": "2023-3-20 13:00:00"}`, text: true, out: `"success"`},
		{tool: "CancelTimedSwitch", args: `{"device_id": "tv", "time": "2023-03-20 13:00:00"}`, text: true, escape: "invalid parameter name. parameter: device_id"},
	} {
		homeRun(t, s)
	}
}

func TestHomeSwitchChecks(t *testing.T) {
	ts := func(name, tm, on, out string) string {
		return `{"api_name": "TimedSwitch", "input": {"name": ` + name + `, "time": ` + tm + `, "on": ` + on + `}, "output": ` + out + `, "exception": null}`
	}
	cs := func(name, tm, out string) string {
		return `{"api_name": "CancelTimedSwitch", "input": {"name": ` + name + `, "time": ` + tm + `}, "output": ` + out + `, "exception": null}`
	}
	gold := `{"api_name": "TimedSwitch", "input": {"device_id": "12345", "time": "2021-08-05 19:00:00", "on": true}, "output": "success", "exception": null}`
	homeChecks(t, []homeCheckCase{
		{name: "normalised", tool: "TimedSwitch", resp: ts(`" Lamp"`, `"2023-5-6 7:08:09"`, "true", `"success"`), gold: ts(`"lamp"`, `"2023-05-06 07:08:09"`, "true", `"success"`), want: true},
		{name: "on differs", tool: "TimedSwitch", resp: ts(`"lamp"`, `"2023-05-06 07:08:09"`, "false", `"success"`), gold: ts(`"lamp"`, `"2023-05-06 07:08:09"`, "true", `"success"`), want: false},
		{name: "bad times unequal", tool: "TimedSwitch", resp: ts(`"lamp"`, `"x"`, "true", "null"), gold: ts(`"lamp"`, `"x"`, "true", "null"), want: false},
		{name: "gold device_id", tool: "TimedSwitch", resp: ts(`"12345"`, `"2021-08-05 19:00:00"`, "true", `"success"`), gold: gold, errKind: Key, errText: "'name'"},
		{name: "null time", tool: "TimedSwitch", resp: ts(`"lamp"`, "null", "true", "null"), gold: ts(`"lamp"`, `"x"`, "true", "null"), errKind: Attribute, errText: "'NoneType' object has no attribute 'strip'"},
		{name: "missing gold on read first", tool: "TimedSwitch", resp: ts(`"a"`, `"x"`, "true", "null"), gold: `{"input": {"name": "b", "time": "x"}, "output": null, "exception": null}`, errKind: Key, errText: "'on'"},
		{name: "cancel equal", tool: "CancelTimedSwitch", resp: cs(`"TV "`, `"2023-03-20 13:00:00"`, `"success"`), gold: cs(`"tv"`, `"2023-03-20 13:00:00"`, `"success"`), want: true},
		{name: "cancel output", tool: "CancelTimedSwitch", resp: cs(`"tv"`, `"2023-03-20 13:00:00"`, "null"), gold: cs(`"tv"`, `"2023-03-20 13:00:00"`, `"success"`), want: false},
		{name: "cancel time", tool: "CancelTimedSwitch", resp: cs(`"tv"`, `"2023-03-20 13:00:01"`, `"success"`), gold: cs(`"tv"`, `"2023-03-20 13:00:00"`, `"success"`), want: false},
	})
}

func TestHomePlayMusicSendEmailGetToday(t *testing.T) {
	for _, s := range []homeStep{
		{tool: "PlayMusic", args: `{"music_name": "  Yesterday "}`, out: `"music://yesterday"`},
		{tool: "PlayMusic", args: `{"music_name": "Shape of You"}`, text: true, out: `"music://shape of you"`},
		{tool: "PlayMusic", args: `{"music_name": " "}`, exc: "The music name cannot be empty."},
		{tool: "PlayMusic", args: `{"music_name": 7}`, exc: "'int' object has no attribute 'lower'"},
		{tool: "SendEmail", args: `{"receiver": " john@example.com ", "subject": "Hi", "content": "Body"}`, out: `"success"`},
		{tool: "SendEmail", args: `{"receiver": "john.doe@example.org", "subject": "Hi", "content": "Body"}`, out: `"success"`},
		{tool: "SendEmail", args: `{"receiver": "jo_hn@exämple.com", "subject": "Hi", "content": "Body"}`, out: `"success"`},
		{tool: "SendEmail", args: `{"receiver": "John@example.com", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "a@b.com", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "john@mail.example.com", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "john@example.info", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "jo-hn@example.com", "subject": "Hi", "content": "Body"}`, exc: "Email address of the receiver is invalid."},
		{tool: "SendEmail", args: `{"receiver": "john@example.com", "subject": " ", "content": "Body"}`, exc: "Subject cannot be empty."},
		{tool: "SendEmail", args: `{"receiver": "john@example.com", "subject": "Hi", "content": ""}`, exc: "Content cannot be empty."},
		{tool: "SendEmail", args: `{"receiver": "john@example.com", "subject": 1, "content": ""}`, exc: "'int' object has no attribute 'strip'"},
		{tool: "GetToday", args: `{}`, out: `"2023-03-31"`},
		{tool: "GetToday", args: `{"date": "x"}`, escape: "invalid parameter name. parameter: date"},
	} {
		homeRun(t, s)
	}
	env := homeDo(t, homeBase(t).NewWorld(), homeStep{tool: "GetToday", args: `{}`, out: `"2023-03-31"`})
	if in, ok := env.Get("input"); !ok || in != nil {
		t.Errorf("GetToday input %v %v", in, ok)
	}
	homeChecks(t, []homeCheckCase{
		{name: "output only", tool: "PlayMusic", resp: `{"output": "music://a"}`, gold: `{"input": {"music_name": "b"}, "output": "music://a", "exception": "x"}`, want: true},
		{name: "output differs", tool: "PlayMusic", resp: `{"output": "music://a"}`, gold: `{"output": "music://b"}`, want: false},
		{name: "missing output", tool: "PlayMusic", resp: `{}`, gold: `{"output": "music://b"}`, errKind: Key, errText: "'output'"},
		{name: "email normalised", tool: "SendEmail", resp: `{"input": {"receiver": " John@Example.com", "subject": "Hi ", "content": " Body"}, "output": "success", "exception": null}`,
			gold: `{"input": {"receiver": "john@example.com", "subject": "Hi", "content": "Body"}, "output": "success", "exception": null}`, want: true},
		{name: "email content", tool: "SendEmail", resp: `{"input": {"receiver": "john@example.com", "subject": "Hi", "content": "Don"}, "output": "success", "exception": null}`,
			gold: `{"input": {"receiver": "john@example.com", "subject": "Hi", "content": "Don't"}, "output": "success", "exception": null}`, want: false},
		{name: "email missing content", tool: "SendEmail", resp: `{"input": {"receiver": "a", "subject": "b"}, "output": null, "exception": null}`,
			gold: `{"input": {"receiver": "x", "subject": "y", "content": "z"}, "output": null, "exception": null}`, errKind: Key, errText: "'content'"},
		{name: "today", tool: "GetToday", resp: `{"input": null, "output": "2023-03-31", "exception": null}`, gold: `{}`, want: true},
		{name: "today with input", tool: "GetToday", resp: `{"input": {}, "output": "2023-03-31", "exception": null}`, gold: `{}`, want: false},
		{name: "today null output", tool: "GetToday", resp: `{"output": null}`, gold: `{}`, want: false},
	})
}

func TestHomeBookHotel(t *testing.T) {
	book := func(hotel, in, out string, rooms, adults string) string {
		return `{"hotel_name": "` + hotel + `", "check_in_time": "` + in + `", "check_out_time": "` + out + `", "room_count": ` + rooms + `, "adult_count": ` + adults + `, "child_count": 0}`
	}
	w := homeRun(t,
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-10", "2023-08-15", "1", "2"), out: `"11"`},
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-12", "2023-08-20", "1", "2"), exc: "The room is not available."},
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-01", "2023-08-11", "1", "2"), exc: "The room is not available."},
		// A stay that strictly contains an existing one is not detected.
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-09", "2023-08-16", "1", "2"), out: `"12"`},
		homeStep{tool: "BookHotel", args: book("Hilton", "2023-08-15", "2023-08-16", "1", "2"), exc: "The room is not available."},
		homeStep{tool: "BookHotel", args: book("hilton", "2023-08-10", "2023-08-15", "2", "4"), out: `"13"`},
	)
	homeWantDB(t, w, "Hotel", "11", `{"hotel_name": "Hilton", "check_in_time": "2023-08-10", "check_out_time": "2023-08-15", "room_count": 1, "adult_count": 2, "child_count": 0}`)
	homeWantDB(t, w, "Hotel", "13", `{"hotel_name": "hilton", "check_in_time": "2023-08-10", "check_out_time": "2023-08-15", "room_count": 2, "adult_count": 4, "child_count": 0}`)

	for _, s := range []homeStep{
		{tool: "BookHotel", args: book("Hilton", "2023-04-05", "2023-04-07", "1", "2"), out: `"11"`},
		{tool: "BookHotel", args: book("Hilton", "2023-04-04", "2023-04-07", "1", "2"), exc: "The room is not available."},
		{tool: "BookHotel", args: book("X", "2023-08-10", "2023-08-05", "1", "2"), out: `"11"`},
		{tool: "BookHotel", args: book("X", "2023-8-10", "2023-08-15", "1", "3"), exc: "The number of adults is greater than 2. Two rooms are ordered."},
		{tool: "BookHotel", args: book("X", "2023-08-10x", "2023-08-15", "1", "3"), exc: "unconverted data remains: x"},
		{tool: "BookHotel", args: book("X", "2023-08-10", "15/08/2023", "1", "3"), exc: "time data '15/08/2023' does not match format '%Y-%m-%d'"},
		{tool: "BookHotel", args: `{"hotel_name": "X", "check_in_time": 5, "check_out_time": "2023-08-15", "room_count": 1, "adult_count": 1, "child_count": 0}`, exc: "strptime() argument 1 must be str, not int"},
		{tool: "BookHotel", args: `{"hotel_name": "X", "check_in_time": "2023-08-10", "check_out_time": "2023-08-15", "room_count": "1", "adult_count": "3", "child_count": "0"}`, text: true, exc: "The number of adults is greater than 2. Two rooms are ordered."},
		{tool: "BookHotel", args: `{"hotel_name": "X", "check_in_time": "2023-08-10", "check_out_time": "2023-08-15", "room_count": "1x", "adult_count": "3", "child_count": "0"}`, text: true, escape: "invalid parameter type. parameter: 1x"},
	} {
		homeRun(t, s)
	}
	e := `{"api_name": "BookHotel", "input": ` + book("Hilton", "2023-08-10", "2023-08-15", "1", "2") + `, "output": "11", "exception": null}`
	homeChecks(t, []homeCheckCase{
		{name: "default equal", tool: "BookHotel", resp: e, gold: e, want: true},
		{name: "default input", tool: "BookHotel", resp: `{"input": ` + book("Hilton ", "2023-08-10", "2023-08-15", "1", "2") + `, "output": "11", "exception": null}`, gold: e, want: false},
	})
}

// homeCalcCases were computed with the original's algorithm in Python 3.11 (the last ones hang there).
var homeCalcCases = []struct {
	formula string
	out     any // float64, or nil when exc is set
	exc     string
}{
	{"(1+2)*3", 9.0, ""},
	{"(1 + 2) * 3", 9.0, ""},
	{"7/3", 2.3333333333333335, ""},
	{"25*3+7/3", 77.33333333333333, ""},
	{"2-3-4", -5.0, ""},
	{"(2+3)*(4-1)/5", 3.0, ""},
	{"(5*6)/(2+3)", 6.0, ""},
	{"007+1", 8.0, ""},
	{"1+2(3)", 3.0, ""},
	{"(1)(2)", nil, "invalid formula"},
	{"2*(3+4)*5", 70.0, ""},
	{"1/0", nil, "float division by zero"},
	{"0/0", nil, "float division by zero"},
	{"12+", nil, "list index out of range"},
	{"1++2", nil, "unsupported operand type(s) for +: 'float' and 'str'"},
	{"1-+2", nil, "unsupported operand type(s) for -: 'float' and 'str'"},
	{"1/*2", nil, "unsupported operand type(s) for /: 'float' and 'str'"},
	{"8*-2", nil, "can't multiply sequence by non-int of type 'float'"},
	{"1**2", nil, "can't multiply sequence by non-int of type 'float'"},
	{"((1+2)*3)", nil, "')' is not in list"},
	{")1+2(", nil, "list index out of range"},
	{"()+1", nil, "list index out of range"},
	{"-", nil, "list index out of range"},
	{"(+)", nil, "list index out of range"},
	{"-+", nil, "unsupported operand type(s) for -: 'str' and 'str'"},
	{"/0+1", nil, "float division by zero"},
	{"(/0)", nil, "float division by zero"},
	{"*/", nil, "can't multiply sequence by non-int of type 'str'"},
	{"/*", nil, "unsupported operand type(s) for /: 'str' and 'str'"},
	{"+0-0-", nil, "can only concatenate str (not \"float\") to str"},
	{"+1", nil, "invalid formula"},
	{"5", nil, "invalid formula"},
	{"(5)", nil, "invalid formula"},
	{"1.5+2", nil, "invalid formula"},
	{"2^3", nil, "invalid formula"},
	{"", nil, "invalid formula"},
	{"   ", nil, "invalid formula"},
	{"1\t+2", nil, "invalid formula"},
	{"(1+2", nil, "invalid formula"},
	{"++", nil, calcHang},
	{"-1+2", nil, calcHang},
	{"*2+3", nil, calcHang},
	{"-(1+2)", nil, calcHang},
	{"(-1)+2", nil, calcHang},
	{"+++", nil, calcHang},
	{"1+(-2)", nil, calcHang},
}

func TestHomeCalculator(t *testing.T) {
	for _, c := range homeCalcCases {
		out, err := calculate(c.formula)
		exc := ""
		if err != nil {
			exc = err.Error()
		}
		if exc != c.exc || (c.exc == "" && !value.Equal(out, c.out)) {
			t.Errorf("calculate(%q) = %v, %q; want %v, %q", c.formula, out, exc, c.out, c.exc)
		}
		if _, isFloat := out.(float64); c.exc == "" && !isFloat {
			t.Errorf("calculate(%q) = %T, want a float", c.formula, out)
		}
	}
	if out, err := calculate(strings.Repeat("9", 400) + "*2"); err != nil || !math.IsInf(out.(float64), 1) {
		t.Errorf("huge number: %v %v", out, err)
	}
	// Through the catalog, text and native.
	for _, s := range []homeStep{
		{tool: "Calculator", args: `{"formula": "(1+2)*3"}`, text: true, out: `9.0`},
		{tool: "Calculator", args: `{"formula": "-1+2"}`, exc: calcHang},
		{tool: "Calculator", args: `{"formula": 12}`, exc: "'int' object has no attribute 'replace'"},
	} {
		homeRun(t, s)
	}
	// The lv3 catalog reuses calculator(): same behaviour there.
	if _, ok := LV3.Lookup("Calculator"); ok {
		env, err := LV3.Call(homeBase(t).NewWorld(), "Calculator", value.MapOf("formula", "(1+2)*3"))
		if out, _ := env.Get("output"); err != nil || !value.Equal(out, 9.0) {
			t.Errorf("lv3 Calculator: %v %v", env, err)
		}
	}
	env := func(f, out, exc string) string {
		return `{"api_name": "Calculator", "input": {"formula": ` + f + `}, "output": ` + out + `, "exception": ` + exc + `}`
	}
	homeChecks(t, []homeCheckCase{
		{name: "spaces ignored", tool: "Calculator", resp: env(`"(1+2) * 3"`, "9.0", "null"), gold: env(`"(1 + 2)*3"`, "9", "null"), want: true},
		{name: "tabs kept", tool: "Calculator", resp: env(`"(1+2)\t*3"`, "9.0", "null"), gold: env(`"(1+2)*3"`, "9.0", "null"), want: false},
		{name: "output", tool: "Calculator", resp: env(`"1+2"`, "3.0", "null"), gold: env(`"1+2"`, "4.0", "null"), want: false},
		{name: "exception", tool: "Calculator", resp: env(`"1/0"`, "null", `"float division by zero"`), gold: env(`"1/0"`, "null", `"x"`), want: false},
		{name: "non-text formula", tool: "Calculator", resp: env(`5`, "null", "null"), gold: env(`"5"`, "null", "null"), errKind: Attribute, errText: "'int' object has no attribute 'replace'"},
	})
}

// ---------------------------------------------------------------------------------------------
// Gold replay and oracle verdicts, for the home and health tools.

// homeMine lists the tools of home.go and health.go.
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
