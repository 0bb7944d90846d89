package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestRunsLead: the Runs page says in plain words in which order it lists the runs.
func TestRunsLead(t *testing.T) {
	html := app.HTMLString(&RunsPage{})
	if want := "The model runs kept in this browser (IndexedDB), newest first. "; !strings.Contains(html, want) {
		t.Errorf("the Runs page's lead lacks %q:\n%.2000s", want, html)
	}
	if strings.Contains(html, "best first by nothing") {
		t.Error("the Runs page's lead still says the runs are ordered best first by nothing")
	}
}

// TestSortRuns: runs are listed newest first, and runs started in the same second (a robustness
// run's passes) in the order they were made, newest first, whatever order the store gave them.
func TestSortRuns(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   []*SavedRun
		want []string
	}{
		{"by start", []*SavedRun{{ID: "run-a", Started: "2026-12-07T10:00:00Z"}, {ID: "run-b", Started: "2026-12-07T11:00:00Z"}}, []string{"run-b", "run-a"}},
		{"one second, by when made", []*SavedRun{
			{ID: "run-20261207T100000.002Z", Started: "2026-12-07T10:00:00Z"},
			{ID: "run-20261207T100000.000Z", Started: "2026-12-07T10:00:00Z"},
			{ID: "run-20261207T100000.003Z", Started: "2026-12-07T10:00:00Z"},
			{ID: "run-20261207T100000.001Z", Started: "2026-12-07T10:00:00Z"},
		}, []string{"run-20261207T100000.003Z", "run-20261207T100000.002Z", "run-20261207T100000.001Z", "run-20261207T100000.000Z"}},
	} {
		sortRuns(tt.in)
		var got []string
		for _, r := range tt.in {
			got = append(got, r.ID)
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
