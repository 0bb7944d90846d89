package app

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/run"
)

// runWarm is set once the run path has been warmed up in this tab (warmRunPath).
var runWarm atomic.Bool

// warmRunPath runs the model-run path once in idle time, against a canned endpoint inside the tab
// (nothing is sent anywhere, nothing is kept): one level-1 sample in the text form with a plain
// answer, one sample and one level-3 episode in the native form with a streamed answer, then the
// finished run encoded as it is saved. The browser compiles app.wasm's functions when they first
// run, and on a fresh tab the first real run paid that compilation as a main-thread task of 50-75
// ms; warmed, it is paid here, in steps between which the page has its turns.
func warmRunPath(ctx goapp.Context) {
	if tab.Engine == nil || !runWarm.CompareAndSwap(false, true) {
		return
	}
	ctx.Async(func() {
		nextTask()
		_ = warmRun(context.Background(), nextTask)
	})
}

// warmRun is warmRunPath's work: both forms, plain and streamed, through the real client and
// run loop over a canned transport.
func warmRun(ctx context.Context, yield func()) error {
	if tab.Engine == nil {
		return errors.New("warm-up: the engine is not running")
	}
	var last *run.Result
	for _, c := range []struct {
		cfg    run.Config
		stream bool
	}{
		{run.Config{Form: run.Text, Levels: []string{Levels[0]}, Limit: 1, Concurrency: 1}, false},
		{run.Config{Form: run.Native, Levels: []string{Levels[0], run.Level3}, Limit: 1, Concurrency: 1, Steps: 2}, true},
	} {
		client := model.New(model.Settings{BaseURL: "https://warm-up.invalid/v1", Model: "warm-up", Stream: c.stream, Retries: -1},
			model.WithTransport(cannedEndpoint{}))
		res, err := run.Run(ctx, tab.Engine.Do, client, c.cfg, run.Options{Yield: yield})
		if err != nil {
			return err
		}
		if len(res.Failures) > 0 {
			return errors.New("warm-up: " + res.Failures[0].Message)
		}
		if len(res.Predictions) == 0 || res.Batch == nil {
			return errors.New("warm-up: nothing was judged")
		}
		last = res
		yield()
	}
	saved := NewSavedRun(RunSettings{Model: "warm-up", Form: run.Native, Levels: []string{Levels[0], run.Level3}}, "warm-up", "")
	saved.Apply(last)
	_, err := encodeRun(saved, yield)
	return err
}

// cannedEndpoint answers every chat request of the warm-up inside the tab: a text call as plain
// JSON, or a native call as server-sent events when a stream is asked.
type cannedEndpoint struct{}

const (
	cannedPlain = `{"id":"warm","object":"chat.completion","model":"warm-up","choices":[{"index":0,"message":{"role":"assistant","content":"[GetToday()]"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`
	cannedSSE   = "data: {\"id\":\"warm\",\"object\":\"chat.completion.chunk\",\"model\":\"warm-up\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_0\",\"type\":\"function\",\"function\":{\"name\":\"GetToday\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"warm\",\"object\":\"chat.completion.chunk\",\"model\":\"warm-up\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}\n\n" +
		"data: [DONE]\n\n"
)

func (cannedEndpoint) Send(_ context.Context, r *model.HTTPRequest) (*model.HTTPResponse, error) {
	body := cannedPlain
	for _, h := range r.Header {
		if strings.EqualFold(h.Name, "Accept") && h.Value == "text/event-stream" {
			body = cannedSSE
		}
	}
	return &model.HTTPResponse{Status: 200, Header: noHeaders{}, Body: io.NopCloser(strings.NewReader(body))}, nil
}

// noHeaders is a canned answer's headers: none.
type noHeaders struct{}

func (noHeaders) Get(string) string { return "" }
