package app

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

func TestFilterURLRoundTrip(t *testing.T) {
	cases := []struct {
		f    Filter
		want string
	}{
		{Filter{}, "/dataset"},
		{Filter{Level: "level-1-given-desc"}, "/dataset?level=level-1-given-desc"},
		{Filter{Tool: "AddAlarm", Special: "none", Text: "wake me"}, "/dataset?q=wake+me&special=none&tool=AddAlarm"},
	}
	for _, c := range cases {
		if got := c.f.URL(); got != c.want {
			t.Errorf("%+v.URL() = %q, want %q", c.f, got, c.want)
		}
		if back := FilterOf(c.f.Query()); back != c.f {
			t.Errorf("FilterOf(%+v.Query()) = %+v", c.f, back)
		}
	}
}

func TestOptionValue(t *testing.T) {
	for _, v := range []string{"", "level-3", "none"} {
		got := optionValue(v)
		if got == "" {
			t.Errorf("optionValue(%q) is empty: the browser would submit the label", v)
		}
		if v != "" && got != v {
			t.Errorf("optionValue(%q) = %q", v, got)
		}
	}
}

func TestMissingSample(t *testing.T) {
	ss := []protocol.SampleView{{ID: 0, Kind: "call"}, {ID: 1, Kind: "reply"}, {ID: 2, Kind: "special"}}
	cases := []struct {
		asked   string
		samples []protocol.SampleView
		want    []string
	}{
		{"9", ss, []string{`no sample "9"`, "0 (call), 1 (reply), 2 (special)", "shows sample 0"}},
		{"x", ss, []string{`no sample "x"`}},
		{"0", nil, []string{"no samples at all"}},
	}
	for _, c := range cases {
		got := missingSample(c.asked, "F.jsonl", c.samples)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("missingSample(%q) = %q, want it to say %q", c.asked, got, w)
			}
		}
	}
}

func TestSampleLabel(t *testing.T) {
	cases := []struct {
		s    protocol.SampleView
		want string
	}{
		{protocol.SampleView{ID: 0, Kind: "call", Tool: "AddAlarm"}, "#0 call · AddAlarm"},
		{protocol.SampleView{ID: 1, Kind: "reply"}, "#1 reply"},
		{protocol.SampleView{ID: 4, Kind: "special"}, "#4 special · reply, do not call"},
	}
	for _, c := range cases {
		if got := sampleLabel(c.s); got != c.want {
			t.Errorf("sampleLabel(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}
