package app

import (
	"encoding/json"
	"testing"

	"github.com/apibank-playground/apibank/run"
)

// TestEncodeRunWritesWhatMarshalWrites checks that a saved run encoded in steps is byte for byte
// what json.Marshal writes, for real runs (every level, both forms) and for the edge shapes: no
// responses, no batch, nil lists, lists longer than a step.
func TestEncodeRunWritesWhatMarshalWrites(t *testing.T) {
	useNative(t)
	UseRuns(NewMemoryRunStore(), NewKeyVault())
	srv := startFake(t)
	text := fakeRun(t, srv, run.Text, Levels)
	native := fakeRun(t, srv, run.Native, Levels[:1])
	long := *text
	long.Predictions = nil
	for len(long.Predictions) < 3*encodeStep+7 {
		long.Predictions = append(long.Predictions, text.Predictions...)
	}
	trial := *native
	trial.Group, trial.Trial = "group-1", 2
	batch := *native
	batch.Source = runSourceBatch
	bare := *native
	bare.Responses, bare.Batch, bare.Episodes, bare.Failures = nil, nil, nil, nil
	cases := []struct {
		name string
		r    *SavedRun
	}{
		{"text form, every level", text},
		{"native form, level 1", native},
		{"lists longer than a step", &long},
		{"no responses, batch, episodes or failures", &bare},
		{"a trial of a group (members after the lists)", &trial},
		{"a run scored from a batch file (a member after the lists)", &batch},
		{"a fresh run", NewSavedRun(text.Settings, "builtin", "abc")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := json.Marshal(c.r)
			if err != nil {
				t.Fatal(err)
			}
			steps := 0
			got, err := encodeRun(c.r, func() { steps++ })
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("in steps:\n%.800s\njson.Marshal:\n%.800s", got, want)
			}
			if n := len(c.r.Predictions); n > encodeStep && steps < n/encodeStep {
				t.Errorf("%d predictions encoded with %d yields", n, steps)
			}
		})
	}
}
