package app

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/synth"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// TestSynthPage renders the Synthesize page before and after a synthesis against the fake
// generator: the form and our prompt, then the funnel rows and a rejection per failed candidate.
func TestSynthPage(t *testing.T) {
	useNative(t)
	html := mount(t, &SynthPage{})
	for _, w := range []string{`data-testid="synth-style"`, `data-testid="synth-tools"`, `data-testid="synth-start"`, "Candidate 1 of 10.", "Style simple"} {
		if !strings.Contains(html, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	g := &fakemodel.Generator{}
	srv, err := fakemodel.Start(fakemodel.Script{Key: testKey, Generator: g})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := RunSettings{Preset: "custom", BaseURL: srv.URL(), Model: "fake-model", Retries: 1}
	const n = 12
	if err := synthesis.start(synth.Config{Style: protocol.StyleSimple, Count: n}, s.Endpoint(testKey)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for synthesis.view().Running {
		if time.Now().After(deadline) {
			t.Fatal("the synthesis did not end in 60 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	v := synthesis.view()
	if v.Err != "" || v.Out == nil {
		t.Fatalf("synthesis failed: %s", v.Err)
	}
	html = mount(t, &SynthPage{})
	if strings.Contains(html, testKey) {
		t.Fatal("the key is on the page")
	}
	rejected := strings.Count(html, `data-testid="synth-rejection"`)
	if rejected != n-v.Out.Funnel.Accepted || v.Out.Funnel.Accepted == 0 {
		t.Fatalf("%d rejections shown for %d accepted of %d", rejected, v.Out.Funnel.Accepted, n)
	}
	for _, st := range v.Out.Funnel.Stages {
		tag := regexp.MustCompile(`<tr[^>]*data-stage="` + st.Stage + `"[^>]*>`).FindString(html)
		for _, attr := range []string{fmt.Sprintf(`data-entered="%d"`, st.Entered), fmt.Sprintf(`data-passed="%d"`, st.Passed), fmt.Sprintf(`data-failed="%d"`, st.Failed)} {
			if !strings.Contains(tag, attr) {
				t.Errorf("funnel row %q lacks %s", tag, attr)
			}
		}
	}
	for _, w := range []string{`data-testid="synth-load"`, `data-testid="synth-download-zip"`, "is never closed", "does not answer a request for a joke"} {
		if !strings.Contains(html, w) {
			t.Errorf("the result lacks %q", w)
		}
	}
}
