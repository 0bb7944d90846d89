package tools

import (
	"sort"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

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
