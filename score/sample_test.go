package score

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/value"
)

func TestSamplesNumbering(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string // id:kind:gold, space-separated
		err   bool
	}{
		{"one call", []string{user, api, ai}, "0:call:1 1:reply:2", false},
		{"adjacent calls", []string{user, api, api, ai}, "0:call:1 1:call:2 2:call:2 3:reply:3", false},
		{"user after a call", []string{user, api, user, api, ai}, "0:call:1 1:skip:2 2:call:3 3:reply:4", false},
		{"call ends the dialogue", []string{user, api}, "0:call:1", true},
		{"no call", []string{user, ai}, "", false},
		{"special case", []string{`{"role":"Meta","special":"missing_value","line":3}`, user, ai, user, api, ai}, "0:call:3 1:reply:4 2:special:1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := dialogue(t, dataset.Level1, "x.jsonl", strings.Join(tt.lines, "\n"))
			ss, err := Samples(d)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			var got []string
			for _, s := range ss {
				got = append(got, strings.Join([]string{itoa(s.ID), s.Kind, itoa(s.Gold)}, ":"))
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("samples = %q, want %q", g, tt.want)
			}
		})
	}
}

func itoa(n int) string { return value.Repr(int64(n)) }
