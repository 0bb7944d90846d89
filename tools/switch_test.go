package tools

import (
	"testing"

	"github.com/apibank-playground/apibank/value"
)

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
