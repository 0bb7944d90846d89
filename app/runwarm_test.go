package app

import (
	"context"
	"testing"
)

// TestWarmRun: the warm-up goes through the whole run path (both forms, plain and streamed, a
// level-3 episode, the saved run's encoding) against the canned endpoint without a failure, and
// gives the page its turns along the way.
func TestWarmRun(t *testing.T) {
	useNative(t)
	turns := 0
	if err := warmRun(context.Background(), func() { turns++ }); err != nil {
		t.Fatal(err)
	}
	if turns < 3 {
		t.Errorf("the warm-up yielded %d times; it should give the page a turn between its steps", turns)
	}
}
