package run

import (
	"context"
	"errors"
	"sync"

	"github.com/apibank-playground/apibank/model"
)

// unusableToStop is how many of a run's first requests must find the endpoint unusable (see
// unusable), with none getting an answer, before the run stops asking: two requests, each tried five
// times over some fifteen seconds.
const unusableToStop = 2

// unusable says why a request's error shows its endpoint unusable for the whole run, or "": nothing
// was reached (model.Error.Unreached), which no other sample would change. Anything else (a rate
// limit, a server error, a timeout, a refusal) is an answer, each failing fast or worth its retries;
// a refused key fails every sample within seconds and is said by each.
func unusable(me *model.Error) string {
	if me.Unreached() {
		return "the endpoint was not reached"
	}
	return ""
}

// NotAsked is the error of a task a run did not ask because its first requests found the endpoint
// unusable (see unusable): a wrong address, a server not started, a host the page may not call.
// Asking on would have cost every sample its attempts' backoff, minutes to hours for nothing; the
// task fails at once instead, and is retried as any failed request is.
type NotAsked struct {
	// Why is why the run stopped asking, with the first unusable request's error.
	Why string
}

// Error says that the task was not asked, and why.
func (e *NotAsked) Error() string { return "not asked: " + e.Why }

// endpointWatch is a run's chat that stops asking once its first requests find the endpoint
// unusable (see unusableToStop). An endpoint that answered once is never given up: a run against it
// goes on through failures, each with its own attempts.
type endpointWatch struct {
	chat     Chat
	mu       sync.Mutex
	answered bool   // a request got an answer
	unusable int    // requests that found the endpoint unusable
	stop     string // why the run stops asking; "" while it asks
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
		w.note("", nil)
	case errors.As(err, &me) && me.Host != "": // a request was made
		w.note(unusable(me), me)
	}
	return resp, err
}

// note counts a request whose endpoint was unusable (why) or not ("").
func (w *endpointWatch) note(why string, me *model.Error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if why == "" {
		w.answered = true
		return
	}
	w.unusable++
	if w.unusable >= unusableToStop && !w.answered && w.stop == "" {
		w.stop = why + " (" + me.Error() + ")"
	}
}

// stopped is why the run stopped asking, or "".
func (w *endpointWatch) stopped() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stop
}
