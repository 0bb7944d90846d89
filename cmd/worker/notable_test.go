package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

// notable passes an access line when its request failed or the memory it says is a new high, and
// every handler derived from it shares that high.
func TestNotable(t *testing.T) {
	var out bytes.Buffer
	logger := keepNotable(slog.New(slog.NewJSONHandler(&out, nil)))
	derived := logger.With("host", "workerd") // a WithAttrs handler: the same high
	tests := []struct {
		logger *slog.Logger
		status int
		sys    uint64
		kept   bool
	}{
		{logger, 200, 10 << 20, true},  // the first: a new high
		{logger, 200, 10 << 20, false}, // the same memory
		{logger, 404, 8 << 20, false},  // less memory, a client's error
		{logger, 503, 8 << 20, true},   // a failure, whatever the memory
		{logger, 500, 0, true},         // a failure with no memory figure
		{derived, 200, 12 << 20, true}, // a new high, through a derived handler
		{logger, 200, 11 << 20, false}, // under the high the derived handler set
		{derived, 429, 13 << 20, true}, // a refusal, but a new high
		{logger, 200, 13 << 20, false}, // equal to the high
	}
	for i, tc := range tests {
		out.Reset()
		tc.logger.LogAttrs(context.Background(), slog.LevelInfo, "request", slog.Int("status", tc.status), slog.Uint64("sys_bytes", tc.sys))
		if kept := out.Len() > 0; kept != tc.kept {
			t.Errorf("line %d (status %d, %d bytes): kept %v, want %v", i+1, tc.status, tc.sys, kept, tc.kept)
		}
		if tc.kept {
			var rec struct {
				Status int
				Sys    uint64 `json:"sys_bytes"`
			}
			if err := json.Unmarshal(out.Bytes(), &rec); err != nil || rec.Status != tc.status || rec.Sys != tc.sys {
				t.Errorf("line %d passed as %s (err %v)", i+1, strings.TrimSpace(out.String()), err)
			}
		}
	}
	if logger.Enabled(context.Background(), slog.LevelDebug) || !logger.Enabled(context.Background(), slog.LevelInfo) {
		t.Error("notable does not take the wrapped handler's levels")
	}
}
