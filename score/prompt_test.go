package score

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
)

// TestSchema: a tool's function-calling schema gives each declared parameter type its JSON Schema
// type (a list of texts with its items), lists the required parameters (an empty list when none),
// and Schemas of no tools is null.
func TestSchema(t *testing.T) {
	tests := []struct {
		name   string
		params []tools.Param
		props  string // the "properties" object
		req    string // the "required" list
	}{
		{"no parameters", nil, `{}`, `[]`},
		{"int and float", []tools.Param{{Name: "n", Type: "int", Description: "count", Required: true}, {Name: "x", Type: "float"}},
			`{"n":{"type":"integer","description":"count"},"x":{"type":"number","description":""}}`, `["n"]`},
		{"bool and lists", []tools.Param{{Name: "on", Type: "bool", Required: true}, {Name: "l", Type: "list"}, {Name: "names", Type: "list(str)", Required: true}},
			`{"on":{"type":"boolean","description":""},"l":{"type":"array","description":""},"names":{"type":"array","items":{"type":"string"},"description":""}}`, `["on","names"]`},
		{"texts and the undeclared", []tools.Param{{Name: "s", Type: "str"}, {Name: "u", Type: ""}},
			`{"s":{"type":"string","description":""},"u":{"type":"string","description":""}}`, `[]`},
	}
	for _, tt := range tests {
		tool := &tools.Tool{Name: "T", Description: "does T", Params: tt.params}
		want := `[{"type":"function","function":{"name":"T","description":"does T","parameters":{"type":"object","properties":` + tt.props + `,"required":` + tt.req + `}}}]`
		if got := string(Schemas([]*tools.Tool{tool})); got != want {
			t.Errorf("%s: Schemas = %s\nwant %s", tt.name, got, want)
		}
	}
	if got := string(Schemas(nil)); got != "null" {
		t.Errorf("Schemas(nil) = %s, want null", got)
	}
}

// TestBuildPrompt: a call sample's prompt shows the conversation before the call and asks for one
// call (on the original's data) or the next step, with a reply allowed (on repaired data); a reply
// sample's shows the call and its answer and asks for a message; the native messages carry the same
// history and the tools offered at level 1 are the ones the dialogue uses.
func TestBuildPrompt(t *testing.T) {
	tests := []struct {
		name     string
		id       int
		repaired bool
		expect   string
		gold     string // "" for the gold call set's text form
		has      []string
		hasNot   []string
		end      string
		roles    string
	}{
		{"call, original's data", 0, false, KindCall, "", []string{"Answer with the single tool call", "User: hi\n"},
			[]string{"several independent calls", "API: "}, "\nThe AI's next tool call:\n", "system user"},
		{"call, repaired data", 0, true, KindCall, "", []string{"write them in one list", "answer instead with the AI's message"},
			nil, "\nThe AI's next step:\n", "system user"},
		{"reply", 1, false, KindReply, "ok", []string{"Answer with the AI's next message", "User: hi\nAPI: ", " Response: 2023-03-31\n"},
			[]string{"tool call the AI makes"}, "\nThe AI's next message:\n", "system user assistant tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := dialogue(t, dataset.Level1, "p.jsonl", strings.Join([]string{user, api, ai}, "\n"))
			d.Repaired = tt.repaired
			ss, err := Samples(d)
			if err != nil || len(ss) != 2 {
				t.Fatalf("samples %v, %v", ss, err)
			}
			sm := ss[tt.id]
			p := BuildPrompt(sm)
			gold := tt.gold
			if gold == "" {
				gold = GoldSetPrediction(sm)
			}
			if p.Expect != tt.expect || p.Gold != gold {
				t.Errorf("expect %q gold %q, want %q %q", p.Expect, p.Gold, tt.expect, gold)
			}
			for _, s := range tt.has {
				if !strings.Contains(p.Text, s) {
					t.Errorf("the prompt lacks %q:\n%s", s, p.Text)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(p.Text, s) {
					t.Errorf("the prompt has %q:\n%s", s, p.Text)
				}
			}
			if !strings.HasSuffix(p.Text, tt.end) {
				t.Errorf("the prompt does not end with %q:\n%s", tt.end, p.Text)
			}
			var msgs []struct{ Role string }
			if err := json.Unmarshal(p.Messages, &msgs); err != nil {
				t.Fatal(err)
			}
			var roles []string
			for _, m := range msgs {
				roles = append(roles, m.Role)
			}
			if got := strings.Join(roles, " "); got != tt.roles {
				t.Errorf("native roles %q, want %q", got, tt.roles)
			}
			var offered []struct{ Function struct{ Name string } }
			if err := json.Unmarshal(p.Tools, &offered); err != nil || len(offered) != 1 || offered[0].Function.Name != "GetToday" {
				t.Errorf("tools offered %s (%v), want GetToday alone", p.Tools, err)
			}
		})
	}
}
