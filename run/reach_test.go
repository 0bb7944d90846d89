package run

import (
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// counted is a Chat that counts the requests it passes on: the first calls go to first, the
// others to rest.
type counted struct {
	first, rest Chat
	firstCalls  int64
	n           atomic.Int64
}

func (c *counted) Chat(ctx context.Context, r model.Request) (model.Response, error) {
	if c.n.Add(1) <= c.firstCalls {
		return c.first.Chat(ctx, r)
	}
	return c.rest.Chat(ctx, r)
}

// refusedURL is the address of a port nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

func TestUnreachedEndpointStopsTheRun(t *testing.T) {
	script, _ := goldScript(t)
	answering, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer answering.Close()
	failing, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{{Fault: &fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: 503, Message: "overloaded"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer failing.Close()
	client := func(url string) Chat { return model.New(model.Settings{BaseURL: url, Model: "m", Retries: -1}) }
	refused := client(refusedURL(t))
	const limit = 6
	for _, tc := range []struct {
		name string
		chat *counted
		// asked is how many requests reach the chat; stopped whether the run stops asking.
		asked   int64
		stopped bool
	}{
		{"nothing listens: the first two are asked, the rest fail at once", &counted{rest: refused}, unreachedToStop, true},
		{"an endpoint that answers errors is asked every sample", &counted{rest: client(failing.URL())}, limit, false},
		{"an endpoint that answered once is asked on after it goes", &counted{first: client(answering.URL()), firstCalls: 1, rest: refused}, limit, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), native(), tc.chat, Config{Levels: []string{"level-1-given-desc"}, Limit: limit, Concurrency: 1}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.chat.n.Load(); got != tc.asked {
				t.Errorf("%d requests reached the endpoint's client, want %d", got, tc.asked)
			}
			if (res.Unreached != "") != tc.stopped {
				t.Errorf("Unreached %q, want the run stopped: %v", res.Unreached, tc.stopped)
			}
			if got := len(res.Failures) + len(res.Predictions); got != limit && tc.stopped {
				t.Errorf("%d failures and %d predictions: every sample is judged or failed", len(res.Failures), len(res.Predictions))
			}
			notAsked := 0
			for _, f := range res.Failures {
				if f.NotAsked {
					notAsked++
					if f.Status != 0 || !strings.HasPrefix(f.Message, "not asked: the endpoint was not reached") || !strings.Contains(f.Message, "connection refused") {
						t.Errorf("a task not asked: %+v", f)
					}
				}
			}
			if want := limit - int(tc.asked); notAsked != want {
				t.Errorf("%d tasks not asked, want %d", notAsked, want)
			}
		})
	}
}

func TestNotAskedIsAFailure(t *testing.T) {
	f := failure(Task{Level: "level-1-given-desc", File: "f.jsonl"}, &NotAsked{Why: "model: no answer from h"})
	if !f.NotAsked || f.Status != 0 || f.Message != "not asked: the endpoint was not reached (model: no answer from h)" {
		t.Fatalf("%+v", f)
	}
}
