package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestToolSchemas: the schemas decode into names and required parameters, each keeping its exact
// bytes; no schemas (the text form) is no list; a broken array or entry is an error naming the
// catalog (and the entry).
func TestToolSchemas(t *testing.T) {
	entry := `{"type":"function","function":{"name":"AddAlarm","description":"Set an alarm.","parameters":{"type":"object","properties":{"time":{"type":"string"}},"required":["token","time"]}}}`
	for _, tc := range []struct {
		name, schemas string
		want          []string // name and required parameters of each entry, joined
		err           string
	}{
		{name: "text form", schemas: ""},
		{name: "null", schemas: "null"},
		{name: "two", schemas: "[" + entry + `,{"type":"function","function":{"name":"GetToday","parameters":{}}}]`,
			want: []string{"AddAlarm token,time", "GetToday "}},
		{name: "not an array", schemas: `{"a":1}`, err: "the apis catalog's schemas"},
		{name: "bad entry", schemas: `[` + entry + `,{"function":[]}]`, err: "schema 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Catalog{Catalog: "apis", Schemas: json.RawMessage(tc.schemas)}.ToolSchemas()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d schemas, want %d", len(got), len(tc.want))
			}
			for i, s := range got {
				if line := s.Function.Name + " " + strings.Join(s.Function.Parameters.Required, ","); line != tc.want[i] {
					t.Errorf("schema %d: %q, want %q", i, line, tc.want[i])
				}
			}
			if len(got) > 0 && string(got[0].Raw) != entry {
				t.Errorf("Raw %s, want the entry's bytes", got[0].Raw)
			}
		})
	}
}

// TestEntries: the catalog's API entries decode in order with their parameters' bytes kept; a broken
// entry is an error naming it.
func TestEntries(t *testing.T) {
	in := `{"time":{"type":"str","description":"When."}}`
	c := Catalog{Catalog: "apis", Tools: []json.RawMessage{
		json.RawMessage(`{"name":"AddAlarm","description":"Set an alarm.","input_parameters":` + in + `,"output_parameters":{}}`),
		json.RawMessage(`{"name":"GetToday"}`),
	}}
	got, err := c.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "AddAlarm" || got[0].Description != "Set an alarm." || string(got[0].InputParameters) != in || got[1].Name != "GetToday" || got[1].InputParameters != nil {
		t.Errorf("entries %+v", got)
	}
	c.Tools = append(c.Tools, json.RawMessage(`{"name":7}`))
	if _, err := c.Entries(); err == nil || !strings.Contains(err.Error(), "tool 3") {
		t.Errorf("error %v, want one naming tool 3", err)
	}
}

// TestEnvelope: Raised tells a raised exception (even an empty text) from null and from no member.
func TestEnvelope(t *testing.T) {
	for _, tc := range []struct {
		result, text string
		raised, bad  bool
	}{
		{result: `{"input":{"a":1},"output":2,"exception":null}`},
		{result: `{"input":null,"output":null,"exception":"Token is invalid."}`, text: "Token is invalid.", raised: true},
		{result: `{"exception":""}`, raised: true},
		{result: `{"output":3}`},
		{result: `[1]`, bad: true},
	} {
		e, err := ReadEnvelope(json.RawMessage(tc.result))
		if (err != nil) != tc.bad {
			t.Errorf("%s: error %v", tc.result, err)
			continue
		}
		if text, raised := e.Raised(); text != tc.text || raised != tc.raised {
			t.Errorf("%s: Raised() = %q, %v; want %q, %v", tc.result, text, raised, tc.text, tc.raised)
		}
	}
}
