package tools

import (
	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

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
