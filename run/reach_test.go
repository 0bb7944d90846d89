package run

import (
	"context"
	"net"
	"strconv"
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

// status is a fake endpoint that answers every request with status.
func status(t *testing.T, status int) Chat {
	t.Helper()
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{{Fault: &fakemodel.Fault{Kind: fakemodel.FaultStatus, Status: status, Message: "scripted " + strconv.Itoa(status)}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return model.New(model.Settings{BaseURL: srv.URL(), Model: "m", Retries: -1})
}

func TestUnusableEndpointStopsTheRun(t *testing.T) {
	script, _ := goldScript(t)
	answering, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer answering.Close()
	refused := model.New(model.Settings{BaseURL: refusedURL(t), Model: "m", Retries: -1})
	const limit = 6
	for _, tc := range []struct {
		name string
		chat *counted
		// asked is how many requests reach the chat; why, in why the run stopped asking ("": it
		// asked every sample).
		asked int64
		why   string
	}{
		{"nothing listens: the first two are asked, the rest fail at once", &counted{rest: refused}, unusableToStop, "the endpoint was not reached (model: no answer from 127.0.0.1"},
		{"a key refused fails each sample fast, said by each", &counted{rest: status(t, 401)}, limit, ""},
		{"so does a model or an address that is not there", &counted{rest: status(t, 404)}, limit, ""},
		{"an endpoint that answers server errors is asked every sample", &counted{rest: status(t, 503)}, limit, ""},
		{"a prompt refused is the sample's", &counted{rest: status(t, 400)}, limit, ""},
		{"an endpoint that answered once is asked on after it goes", &counted{first: model.New(model.Settings{BaseURL: answering.URL(), Model: "m"}), firstCalls: 1, rest: refused}, limit, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), native(), tc.chat, Config{Levels: []string{"level-1-given-desc"}, Limit: limit, Concurrency: 1}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.chat.n.Load(); got != tc.asked {
				t.Errorf("%d requests reached the endpoint's client, want %d", got, tc.asked)
			}
			if tc.why == "" && res.StoppedAsking != "" || !strings.Contains(res.StoppedAsking, tc.why) {
				t.Errorf("StoppedAsking %q, want one holding %q", res.StoppedAsking, tc.why)
			}
			if got := len(res.Failures) + len(res.Predictions); tc.why != "" && got != limit {
				t.Errorf("%d failures and %d predictions: every sample is judged or failed", len(res.Failures), len(res.Predictions))
			}
			notAsked := 0
			for _, f := range res.Failures {
				if f.NotAsked {
					notAsked++
					if f.Status != 0 || f.Message != "not asked: "+res.StoppedAsking {
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
	f := failure(Task{Level: "level-1-given-desc", File: "f.jsonl"}, &NotAsked{Why: "the endpoint was not reached (model: no answer from h)"})
	if !f.NotAsked || f.Status != 0 || f.Message != "not asked: the endpoint was not reached (model: no answer from h)" {
		t.Fatalf("%+v", f)
	}
}
