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
