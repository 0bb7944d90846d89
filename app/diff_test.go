package app

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDiffDB(t *testing.T) {
	type ch struct{ Key, Kind, Old, New string }
	cases := []struct {
		name          string
		before, after string
		want          []ch
	}{
		{"same", `{"1": {"a": 1}}`, `{"1":{"a":1}}`, nil},
		{"object row added", `{"1": 1}`, `{"1": 1, "2": 2}`, []ch{{"2", RowAdded, "", "2"}}},
		{"object row removed and changed", `{"1": 1, "2": 2}`, `{"1": 5}`, []ch{{"1", RowChanged, "1", "5"}, {"2", RowRemoved, "2", ""}}},
		{"list row removed from the middle", `[1, 2, 3]`, `[1, 3]`, []ch{{"#1", RowRemoved, "2", ""}}},
		{"list row added", `[1]`, `[1, {"x": 1}]`, []ch{{"#1", RowAdded, "", `{"x": 1}`}}},
		{"list duplicates count", `[1, 1]`, `[1]`, []ch{{"#1", RowRemoved, "1", ""}}},
		{"shape changed", `[1]`, `{"a": 1}`, []ch{{"", RowChanged, "[1]", `{"a": 1}`}}},
	}
	for _, c := range cases {
		var got []ch
		for _, r := range DiffDB(json.RawMessage(c.before), json.RawMessage(c.after)) {
			got = append(got, ch{r.Key, r.Kind, string(r.Old), string(r.New)})
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: DiffDB = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDiffWorld(t *testing.T) {
	var before, after OrderedObject
	_ = json.Unmarshal([]byte(`{"Alarm": {"1": 1}, "Bank": [1], "Gone": {}}`), &before)
	_ = json.Unmarshal([]byte(`{"Alarm": {"1": 1, "2": 2}, "Bank": [1]}`), &after)
	names, changes := DiffWorld(before, after)
	if !reflect.DeepEqual(names, []string{"Alarm", "Gone"}) || len(changes["Alarm"]) != 1 || changes["Alarm"][0].Kind != RowAdded {
		t.Errorf("DiffWorld = %v %v", names, changes)
	}
}

func TestComplete(t *testing.T) {
	tools := []ToolDoc{
		{Name: "AddAlarm", Params: []ParamDoc{{Name: "token"}, {Name: "time"}}},
		{Name: "AddAgenda", Params: []ParamDoc{{Name: "token"}, {Name: "content"}, {Name: "time"}}},
		{Name: "QueryAlarm"},
	}
	type sg struct {
		Label, Insert string
		From          int
	}
	cases := []struct {
		text string
		want []sg
	}{
		{"[AddA", []sg{{"AddAlarm", "AddAlarm(", 1}, {"AddAgenda", "AddAgenda(", 1}}},
		{"adda", []sg{{"AddAlarm", "[AddAlarm(", 0}, {"AddAgenda", "[AddAgenda(", 0}}},
		{"[Query", []sg{{"QueryAlarm", "QueryAlarm(", 1}}},
		{"[AddAlarm(", []sg{{"token=", "token='", 10}, {"time=", "time='", 10}}},
		{"[AddAlarm(token='x', t", []sg{{"time=", "time='", 21}}},
		{"[AddAlarm(token='x, t", nil}, // inside a value
		{"[AddAlarm(token='x')]", nil}, // the call is closed
		{"[Nope(", nil},                // unknown tool
		{`{"name": "AddA`, nil},        // native JSON
		{"", nil},
	}
	for _, c := range cases {
		var got []sg
		for _, s := range Complete(c.text, len(c.text), tools) {
			got = append(got, sg{s.Label, s.Insert, s.From})
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Complete(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	if got := Complete("[AddA and more", 5, tools); len(got) != 2 {
		t.Errorf("only the text before the caret counts: %v", got)
	}
}

func TestByteOffset(t *testing.T) {
	cases := []struct {
		s     string
		units int
		want  int
	}{
		{"abc", 0, 0}, {"abc", 2, 2}, {"abc", 9, 3}, {"é[A", 2, 3}, {"😀[A", 3, 5},
	}
	for _, c := range cases {
		if got := ByteOffset(c.s, c.units); got != c.want {
			t.Errorf("ByteOffset(%q, %d) = %d, want %d", c.s, c.units, got, c.want)
		}
		if got := utf16Len(c.s[:ByteOffset(c.s, c.units)]); c.units <= utf16Len(c.s) && got != c.units {
			t.Errorf("utf16Len round trip of %q at %d = %d", c.s, c.units, got)
		}
	}
}
