package model_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// fakeClock waits no real time: it records each wait and moves its own time on.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newClock() *fakeClock { return &fakeClock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

func (c *fakeClock) waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// start serves the script on 127.0.0.1 for the test's duration.
func start(t *testing.T, s fakemodel.Script) *fakemodel.Server {
	t.Helper()
	srv, err := fakemodel.Start(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// settingsFor are settings reaching srv with a test key.
func settingsFor(srv *fakemodel.Server) model.Settings {
	return model.Settings{BaseURL: srv.URL(), APIKey: testKey, Model: "fake-model"}
}

// testKey is a key the tests look for wherever it must not be.
const testKey = "sk-test-9f8e7d6c5b4a-SECRET"

// zeroJitter draws the smallest jitter, so that backoff delays are exact.
func zeroJitter() float64 { return 0 }

func user(text string) []model.Message { return []model.Message{{Role: model.RoleUser, Content: text}} }
