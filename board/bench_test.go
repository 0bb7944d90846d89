package board_test

import (
	"context"
	"testing"

	"github.com/apibank-playground/apibank/board"
	"github.com/apibank-playground/apibank/run"
	"github.com/apibank-playground/apibank/testkit/boardtest"
)

// BenchmarkRescoreFullRun judges a whole run of every level (the perfect model's, native form) in
// a fresh in-process engine session, as the Worker does for a submission.
func BenchmarkRescoreFullRun(b *testing.B) {
	sub := boardtest.Run(b, run.Native)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := board.Rescore(context.Background(), boardtest.Engine(), sub); err != nil {
			b.Fatal(err)
		}
	}
}
