package tools

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// homeTools are the smart-home and everyday tools of the apis catalog: scenes, timed switches,
// music, e-mail, today's date, hotel booking and the calculator.
func homeTools() []*Tool {
	return []*Tool{
		addScene(), modifyScene(), deleteScene(), queryScene(),
		timedSwitch(), cancelTimedSwitch(),
		playMusic(), sendEmail(), getToday(), bookHotel(), calculator(),
	}
}

// ---------------------------------------------------------------------------------------------
// Python-semantics helpers shared by the home and health tools (prefixed "home" to keep the
// package's namespace clear of other groups' helpers).

// homeAttr is the AttributeError Python raises when a str method is called on a value that is not
// a text (native calls may send any JSON type for a str parameter).
func homeAttr(v any, method string) *Error {
	return escape(Attribute, "'"+pyTypeName(v)+"' object has no attribute '"+method+"'")
}

// homeStr returns v as a text, or the AttributeError of calling the str method on it.
func homeStr(v any, method string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", homeAttr(v, method)
	}
	return s, nil
}

// homeCaught turns an error that Python would raise inside a tool into the envelope's exception:
// the original tools catch every Exception and report its str().
func homeCaught(err error) error {
	if e, ok := err.(*Error); ok {
		return fail(e.Text)
	}
	return err
}

// homeNorm is the tools' format_check of a date text: the AttributeError of strip on a non-text
// (raised, not caught by format_check), or the §0.2 normaliser's result or parse error.
func homeNorm(v any, layout py.Layout) (string, error) {
	s, err := homeStr(v, "strip")
	if err != nil {
		return "", err
	}
	return py.Norm(s, layout)
}

// homeNormValue is format_check as the correctness checks use it: the normalised text, or, when
// the text does not parse, a fresh error object (equal only to itself, so never equal to the other
// side). A non-text raises the AttributeError of strip.
func homeNormValue(v any, layout py.Layout) (any, error) {
	s, err := homeStr(v, "strip")
	if err != nil {
		return nil, err
	}
	n, perr := py.Norm(s, layout)
	if perr != nil {
		return &value.Opaque{Text: perr.Error()}, nil
	}
	return n, nil
}

// homeContains is Python's `item in container` for a text item.
func homeContains(container any, item string) (bool, error) {
	switch c := container.(type) {
	case string:
		return strings.Contains(c, item), nil
	case *value.Map:
		return c.Has(item), nil
	case []any:
		for _, e := range c {
			if value.Equal(e, item) {
				return true, nil
			}
		}
		return false, nil
	case value.Tuple:
		for _, e := range c {
			if value.Equal(e, item) {
				return true, nil
			}
		}
		return false, nil
	}
	return false, escape(Type, "argument of type '"+pyTypeName(container)+"' is not iterable")
}

// homeIter lists what a Python for-loop over v visits: list items, the characters of a text, the
// keys of an object; other values are not iterable.
func homeIter(v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case value.Tuple:
		return []any(x), nil
	case string:
		out := make([]any, 0, utf8.RuneCountInString(x))
		for _, r := range x {
			out = append(out, string(r))
		}
		return out, nil
	case *value.Map:
		keys := x.Keys()
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return out, nil
	}
	return nil, escape(Type, "'"+pyTypeName(v)+"' object is not iterable")
}

// homeItem is Python's v[key] for a text key.
func homeItem(v any, key string) (any, error) {
	switch x := v.(type) {
	case *value.Map:
		if e, ok := x.Get(key); ok {
			return e, nil
		}
		return nil, keyError(key)
	case string:
		return nil, escape(Type, "string indices must be integers, not 'str'")
	case []any:
		return nil, escape(Type, "list indices must be integers or slices, not str")
	case value.Tuple:
		return nil, escape(Type, "tuple indices must be integers or slices, not str")
	}
	return nil, escape(Type, "'"+pyTypeName(v)+"' object is not subscriptable")
}

// homeInput reads response['input'][key] as the original checks do.
func homeInput(env *value.Map, key string) (any, error) { return inputField(env, key) }

// homeEq reads env1[key] and env2[key] (in that order) and compares them with ==.
func homeEq(r, g *value.Map, key string) (bool, error) {
	return sameField(key)(r, g)
}

// homeOutExc is the usual tail of a check: outputs equal, then exceptions equal.
func homeOutExc(r, g *value.Map) (bool, error) {
	ok, err := homeEq(r, g, "output")
	if err != nil || !ok {
		return false, err
	}
	return homeEq(r, g, "exception")
}

// homeLowerStrip reads input[key] of both envelopes and compares them after strip and lower
// (response first, raising the AttributeError of strip on a non-text).
func homeLowerStrip(r, g *value.Map, key string) (bool, error) {
	var norm [2]string
	for i, env := range []*value.Map{r, g} {
		v, err := homeInput(env, key)
		if err != nil {
			return false, err
		}
		s, err := homeStr(v, "strip")
		if err != nil {
			return false, err
		}
		norm[i] = py.Lower(py.Strip(s))
	}
	return norm[0] == norm[1], nil
}

// ---------------------------------------------------------------------------------------------
// Scenes

// sceneParams are the inputs of AddScene and ModifyScene.
func sceneParams() []Param {
	return []Param{
		{Name: "name", Type: "str", Required: true, Description: "Name of the scene (case and surrounding spaces are ignored)."},
		{Name: "devices", Type: "list", Required: true, Description: `The scene's devices, each an object {"name": ..., "description": ...}; device names must be distinct.`},
	}
}

func addScene() *Tool {
	return &Tool{
		Name:        "AddScene",
		Description: "Create a new smart-home scene: a named group of devices.",
		Params:      sceneParams(),
		Outputs:     []Field{{Name: "status", Type: "str", Description: `"success" when the scene was created.`}},
		Database:    "Scenes",
		run:         sceneRun(true),
		check:       sceneCheck(true),
	}
}

func modifyScene() *Tool {
	return &Tool{
		Name:        "ModifyScene",
		Description: "Replace the device list of an existing smart-home scene.",
		Params:      sceneParams(),
		Outputs:     []Field{{Name: "status", Type: "str", Description: `"success" when the scene was updated.`}},
		Database:    "Scenes",
		run:         sceneRun(false),
		check:       sceneCheck(false),
	}
}

// sceneRun is AddScene (add) or ModifyScene: normalise the name, normalise and sort the devices in
// place (the envelope shows them so), then create or replace the scene.
func sceneRun(add bool) func(c *Ctx, in *value.Map) (any, error) {
	return func(c *Ctx, in *value.Map) (any, error) {
		nv, _ := in.Get("name")
		name, err := homeStr(nv, "strip")
		if err != nil {
			return nil, homeCaught(err)
		}
		name = py.Lower(py.Strip(name))
		if name == "" {
			return nil, fail("Scene name cannot be empty.")
		}
		// The original normalises the caller's list in place; work on a copy so the caller's
		// arguments stay untouched, and show the copy in the envelope as the original does.
		dv, _ := in.Get("devices")
		devices := value.Clone(dv)
		in.Set("devices", devices)
		if err := sceneNormalise(devices); err != nil {
			return nil, homeCaught(err)
		}
		exists := c.table("Scenes").Has(name)
		if add && exists {
			return nil, fail("Scene name already exists.")
		}
		if !add && !exists {
			return nil, fail("The scene does not exist.")
		}
		c.writeTop("Scenes").Set(name, value.Clone(devices))
		return "success", nil
	}
}

// sceneNormalise is the tools' device pass: every element must hold "name" and "description"
// (Python's `in`, so a text element is tested for substrings), its name becomes lower(strip) and
// its description strip, in place; names must be distinct; then the list is sorted by name
// (stable). Errors carry Python's texts.
func sceneNormalise(devices any) error {
	items, err := homeIter(devices)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, d := range items {
		for _, key := range []string{"name", "description"} {
			ok, err := homeContains(d, key)
			if err != nil {
				return err
			}
			if !ok {
				return fail("Invalid device format.")
			}
		}
		name, err := sceneField(d, "name", true)
		if err != nil {
			return err
		}
		if _, err := sceneField(d, "description", false); err != nil {
			return err
		}
		if seen[name] {
			return fail("Device name cannot be duplicated.")
		}
		seen[name] = true
	}
	return sceneSort(devices)
}

// sceneField is `device[key] = device[key].strip()` (then .lower() for the name): it returns the
// normalised text and stores it back into the device object.
func sceneField(d any, key string, lower bool) (string, error) {
	v, err := homeItem(d, key)
	if err != nil {
		return "", err
	}
	s, err := homeStr(v, "strip")
	if err != nil {
		return "", err
	}
	s = py.Strip(s)
	if lower {
		s = py.Lower(s)
	}
	d.(*value.Map).Set(key, s) // homeItem succeeded, so d is an object
	return s, nil
}

// sceneSort is `devices.sort(key=lambda x: x['name'])` after a successful normalisation (every
// element is then an object with a text name).
func sceneSort(devices any) error {
	list, ok := devices.([]any)
	if !ok {
		return homeAttr(devices, "sort")
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, _ := list[i].(*value.Map)
		b, _ := list[j].(*value.Map)
		return a.String("name") < b.String("name")
	})
	return nil
}

// sceneCheck is the AddScene/ModifyScene correctness check. Like the original it normalises and
// sorts the device lists of both envelopes in place, so device lists that are text (what the
// original's parser always gives) make it raise: TypeError "string indices must be integers, not
// 'str'", or AttributeError "'str' object has no attribute 'sort'" for an empty text.
func sceneCheck(add bool) func(r, g *value.Map) (bool, error) {
	return func(r, g *value.Map) (bool, error) {
		var names [2]any
		var devices [2]any
		for i, env := range []*value.Map{r, g} {
			n, err := homeInput(env, "name")
			if err != nil {
				return false, err
			}
			d, err := homeInput(env, "devices")
			if err != nil {
				return false, err
			}
			names[i], devices[i] = n, d
		}
		var norm [2]string
		for i, n := range names {
			s, err := homeStr(n, "strip")
			if err != nil {
				return false, err
			}
			norm[i] = py.Lower(py.Strip(s))
		}
		for _, d := range devices {
			items, err := homeIter(d)
			if err != nil {
				return false, err
			}
			for _, dev := range items {
				if _, err := sceneField(dev, "name", true); err != nil {
					return false, err
				}
				if _, err := sceneField(dev, "description", false); err != nil {
					return false, err
				}
			}
		}
		for _, d := range devices {
			if err := sceneSort(d); err != nil {
				return false, err
			}
		}
		if norm[0] != norm[1] || !value.Equal(devices[0], devices[1]) {
			return false, nil
		}
		if add {
			gout, err := get(g, "output")
			if err != nil {
				return false, err
			}
			if gout == nil {
				rout, err := get(r, "output")
				if err != nil {
					return false, err
				}
				if rout != nil {
					return false, nil
				}
			}
			return homeEq(r, g, "exception")
		}
		return homeOutExc(r, g)
	}
}

// sceneNameParam is the single input of DeleteScene and QueryScene.
func sceneNameParam() []Param {
	return []Param{{Name: "name", Type: "str", Required: true, Description: "Name of the scene (case and surrounding spaces are ignored)."}}
}

// sceneName is the scene-name step of DeleteScene and QueryScene.
func sceneName(in *value.Map) (string, error) {
	nv, _ := in.Get("name")
	name, err := homeStr(nv, "strip")
	if err != nil {
		return "", homeCaught(err)
	}
	name = py.Lower(py.Strip(name))
	if name == "" {
		return "", fail("Scene name cannot be empty.")
	}
	return name, nil
}

func deleteScene() *Tool {
	return &Tool{
		Name:        "DeleteScene",
		Description: "Remove a smart-home scene by name.",
		Params:      sceneNameParam(),
		Outputs:     []Field{{Name: "status", Type: "str", Description: `"success" when the scene was removed.`}},
		Database:    "Scenes",
		run: func(c *Ctx, in *value.Map) (any, error) {
			name, err := sceneName(in)
			if err != nil {
				return nil, err
			}
			if !c.table("Scenes").Has(name) {
				return nil, fail("The scene does not exist.")
			}
			c.writeTop("Scenes").Delete(name)
			return "success", nil
		},
		check: func(r, g *value.Map) (bool, error) {
			// Both names are read before either is normalised.
			if _, err := homeInput(r, "name"); err != nil {
				return false, err
			}
			if _, err := homeInput(g, "name"); err != nil {
				return false, err
			}
			ok, err := homeLowerStrip(r, g, "name")
			if err != nil || !ok {
				return false, err
			}
			return homeOutExc(r, g)
		},
	}
}

func queryScene() *Tool {
	return &Tool{
		Name:        "QueryScene",
		Description: "List the devices of a smart-home scene.",
		Params:      sceneNameParam(),
		Outputs:     []Field{{Name: "devices", Type: "list", Description: "The scene's devices, each {name, description}."}},
		Database:    "Scenes",
		run: func(c *Ctx, in *value.Map) (any, error) {
			name, err := sceneName(in)
			if err != nil {
				return nil, err
			}
			devices, ok := c.table("Scenes").Get(name)
			if !ok {
				return nil, fail("Scene not found.")
			}
			return value.Clone(devices), nil
		},
		check: func(r, g *value.Map) (bool, error) {
			ok, err := homeLowerStrip(r, g, "name")
			if err != nil || !ok {
				return false, err
			}
			return homeOutExc(r, g)
		},
	}
}

// ---------------------------------------------------------------------------------------------
// Timed switches

// switchDevice is the device-name step of TimedSwitch and CancelTimedSwitch.
func switchDevice(in *value.Map, emptyText string) (string, error) {
	nv, _ := in.Get("name")
	name, err := homeStr(nv, "strip")
	if err != nil {
		return "", homeCaught(err)
	}
	name = py.Lower(py.Strip(name))
	if name == "" {
		return "", fail(emptyText)
	}
	return name, nil
}

// switchTime is the time step of TimedSwitch and CancelTimedSwitch: the normalised DT text.
func switchTime(in *value.Map) (string, error) {
	tv, _ := in.Get("time")
	t, err := homeNorm(tv, py.DT)
	if err != nil {
		return "", homeCaught(err)
	}
	return t, nil
}

func timedSwitch() *Tool {
	return &Tool{
		Name:        "TimedSwitch",
		Description: "Schedule a smart device to switch on or off at a given time.",
		Params: []Param{
			{Name: "name", Type: "str", Required: true, Description: "Name of the device (case and surrounding spaces are ignored)."},
			{Name: "time", Type: "str", Required: true, Description: "When to switch, as YYYY-MM-DD HH:MM:SS."},
			{Name: "on", Type: "bool", Required: true, Description: "True to switch the device on, False to switch it off."},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: `"success" when the schedule was stored.`}},
		Database: "TimeSwitch",
		run: func(c *Ctx, in *value.Map) (any, error) {
			name, err := switchDevice(in, "Name cannot be empty.")
			if err != nil {
				return nil, err
			}
			t, err := switchTime(in)
			if err != nil {
				return nil, err
			}
			on, _ := in.Get("on")
			db := c.writeTable("TimeSwitch")
			cur, ok := db.Get(name)
			if !ok {
				db.Set(name, []any{value.MapOf("time", t, "on", on)})
				return "success", nil
			}
			list, _ := cur.([]any)
			for _, e := range list {
				if m, ok := e.(*value.Map); ok && switchAt(m, t) {
					m.Set("on", on)
					return "success", nil
				}
			}
			db.Set(name, append(list, value.MapOf("time", t, "on", on)))
			return "success", nil
		},
		check: switchCheck(true),
	}
}

func cancelTimedSwitch() *Tool {
	return &Tool{
		Name:        "CancelTimedSwitch",
		Description: "Cancel a scheduled on/off switch of a smart device.",
		Params: []Param{
			{Name: "name", Type: "str", Required: true, Description: "Name of the device (case and surrounding spaces are ignored)."},
			{Name: "time", Type: "str", Required: true, Description: "The scheduled time to cancel, as YYYY-MM-DD HH:MM:SS."},
		},
		Outputs:  []Field{{Name: "status", Type: "str", Description: `"success" when the schedule was removed.`}},
		Database: "TimeSwitch",
		run: func(c *Ctx, in *value.Map) (any, error) {
			name, err := switchDevice(in, "name cannot be empty.")
			if err != nil {
				return nil, err
			}
			t, err := switchTime(in)
			if err != nil {
				return nil, err
			}
			cur, ok := c.table("TimeSwitch").Get(name)
			if !ok {
				return nil, fail("device name does not exist.")
			}
			list, _ := cur.([]any)
			for i, e := range list {
				if m, ok := e.(*value.Map); ok && switchAt(m, t) {
					db := c.writeTable("TimeSwitch")
					own, _ := db.Get(name)
					ownList := own.([]any)
					db.Set(name, append(ownList[:i:i], ownList[i+1:]...))
					return "success", nil
				}
			}
			return nil, fail("time does not exist.")
		},
		check: switchCheck(false),
	}
}

// switchAt reports whether a stored schedule entry is at the (normalised) time t.
func switchAt(entry *value.Map, t string) bool {
	v, _ := entry.Get("time")
	return value.Equal(v, t)
}

// switchCheck is the TimedSwitch (withOn) / CancelTimedSwitch check: every input is read first
// (response then gold, field by field), then names are compared after strip+lower and times after
// the date normaliser (an unparsable time is unequal to everything), then `on`, output, exception.
func switchCheck(withOn bool) func(r, g *value.Map) (bool, error) {
	keys := []string{"name", "time"}
	if withOn {
		keys = append(keys, "on")
	}
	return func(r, g *value.Map) (bool, error) {
		vals := map[string][2]any{}
		for _, k := range keys {
			a, err := homeInput(r, k)
			if err != nil {
				return false, err
			}
			b, err := homeInput(g, k)
			if err != nil {
				return false, err
			}
			vals[k] = [2]any{a, b}
		}
		var names [2]string
		for i, v := range vals["name"] {
			s, err := homeStr(v, "strip")
			if err != nil {
				return false, err
			}
			names[i] = py.Lower(py.Strip(s))
		}
		var times [2]any
		for i, v := range vals["time"] {
			n, err := homeNormValue(v, py.DT)
			if err != nil {
				return false, err
			}
			times[i] = n
		}
		if names[0] != names[1] || !value.Equal(times[0], times[1]) {
			return false, nil
		}
		if withOn && !value.Equal(vals["on"][0], vals["on"][1]) {
			return false, nil
		}
		return homeOutExc(r, g)
	}
}

// ---------------------------------------------------------------------------------------------
// Music, e-mail, today

func playMusic() *Tool {
	return &Tool{
		Name:        "PlayMusic",
		Description: "Start playing a piece of music; answers the player link it opens.",
		Params: []Param{
			{Name: "music_name", Type: "str", Required: true, Description: "Title of the music to play."},
		},
		Outputs: []Field{{Name: "status", Type: "str", Description: "The music:// link that starts the player."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("music_name")
			s, err := homeStr(v, "lower")
			if err != nil {
				return nil, homeCaught(err)
			}
			s = py.Strip(py.Lower(s))
			if s == "" {
				return nil, fail("The music name cannot be empty.")
			}
			return "music://" + s, nil
		},
		check: func(r, g *value.Map) (bool, error) { return homeEq(r, g, "output") },
	}
}

// validEmail is the original's receiver test, ^[a-z0-9]+[\._]?[a-z0-9]+[@]\w+[.]\w{2,3}$, with
// Python's Unicode \w (letters, numbers and underscore): a local part of lowercase letters and digits
// with at most one inner '.' or '_' (two characters at least), '@', one word, '.', and an ending of two
// or three word characters. The receiver is stripped first, so `$` never meets a trailing newline.
// (Hand-written rather than a regular expression: it keeps the regexp package out of the module.)
func validEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	if at < 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	seps := 0
	for i := 0; i < len(local); i++ {
		c := local[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		case c == '.' || c == '_':
			if i == 0 || i == len(local)-1 {
				return false
			}
			seps++
		default:
			return false
		}
	}
	if seps > 1 || len(local)-seps < 2 {
		return false
	}
	dot := strings.IndexByte(domain, '.')
	if dot <= 0 {
		return false
	}
	name, end := domain[:dot], []rune(domain[dot+1:])
	for _, r := range name {
		if !homeWord(r) {
			return false
		}
	}
	if len(end) < 2 || len(end) > 3 {
		return false
	}
	for _, r := range end {
		if !homeWord(r) {
			return false
		}
	}
	return true
}

// homeWord reports whether r is in Python's Unicode \w.
func homeWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

func sendEmail() *Tool {
	return &Tool{
		Name:        "SendEmail",
		Description: "Send an e-mail with a subject and a body to one receiver.",
		Params: []Param{
			{Name: "receiver", Type: "str", Required: true, Description: "The receiver's e-mail address (lowercase)."},
			{Name: "subject", Type: "str", Required: true, Description: "Subject line; must not be empty."},
			{Name: "content", Type: "str", Required: true, Description: "Body text; must not be empty."},
		},
		Outputs: []Field{{Name: "status", Type: "str", Description: `"success" when the e-mail was accepted.`}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			var parts [3]string
			for i, k := range []string{"receiver", "subject", "content"} {
				v, _ := in.Get(k)
				s, err := homeStr(v, "strip")
				if err != nil {
					return nil, homeCaught(err)
				}
				parts[i] = py.Strip(s)
			}
			if !validEmail(parts[0]) {
				return nil, fail("Email address of the receiver is invalid.")
			}
			if parts[1] == "" {
				return nil, fail("Subject cannot be empty.")
			}
			if parts[2] == "" {
				return nil, fail("Content cannot be empty.")
			}
			return "success", nil
		},
		check: func(r, g *value.Map) (bool, error) {
			var norm [3][2]string
			for i, k := range []string{"receiver", "subject", "content"} {
				for j, env := range []*value.Map{r, g} {
					v, err := homeInput(env, k)
					if err != nil {
						return false, err
					}
					s, err := homeStr(v, "strip")
					if err != nil {
						return false, err
					}
					s = py.Strip(s)
					if i == 0 {
						s = py.Lower(s)
					}
					norm[i][j] = s
				}
			}
			for _, p := range norm {
				if p[0] != p[1] {
					return false, nil
				}
			}
			return homeOutExc(r, g)
		},
	}
}

func getToday() *Tool {
	return &Tool{
		Name:        "GetToday",
		Description: "Tell today's date (the benchmark's fixed today).",
		Outputs:     []Field{{Name: "date", Type: "str", Description: "Today as YYYY-MM-DD."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			return "2023-03-31", nil
		},
		// Correct iff the response has an output, no exception and no input (the gold is not read).
		check: func(r, g *value.Map) (bool, error) {
			out, err := get(r, "output")
			if err != nil || out == nil {
				return false, err
			}
			for _, k := range []string{"exception", "input"} {
				v, err := get(r, k)
				if err != nil || v != nil {
					return false, err
				}
			}
			return true, nil
		},
	}
}

// ---------------------------------------------------------------------------------------------
// Hotel

// homeStrptime is datetime.strptime(v, layout) on a value that may not be a text.
func homeStrptime(v any, layout py.Layout) (py.Time, error) {
	s, ok := v.(string)
	if !ok {
		return py.Time{}, fail("strptime() argument 1 must be str, not " + pyTypeName(v))
	}
	t, err := py.Strptime(s, layout)
	if err != nil {
		return py.Time{}, fail(err.Error())
	}
	return t, nil
}

func bookHotel() *Tool {
	return &Tool{
		Name:        "BookHotel",
		Description: "Book hotel rooms for a stay; more than two adults need at least two rooms.",
		Params: []Param{
			{Name: "hotel_name", Type: "str", Required: true, Description: "Name of the hotel."},
			{Name: "check_in_time", Type: "str", Required: true, Description: "Arrival date, YYYY-MM-DD."},
			{Name: "check_out_time", Type: "str", Required: true, Description: "Departure date, YYYY-MM-DD."},
			{Name: "room_count", Type: "int", Required: true, Description: "How many rooms to book."},
			{Name: "adult_count", Type: "int", Required: true, Description: "How many adults stay."},
			{Name: "child_count", Type: "int", Required: true, Description: "How many children stay."},
		},
		Outputs:  []Field{{Name: "order_id", Type: "str", Description: "Identifier of the new booking."}},
		Database: "Hotel",
		run: func(c *Ctx, in *value.Map) (any, error) {
			hotel, _ := in.Get("hotel_name")
			inV, _ := in.Get("check_in_time")
			outV, _ := in.Get("check_out_time")
			checkIn, err := homeStrptime(inV, py.D)
			if err != nil {
				return nil, err
			}
			checkOut, err := homeStrptime(outV, py.D)
			if err != nil {
				return nil, err
			}
			rooms, _ := in.Get("room_count")
			adults, _ := in.Get("adult_count")
			children, _ := in.Get("child_count")
			if a, ok := value.Int(adults); ok && a > 2 && value.Equal(rooms, int64(1)) {
				return nil, fail("The number of adults is greater than 2. Two rooms are ordered.")
			}
			orders := c.table("Hotel")
			for _, id := range orders.Keys() {
				ov, _ := orders.Get(id)
				o, ok := ov.(*value.Map)
				if !ok {
					continue
				}
				name, _ := o.Get("hotel_name")
				if !value.Equal(name, hotel) {
					continue
				}
				oi, _ := o.Get("check_in_time")
				oo, _ := o.Get("check_out_time")
				oIn, err := homeStrptime(oi, py.D)
				if err != nil {
					return nil, err
				}
				oOut, err := homeStrptime(oo, py.D)
				if err != nil {
					return nil, err
				}
				if (checkIn.Compare(oIn) >= 0 && checkIn.Before(oOut)) ||
					(checkOut.Compare(oIn) > 0 && checkOut.Compare(oOut) <= 0) {
					return nil, fail("The room is not available.")
				}
			}
			id := strconv.Itoa(orders.Len() + 1)
			c.writeTop("Hotel").Set(id, value.MapOf(
				"hotel_name", value.Clone(hotel),
				"check_in_time", inV,
				"check_out_time", outV,
				"room_count", rooms,
				"adult_count", adults,
				"child_count", children,
			))
			return id, nil
		},
	}
}

// ---------------------------------------------------------------------------------------------
// Calculator

// calculator is the arithmetic tool, shared by both catalogs (the lv3 one is identical).
func calculator() *Tool {
	return &Tool{
		Name:        "Calculator",
		Description: "Evaluate an arithmetic formula of whole numbers with + - * / and parentheses.",
		Params: []Param{
			{Name: "formula", Type: "str", Required: true, Description: "The formula, e.g. '(1 + 2) * 3'; only non-negative integers, + - * / and one level of parentheses."},
		},
		Outputs: []Field{{Name: "result", Type: "float", Description: "The value of the formula."}},
		run: func(c *Ctx, in *value.Map) (any, error) {
			v, _ := in.Get("formula")
			s, err := homeStr(v, "replace")
			if err != nil {
				return nil, homeCaught(err)
			}
			return calculate(s)
		},
		check: func(r, g *value.Map) (bool, error) {
			var f [2]string
			for i, env := range []*value.Map{r, g} {
				v, err := homeInput(env, "formula")
				if err != nil {
					return false, err
				}
				s, err := homeStr(v, "replace")
				if err != nil {
					return false, err
				}
				f[i] = strings.ReplaceAll(s, " ", "")
			}
			if f[0] != f[1] {
				return false, nil
			}
			return homeOutExc(r, g)
		},
	}
}

// calcHang is our answer where the original never terminates: an operator as the first token of
// the list being evaluated (a leading operator, also inside parentheses) makes the original read
// its left operand at index -1 and grow or rewrite the list forever. We answer promptly with this
// exception instead (see RATIONALE.md).
const calcHang = "formula starts with an operator"

// calculate evaluates a formula as the original does (TOOLS.md §2 Calculator), with Python's
// error texts. The original rebuilds its token list after every operation (quadratic in the
// formula's length); ours reaches the same result and the same first error in one pass per phase,
// in place, so its time and memory are linear in the formula.
func calculate(formula string) (any, error) {
	f := strings.ReplaceAll(formula, " ", "")
	if !calcValid(f) {
		return nil, fail("invalid formula")
	}
	// calcValid admits only ASCII digits, operators and parentheses: one byte, one character.
	n := 0
	for i := 0; i < len(f); i++ {
		if f[i] < '0' || f[i] > '9' || i == 0 || f[i-1] < '0' || f[i-1] > '9' {
			n++
		}
	}
	toks := make([]calcTok, 0, n)
	for i := 0; i < len(f); {
		if f[i] < '0' || f[i] > '9' {
			toks = append(toks, calcTok{text: f[i : i+1]})
			i++
			continue
		}
		j := i + 1
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		toks = append(toks, calcTok{num: calcNumber(f[i:j])})
		i = j
	}
	v, err := calcEval(toks)
	if err != nil {
		return nil, err
	}
	return v.value(), nil
}

// calcTok is one token of a formula: a number, or a text (an operator, a parenthesis, or two texts
// that '+' concatenated, as Python lets it).
type calcTok struct {
	text string // "" for a number
	num  float64
}

// is reports whether the token is the text s.
func (t calcTok) is(s string) bool { return t.text == s }

// value is the token as the tool answers it: a float or a text.
func (t calcTok) value() any {
	if t.text == "" {
		return t.num
	}
	return t.text
}

// calcNumber is float() of a run of ASCII digits (huge runs give +Inf, as in Python).
func calcNumber(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// calcValid is the original's validity test of the space-free formula.
func calcValid(f string) bool {
	if f == "" {
		return false
	}
	for _, r := range f {
		if !strings.ContainsRune("0123456789+-*/()", r) {
			return false
		}
	}
	if strings.Count(f, "(") != strings.Count(f, ")") {
		return false
	}
	ops := strings.Count(f, "+") + strings.Count(f, "-") + strings.Count(f, "*") + strings.Count(f, "/")
	return ops != 0 && ops+1 != len(f)
}

// calcIndex is list.index(s): the first token that is the text s, or -1.
func calcIndex(toks []calcTok, s string) int {
	for i, t := range toks {
		if t.is(s) {
			return i
		}
	}
	return -1
}

// calcFirst returns the index of the leftmost of the two operators, or -1 when neither is present.
func calcFirst(toks []calcTok, a, b string) int {
	i, j := calcIndex(toks, a), calcIndex(toks, b)
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	case i < j:
		return i
	}
	return j
}

// calcEval is the original's calculate_formula on a token list: parentheses first (first '(' with
// first ')', so nesting fails), then * and / left to right, then + and -, then the first token. It
// reuses toks' storage.
func calcEval(toks []calcTok) (calcTok, error) {
	toks, err := calcParens(toks)
	if err != nil {
		return calcTok{}, err
	}
	for _, pair := range [2][2]string{{"*", "/"}, {"+", "-"}} {
		if toks, err = calcPass(toks, pair[0], pair[1]); err != nil {
			return calcTok{}, err
		}
	}
	if len(toks) == 0 {
		return calcTok{}, fail("list index out of range")
	}
	return toks[0], nil
}

// calcParens is the original's loop "while '(' in formula: replace formula[first '(' : first ')'
// + 1] by the value of the tokens between them", done in one left-to-right pass: after each
// replacement no '(' is left before the replaced slice, so the next first '(' is further right.
// The result is written over toks (it is never longer than what was read).
func calcParens(toks []calcTok) ([]calcTok, error) {
	if calcIndex(toks, "(") < 0 {
		return toks, nil
	}
	out := toks[:0]
	closed := false // a ')' was passed outside parentheses: it is the first ')' of the list
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.is("(") {
			closed = closed || t.is(")")
			out = append(out, t)
			continue
		}
		if closed {
			// The first ')' lies before the first '(': the slice between them is empty.
			return nil, fail("list index out of range")
		}
		r := -1
		for k := i + 1; k < len(toks); k++ {
			if toks[k].is(")") {
				r = k
				break
			}
		}
		if r < 0 {
			return nil, fail("')' is not in list")
		}
		// The value of toks[i+1:r], which holds no ')': an empty slice has no first token, and a
		// '(' inside (nesting) makes the inner loop look for a ')' in vain.
		if r == i+1 {
			return nil, fail("list index out of range")
		}
		if calcIndex(toks[i+1:r], "(") >= 0 {
			return nil, fail("')' is not in list")
		}
		v, err := calcEval(toks[i+1 : r])
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		i = r
	}
	return out, nil
}

// calcPass is the original's loop "while a or b in formula: apply the leftmost of them to its
// neighbours and put the result in their place", done in one left-to-right pass over toks'
// storage. A result is a number or a concatenated text of two or more characters, never an
// operator, so after each step the leftmost operator is further right.
func calcPass(toks []calcTok, a, b string) ([]calcTok, error) {
	if len(toks) > 0 && (toks[0].is(a) || toks[0].is(b)) {
		return calcLeading(toks, a, b)
	}
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.is(a) && !t.is(b) {
			out = append(out, t)
			continue
		}
		if i+1 >= len(toks) {
			return nil, fail("list index out of range")
		}
		v, err := calcOp(out[len(out)-1], t.text, toks[i+1])
		if err != nil {
			return nil, err
		}
		out[len(out)-1] = v
		i++
	}
	return out, nil
}

// calcLeading is the pass when the list starts with one of its operators: the original reads the
// left operand at index -1 (the last token) and assigns formula[-1:2] = [v]. With three or more
// tokens that inserts v before the last token and the same step repeats forever; with two it
// rewrites the second token, and the step repeats on (v, v) until an operation raises. Either way
// we answer calcHang where the original would not stop.
func calcLeading(toks []calcTok, a, b string) ([]calcTok, error) {
	for atZero := 0; ; atZero++ {
		idx := calcFirst(toks, a, b)
		if idx < 0 {
			return toks, nil
		}
		n := len(toks)
		if idx+1 >= n {
			return nil, fail("list index out of range")
		}
		v, err := calcOp(toks[n-1], toks[idx].text, toks[idx+1])
		if err != nil {
			return nil, err
		}
		if n >= 3 || atZero >= 3 {
			return nil, fail(calcHang)
		}
		toks = []calcTok{toks[0], v}
	}
}

// calcOp applies one operator to two tokens (numbers or texts) with Python's semantics and errors.
func calcOp(a calcTok, op string, b calcTok) (calcTok, error) {
	xNum, yNum := a.text == "", b.text == ""
	x, y := a.num, b.num
	if xNum && yNum {
		switch op {
		case "+":
			return calcTok{num: x + y}, nil
		case "-":
			return calcTok{num: x - y}, nil
		case "*":
			return calcTok{num: x * y}, nil
		case "/":
			if y == 0 {
				return calcTok{}, fail("float division by zero")
			}
			return calcTok{num: x / y}, nil
		}
	}
	ta, tb := pyTypeName(a.value()), pyTypeName(b.value())
	switch op {
	case "+":
		if !xNum && !yNum {
			return calcTok{text: a.text + b.text}, nil
		}
		if !xNum {
			return calcTok{}, fail(`can only concatenate str (not "` + tb + `") to str`)
		}
	case "*":
		if xNum || yNum {
			return calcTok{}, fail("can't multiply sequence by non-int of type 'float'")
		}
		return calcTok{}, fail("can't multiply sequence by non-int of type 'str'")
	}
	return calcTok{}, fail("unsupported operand type(s) for " + op + ": '" + ta + "' and '" + tb + "'")
}
