package tools

import (
	"testing"

	"github.com/apibank-playground/apibank/value"
)

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
