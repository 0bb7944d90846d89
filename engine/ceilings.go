package engine

import (
	"encoding/json"

	"github.com/apibank-playground/apibank/call"
	"github.com/apibank-playground/apibank/score"
)

//go:generate go test -run TestBuiltinCeilingsFresh . -args -update

// ceilingName names a gold replay of the builtin data in builtinCeilings: "state level form".
func ceilingName(mode score.Mode, level string, native bool) string {
	form := call.Text
	if native {
		form = call.Native
	}
	return string(mode) + " " + level + " " + string(form)
}

// builtinCeiling gives the builtin data's gold replay computed at build time (builtinCeilings, which
// TestBuiltinCeilingsFresh keeps equal to what the index computes): a report's ceiling then costs a
// lookup, not a replay of a whole level. ok is false for a name the table lacks (the index computes
// it).
func builtinCeiling(mode score.Mode, level string, native bool) (score.Replayed, bool) {
	var r score.Replayed
	raw, ok := builtinCeilings[ceilingName(mode, level, native)]
	if !ok || json.Unmarshal([]byte(raw), &r) != nil {
		return score.Replayed{}, false
	}
	return r, true
}
