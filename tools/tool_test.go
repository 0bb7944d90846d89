package tools

import (
	"reflect"
	"testing"
)

// TestCatalogByName: every name a dataset or a request uses for a level finds its catalog, and no
// other name finds one.
func TestCatalogByName(t *testing.T) {
	tests := []struct {
		name string
		want *Catalog
	}{
		{"", APIs}, {"apis", APIs}, {"lv1", APIs}, {"lv2", APIs}, {"level-1-given-desc", APIs}, {"level-2-toolsearcher", APIs},
		{"lv3_apis", LV3}, {"lv3", LV3}, {"level-3", LV3},
		{"APIs", nil}, {"level-4", nil}, {"lv3 ", nil},
	}
	for _, tt := range tests {
		got, ok := CatalogByName(tt.name)
		if got != tt.want || ok != (tt.want != nil) {
			t.Errorf("CatalogByName(%q) = %v, %v; want %v", tt.name, got, ok, tt.want)
		}
	}
}

// TestCatalogLookup: names are exact and case-sensitive, each catalog holds its own tools (the
// ToolSearcher in both), and Tools lists them sorted by name.
func TestCatalogLookup(t *testing.T) {
	tests := []struct {
		cat  *Catalog
		name string
		ok   bool
	}{
		{APIs, "AddAlarm", true}, {APIs, "addalarm", false}, {APIs, "AddAlarm ", false},
		{APIs, "ToolSearcher", true}, {LV3, "ToolSearcher", true},
		{LV3, "GetWeatherForCoordinates", true}, {APIs, "GetWeatherForCoordinates", false},
		{LV3, "AddAlarm", false},
	}
	for _, tt := range tests {
		tool, ok := tt.cat.Lookup(tt.name)
		if ok != tt.ok || (ok && tool.Name != tt.name) {
			t.Errorf("%s.Lookup(%q) = %v, %v; want found %v", tt.cat.Name, tt.name, tool, ok, tt.ok)
		}
	}
	for _, c := range []*Catalog{APIs, LV3} {
		ts := c.Tools()
		for i := 1; i < len(ts); i++ {
			if ts[i-1].Name >= ts[i].Name {
				t.Errorf("%s.Tools() not sorted: %s before %s", c.Name, ts[i-1].Name, ts[i].Name)
			}
		}
	}
}

// TestToolParams: Param finds a declared parameter by exact name, TakesToken tells a tool with a
// token input, and the call order is Order when given, else the declaration order.
func TestToolParams(t *testing.T) {
	declared := []Param{{Name: "token", Type: "str", Required: true}, {Name: "time", Type: "str"}}
	tests := []struct {
		name  string
		tool  *Tool
		order []string
		token bool
	}{
		{"declaration order", &Tool{Params: declared}, []string{"token", "time"}, true},
		{"given order", &Tool{Params: declared, Order: []string{"time", "token"}}, []string{"time", "token"}, true},
		{"no token", &Tool{Params: []Param{{Name: "formula", Type: "str"}}}, []string{"formula"}, false},
		{"no params", &Tool{}, []string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tool.order(); !reflect.DeepEqual(got, tt.order) {
				t.Errorf("order() = %v, want %v", got, tt.order)
			}
			if got := tt.tool.TakesToken(); got != tt.token {
				t.Errorf("TakesToken() = %v, want %v", got, tt.token)
			}
			for _, p := range tt.tool.Params {
				if got, ok := tt.tool.Param(p.Name); !ok || got != p {
					t.Errorf("Param(%q) = %+v, %v", p.Name, got, ok)
				}
			}
			if _, ok := tt.tool.Param("Token"); ok {
				t.Error("Param found a name that differs in case")
			}
		})
	}
}
