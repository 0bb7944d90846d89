package goldmodel

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apibank-playground/apibank/engine"
	"github.com/apibank-playground/apibank/protocol"
)

// GoldCall is the gold call of a call sample of the builtin data, or of its variant seed names (0:
// the builtin data itself), in the text form, as an engine of its own shows it: what a student who
// answers their own variant right writes.
func GoldCall(seed int64, level, file string, id int) (string, error) {
	s := engine.New()
	do := func(_ context.Context, req []byte) ([]byte, error) { return s.Handle(req), nil }
	if seed != 0 {
		if _, err := protocol.Call[protocol.Loaded](context.Background(), do, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed}); err != nil {
			return "", err
		}
	}
	line, _ := json.Marshal(map[string]any{"level": level, "file": file, "id": id, "pred": ""})
	b, err := protocol.Call[protocol.Batch](context.Background(), do, protocol.Request{Op: protocol.OpScore, Preds: string(line), Gold: true})
	if err != nil {
		return "", err
	}
	if len(b.Results) != 1 || b.Results[0].Call().GoldCall == "" {
		return "", fmt.Errorf("%s %s #%d (seed %d) has no gold call: %+v", level, file, id, seed, b)
	}
	return b.Results[0].Call().GoldCall, nil
}
