package dataset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestCallSetsAndStyles: parallel API turns join the set of the API turn before them, and each set
// has APIGen's style from its calls and the tools the prompt offers.
func TestCallSetsAndStyles(t *testing.T) {
	user := `{"role":"User","text":"q"}`
	ai := `{"role":"AI","text":"a"}`
	call := func(tool string, parallel bool) string {
		p := ""
		if parallel {
			p = `"parallel":true,`
		}
		return fmt.Sprintf(`{"role":"API","api_name":%q,"param_dict":{},%s"result":{"api_name":%q,"input":{},"output":null,"exception":null}}`, tool, p, tool)
	}
	tests := []struct {
		name   string
		level  string
		lines  []string
		sets   string // turn indexes per set
		styles string
	}{
		{"one tool, one call", Level1, []string{user, call("A", false), ai}, "[[1]]", protocol.StyleSimple},
		{"two tools, one call each", Level1, []string{user, call("A", false), ai, call("B", false), ai}, "[[1] [3]]", "multiple multiple"},
		{"one tool twice at once", Level1, []string{user, call("A", false), call("A", true), ai}, "[[1 2]]", protocol.StyleParallel},
		{"two tools at once, then one", Level1, []string{user, call("A", false), call("B", true), ai, call("A", false), ai}, "[[1 2] [4]]", "parallel-multiple multiple"},
		{"consecutive calls without the mark are two sets", Level1, []string{user, call("A", false), call("A", false), ai}, "[[1] [2]]", "simple simple"},
		{"level 2: one call is a choice among many", Level2, []string{user, call("A", false), ai}, "[[1]]", protocol.StyleMultiple},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, errs := ParseDialogue(tt.level, "d.jsonl", []byte(strings.Join(tt.lines, "\n")))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			sets := d.CallSets()
			var styles []string
			for _, s := range sets {
				styles = append(styles, d.Style(s))
			}
			if got := fmt.Sprint(sets); got != tt.sets {
				t.Errorf("sets %s, want %s", got, tt.sets)
			}
			if got := strings.Join(styles, " "); got != tt.styles {
				t.Errorf("styles %s, want %s", got, tt.styles)
			}
		})
	}
}

// TestStatsCountsStylesAndKinds: the builtin data has every style and every special kind.
func TestStatsCountsStylesAndKinds(t *testing.T) {
	d, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	st := Stats(d)
	for _, s := range protocol.Styles {
		if st.Styles[s] == 0 {
			t.Errorf("no %s call turn: %v", s, st.Styles)
		}
	}
	for _, k := range protocol.Specials {
		if st.Specials[k] == 0 {
			t.Errorf("no %s special case: %v", k, st.Specials)
		}
	}
	sum := 0
	for _, n := range st.Specials {
		sum += n
	}
	if sum != st.SpecialCases {
		t.Errorf("special kinds sum to %d, special cases %d", sum, st.SpecialCases)
	}
}
