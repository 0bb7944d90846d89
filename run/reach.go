package run

import (
	"context"
	"errors"
	"sync"

	"github.com/apibank-playground/apibank/model"
)

// unreachedToStop is how many of a run's first requests must end without reaching the endpoint
// (each after all its attempts, see model.Error.Unreached), with none reaching it, before the run
// stops asking: two requests tried five times each over some fifteen seconds.
const unreachedToStop = 2

// NotAsked is the error of a task a run did not ask because the endpoint was not reached: its
// first requests all got no HTTP answer, after every attempt (a wrong address, a server not
// started, a host the page may not call). Asking on would have cost every sample its attempts'
// backoff, minutes to hours for nothing; the task fails at once instead, and is retried as any
// failed request is.
type NotAsked struct {
	// Why is the first unreached request's error.
	Why string
}

// Error says that the task was not asked, and why.
func (e *NotAsked) Error() string {
	return "not asked: the endpoint was not reached (" + e.Why + ")"
}

// reachWatch is a run's chat that stops asking once the endpoint is found unreachable (see
// unreachedToStop). An endpoint that answered once is never given up: a run against it goes on
// through failures, each with its own attempts.
type reachWatch struct {
	chat      Chat
	mu        sync.Mutex
	answered  bool   // a request got an HTTP answer
	unreached int    // requests that got none, not for want of time
	gone      string // the first unreached request's error once the run stops asking; "" before
}

// Chat asks w's chat, or fails at once with NotAsked once the endpoint is found unreachable.
func (w *reachWatch) Chat(ctx context.Context, r model.Request) (model.Response, error) {
	if why := w.stopped(); why != "" {
		return model.Response{}, &NotAsked{Why: why}
	}
	resp, err := w.chat.Chat(ctx, r)
	var me *model.Error
	switch {
	case err == nil:
		w.note(true, nil)
	case errors.As(err, &me) && me.Host != "": // a request was made
		w.note(!me.Unreached(), me)
	}
	return resp, err
}

// note counts a request that reached the endpoint or not (me, its error).
func (w *reachWatch) note(reached bool, me *model.Error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if reached {
		w.answered = true
		return
	}
	w.unreached++
	if w.unreached >= unreachedToStop && !w.answered && w.gone == "" {
		w.gone = me.Error()
	}
}

// stopped is why the run stopped asking, or "".
func (w *reachWatch) stopped() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.gone
}
