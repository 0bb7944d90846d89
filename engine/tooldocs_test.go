package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/value"
)

func TestExampleCall(t *testing.T) {
	cases := []struct {
		name   string
		params *value.Map
		want   string
	}{
		{"plain strings", value.MapOf("token", "abc", "time", "2023-01-01 07:00:00"), "[AddAlarm(token='abc', time='2023-01-01 07:00:00')]"},
		{"a quote needs native", value.MapOf("content", "Bob's party"), `{"name": "AddAlarm", "arguments": {"content":"Bob's party"}}`},
		{"an empty value needs native", value.MapOf("content", ""), `{"name": "AddAlarm", "arguments": {"content":""}}`},
		{"a list needs native", value.MapOf("ids", []any{"a"}), `{"name": "AddAlarm", "arguments": {"ids":["a"]}}`},
	}
	for _, c := range cases {
		if got := exampleCall("AddAlarm", c.params); got != c.want {
			t.Errorf("%s: exampleCall = %s, want %s", c.name, got, c.want)
		}
	}
}

// TestCatalogDocs: both catalogs answer schemas for every tool (with required parameters) and, from
// the builtin data, an example call of every tool that runs without a call error in a fresh world.
func TestCatalogDocs(t *testing.T) {
	for _, name := range []string{"apis", "lv3_apis"} {
		s := New()
		c, err := protocol.Call[protocol.Catalog](context.Background(), func(_ context.Context, b []byte) ([]byte, error) { return s.Handle(b), nil },
			protocol.Request{Op: protocol.OpCatalog, Catalog: name, Form: protocol.FormNative})
		if err != nil {
			t.Fatal(err)
		}
		schemas, err := c.ToolSchemas()
		if err != nil {
			t.Fatalf("%s schemas: %v", name, err)
		}
		if len(schemas) != len(c.Tools) {
			t.Fatalf("%s: %d schemas for %d tools", name, len(schemas), len(c.Tools))
		}
		entries, err := c.Entries()
		if err != nil {
			t.Fatalf("%s entries: %v", name, err)
		}
		for i, entry := range entries {
			if schemas[i].Function.Name != entry.Name || schemas[i].Type != "function" {
				t.Errorf("%s: schema %d is %q, tool %q", name, i, schemas[i].Function.Name, entry.Name)
			}
			ex, ok := c.Examples[entry.Name]
			if !ok {
				t.Errorf("%s: no example call of %s", name, entry.Name)
				continue
			}
			req, _ := json.Marshal(protocol.Request{V: protocol.Version, Op: protocol.OpCall, Call: json.RawMessage(jsonText(ex)), Catalog: name})
			var resp struct {
				OK     bool `json:"ok"`
				Result protocol.CallResult
			}
			_ = json.Unmarshal(s.Handle(req), &resp)
			if !resp.OK || resp.Result.Error != "" {
				t.Errorf("%s: the example %s does not run: %s", name, ex, resp.Result.Error)
			}
		}
		for tool, excs := range c.Exceptions {
			for _, e := range excs {
				if strings.TrimSpace(e) == "" {
					t.Errorf("%s: %s has an empty exception", name, tool)
				}
			}
		}
	}
}

func jsonText(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
