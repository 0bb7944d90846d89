package app

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

func TestToolDocs(t *testing.T) {
	c := protocol.Catalog{
		Catalog: "apis",
		Tools: []json.RawMessage{json.RawMessage(`{"name":"AddAlarm","description":"Sets an alarm.",` +
			`"input_parameters":{"token":{"type":"str","description":"who"},"time":{"type":"str","description":"when"}},` +
			`"output_parameters":{"status":{"type":"str","description":"done"}}}`)},
		Schemas:    json.RawMessage(`[{"type":"function","function":{"name":"AddAlarm","parameters":{"required":["token"]}}}]`),
		Examples:   map[string]string{"AddAlarm": "[AddAlarm(token='a', time='b')]"},
		Exceptions: map[string][]string{"AddAlarm": {"The token is invalid."}},
	}
	got, err := ToolDocs(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolDoc{{
		Name: "AddAlarm", Description: "Sets an alarm.",
		Params:     []ParamDoc{{"token", "str", "who", true}, {"time", "str", "when", false}},
		Returns:    []ParamDoc{{"status", "str", "done", false}},
		Exceptions: []string{"The token is invalid."}, Example: "[AddAlarm(token='a', time='b')]",
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ToolDocs = %+v\nwant %+v", got, want)
	}
	if _, err := ToolDocs(protocol.Catalog{Tools: []json.RawMessage{json.RawMessage(`[]`)}}); err == nil {
		t.Error("a tool entry that is not an object is not an error")
	}
}

func TestToolMatches(t *testing.T) {
	d := ToolDoc{Name: "AddAlarm", Description: "Sets an alarm clock.", Params: []ParamDoc{{Name: "token"}}}
	cases := []struct {
		q    string
		want bool
	}{
		{"", true}, {"alarm", true}, {"ALARM clock", true}, {"token", true}, {"meeting", false}, {"alarm meeting", false},
	}
	for _, c := range cases {
		if got := d.Matches(c.q); got != c.want {
			t.Errorf("Matches(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}
