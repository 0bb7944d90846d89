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
