package run

import (
	"context"
	"errors"
	"sync"

	"github.com/apibank-playground/apibank/model"
)

// unusableToStop is how many of a run's first requests must reach no endpoint at all
// (model.Error.Unreached: no answer, and not for want of time), with none getting an answer, before
// the run stops asking: two requests, each tried five times over some fifteen seconds. Anything else
// (a rate limit, a server error, a timeout, a refusal) is an answer, each failing fast or worth its
// retries; a refused key fails every sample within seconds and is said by each.
const unusableToStop = 2

// NotAsked is the error of a task a run did not ask because its first requests reached no endpoint
// (see unusableToStop): a wrong address, a server not started, a host the page may not call.
// Asking on would have cost every sample its attempts' backoff, minutes to hours for nothing; the
// task fails at once instead, and is retried as any failed request is.
type NotAsked struct {
	// Why is why the run stopped asking, with the first unreached request's error.
	Why string
}

// NotAskedPrefix begins the message of a task not asked, before why (NotAsked.Why): a page that
// shows why once takes it off.
const NotAskedPrefix = "not asked: "

// Error says that the task was not asked, and why.
func (e *NotAsked) Error() string { return NotAskedPrefix + e.Why }

// endpointWatch is a run's chat that stops asking once its first requests find the endpoint
// unusable (see unusableToStop). An endpoint that answered once is never given up: a run against it
// goes on through failures, each with its own attempts.
type endpointWatch struct {
	chat      Chat
	mu        sync.Mutex
	answered  bool   // a request got an answer
	unreached int    // requests that reached no endpoint
	stop      string // why the run stops asking; "" while it asks
}

// Chat asks w's chat, or fails at once with NotAsked once the run stops asking.
func (w *endpointWatch) Chat(ctx context.Context, r model.Request) (model.Response, error) {
	if why := w.stopped(); why != "" {
		return model.Response{}, &NotAsked{Why: why}
	}
	resp, err := w.chat.Chat(ctx, r)
	var me *model.Error
	switch {
	case err == nil:
		w.note(nil)
	case errors.As(err, &me) && me.Host != "": // a request was made
		w.note(me)
	}
	return resp, err
}

// note counts a request by its error: me nil or reached an endpoint, or me reached none.
func (w *endpointWatch) note(me *model.Error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if me == nil || !me.Unreached() {
		w.answered = true
		return
	}
	w.unreached++
	if w.unreached >= unusableToStop && !w.answered && w.stop == "" {
		w.stop = "the endpoint was not reached (" + me.Error() + ")"
	}
}

// stopped is why the run stopped asking, or "".
func (w *endpointWatch) stopped() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stop
}
