package score

import (
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

// TestCeilingPreset: Ceiling takes a preset replay where the preset has one and computes the others;
// GoldReplay always computes, whatever the preset says.
func TestCeilingPreset(t *testing.T) {
	d, err := dataset.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	computed := NewIndex(d).GoldReplay(Replay, dataset.Level2, false)
	if computed.Total == 0 {
		t.Fatal("the builtin data's level 2 replays no gold call")
	}
	marker := Replayed{Level: dataset.Level1, Form: "text", Total: -1}
	ix := NewIndex(d)
	asked := 0
	ix.Preset(func(mode Mode, level string, native bool) (Replayed, bool) {
		asked++
		return marker, mode == Replay && level == dataset.Level1 && !native
	})
	for _, tc := range []struct {
		name  string
		got   func() Replayed
		total int
	}{
		{"preset", func() Replayed { return ix.Ceiling(Replay, dataset.Level1, false) }, -1},
		{"preset again (kept)", func() Replayed { return ix.Ceiling(Replay, dataset.Level1, false) }, -1},
		{"not preset: computed", func() Replayed { return ix.Ceiling(Replay, dataset.Level2, false) }, computed.Total},
		{"explicit replay ignores the preset", func() Replayed { return ix.GoldReplay(Replay, dataset.Level1, false) }, NewIndex(d).GoldReplay(Replay, dataset.Level1, false).Total},
	} {
		if got := tc.got(); got.Total != tc.total {
			t.Errorf("%s: total %d, want %d", tc.name, got.Total, tc.total)
		}
	}
	if asked != 2 {
		t.Errorf("the preset was asked %d times, want 2 (once per replay Ceiling did not have)", asked)
	}
}
