package app

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

func TestConcreteHint(t *testing.T) {
	tools := []ToolDoc{
		{Name: "GetUserToken", Description: "Gets the user's token.", Params: []ParamDoc{{Name: "username", Type: "str", Description: "The user's name."}, {Name: "password", Type: "str", Description: "The password."}}},
		{Name: "AddAlarm", Description: "Sets an alarm."},
	}
	gold := json.RawMessage(`{"api_name":"GetUserToken","input":{"username":"Fatima","password":"olive5"},"output":{"token":"t"},"exception":null}`)
	env := func(in string, exc string) json.RawMessage {
		e := "null"
		if exc != "" {
			e = `"` + exc + `"`
		}
		return json.RawMessage(`{"api_name":"GetUserToken","input":` + in + `,"output":null,"exception":` + e + `}`)
	}
	cases := []struct {
		name string
		v    protocol.CallVerdict
		want []string
	}{
		{"wrong tool: its description, not its name", protocol.CallVerdict{Category: "API_NAME_MISMATCH", Tool: "GetUserToken", Called: "AddAlarm"},
			[]string{"You called AddAlarm, but this step needs another tool.", "Look for the one that does this: Gets the user's token."}},
		{"missing argument", protocol.CallVerdict{Category: "MISS_INPUT_ARGUMENT", Tool: "GetUserToken", Called: "GetUserToken",
			Error: "GetUserToken.call() missing 1 required positional argument: 'password'"},
			[]string{"The argument password is missing (str: The password)."}},
		{"not a parameter", protocol.CallVerdict{Category: "INVALID_INPUT_PARAMETER", Tool: "GetUserToken", Called: "GetUserToken", Error: "invalid parameter name. parameter: bogus"},
			[]string{"bogus is not a parameter of GetUserToken. Its parameters are password, username."}},
		{"a wrong value, the gold one not given", protocol.CallVerdict{Category: "HAS_EXCEPTION", Tool: "GetUserToken", Called: "GetUserToken",
			Result: env(`{"username":"Fatima","password":"nope"}`, "The password is incorrect."), GoldResult: gold},
			[]string{"The tool answered: “The password is incorrect.”", `The value of password ("nope") is not the one the dialogue gives.`}},
		{"a wrong type", protocol.CallVerdict{Category: "HAS_EXCEPTION", Tool: "GetUserToken", Called: "GetUserToken",
			Result: env(`{"username":5,"password":"olive5"}`, "The username does not exist."), GoldResult: gold},
			[]string{"The tool answered: “The username does not exist.”", "username should be a text; you gave a number."}},
		{"right", protocol.CallVerdict{Category: "CORRECT", Correct: true, Tool: "GetUserToken", Called: "GetUserToken",
			Result: env(`{"username":"Fatima","password":"olive5"}`, ""), GoldResult: gold}, nil},
	}
	for _, c := range cases {
		got := ConcreteHint(c.v, tools)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		for _, line := range got {
			if strings.Contains(line, "olive5") {
				t.Errorf("%s: the hint gives the gold value away: %s", c.name, line)
			}
		}
	}
}

// The scanners that stand for regexps (hint.go) against those regexps.
var (
	missingArgRE = regexp.MustCompile(`missing \d+ required positional arguments?: (.*)$`)
	quotedNameRE = regexp.MustCompile(`'(\w+)'`)
	badParamRE   = regexp.MustCompile(`parameter: (\w+)`)
)

func checkHintScanners(t *testing.T, s string) {
	t.Helper()
	got, ok := missingArgs(s)
	if m := missingArgRE.FindStringSubmatch(s); (m != nil) != ok || m != nil && m[1] != got {
		t.Errorf("missingArgs(%q) = %q, %v; the regexp gives %q", s, got, ok, m)
	}
	var want []string
	for _, m := range quotedNameRE.FindAllStringSubmatch(s, -1) {
		want = append(want, m[1])
	}
	if names := quotedNames(s); !reflect.DeepEqual(names, want) {
		t.Errorf("quotedNames(%q) = %q; the regexp gives %q", s, names, want)
	}
	got, ok = badParam(s)
	if m := badParamRE.FindStringSubmatch(s); (m != nil) != ok || m != nil && m[1] != got {
		t.Errorf("badParam(%q) = %q, %v; the regexp gives %q", s, got, ok, m)
	}
}

var hintScannerSeeds = []string{
	"", "GetUserToken.call() missing 1 required positional argument: 'password'",
	"f() missing 2 required positional arguments: 'a' and 'b_2'", "missing 12 required positional arguments: ''x'y' 'é' 'z",
	"missing  1 required positional argument: 'a'", "missing x missing 3 required positional argumentss: 'a'",
	"missing 1 required positional argument: 'a'\nmore", "missing 1 required positional argument:\nmissing 2 required positional argument: 'b'",
	"missing 1 required positional argument 'a'", "missing missing 1 required positional arguments: ",
	"invalid parameter name. parameter: bogus", "parameter: ", "parameter:  x parameter: y_1 parameter: z", "parameter: é parameter: _",
	"'''a''b'", "'a'b'c'", "'_'", "'", "''",
}

func TestHintScanners(t *testing.T) {
	for _, s := range hintScannerSeeds {
		checkHintScanners(t, s)
	}
}

func FuzzHintScanners(f *testing.F) {
	for _, s := range hintScannerSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkHintScanners(t, s) })
}
