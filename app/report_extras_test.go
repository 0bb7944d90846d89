package app

import (
	"reflect"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

func TestDuplicates(t *testing.T) {
	vs := []protocol.Verdict{
		{File: "a", ID: 0, Line: 1}, {File: "a", ID: 1, Line: 2}, {File: "b", ID: 0, Line: 3},
		{File: "a", ID: 0, Line: 4}, {File: "a", ID: 0, Line: 5}, {Level: "x", File: "a", ID: 0, Line: 6},
	}
	want := map[int]int{4: 1, 5: 1}
	if got := Duplicates(vs); !reflect.DeepEqual(got, want) {
		t.Errorf("Duplicates = %v, want %v", got, want)
	}
}

func TestReportCells(t *testing.T) {
	cases := []struct {
		t           protocol.Tally
		rouge, accu string
	}{
		{protocol.Tally{}, "—", "—"},
		{protocol.Tally{Calls: 2, Correct: 1, Accuracy: 0.5, Replies: 1, RougeL: 0}, "0.0000", "50.0%"},
	}
	for _, c := range cases {
		if r, a := rougeOrDash(c.t), accuracyOrDash(c.t); r != c.rouge || a != c.accu {
			t.Errorf("%+v: %q %q, want %q %q", c.t, r, a, c.rouge, c.accu)
		}
	}
	if got := callTools([]protocol.Tally{{Name: "(no call)", Special: 3}, {Name: "AddAlarm", Calls: 1}}); len(got) != 1 || got[0].Name != "AddAlarm" {
		t.Errorf("callTools = %+v", got)
	}
	for c, want := range map[string]string{"CORRECT": "good", "NO_API_CALL": "none", "API_NAME_MISMATCH": "bad"} {
		if got := categoryClass(c); got != want {
			t.Errorf("categoryClass(%s) = %s, want %s", c, got, want)
		}
	}
}
